# SPDX-License-Identifier: MIT
# The Arimaa notation M/R/P/L/G/T: the seed's examples, units, defaults, refusals, round trip.
from clock.model import FISCHER_AFTER, Control, Setup, Stage
from notation import arimaa, registry
from notation.errors import PresetError
import refusals

from support import raises

MIN = 60000
HOUR = 3600000


def arimaa_setup(move, reserve, percent=100, limit=0, game_ms=0, turns=0, move_limit=0):
    control = Control(
        [Stage(reserve)],
        move_ms=move,
        reserve_percent=percent,
        reserve_limit_ms=limit,
        move_limit_ms=move_limit,
    )
    return Setup(control, limit_ms=game_ms, limit_turns=turns)


def refused(text, position, words):
    return refusals.refused(arimaa.parse, text, position, words)


def cannot(value, words):
    return refusals.cannot(arimaa.format, value, "Arimaa", words)


# The seed's examples.


def test_sudden_death_30_minutes():
    result = arimaa.parse("0/30")
    assert result == arimaa_setup(0, 1800000)
    control = result.first
    assert control.move_ms == 0 and control.reserve_percent == 100
    assert control.reserve_limit_ms == 0 and control.move_limit_ms == 0
    assert result.limit_ms == 0 and result.limit_turns == 0
    assert result.second == control


def test_five_seconds_per_move():
    result = arimaa.parse("5s/10")
    assert result == arimaa_setup(5000, 600000)
    (stage,) = result.first.stages
    assert (stage.duration_ms, stage.moves, stage.increment_ms) == (600000, 0, 0)


def test_half_of_unused_move_time():
    assert arimaa.parse("1/5/50") == arimaa_setup(60000, 300000, 50)


def test_reserve_limit():
    assert arimaa.parse("2/10/100/5") == arimaa_setup(120000, 600000, 100, 300000)


def test_game_stopped_after_4_hours():
    result = arimaa.parse("2/10/100/5/4")
    assert result == arimaa_setup(2 * MIN, 10 * MIN, 100, 5 * MIN, 14400000)
    assert result.limit_ms == 4 * HOUR and result.limit_turns == 0


def test_game_stopped_after_120_turns():
    result = arimaa.parse("2/10/100/5/120t")
    assert result == arimaa_setup(2 * MIN, 10 * MIN, 100, 5 * MIN, 0, 120)
    assert result.limit_ms == 0 and result.limit_turns == 120


def test_move_limit_3_minutes():
    result = arimaa.parse("2/10/100/5/120t/3")
    assert result == arimaa_setup(2 * MIN, 10 * MIN, 100, 5 * MIN, 0, 120, 180000)
    assert result.first.move_limit_ms == 180000


# Units, defaults, spacing.


def test_units_in_every_time_field():
    result = arimaa.parse("1m30s/1h30m10s/75/2h/1h30/45s")
    assert result == arimaa_setup(90000, 5410000, 75, 7200000, 5400000, 0, 45000)
    assert arimaa.parse("30s/1h30").first.stages[0].duration_ms == 5400000
    assert arimaa.parse("0/30/100/0/90m").limit_ms == 5400000
    assert arimaa.parse("0/30/100/0/30s").limit_ms == 30000


def test_defaults_written_out_are_the_same():
    assert arimaa.parse("0/30/100/0/0/0") == arimaa.parse("0/30")
    assert arimaa.parse("0/30/100/0/0t") == arimaa.parse("0/30")


def test_percent_bounds():
    assert arimaa.parse("1/5/0").first.reserve_percent == 0
    assert arimaa.parse("1/5/100").first.reserve_percent == 100


def test_spaces_around_the_text():
    assert arimaa.parse("  1/5/50 ") == arimaa_setup(60000, 300000, 50)


def test_game_setting_from_the_seed_is_not_notation():
    # The seed's setup-minute radio button is a setting, not part of the text.
    refused("0/30 setup", 5, '"/" and the next field, or the end')


# The official forms: minutes:seconds, hours:minutes for G, and days.


def test_minutes_and_seconds_as_the_official_controls_write_them():
    assert arimaa.parse("1:30/5") == arimaa_setup(90000, 5 * MIN)
    assert arimaa.parse("30s/1:30") == arimaa_setup(30000, 90000)
    assert arimaa.parse("0:15/0:45/100/2:00/0/1:05") == arimaa_setup(
        15000, 45000, 100, 2 * MIN, 0, 0, 65000
    )
    assert arimaa.parse("120:00/0") == arimaa_setup(2 * HOUR, 0)


