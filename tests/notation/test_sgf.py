# SPDX-License-Identifier: MIT
# SGF TM and OT: the forms KGS, OGS, CGoban and GoGui write, refusals, canonical text, round trips.
from clock.model import BRONSTEIN, FISCHER, FISCHER_AFTER, FLAG, NEXT, SET, SOFT
from clock.model import Control, Setup, Stage
from notation import sgf
import refusals


def both(*stages):
    return Setup(Control(list(stages)))


def main(seconds):
    return Stage(seconds * 1000, on_expire=NEXT)


def byoyomi(periods, seconds):
    return Stage(seconds * 1000, moves=1, periods=periods, on_enter=SET, on_repeat=SET)


def canadian(stones, seconds):
    return Stage(seconds * 1000, moves=stones, on_enter=SET, on_repeat=SET)


def refused(text, position, words):
    return refusals.refused(sgf.parse, text, position, words)


def cannot(value, words):
    return refusals.cannot(sgf.format, value, "SGF", words)


def test_kgs_byoyomi():
    # 30 min main time, then 5 periods of 30 s: each period starts full again after a move.
    setup = sgf.parse("TM[1800]OT[5x30 byo-yomi]")
    assert setup == both(main(1800), byoyomi(5, 30))
    period = setup.first.stages[1]
    assert (period.duration_ms, period.moves, period.periods) == (30000, 1, 5)
    assert (period.on_enter, period.on_repeat, period.on_expire) == (SET, SET, FLAG)
    assert setup.first.stages[0].on_expire == NEXT


def test_byoyomi_spellings():
    for text in (
        "5x30 byoyomi",
        "5x30 byo yomi",
        "5 x 30 BYO-YOMI",
        "5X30 Byo-Yomi",
        "5x30byo-yomi",
    ):
        assert sgf.parse("TM[1800]OT[%s]" % text) == both(main(1800), byoyomi(5, 30)), text


def test_kgs_and_ogs_canadian():
    # 10 min main time, then 25 stones in every 5 min block.
    assert sgf.parse("TM[600]OT[25/300 Canadian]") == both(main(600), canadian(25, 300))
    assert sgf.parse("TM[600]OT[25/300 canadian]") == sgf.parse("TM[600]OT[25/300 CANADIAN]")
    assert sgf.parse("OT[25/180.5 Canadian]").first.stages[0].duration_ms == 180500


def test_gogui_and_smartgo_canadian():
    assert sgf.parse("TM[600]OT[25 moves / 10 min]") == both(main(600), canadian(25, 600))
    assert sgf.parse("TM[600]OT[25 moves / 600 sec]") == both(main(600), canadian(25, 600))


def test_ogs_fischer_is_added_after_the_move():
    setup = sgf.parse("TM[600]OT[30 Fischer]")
    assert setup == both(Stage(600000, increment_ms=30000, mode=FISCHER_AFTER))


def test_ogs_simple_is_a_time_per_move():
    assert sgf.parse("TM[0]OT[60 simple]") == both(
        Stage(60000, moves=1, on_enter=SET, on_repeat=SET)
    )
    assert sgf.parse("TM[300]OT[60 simple]") == both(main(300), byoyomi(1, 60))


def test_absolute():
    assert sgf.parse("TM[3600]") == both(Stage(3600000))
    assert sgf.parse("TM[3600]OT[]") == both(Stage(3600000))
    assert sgf.parse("TM[3600]OT[  ]") == both(Stage(3600000))


def test_no_main_time():
    assert sgf.parse("TM[0]OT[5x30 byo-yomi]") == both(byoyomi(5, 30))
    assert sgf.parse("OT[5x30 byo-yomi]") == both(byoyomi(5, 30))


def test_bare_overtime_value():
    assert sgf.parse("5x30 byo-yomi") == both(byoyomi(5, 30))
    assert sgf.parse(" 25/600 Canadian ") == both(canadian(25, 600))


def test_tm_is_a_real_number():
    assert sgf.parse("TM[1800.5]").first.stages[0].duration_ms == 1800500
    assert sgf.parse("TM[+60]") == sgf.parse("TM[60]")


def test_properties_in_any_order_in_a_game_record():
    record = "(;GM[1]FF[4]SZ[19]PB[Black \\] player]AB[aa][bb]\nOT[5x30 byo-yomi] TM[1800]KM[6.5])"
    assert sgf.parse(record) == sgf.parse("TM[1800]OT[5x30 byo-yomi]")
    assert sgf.parse(";OT[5x30 byo-yomi]TM[1800]") == sgf.parse("TM[1800]OT[5x30 byo-yomi]")


