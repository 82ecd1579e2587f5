# SPDX-License-Identifier: MIT
# PGN TimeControl values: every kind of field, the `=`/S/B extensions, refusals, round trips.
from clock.model import ADD, BRONSTEIN, DELAY, FISCHER, FISCHER_AFTER, FLAG, NEXT, SET, SOFT
from clock.model import Control, Setup, Stage
from notation import pgn
import refusals


def both(*stages):
    return Setup(Control(list(stages)))


def refused(text, position, words):
    return refusals.refused(pgn.parse, text, position, words)


def cannot(value, words):
    return refusals.cannot(pgn.format, value, "PGN", words)


# The six kinds of field in the standard.


def test_unknown_is_refused():
    refused("?", 0, "unknown")


def test_hyphen_is_untimed():
    assert pgn.parse("-") == Setup(Control([]))
    assert pgn.parse("-").first.untimed()


def test_moves_in_seconds_repeats():
    setup = pgn.parse("40/9000")
    assert setup == both(Stage(9000000, moves=40))
    stage = setup.first.stages[0]
    # 40 moves in 2 h 30 min; the single (last) period adds 2 h 30 min after every 40 moves.
    assert (stage.duration_ms, stage.moves, stage.on_repeat, stage.on_expire) == (
        9000000,
        40,
        ADD,
        FLAG,
    )


def test_sudden_death():
    assert pgn.parse("300") == both(Stage(300000))
    assert pgn.parse("300").first.stages[0].moves == 0


def test_fischer_increment_is_added_after_the_move():
    stage = pgn.parse("4500+60").first.stages[0]
    assert stage == Stage(4500000, increment_ms=60000, mode=FISCHER_AFTER)
    assert stage.mode == FISCHER_AFTER and stage.increment_ms == 60000


def test_sandclock_is_the_sand_of_both_chambers():
    # PGN 9.6.1: "*180" is 180 s in all, half of the sand on each side at the start.
    setup = pgn.parse("*180")
    assert setup == Setup(Control([Stage(90000)]), hourglass=True)
    assert setup.hourglass
    assert pgn.parse("*0.002").first.stages[0].duration_ms == 1


def test_increment_only_starts_with_the_increment_or_3_seconds():
    # "0+N", as lichess writes it: each side starts with N seconds, at least 3.
    assert pgn.parse("0+5") == both(Stage(5000, increment_ms=5000))
    assert pgn.parse("0+1") == both(Stage(3000, increment_ms=1000))
    assert pgn.parse("0+0.5") == both(Stage(3000, increment_ms=500))
    assert pgn.parse("40/0+30:600") == both(
        Stage(30000, moves=40, increment_ms=30000), Stage(600000)
    )


# Several periods: the last one repeats.


def test_two_hours_then_one_hour_for_the_rest():
    assert pgn.parse("40/7200:3600") == both(Stage(7200000, moves=40), Stage(3600000))


def test_second_period_repeats_every_20_moves():
    setup = pgn.parse("40/7200:20/3600")
    assert setup == both(Stage(7200000, moves=40), Stage(3600000, moves=20))
    assert setup.first.stages[1].on_repeat == ADD


def test_fide_classical():
    assert pgn.parse("40/5400+30:1800+30") == both(
        Stage(5400000, moves=40, increment_ms=30000),
        Stage(1800000, increment_ms=30000),
    )


def test_moves_with_increment():
    assert pgn.parse("40/7200+30") == both(Stage(7200000, moves=40, increment_ms=30000))


def test_zero_seconds_later_period_with_increment():
    # Nocheto's example: 30 moves in 5 min, then 30 s a move for the rest of the game.
    setup = pgn.parse("30/300:0+30=30/600:0+20")
    assert setup.first == Control([Stage(300000, moves=30), Stage(0, increment_ms=30000)])
    assert setup.second == Control([Stage(600000, moves=30), Stage(0, increment_ms=20000)])