def test_the_game_limit_in_hours_and_minutes():
    assert arimaa.parse("30s/10s/100/0/1:30").limit_ms == HOUR + 30 * MIN
    assert arimaa.parse("0/30/100/0/0:45").limit_ms == 45 * MIN
    # As AEI reads it, hours:minutes:seconds as well.
    assert arimaa.parse("0/30/100/0/1:30:15").limit_ms == HOUR + 30 * MIN + 15000


def test_days():
    DAY = 24 * HOUR
    assert arimaa.parse("1d/2d") == arimaa_setup(DAY, 2 * DAY)
    assert arimaa.parse("0/1d12h").first.stages[0].duration_ms == DAY + 12 * HOUR
    assert arimaa.parse("0/1d30s").first.stages[0].duration_ms == DAY + 30000
    assert arimaa.parse("0/1d1h30").first.stages[0].duration_ms == DAY + HOUR + 30 * MIN
    assert arimaa.parse("0/30/100/0/2d").limit_ms == 2 * DAY
    assert arimaa.parse("0/30/100/1d").first.reserve_limit_ms == DAY


def test_plain_numbers_keep_their_units():
    # Minutes for M, R, L and T; hours for G: the official spec's and this notation's reading.
    assert arimaa.parse("2/10/100/5/4/3") == arimaa_setup(
        2 * MIN, 10 * MIN, 100, 5 * MIN, 4 * HOUR, 0, 3 * MIN
    )


def test_colon_and_day_refusals():
    refused("1:5/10", 2, "two digits after the colon")
    refused("1:/10", 2, "two digits after the colon")
    refused("1:60/10", 2, "the seconds must be below 60")
    refused("1:30:00/10", 4, "the end of the time (minutes:seconds at most)")
    refused("0/30/100/0/1:60", 13, "the minutes must be below 60")
    refused("0/30/100/0/1:00:00:00", 18, "hours:minutes:seconds at most")
    refused("0/30/100/0/1:00:60", 16, "the seconds must be below 60")
    refused("1:30.5/10", 4, '"/" and the reserve R')
    refused("1h:30/10", 2, '"/" and the reserve R')
    refused("0/1d12", 4, "a number needs its unit, as in 1d12h")
    refused("0/7d", 2, "more than the clock can hold")
    refused("0/6d6h", 2, "more than the clock can hold")
    refused("0/99999999:00", 2, "more than the clock can hold")
    refused("0/1234567890:00", 2, "too large")
    refused("0/1h1d", 5, '"/" and the next field, or the end')
    refused("0/1d1d", 4, "a number needs its unit")


def test_official_forms_are_detected_as_arimaa():
    for text in ("1:30/5", "30s/1:30", "30s/10s/100/0/1:30", "0/1:00", "1d/2d", "1:30/5m/50"):
        assert arimaa.looks_like(text), text
        assert registry.detect(text)[0] == "arimaa", text
    # Three fields with a colon and no unit letter have always been GGS.
    for text in ("2:00/12/0", "0/1:00/50", "1:30/5/50"):
        assert not arimaa.looks_like(text), text
        assert registry.detect(text)[0] == "ggs", text


# Refusals: invalid fields are errors, never defaults.


def test_missing_fields():
    refused("2", 1, '"/" and the reserve R')
    refused("2/", 2, "expected the reserve R")
    refused("", 0, "expected the move time M")
    refused("/10", 0, "expected the move time M")
    refused("2//5", 2, "expected the reserve R")
    refused("2/10/", 5, "expected the percentage P")
    refused("2/10//5", 5, "expected the percentage P")
    refused("2/10/100/", 9, "expected the reserve limit L")
    refused("2/10/100/5/", 11, "expected the game limit G")
    refused("2/10/100/5/4/", 13, "expected the move limit T")


def test_too_many_fields():
    refused("2/10/100/5/4/3/1", 14, "T is the last field")


def test_bad_percent():
    refused("2/10/101", 5, "at most 100, not 101")
    refused("2/10/50.5", 5, "whole number")
    refused("2/10/50%", 7, '"/" and the next field')
    refused("2/10/-5", 5, "expected the percentage P")


