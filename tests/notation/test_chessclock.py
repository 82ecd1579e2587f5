# SPDX-License-Identifier: MIT
# The chess-clock app notation M/T/I: every form, every refusal, and the round trip.
from clock.model import (
    ADD,
    BRONSTEIN,
    DELAY,
    FISCHER,
    FISCHER_AFTER,
    FLAG,
    SET,
    SOFT,
    Control,
    Setup,
    Stage,
)
from notation import chessclock
from notation.errors import PresetError
import refusals

from support import raises

MIN = 60000
SEC = 1000


def phase(duration_ms, moves=0, increment_ms=0, mode=FISCHER):
    return Stage(
        duration_ms,
        moves=moves,
        increment_ms=increment_ms,
        mode=mode,
        on_enter=ADD,
        on_repeat=ADD,
        on_expire=FLAG,
    )


def setup(*stages, **options):
    return Setup(Control(stages), **options)


def stages(text, **options):
    result = chessclock.parse(text, **options)
    assert result.first == result.second
    return result.first.stages


def refused(text, position, words, **options):
    return refusals.refused(chessclock.parse, text, position, words, **options)


def cannot(value, words):
    return refusals.cannot(chessclock.format, value, "chessclock", words)


# The seed's worked examples.


def test_game_in_30_minutes():
    assert chessclock.parse("G/30") == setup(phase(30 * MIN))
    (stage,) = stages("G/30")
    assert (stage.duration_ms, stage.moves, stage.increment_ms) == (1800000, 0, 0)
    assert (stage.on_enter, stage.on_repeat, stage.on_expire) == (ADD, ADD, FLAG)


def test_22_minutes_plus_12_seconds_fischer():
    (stage,) = stages("G/22/12")
    assert (stage.duration_ms, stage.moves, stage.increment_ms) == (1320000, 0, 12000)
    assert stage.mode == FISCHER and stage.increment_every == 1


def test_40_moves_in_60_minutes_repeating():
    assert chessclock.parse("40/60") == setup(phase(3600000, moves=40))


def test_40_in_60_then_20_in_10():
    assert stages("40/60, 20/10") == (phase(60 * MIN, 40), phase(10 * MIN, 20))


def test_40_in_60_then_rest_in_20():
    assert stages("40/60, G/20") == (phase(3600000, 40), phase(1200000, 0))


def test_20_in_30_with_10_seconds():
    assert stages("20/30/10") == (phase(1800000, 20, 10000),)


def test_fide_control():
    assert stages("40/90/30, G/30/30") == (
        phase(5400000, 40, 30000),
        phase(1800000, 0, 30000),
    )


def test_one_move_phases_with_seconds():
    assert stages("1/1/60, 1/10s/30") == (phase(60000, 1, 60000), phase(10000, 1, 30000))


def test_three_phases():
    assert stages("40/120, 20/60, G/30") == (
        phase(7200000, 40),
        phase(3600000, 20),
        phase(1800000, 0),
    )


# Times and spacing.


def test_time_units():
    for text, ms in (
        ("G/90", 5400000),
        ("G/1h30", 5400000),
        ("G/1h30m", 5400000),
        ("G/1h", 3600000),
        ("G/2m15s", 135000),
        ("G/2m15", 135000),
        ("G/10s", 10000),
        ("G/1h30m10s", 5410000),
        ("G/1h10s", 3610000),
        ("G/0", 0),
    ):
        assert stages(text)[0].duration_ms == ms, text


def test_increment_units():
    assert stages("G/5/3")[0].increment_ms == 3000
    assert stages("G/5/3s")[0].increment_ms == 3000
    assert stages("G/5/1m")[0].increment_ms == 60000
    assert stages("G/5/1m30s")[0].increment_ms == 90000
    assert stages("G/5/1m30")[0].increment_ms == 90000
    assert stages("G/5/0")[0].increment_ms == 0


def test_spaces_around_commas_and_text():
    expected = chessclock.parse("40/60, 20/10")
    for text in ("40/60,20/10", " 40/60 ,  20/10 ", "40/60\t,\t20/10"):
        assert chessclock.parse(text) == expected, text


