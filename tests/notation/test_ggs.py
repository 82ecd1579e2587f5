# SPDX-License-Identifier: MIT
# The GGS notation ini,m1/inc,m2/ext,m3: the seed's examples, times, flags, refusals, round trip.
from clock.model import (
    ADD,
    BRONSTEIN,
    DELAY,
    FISCHER_AFTER,
    FLAG,
    NEXT,
    SET,
    SOFT,
    Control,
    Setup,
    Stage,
)
from notation import ggs, registry
from notation.errors import PresetError
import refusals

from support import raises


def ggs_setup(main, overtime):
    return Setup(Control([main, overtime]))


def stages(text):
    result = ggs.parse(text)
    assert result.first == result.second
    return result.first.stages


def refused(text, position, words):
    return refusals.refused(ggs.parse, text, position, words)


def cannot(value, words):
    return refusals.cannot(ggs.format, value, "GGS", words)


# The seed's examples.


def test_chess_tournament():
    main, overtime = stages("2:00:00,40//30:00,0")
    assert main == Stage(7200000, moves=40, on_enter=ADD, on_repeat=ADD, on_expire=SOFT)
    assert (main.duration_ms, main.moves, main.on_expire) == (7200000, 40, SOFT)
    assert overtime == Stage(1800000, moves=0, on_enter=ADD, on_repeat=ADD, on_expire=FLAG)


def test_fischer_blitz():
    main, overtime = stages("2:00,0/12/0")
    assert main == Stage(
        120000, moves=0, increment_ms=12000, mode=FISCHER_AFTER, increment_every=1, on_expire=SOFT
    )
    assert overtime == Stage(0, moves=0, increment_ms=12000, mode=FISCHER_AFTER, on_expire=FLAG)
    assert main.mode == overtime.mode == FISCHER_AFTER


def test_bronstein_blitz():
    main, overtime = stages("2:00,0/12,N1/0")
    assert (main.duration_ms, main.increment_ms, main.mode, main.increment_every) == (
        120000,
        12000,
        BRONSTEIN,
        1,
    )
    assert (overtime.duration_ms, overtime.increment_ms, overtime.mode) == (0, 12000, BRONSTEIN)


def test_othello_soft_time_out_then_two_minutes():
    assert ggs.parse("30:00,0//2:00,0") == ggs_setup(
        Stage(1800000, on_expire=SOFT), Stage(120000, on_enter=ADD, on_repeat=ADD)
    )


def test_go_overtime_replaces_time_left():
    main, overtime = stages("30:00,N0//5:00,N10")
    assert main == Stage(1800000, moves=0, on_expire=NEXT)
    assert overtime == Stage(300000, moves=10, on_enter=SET, on_repeat=SET, on_expire=FLAG)


# Times, defaults and counts.


def test_times():
    for text, ms in (
        ("0", 0),
        ("45", 45000),
        ("90", 90000),
        ("3600", 3600000),
        ("1:30", 90000),
        ("0:05", 5000),
        ("59:59", 3599000),
        ("05:00", 300000),
        ("1:00:00", 3600000),
        ("01:02:03", 3723000),
        ("100:00:00", 360000000),
    ):
        assert stages(text + "//")[0].duration_ms == ms, text
        assert stages("//" + text)[1].duration_ms == ms, text
        assert stages("/" + text + "/")[0].increment_ms == ms, text


def test_empty_fields_take_the_defaults():
    main, overtime = stages("//")
    assert main == Stage(0, moves=0, on_expire=SOFT)
    assert overtime == Stage(0, moves=0, on_enter=ADD, on_repeat=ADD, on_expire=FLAG)
    assert ggs.parse("0,0/0,1/0,0") == ggs.parse("//")
    assert ggs.parse("  5:00// ") == ggs.parse("5:00//0")


def test_increment_every_m2_moves():
    main, overtime = stages("10:00/30,5/")
    assert (main.increment_ms, main.increment_every, main.mode) == (30000, 5, FISCHER_AFTER)
    assert (overtime.increment_ms, overtime.increment_every) == (30000, 5)
    main, overtime = stages("10:00/30,N5/")
    assert (main.mode, overtime.mode, main.increment_every) == (BRONSTEIN, BRONSTEIN, 5)


def test_n_flags_one_by_one():
    assert stages("1:00,N40//")[0].on_expire == NEXT
    assert stages("1:00,40//")[0].on_expire == SOFT
    assert stages("//1:00,N0")[1].on_enter == SET
    assert stages("//1:00,N0")[1].on_repeat == SET
    assert stages("//1:00,0")[1].on_enter == ADD


# GGF's forms: fewer fields with a default grace, and days.