def test_bad_times():
    refused("1.5/10", 1, "decimal numbers are not allowed")
    refused("x/10", 0, "expected the move time M")
    refused("2/10x", 4, '"/" and the next field, or the end, found "x"')
    refused("2/1m1h", 5, "order h, m, s")
    refused("2/10s5", 5, "after the seconds has no unit")
    refused("2/10/100/5/99999", 11, "more than the clock can hold")
    refused("2/1234567890", 2, "too large")


def test_bad_game_limit():
    refused("2/10/100/5/120x", 14, '"/" and the next field')
    refused("2/10/100/5/t", 11, "expected the game limit G")
    refused("2/10/100/5/1ht", 13, '"/" and the next field')
    refused("2/10/100/5/200000t", 11, "at most 100000 turns")
    refused("2/10/100/5/12345678901t", 11, "at most 100000 turns")
    refused("2/10/100/5/120T", 14, '"/" and the next field')


def test_not_text():
    assert "must be text" in str(raises(PresetError, arimaa.parse, 30))


# Formatting.


def test_format_is_shortest_canonical():
    for text, canonical in (
        ("0/30", "0/30"),
        ("5s/10", "5s/10"),
        ("1/5/50", "1/5/50"),
        ("2/10/100/5", "2/10/100/5"),
        ("2/10/100/5/4", "2/10/100/5/4"),
        ("2/10/100/5/120t", "2/10/100/5/120t"),
        ("2/10/100/5/120t/3", "2/10/100/5/120t/3"),
        ("2/10/100", "2/10"),
        ("2/10/100/0/0/0", "2/10"),
        ("2/10/100/0/0t/3", "2/10/100/0/0/3"),
        ("90s/1h30", "1m30s/90"),
        ("1h/1h30m10s", "60/1h30m10s"),
        ("0/30/100/0/1h30", "0/30/100/0/1h30m"),
        ("0/30/100/0/30m", "0/30/100/0/30m"),
        ("0/30/100/0/120m", "0/30/100/0/2"),
        ("0/30/100/0/0/30s", "0/30/100/0/0/30s"),
    ):
        assert arimaa.format(arimaa.parse(text)) == canonical, text


def test_round_trip():
    for text in ("5s/10", "2/10/100/5/120t/3", "1m30s/1h30m10s/75/2h/1h30/45s", "0/0"):
        once = arimaa.parse(text)
        assert arimaa.parse(arimaa.format(once)) == once, text


def test_format_refusals():
    plain = Control([Stage(600000)], move_ms=60000)
    cannot(Setup(Control([Stage(600000)])), "without a move time M")
    cannot(Setup(plain, Control([Stage(300000)], move_ms=60000)), "different controls")
    cannot(Setup(plain, hourglass=True), "hourglass")
    cannot(Setup(plain, word=True), "word")
    cannot(Setup(plain, start_ms=60000), "a start clock")
    cannot(Setup(plain, limit_ms=HOUR, limit_turns=60), "both time and turns")
    cannot(Setup(Control([Stage(600000, moves=40)], move_ms=60000)), "other than one reserve")
    cannot(
        Setup(Control([Stage(600000, increment_ms=5000)], move_ms=60000)), "other than one reserve"
    )
    cannot(Setup(Control([Stage(600000, periods=3)], move_ms=60000)), "other than one reserve")
    cannot(Setup(Control([Stage(600000)], move_ms=60000, max_ms=HOUR)), "a maximum time")
    cannot(Setup(Control([Stage(600000)], move_ms=1500)), "finer than a second")
    cannot(Setup(Control([Stage(600500)], move_ms=1000)), "finer than a second")
    cannot(Setup(plain, limit_ms=1500), "finer than a second")
    cannot("0/30", "anything but a Setup")


def test_format_keeps_the_stage_default_mode():
    stage = Stage(600000, mode=FISCHER_AFTER)
    assert arimaa.format(Setup(Control([stage], move_ms=0))) == "0/10"


def test_looks_like():
    for text in ("0/30", "5s/10", "2/10/100/5", "2/10/100/5/120t/3", "0/30/50"):
        assert arimaa.looks_like(text), text
    # Two or three plain fields with a move time over 0 read as chess-clock phases.
    for text in ("40/60", "1/5/50", "G/30", "2:00,0/12/0", "", "2/10/101"):
        assert not arimaa.looks_like(text), text
    assert not arimaa.looks_like(None)