# Modes and options.


def test_mode_words():
    assert stages("G/5/3 bronstein")[0].mode == BRONSTEIN
    assert stages("G/5/3 delay")[0].mode == DELAY
    assert stages("G/5/3 fischer-after")[0].mode == FISCHER_AFTER
    assert stages("G/5/3 fischer")[0].mode == FISCHER
    assert stages("40/90/30, G/30/30 bronstein") == (
        phase(5400000, 40, 30000, BRONSTEIN),
        phase(1800000, 0, 30000, BRONSTEIN),
    )


def test_mode_argument_wins_over_word():
    assert stages("G/5/3", mode="delay")[0].mode == DELAY
    assert stages("G/5/3 bronstein", mode="fischer-after")[0].mode == FISCHER_AFTER


def test_hourglass_and_word():
    result = chessclock.parse("G/30 hourglass word")
    assert result == setup(phase(1800000), hourglass=True, word=True)
    assert chessclock.parse("G/30", hourglass=True).hourglass
    assert not chessclock.parse("G/30", hourglass=True).word
    assert chessclock.parse("G/30", word=True).word
    assert chessclock.parse("G/30 word", hourglass=True) == setup(
        phase(1800000), hourglass=True, word=True
    )
    assert chessclock.parse("G/5/3 word  delay") == setup(phase(300000, 0, 3000, DELAY), word=True)


def test_unknown_mode_argument():
    error = raises(PresetError, chessclock.parse, "G/30", mode="blitz")
    assert error.position is None
    assert '"G/30"' in str(error) and "fischer-after" in str(error)


def test_option_errors():
    refused("G/30 blitz", 5, 'unknown option "blitz"')
    refused("G/30 blitz", 5, "fischer, fischer-after, bronstein, delay, hourglass, word")
    refused("G/30 word word", 10, "given twice")
    refused("G/30 delay bronstein", 11, "only one mode")
    refused("G/30 Word", 5, "unknown option")
    refused("G/30word", 4, 'expected a unit (h, min, s), ",", a space and an option word')
    refused("G/30 word, 20/10", 5, 'unknown option "word,"')


# Refusals.


def test_nothing_after_g():
    refused("G/30, 40/60", 4, "nothing may follow a G phase")


def test_zero_moves():
    refused("0/30", 0, "at least 1 move")


def test_missing_parts():
    refused("40/", 3, "expected a time")
    refused("G", 1, 'expected "/" after G, found the end of the text')
    refused("40/90/30,", 9, "expected a time (minutes, as in 5+3), a number of moves or G")
    refused("40/90/", 6, "expected an increment")
    refused("40/90+", 6, "expected an increment")
    refused("", 0, "expected a time (minutes, as in 5+3), a number of moves or G")
    refused("/30", 0, "expected a time (minutes, as in 5+3), a number of moves or G")


def test_bad_characters():
    refused("40/90/x", 6, 'expected an increment (seconds, or 1m, 1m30s), found "x"')
    refused("1h30x", 4, 'expected a unit (h, min, s), ",", a space and an option word')
    refused("G/1h30x", 6, 'found "x"')
    refused("g/30", 0, "expected a time (minutes, as in 5+3), a number of moves or G")
    refused("40 /60", 3, 'unknown option "/60"')
    refused("40/ 60", 3, "expected a time")


def test_four_phases():
    refused("40/120, 20/60, 20/30, G/15", 20, "at most 3 phases")


def test_unit_errors():
    refused("G/1m1h", 5, "order h, m, s")
    refused("G/1h2h", 5, "order h, m, s")
    refused("G/10s5", 5, "after the seconds has no unit")
    refused("G/1.5", 3, "decimal numbers are not allowed")
    refused("G/5/1h", 5, "the unit h is not allowed here, only m, s")
    refused("G/5/0.5", 5, "decimal numbers are not allowed")