def test_refusals():
    refused("", None, "no time control is stated")
    refused("TM[0]", None, "no time to play")
    refused("OT[]", None, "no time control is stated")
    refused("GM[1]", None, "no time control is stated")
    refused("TM[60]TM[60]", 6, "given twice")
    refused("TM[60][70]", 0, "one value")
    refused("TM[-5]", 3, "negative")
    refused("TM[1:30]", 4, "the end of TM")
    refused("TM[]", 3, "the main time (TM)")
    refused("TM[1.0001]", 3, "whole number of milliseconds")
    refused("TM[99999999]", 3, "more than the clock can hold")
    refused("OT[5 mins Japanese style, 1 move / min]", 5, '"fischer" or "simple"')
    refused("TM[60]OT[5x30]", 13, '"byo-yomi"')
    refused("TM[60]OT[25/300]", 15, '"Canadian"')
    refused("TM[60]OT[25 moves 300]", 18, '"/" after the number of moves')
    refused("TM[60]OT[25 moves / 300 hours]", 24, '"sec" or "min"')
    refused("TM[60]OT[byo-yomi]", 9, "an overtime such as")
    refused("TM[60]OT[5x30 byo-yomi extra]", 23, "the end of OT")
    refused("TM[60]OT[5.5x30 byo-yomi]", 12, '"fischer" or "simple"')
    refused("0x30 byo-yomi", 0, "number of periods")
    refused("5x0 byo-yomi", 2, "more than 0 seconds")
    refused("0/300 Canadian", 0, "number of stones")
    refused("TM[60]OT[0 fischer]", 9, "more than 0 seconds")
    refused("OT[30 fischer]", 3, "Fischer needs a main time")
    refused("TM[60]OT[1/99999999 Canadian]", 9, "more than the clock can hold")
    refused("TM[60]OT[999999x30 byo-yomi]", 9, "periods")
    refused("TM[60]OT[5x30 byo-yomi", 8, 'no closing "]"')
    refused("TM[60] junk", 7, "a property such as")
    refused("tm[60]", 0, "a property such as")
    refused("TM[60]OT", 8, '"[" opening the value of OT')
    refused("(TM[60])", 1, '";" starting')
    refused("(;TM[60];B[aa])", 8, "closing the game")


def test_format_canonical():
    cases = (
        ("TM[1800]OT[5x30 byo-yomi]", "TM[1800]OT[5x30 byo-yomi]"),
        ("OT[25/300 canadian]TM[600]", "TM[600]OT[25/300 Canadian]"),
        ("TM[600]OT[25 moves / 10 min]", "TM[600]OT[25/600 Canadian]"),
        ("TM[600]OT[30 fischer]", "TM[600]OT[30 Fischer]"),
        ("TM[3600]OT[]", "TM[3600]"),
        ("5x30 byo-yomi", "TM[0]OT[5x30 byo-yomi]"),
        ("TM[0]OT[60 simple]", "TM[0]OT[1x60 byo-yomi]"),
        ("TM[1800.50]OT[3x30.25 byoyomi]", "TM[1800.5]OT[3x30.25 byo-yomi]"),
    )
    for text, canonical in cases:
        assert sgf.format(sgf.parse(text)) == canonical, text


def test_format_refusals():
    plain = Control([Stage(60000)])
    cannot(Setup(plain, hourglass=True), "hourglass")
    cannot(Setup(plain, start_ms=1000), "start clock")
    cannot(Setup(plain, Control([Stage(30000)])), "different controls")
    cannot(Setup(Control([Stage(60000)], move_limit_ms=1)), "move time limit")
    cannot(Setup(Control([])), "without time control")
    cannot(both(Stage(0)), "this main time")
    cannot(both(Stage(60000, moves=40)), "this main time")
    cannot(both(Stage(60000, on_expire=NEXT)), "runs on into nothing")
    cannot(both(Stage(60000, increment_ms=1000, mode=FISCHER)), "Fischer added after")
    cannot(both(Stage(60000, increment_ms=1000, mode=BRONSTEIN)), "Fischer added after")
    cannot(both(Stage(60000), byoyomi(5, 30)), "flag before the overtime")
    cannot(both(main(60), byoyomi(5, 30), byoyomi(5, 30)), "more than a main time")
    cannot(
        both(main(60), Stage(30000, moves=1, on_enter=SET, on_repeat=SET, on_expire=SOFT)),
        "this overtime",
    )
    cannot(both(main(60), Stage(30000, on_enter=SET, on_repeat=SET)), "without stones")
    cannot(
        both(main(60), Stage(30000, moves=5, periods=2, on_enter=SET, on_repeat=SET)), "several"
    )


def test_round_trips():
    samples = (
        "TM[1800]OT[5x30 byo-yomi]",
        "TM[600]OT[25/300 Canadian]",
        "TM[600]OT[30 Fischer]",
        "TM[3600]",
        "TM[0]OT[3x10 byo-yomi]",
        "TM[0.5]OT[2x0.25 byo-yomi]",
    )
    for text in samples:
        setup = sgf.parse(text)
        assert sgf.format(setup) == text, text
        assert sgf.parse(sgf.format(setup)) == setup, text


def test_looks_like():
    for text in (
        "TM[1800]OT[5x30 byo-yomi]",
        "(;GM[1]TM[60])",
        "5x30 byo-yomi",
        "25/600 Canadian",
    ):
        assert sgf.looks_like(text), text
    for text in ("40/7200:3600", "tc=40/60", "time_settings 1 2 3", "GM[1]", "", None):
        assert not sgf.looks_like(text), text