# Extensions.


def test_simple_delay_and_bronstein():
    assert pgn.parse("300S5") == both(Stage(300000, increment_ms=5000, mode=DELAY))
    assert pgn.parse("300B5") == both(Stage(300000, increment_ms=5000, mode=BRONSTEIN))
    assert pgn.parse("300+0S5") == pgn.parse("300S5")
    assert pgn.parse("300+0B5") == pgn.parse("300B5")


def test_players_with_different_controls():
    setup = pgn.parse("300+2=180+2")
    assert setup.first == Control([Stage(300000, increment_ms=2000)])
    assert setup.second == Control([Stage(180000, increment_ms=2000)])
    assert pgn.parse("300=300") == pgn.parse("300")
    assert pgn.parse("-=300").first.untimed()


def test_sandclock_for_each_player():
    setup = pgn.parse("*300=*120")
    assert setup == Setup(Control([Stage(150000)]), Control([Stage(60000)]), hourglass=True)


def test_whole_tag():
    assert pgn.parse('[TimeControl "40/7200:3600"]') == pgn.parse("40/7200:3600")
    assert pgn.parse(' [ TimeControl  "300+2" ] ') == pgn.parse("300+2")


def test_fractions_of_seconds_are_exact():
    stage = pgn.parse("60.5+0.25").first.stages[0]
    assert (stage.duration_ms, stage.increment_ms) == (60500, 250)
    assert pgn.parse("0.001+1").first.stages[0].duration_ms == 1


# Refusals: where and why.


def test_refusals():
    refused("", 0, "expected a time control")
    refused("abc", 0, 'found "a"')
    refused("300:40/60", 0, "must be the last")
    refused("40/7200:300:60", 8, "must be the last")
    refused("*180:60", 4, "only period")
    refused("300+1S5", 5, "both an increment and a delay")
    refused("40/7200+30:3600S5", 11, "same kind of increment")
    refused("0", None, "no time to play")
    refused("0+0", None, "no time to play")
    refused("0=300", None, "no time to play")
    refused("*0", None, "no time to play")
    refused("*0.001", 1, "halve into whole milliseconds")
    refused("0S5", 0, "more than 0 seconds")
    refused("0B5", 0, "more than 0 seconds")
    refused("40/0:300", 0, "more than 0 seconds")
    refused("0/60", 0, "at least 1")
    refused("/60", 0, "a number of moves")
    refused("40/", 3, "a number of seconds")
    refused("300+", 4, "the increment")
    refused("300S", 4, "the delay")
    refused("300s5", 3, "end of the time control")
    refused("300 +2", 4, "end of the time control")
    refused("*180=300", 4, "sandclock")
    refused("300=*180", 3, "sandclock")
    refused("300=", 4, "expected a time control")
    refused("300=?", 4, "unknown")
    refused("1.2345", 0, "whole number of milliseconds")
    refused("1.5000", 0, "more than 3 decimals")
    refused("1.", 2, "digits after the decimal point")
    refused("99999999999", 0, "too large")
    refused("999999", 0, "more than the clock can hold")
    refused("200000/60", 0, "move quota")
    refused("1/1:" * 8 + "1/1", 0, "at most 8 stages")
    refused('[TimeControl "300"', 18, '"]" closing the tag')
    refused('[TimeControl "300]', 17, "closing the tag value")
    refused('[Event "300"]', 1, "TimeControl")
    refused("[TimeControl 300]", 13, "a quote opening")


def test_error_shows_the_text_and_names_the_notation():
    error = refused("40/7200:x", 8, "a number of seconds")
    assert error.notation == "pgn"
    assert str(error).startswith('pgn preset "40/7200:x", at character 9: ')


# format: the canonical text, and what PGN cannot say.