def test_too_large():
    refused("G/9999h", 2, "more than the clock can hold")
    refused("G/1234567890", 2, "too large")
    refused("100001/30", 0, "at most 100000 moves")
    assert stages("100000/30")[0].moves == 100000


def test_not_text():
    error = raises(PresetError, chessclock.parse, None)
    assert "must be text" in str(error)


# As players say it: minutes + seconds a move.


def test_minutes_plus_seconds():
    for text, same in (
        ("5+3", "G/5/3"),
        ("15+10", "G/15/10"),
        ("90+30", "G/90/30"),
        ("1+0", "G/1"),
        ("5 + 3", "G/5/3"),
        ("5+3 bronstein hourglass", "G/5/3 bronstein hourglass"),
        ("40/90+30, 30+30", "40/90/30, G/30/30"),
        ("40/90 + 30, G/30 + 30", "40/90/30, G/30/30"),
        ("2m30+1", "G/2m30s/1"),
    ):
        assert chessclock.parse(text) == chessclock.parse(same), text


def test_a_bare_time_is_minutes():
    assert chessclock.parse("5") == chessclock.parse("G/5")
    assert chessclock.parse("1h") == chessclock.parse("G/60")
    assert chessclock.parse("90 min word") == chessclock.parse("G/90 word")


def test_spelled_out_units():
    for text, same in (
        ("15m + 10s", "G/15/10"),
        ("90 min + 30 sec/move", "G/90/30"),
        ("1h + 30s", "G/60/30"),
        ("3 min + 2 sec", "G/3/2"),
        ("1 h 30 min + 30 s per move", "G/90/30"),
        ("90 minutes + 30 seconds", "G/90/30"),
        ("2 hours + 1 minute", "G/120/60"),
        ("1 hour 30", "G/90"),
        # A "+" increment on the last phase only is from move 1, as FIDE writes it.
        ("40/2 h, 20/1 h, 15 min + 30 s", "40/120/30, 20/60/30, G/15/30"),
        ("G/10 Min/5 Sec", "G/10/5"),
    ):
        assert chessclock.parse(text) == chessclock.parse(same), text


def test_a_phase_without_moves_before_another_ends_when_its_time_runs_out():
    assert stages("90+30, 30+30") == (phase(90 * MIN, 0, 30 * SEC), phase(30 * MIN, 0, 30 * SEC))
    assert stages("90, 30") == (phase(90 * MIN), phase(30 * MIN))
    refused("G/90+30, 30+30", 7, "nothing may follow a G phase")


def test_typos_as_players_write():
    refused("5+", 2, "expected an increment (seconds, or 1m, 1m30s), found the end")
    refused("15m+10x", 6, 'expected a unit (h, min, s), ",", a space and an option word')
    refused("90 min + 30 sek", 12, 'unknown option "sek"')
    refused("90 min + 30 sek", 12, "(or a unit after the number: h, min, s)")
    refused("5+3x", 3, "expected a unit (h, min, s)")
    refused("5 min 3 min", 8, "order h, m, s")
    refused("5+1h", 3, "the unit h is not allowed here, only m, s")
    refused("5+3 per moves", 4, 'unknown option "per"')
    refused("5.5+3", 1, "decimal numbers are not allowed")


# Formatting.


def test_format_is_canonical():
    for text, canonical in (
        ("G/30", "G/30"),
        ("G/22/12", "G/22/12"),
        ("40/60", "40/60"),
        ("40/60,20/10", "40/60, 20/10"),
        ("40/60 , G/20", "40/60, G/20"),
        ("20/30/10", "20/30/10"),
        ("40/90/30, G/30/30", "40/90/30, G/30/30"),
        ("1/1/60, 1/10s/30", "1/1/60, 1/10s/30"),
        ("G/1h30", "G/90"),
        ("G/1h30m10s", "G/1h30m10s"),
        ("G/90m10s", "G/1h30m10s"),
        ("G/10s", "G/10s"),
        ("G/2m15", "G/2m15s"),
        ("G/5/1m", "G/5/60"),
        ("G/5/3 fischer", "G/5/3"),
        ("G/5/3 bronstein", "G/5/3 bronstein"),
        ("G/5/3 word fischer-after hourglass", "G/5/3 fischer-after hourglass word"),
        ("G/30 delay", "G/30"),
        ("G/30 word", "G/30 word"),
    ):
        assert chessclock.format(chessclock.parse(text)) == canonical, text