def test_ggf_clocks_with_the_default_grace():
    assert ggs.parse("23") == ggs.parse("0:23//2:00")
    assert ggs.parse("23/1:00") == ggs.parse("0:23/1:00/2:00")
    assert ggs.parse("5:00") == ggs.parse("5:00//2:00")
    assert ggs.parse("23/") == ggs.parse("0:23//2:00")
    assert ggs.parse(" 30:00,N0 ") == ggs.parse("30:00,N0//2:00")
    assert ggs.parse("2:00,0/12,N1") == ggs.parse("2:00,0/12,N1/2:00")
    main, overtime = stages("23")
    assert main == Stage(23000, on_expire=SOFT)
    assert overtime == Stage(120000, on_enter=ADD, on_repeat=ADD, on_expire=FLAG)


def test_a_written_third_field_is_what_it_says():
    assert stages("23//0")[1].duration_ms == 0
    assert stages("23//")[1].duration_ms == 0
    assert stages("23/1:00/14:00")[1].duration_ms == 14 * 60000


def test_days():
    assert stages("1.12:01:23//0")[0].duration_ms == (36 * 3600 + 83) * 1000
    assert ggs.parse("1.12:01:23//0") == ggs.parse("36:01:23//0")
    assert stages("0.00:00:05")[0].duration_ms == 5000
    assert stages("1.2:00:00")[0].duration_ms == 26 * 3600000
    assert stages("//6.04:00:00")[1].duration_ms == 148 * 3600000
    assert stages("5:00/0.00:00:05")[0].increment_ms == 5000


def test_fewer_fields_and_days_refusals():
    refused("/5", 0, "expected a time [[HH:]MM:]SS")
    refused("/", 0, "expected a time [[HH:]MM:]SS")
    refused("  ", 2, "expected a time [[HH:]MM:]SS")
    refused("1.5//", 2, "hours:minutes:seconds after the days")
    refused("1.12:00", 2, "hours:minutes:seconds after the days")
    refused("1.123:00:00", 2, "hours:minutes:seconds after the days")
    refused("1.:00:00", 2, "hours:minutes:seconds after the days")
    refused("1.24:00:00", 2, "the hours after the days must be below 24")
    refused("1.12:60:00", 5, "the minutes must be below 60")
    refused("7.00:00:00", 0, "more than the clock can hold")
    refused("1.12:00:00.5", 10, '"," and the move count m1, "/" or the end')


# Refusals.


def test_seconds_and_minutes_below_60():
    refused("1:75//", 2, "the seconds must be below 60")
    refused("1:60:00//", 2, "the minutes must be below 60")
    refused("1:00:60//", 5, "the seconds must be below 60")
    refused("60:00//", 0, "the minutes must be below 60")
    refused("//2:99", 4, "the seconds must be below 60")


def test_colon_forms():
    refused("1:5//", 2, "two digits after the colon")
    refused("1:500//", 2, "two digits after the colon")
    refused("1://", 2, "two digits after the colon")
    refused("1:00:00:00//", 7, "at most HH:MM:SS")
    refused(":30//", 0, "a time [[HH:]MM:]SS")


def test_counts():
    refused("2:00,x//", 5, "expected a move count or N")
    refused("30:00,N//", 7, "expected a move count after N")
    refused(",5//", 0, "a time [[HH:]MM:]SS")
    refused("/12,0/", 4, "between 1 and 100000")
    refused("2:00,100001//", 5, "between 0 and 100000")
    refused("30:00,n0//", 6, "expected a move count or N")
    refused("30:00,NN0//", 7, "expected a move count after N")
    refused("30:00,-1//", 6, "expected a move count or N")


def test_slashes():
    refused("2:00x", 4, '"," and the move count m1, "/" or the end')
    refused("2:00/12x", 7, '"," and the move count m2, "/" or the end')
    refused("2:00/12/0/0", 9, '"," and the move count m3, or the end')
    refused("", 0, "expected a time [[HH:]MM:]SS")


def test_other_garbage():
    refused("2:00,0/12s/0", 9, '"," and the move count m2')
    refused("1:5.0//", 2, "two digits after the colon")
    refused("2:00 ,0//", 4, '"," and the move count m1, "/" or the end')
    refused("1234567890//", 0, "too large")
    refused("200:00:00//", 0, "more than the clock can hold")
    refused("1:00:00,40//30:00,0 N", 19, "or the end")


def test_not_text():
    assert "must be text" in str(raises(PresetError, ggs.parse, b"2:00//"))


# Formatting.