def test_format_canonical():
    cases = (
        ("-", "-"),
        ("300", "300"),
        ("40/9000", "40/9000"),
        ("4500+60", "4500+60"),
        ("*180", "*180"),
        ("*0.5", "*0.5"),
        ("0+2", "3+2"),
        ("40/7200:3600", "40/7200:3600"),
        ("40/7200:20/3600", "40/7200:20/3600"),
        ("300+0S5", "300S5"),
        ("300B5", "300B5"),
        ("300+0", "300"),
        ("300+2=180+2", "300+2=180+2"),
        ("300+2=300+2", "300+2"),
        ("*300=*120", "*300=*120"),
        ("60.500+0.25", "60.5+0.25"),
        ('[TimeControl "300"]', "300"),
    )
    for text, canonical in cases:
        assert pgn.format(pgn.parse(text)) == canonical, text


def test_format_refusals():
    plain = Control([Stage(300000)])
    cannot(Setup(plain, word=True), "Word")
    cannot(Setup(plain, start_ms=5000), "start clock")
    cannot(Setup(plain, limit_turns=60), "game limit")
    cannot(Setup(Control([Stage(300000)], max_ms=600000)), "maximum time")
    cannot(Setup(Control([Stage(300000)], move_limit_ms=60000)), "move time limit")
    cannot(Setup(Control([Stage(300000)], move_ms=30000)), "Arimaa")
    cannot(both(Stage(30000, moves=1, periods=5, on_enter=SET, on_repeat=SET)), "byo-yomi")
    cannot(both(Stage(60000, moves=40), Stage(60000, on_enter=SET)), "replaces")
    cannot(both(Stage(60000, on_expire=NEXT), Stage(60000)), "soft time-out")
    cannot(both(Stage(60000, on_expire=SOFT), Stage(60000)), "soft time-out")
    cannot(both(Stage(60000, increment_ms=1000, mode=FISCHER)), "before the move")
    cannot(both(Stage(60000, increment_ms=1000, mode=BRONSTEIN, increment_every=2)), "several")
    cannot(
        both(Stage(60000, moves=40, increment_ms=1000), Stage(60000, increment_ms=1, mode=DELAY)),
        "different kinds",
    )
    cannot(both(Stage(60000), Stage(60000)), "followed by another")
    cannot(both(Stage(0, increment_ms=1000)), "0 seconds")
    cannot(Setup(Control([Stage(60000, moves=40)]), hourglass=True), "sandclock")
    cannot(Setup(Control([]), hourglass=True), "sandclock")
    cannot(Setup(Control([Stage(0)]), hourglass=True), "0 seconds")


def test_format_players_differ():
    setup = Setup(Control([Stage(300000)]), Control([]))
    assert pgn.format(setup) == "300=-"
    assert pgn.parse("300=-") == setup


def test_round_trips():
    samples = (
        "-",
        "300",
        "40/9000",
        "4500+60",
        "*180",
        "40/7200:3600",
        "40/7200:20/3600",
        "40/5400+30:1800+30",
        "300S5",
        "300B5",
        "30/300:0+30=30/600:0+20",
        "60.125+0.5",
        "1/1:2/2:3/3:4/4:5/5:6/6:7/7:8",
    )
    for text in samples:
        setup = pgn.parse(text)
        assert pgn.parse(pgn.format(setup)) == setup, text
        assert pgn.format(setup) == text, text


def test_looks_like():
    for text in ("40/7200:3600", "*180", "-", "?", '[TimeControl "300+2"]', "300S5", "300B5"):
        assert pgn.looks_like(text), text
    assert pgn.looks_like("300+2=180+2") and pgn.looks_like("-=300")
    for text in ("tc=40/60", "TM[300]", "time_settings 1 2 3", "", "5x30 byo-yomi", None):
        assert not pgn.looks_like(text), text
    # Without a prefix these are a player's minutes (chessclock): PGN needs "pgn:" or the tag.
    for text in ("300+2", "5+3", "300", "40/7200", "40/5400+30"):
        assert not pgn.looks_like(text), text
