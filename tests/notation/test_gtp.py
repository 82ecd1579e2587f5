# SPDX-License-Identifier: MIT
# GTP time_settings and kgs-time_settings: the spec's special cases, refusals, canonical commands.
from clock.model import ADD, FISCHER_AFTER, FLAG, NEXT, SET, SOFT
from clock.model import Control, Setup, Stage
from notation import gtp
import refusals


def both(*stages):
    return Setup(Control(list(stages)))


def main(seconds):
    return Stage(seconds * 1000, on_expire=NEXT)


def canadian(stones, seconds):
    return Stage(seconds * 1000, moves=stones, on_enter=SET, on_repeat=SET)


def byoyomi(periods, seconds):
    return Stage(seconds * 1000, moves=1, periods=periods, on_enter=SET, on_repeat=SET)


def refused(text, position, words):
    return refusals.refused(gtp.parse, text, position, words)


def cannot(value, words):
    return refusals.cannot(gtp.format, value, "GTP", words)


def test_canadian_byoyomi():
    # 30 min main time, then blocks of 5 stones in 30 s each; unused block time is lost.
    setup = gtp.parse("time_settings 1800 30 5")
    assert setup == both(main(1800), canadian(5, 30))
    block = setup.first.stages[1]
    assert (block.duration_ms, block.moves, block.periods) == (30000, 5, 1)
    assert (block.on_enter, block.on_repeat, block.on_expire) == (SET, SET, FLAG)


def test_no_main_time_starts_in_byoyomi():
    assert gtp.parse("time_settings 0 600 25") == both(canadian(25, 600))


def test_byoyomi_time_without_stones_means_no_time_limit():
    assert gtp.parse("time_settings 0 1 0") == Setup(Control([]))
    assert gtp.parse("time_settings 300 30 0").first.untimed()


def test_zero_byoyomi_time_means_absolute():
    assert gtp.parse("time_settings 300 0 0") == both(Stage(300000))
    assert gtp.parse("time_settings 300 0 7") == both(Stage(300000))
    assert gtp.parse("time_settings 300 0 0").first.stages[0].on_expire == FLAG


def test_command_id_and_spacing():
    assert gtp.parse("12 time_settings 300 30 5") == gtp.parse("time_settings 300 30 5")
    assert gtp.parse(" time_settings\t300  30\t5 ") == gtp.parse("time_settings 300 30 5")
    assert gtp.parse("time_settings 300 30 5 # KGS\n") == gtp.parse("time_settings 300 30 5")
    assert gtp.parse("time_settings 300 30 5\r\n") == gtp.parse("time_settings 300 30 5")


def test_kgs_systems():
    assert gtp.parse("kgs-time_settings none") == Setup(Control([]))
    assert gtp.parse("kgs-time_settings absolute 600") == both(Stage(600000))
    assert gtp.parse("kgs-time_settings byoyomi 1800 30 5") == both(main(1800), byoyomi(5, 30))
    assert gtp.parse("kgs-time_settings canadian 600 300 25") == both(main(600), canadian(25, 300))
    assert gtp.parse("kgs-time_settings byoyomi 0 30 3") == both(byoyomi(3, 30))
    assert gtp.parse("7 kgs-time_settings none") == Setup(Control([]))


def test_one_period_byoyomi_is_one_stone_canadian():
    assert gtp.parse("kgs-time_settings byoyomi 60 30 1") == gtp.parse("time_settings 60 30 1")


