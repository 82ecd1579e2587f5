# SPDX-License-Identifier: MIT
# cutechess-cli tc= and st= options: every form, refusals, canonical text, round trips.
from clock.model import ADD, BRONSTEIN, FISCHER, FISCHER_AFTER, FLAG, NEXT, SET
from clock.model import Control, Setup, Stage
from notation import cutechess
import refusals


def one(stage, hourglass=False):
    return Setup(Control([stage]), hourglass=hourglass)


def refused(text, position, words):
    return refusals.refused(cutechess.parse, text, position, words)


def cannot(value, words):
    return refusals.cannot(cutechess.format, value, "cutechess-cli", words)


def test_moves_time_increment():
    # 40 moves in 60 s, 0.5 s a move; cutechess starts the clock at 60.5 s (increment first).
    stage = cutechess.parse("tc=40/60+0.5").first.stages[0]
    assert stage == Stage(60000, moves=40, increment_ms=500, mode=FISCHER)
    assert (stage.duration_ms, stage.moves, stage.increment_ms, stage.mode) == (
        60000,
        40,
        500,
        FISCHER,
    )
    assert (stage.on_enter, stage.on_repeat, stage.on_expire) == (ADD, ADD, FLAG)


def test_tc_prefix_is_optional():
    assert cutechess.parse("40/60+0.5") == cutechess.parse("tc=40/60+0.5")


def test_minutes_and_seconds():
    # The manual's example: 40 moves in one minute and 30 seconds, 1 s increment.
    assert cutechess.parse("tc=40/1:30+1") == one(
        Stage(90000, moves=40, increment_ms=1000, mode=FISCHER)
    )
    assert cutechess.parse("tc=2:30.5").first.stages[0].duration_ms == 150500
    assert cutechess.parse("tc=1:90").first.stages[0].duration_ms == 150000


def test_sudden_death_and_zero_moves():
    assert cutechess.parse("tc=4") == one(Stage(4000))
    assert cutechess.parse("tc=180+2") == one(Stage(180000, increment_ms=2000, mode=FISCHER))
    assert cutechess.parse("tc=0/10+0.1") == cutechess.parse("tc=10+0.1")


def test_hourglass():
    assert cutechess.parse("tc=hg360") == one(Stage(360000), hourglass=True)
    assert cutechess.parse("tc=hg60+0") == one(Stage(60000), hourglass=True)
    assert cutechess.parse("tc=0/hg60").hourglass


def test_infinite():
    assert cutechess.parse("tc=inf") == Setup(Control([]))
    assert cutechess.parse("inf").first.untimed()


def test_time_per_move():
    stage = cutechess.parse("st=5").first.stages[0]
    assert stage == Stage(5000, moves=1, on_enter=SET, on_repeat=SET, on_expire=FLAG)
    assert cutechess.parse("st=0.25").first.stages[0].duration_ms == 250


def test_refusals():
    refused("", 0, "a time in seconds")
    refused("tc=", 3, "a time in seconds")
    refused("tc=0", None, "no time to play")
    refused("tc=0+5", 3, "more than 0 seconds")
    refused("st=0", None, "no time to play")
    refused("st=", 3, "the time per move")
    refused("st=5+1", 4, "the end of the preset")
    refused("tc=40/hg60", 3, "hourglass")
    refused("tc=hg60+1", 3, "hourglass")
    refused("tc=40/", 6, "a time in seconds")
    refused("tc=/60", 3, "a time in seconds")
    refused("tc=60+", 6, "the increment")
    refused("tc=60 x", 6, "the end of the time control")
    refused("tc=60x", 5, "the end of the time control")
    refused("TC=60", 0, "a time in seconds")
    refused("tc=1.5:30", 6, "the end of the time control")
    refused("tc=1:30:20", 7, "the end of the time control")
    refused("tc=1:", 5, "seconds after the colon")
    refused("tc=1.0001", 3, "whole number of milliseconds")
    refused("tc=1.2500", 3, "more than 3 decimals")
    refused("tc=200000/60", 3, "move quota")
    refused("tc=9999999", 3, "more than the clock can hold")
    refused("tc=infinite", 6, "the end of the preset")


def test_format_canonical():
    cases = (
        ("tc=40/60+0.5", "tc=40/60+0.5"),
        ("40/1:30+1", "tc=40/90+1"),
        ("tc=0/10+0.1", "tc=10+0.1"),
        ("tc=hg60+0", "tc=hg60"),
        ("tc=300+0", "tc=300"),
        ("inf", "tc=inf"),
        ("st=5", "st=5"),
        ("st=0.500", "st=0.5"),
    )
    for text, canonical in cases:
        assert cutechess.format(cutechess.parse(text)) == canonical, text


def test_format_refusals():
    plain = Control([Stage(60000)])
    cannot(Setup(plain, word=True), "Word")
    cannot(Setup(plain, limit_ms=60000), "game limit")
    cannot(Setup(plain, Control([Stage(30000)])), "different controls")
    cannot(Setup(Control([Stage(60000)], max_ms=1)), "maximum time")
    cannot(Setup(Control([]), hourglass=True), "untimed hourglass")
    cannot(Setup(Control([Stage(60000, moves=40), Stage(60000)])), "more than one stage")
    cannot(one(Stage(30000, moves=1, periods=3, on_enter=SET, on_repeat=SET)), "byo-yomi")
    cannot(one(Stage(30000, on_expire=NEXT)), "soft time-out")
    cannot(one(Stage(0, increment_ms=1000, mode=FISCHER)), "0 seconds")
    cannot(one(Stage(30000, moves=5, on_enter=SET, on_repeat=SET)), "fixed time per move")
    cannot(one(Stage(30000, moves=1, on_enter=SET, on_repeat=SET), hourglass=True), "fixed")
    cannot(one(Stage(30000, on_repeat=SET)), "replaces")
    cannot(one(Stage(60000, moves=40), hourglass=True), "hourglass with a move count")
    cannot(one(Stage(60000, increment_ms=1000, mode=FISCHER_AFTER)), "before every move")
    cannot(one(Stage(60000, increment_ms=1000, mode=BRONSTEIN)), "before every move")


def test_round_trips():
    for text in ("tc=40/60+0.5", "tc=hg360", "tc=inf", "st=5", "tc=10+0.1", "tc=7/0.125"):
        setup = cutechess.parse(text)
        assert cutechess.format(setup) == text, text
        assert cutechess.parse(cutechess.format(setup)) == setup, text


def test_looks_like():
    for text in ("tc=40/60+0.5", "st=5", " tc=inf", "inf"):
        assert cutechess.looks_like(text), text
    for text in ("40/60", "300+2", "TM[60]", "", None):
        assert not cutechess.looks_like(text), text