def test_format_is_canonical():
    for text, canonical in (
        ("2:00:00,40//30:00,0", "2:00:00,40//30:00"),
        ("2:00,0/12/0", "2:00/12/0"),
        ("2:00,0/12,N1/0", "2:00/12,N1/0"),
        ("30:00,0//2:00,0", "30:00//2:00"),
        ("30:00,N0//5:00,N10", "30:00,N0//5:00,N10"),
        ("//", "0//0"),
        ("90//", "1:30//0"),
        ("3600//59", "1:00:00//59"),
        ("/0,5/", "0//0"),
        ("/0,N5/", "0//0"),
        ("0,N0//", "0,N0//0"),
        ("10:00/30,5/", "10:00/30,5/0"),
        ("10:00/30,N5/1:00,N0", "10:00/30,N5/1:00,N0"),
        ("100:00:00//", "100:00:00//0"),
    ):
        assert ggs.format(ggs.parse(text)) == canonical, text


def test_round_trip():
    for text in ("2:00:00,40//30:00,0", "2:00,0/12,N1/0", "30:00,N0//5:00,N10", "0:59/1,3/7"):
        once = ggs.parse(text)
        assert ggs.parse(ggs.format(once)) == once, text


def test_format_refusals():
    main = Stage(1800000, on_expire=SOFT)
    overtime = Stage(120000)
    plain = Control([main, overtime])
    cannot(Setup(plain, Control([main, Stage(60000)])), "different controls")
    cannot(Setup(plain, hourglass=True), "hourglass")
    cannot(Setup(plain, word=True), "word")
    cannot(Setup(plain, start_ms=1000), "a start clock")
    cannot(Setup(plain, limit_turns=80), "a game limit")
    cannot(Setup(Control([main, overtime], max_ms=60000)), "a maximum time")
    cannot(Setup(Control([main, overtime], move_limit_ms=60000)), "a move time limit")
    cannot(Setup(Control([main])), "other than initial time and overtime")
    cannot(Setup(Control([main, overtime, overtime])), "other than initial time and overtime")
    cannot(Setup(Control([])), "other than initial time and overtime")
    cannot(ggs_setup(Stage(1800000, on_expire=FLAG), overtime), "this control")
    cannot(ggs_setup(main, Stage(120000, on_expire=SOFT)), "this control")
    cannot(ggs_setup(main, Stage(120000, moves=5, on_enter=SET, on_repeat=ADD)), "this control")
    cannot(ggs_setup(Stage(1800000, on_enter=SET, on_expire=SOFT), overtime), "this control")
    cannot(ggs_setup(Stage(1800000, periods=3, on_expire=SOFT), overtime), "this control")
    cannot(ggs_setup(Stage(1800000, increment_ms=5000, on_expire=SOFT), overtime), "this control")
    cannot(
        ggs_setup(
            Stage(1800000, increment_ms=5000, mode=DELAY, on_expire=SOFT),
            Stage(0, increment_ms=5000, mode=DELAY),
        ),
        "this control",
    )
    cannot(
        ggs_setup(
            Stage(1800000, increment_ms=5000, mode=BRONSTEIN, on_expire=SOFT),
            Stage(0, increment_ms=5000, mode=FISCHER_AFTER),
        ),
        "this control",
    )
    cannot(ggs_setup(Stage(1800500, on_expire=SOFT), overtime), "finer than a second")
    cannot(ggs_setup(main, Stage(500)), "finer than a second")
    cannot("30:00//", "anything but a Setup")


def test_looks_like():
    for text in ("2:00:00,40//30:00,0", "2:00,0/12/0", "30:00,N0//5:00,N10", "120//", "//"):
        assert ggs.looks_like(text), text
    # Three plain numbers are more likely chess-clock or Arimaa texts.
    for text in ("40/90/30", "40/60,20/10", "1:75//", "G/30", "", "0/30"):
        assert not ggs.looks_like(text), text
    assert not ggs.looks_like(None)


def test_looks_like_fewer_fields():
    for text in ("1:30", "0:23", "1.12:01:23", "1.12:01:23/5", "30:00,N0", "2:00,0/12", "5/1,N1"):
        assert ggs.looks_like(text), text
        assert registry.detect(text)[0] == "ggs", text
    assert registry.detect("1.12:01:23//0")[0] == "ggs"
    # A bare number is read by PGN (seconds, no grace); two fields with only colons by Arimaa
    # (1:30/5) or PGN (23/1:00): GGF's readings of those need the ggs: prefix.
    for text in ("23", "23/1:00", "1:30/5", "23/60", "5:00/0:05"):
        assert not ggs.looks_like(text), text
    assert registry.detect("1:30/5")[0] == "arimaa"
    assert registry.parse("ggs:23") == ggs.parse("0:23//2:00")
    assert registry.parse("ggs:23/1:00") == ggs.parse("0:23/1:00/2:00")