def test_round_trip():
    for text in (
        "G/30",
        "40/90/30, G/30/30 delay hourglass",
        "1/1/60, 1/10s/30 bronstein word",
        "40/120, 20/60, G/15/5",
        "40/60, 20/10",
    ):
        once = chessclock.parse(text)
        assert chessclock.parse(chessclock.format(once)) == once, text


def test_format_a_phase_that_ends_on_time():
    assert chessclock.format(chessclock.parse("90+30, 30+30")) == "90+30, 30+30"
    assert chessclock.format(chessclock.parse("90, 40/30, G/15")) == "90+0, 40/30, 15+0"
    two = setup(phase(60000, 0), phase(60000, 0))
    assert chessclock.format(two) == "1+0, 1+0"
    assert chessclock.parse("1+0, 1+0") == two
    assert chessclock.format(chessclock.parse("5+3")) == "G/5/3"


def test_format_zero_increment_phase_beside_a_mode():
    value = setup(phase(3600000, 40, 0, DELAY), phase(1800000, 0, 5000, BRONSTEIN))
    assert chessclock.format(value) == "40/60, G/30/5 bronstein"
    assert chessclock.parse("40/60, G/30/5 bronstein") == value


def test_format_refusals():
    plain = Control([phase(1800000)])
    cannot(Setup(plain, Control([phase(600000, increment_ms=SEC)])), "different controls")
    cannot(Setup(plain, Control([phase(600000, moves=40)])), "different controls")
    cannot(Setup(plain, start_ms=30000), "a start clock")
    cannot(Setup(plain, limit_ms=3600000), "a game limit")
    cannot(Setup(plain, limit_turns=60), "a game limit")
    cannot(Setup(Control([phase(1800000)], max_ms=600000)), "a maximum time")
    cannot(Setup(Control([phase(1800000)], move_limit_ms=60000)), "a move time limit")
    cannot(Setup(Control([phase(1800000)], move_ms=60000)), "an Arimaa move time")
    cannot(Setup(Control([])), "an untimed game")
    cannot(setup(*([phase(60000, 10)] * 4)), "more than 3 phases")
    cannot(setup(Stage(30000, moves=0, periods=5)), "byo-yomi periods")
    cannot(setup(Stage(30000, moves=1, on_enter=SET)), "replaces the time left")
    cannot(setup(Stage(30000, moves=1, on_repeat=SET)), "replaces the time left")
    cannot(setup(Stage(30000, on_expire=SOFT)), "a time-out that does not flag")
    cannot(
        setup(Stage(30000, increment_ms=5000, mode=FISCHER_AFTER, increment_every=2)),
        "an increment every several moves",
    )
    cannot(
        setup(phase(60000, 40, 5000, FISCHER), phase(60000, 0, 5000, DELAY)),
        "different increment modes",
    )
    cannot(setup(phase(60500)), "times finer than a second")
    assert chessclock.format(setup(phase(60000, 0, 2500))) == "G/1+2.5"  # "+" takes decimals
    cannot("G/30", "anything but a Setup")


def test_format_error_names_no_text():
    error = raises(PresetError, chessclock.format, Setup(Control([])))
    assert error.position is None and error.text == "" and error.notation == "chessclock"


def test_looks_like():
    for text in ("G/30", "40/90/30, G/30/30", "G/5/3 delay", "40/60", "1/5/50", "5+3", "5"):
        assert chessclock.looks_like(text), text
    for text in ("0/30", "2/10/100/5", "2:00,0/12/0", "", "fischer", "30:00,N0//5:00,N10"):
        assert not chessclock.looks_like(text), text
    assert not chessclock.looks_like(None)