def test_refusals():
    refused("", 0, "time_settings or kgs-time_settings")
    refused("time_setting 1 2 3", 0, "time_settings or kgs-time_settings")
    refused("TIME_SETTINGS 1 2 3", 0, "time_settings or kgs-time_settings")
    refused("12time_settings 1 2 3", 0, "time_settings or kgs-time_settings")
    refused("time_settings", 13, "the main time")
    refused("time_settings 1 2", 17, "the stones")
    refused("time_settings 1 2 3 4", 20, "the end of the command")
    refused("time_settings -1 2 3", 14, "the main time as a whole number")
    refused("time_settings 1.5 2 3", 15, "the byo-yomi time")
    refused("time_settings 0 0 0", None, "no time to play")  # as in every notation
    refused("time_settings 0 0 9", None, "no time to play")
    refused("time_settings 9999999999 1 1", 14, "too large")
    refused("time_settings 999999 1 1", 14, "more than the clock can hold")
    refused("time_settings 60 999999 1", 17, "more than the clock can hold")
    refused("time_settings 60 30 200000", 20, "move quota")
    refused("time_settings 1 2 3\nquit", 20, "the end of the command")
    refused("kgs-time_settings", 17, "the time system")
    refused("kgs-time_settings fischer 600 10", 18, "none, absolute, byoyomi or canadian")
    refused("kgs-time_settings NONE", 18, "none, absolute, byoyomi or canadian")
    refused("kgs-time_settings none 5", 23, "the end of the command")
    refused("kgs-time_settings absolute", 26, "the main time")
    refused("kgs-time_settings absolute 0", None, "no time to play")
    refused("kgs-time_settings byoyomi 60 30", 31, "the periods")
    refused("kgs-time_settings byoyomi 60 30 0", 32, "at least one stone or period")
    refused("kgs-time_settings byoyomi 60 0 5", 29, "more than 0 seconds")
    refused("kgs-time_settings canadian 60 30 0", 33, "at least one stone or period")
    refused("kgs-time_settings canadian 60 0 25", 30, "more than 0 seconds")


def test_error_names_the_notation_and_quotes_the_command():
    error = refused("time_settings 1.5 2 3", 15, "the byo-yomi time")
    assert str(error).startswith('gtp preset "time_settings 1.5 2 3", at character 16: ')


def test_format_canonical():
    cases = (
        ("time_settings 1800 30 5", "time_settings 1800 30 5"),
        ("12 time_settings 300 30 5", "time_settings 300 30 5"),
        ("time_settings 300 30 0", "time_settings 0 1 0"),
        ("time_settings 300 0 7", "time_settings 300 0 0"),
        ("kgs-time_settings none", "time_settings 0 1 0"),
        ("kgs-time_settings absolute 600", "time_settings 600 0 0"),
        ("kgs-time_settings canadian 600 300 25", "time_settings 600 300 25"),
        ("kgs-time_settings byoyomi 1800 30 5", "kgs-time_settings byoyomi 1800 30 5"),
        ("kgs-time_settings byoyomi 0 30 1", "time_settings 0 30 1"),
    )
    for text, canonical in cases:
        assert gtp.format(gtp.parse(text)) == canonical, text


def test_format_refusals():
    plain = Control([Stage(60000)])
    cannot(Setup(plain, hourglass=True), "hourglass")
    cannot(Setup(plain, word=True), "Word")
    cannot(Setup(plain, Control([Stage(30000)])), "different controls")
    cannot(Setup(Control([Stage(60000)], max_ms=90000)), "maximum time")
    cannot(both(Stage(60500)), "whole number of seconds")
    cannot(both(main(60), Stage(1500, moves=5, on_enter=SET, on_repeat=SET)), "whole number")
    cannot(both(Stage(60000, increment_ms=1000, mode=FISCHER_AFTER)), "increment")
    cannot(both(Stage(60000, moves=40)), "move quota")
    cannot(both(Stage(0)), "no time")
    cannot(both(Stage(60000, on_expire=SOFT)), "this main time")
    cannot(both(Stage(60000, on_repeat=SET)), "this main time")
    cannot(both(Stage(60000), canadian(5, 30)), "this main time")
    cannot(both(main(60), canadian(5, 30), canadian(5, 30)), "more than a main time")
    cannot(both(main(60), Stage(30000, moves=5, on_enter=SET, on_repeat=ADD)), "this byo-yomi")
    cannot(both(main(60), Stage(30000, on_enter=SET, on_repeat=SET)), "without stones")
    cannot(
        both(main(60), Stage(30000, moves=5, periods=3, on_enter=SET, on_repeat=SET)), "several"
    )


def test_round_trips():
    samples = (
        "time_settings 1800 30 5",
        "time_settings 0 600 25",
        "time_settings 0 1 0",
        "time_settings 300 0 0",
        "kgs-time_settings byoyomi 1800 30 5",
        "kgs-time_settings byoyomi 0 10 3",
    )
    for text in samples:
        setup = gtp.parse(text)
        assert gtp.format(setup) == text, text
        assert gtp.parse(gtp.format(setup)) == setup, text


def test_looks_like():
    for text in ("time_settings 1 2 3", "5 kgs-time_settings none", " time_settings"):
        assert gtp.looks_like(text), text
    for text in ("timesettings 1 2 3", "TM[60]", "40/60", "12", "", None):
        assert not gtp.looks_like(text), text
