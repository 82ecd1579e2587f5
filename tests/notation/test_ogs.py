# SPDX-License-Identifier: MIT
# OGS time_control objects: the six systems of the seed, OGS's extra keys, seconds to ms, format.
from clock.model import BRONSTEIN, FISCHER_AFTER, FLAG, NEXT, SET, ADD, MAX_MS
from clock.model import Control, Setup, Stage
from notation import ogs
from notation.errors import PresetError
from support import raises

# The seed's six examples, as OGS documents them (the numbers in seconds).
FISCHER = (
    '{"time_control": "fischer", "initial_time": 86400, "time_increment": 3600, "max_time": 86400}'
)
BYOYOMI = '{"time_control": "byoyomi", "main_time": 86400, "period_time": 3600, "periods": 5}'
SIMPLE = '{"time_control": "simple", "per_move": 86400}'
CANADIAN = (
    '{"time_control": "canadian", "main_time": 86400, "period_time": 86400, '
    '"stones_per_period": 10}'
)
ABSOLUTE = '{"time_control": "absolute", "total_time": 86400}'
NONE = '{"time_control": "none"}'
DAY = 86400000


def only(setup):
    assert setup.first == setup.second
    return setup.first


def test_fischer():
    control = only(ogs.parse(FISCHER))
    assert control == Control([Stage(DAY, increment_ms=3600000, mode=FISCHER_AFTER)], max_ms=DAY)
    (stage,) = control.stages
    assert (stage.duration_ms, stage.increment_ms, stage.mode, stage.on_expire) == (
        DAY,
        3600000,
        FISCHER_AFTER,
        FLAG,
    )
    assert control.max_ms == DAY


def test_fischer_may_cap_below_the_initial_time_and_have_no_increment():
    text = '{"time_control":"fischer","initial_time":600,"time_increment":0,"max_time":300}'
    assert only(ogs.parse(text)) == Control([Stage(600000)], max_ms=300000)


def test_byoyomi_with_and_without_main_time():
    period = Stage(3600000, moves=1, periods=5, on_enter=SET, on_repeat=SET, on_expire=FLAG)
    assert only(ogs.parse(BYOYOMI)) == Control([Stage(DAY, on_expire=NEXT), period])
    main, overtime = only(ogs.parse(BYOYOMI)).stages
    assert (main.duration_ms, main.moves, main.on_expire) == (DAY, 0, NEXT)
    assert (overtime.duration_ms, overtime.moves, overtime.periods) == (3600000, 1, 5)
    assert (overtime.on_enter, overtime.on_repeat, overtime.on_expire) == (SET, SET, FLAG)
    assert overtime.is_period()
    text = '{"time_control":"byoyomi","main_time":0,"period_time":30,"periods":3}'
    assert only(ogs.parse(text)) == Control(
        [Stage(30000, moves=1, periods=3, on_enter=SET, on_repeat=SET)]
    )


def test_simple():
    (stage,) = only(ogs.parse(SIMPLE)).stages
    assert stage == Stage(DAY, moves=1, on_enter=SET, on_repeat=SET, on_expire=FLAG)


def test_canadian_with_and_without_main_time():
    block = Stage(DAY, moves=10, on_enter=SET, on_repeat=SET, on_expire=FLAG)
    assert only(ogs.parse(CANADIAN)) == Control([Stage(DAY, on_expire=NEXT), block])
    text = '{"time_control":"canadian","main_time":0,"period_time":300,"stones_per_period":25}'
    (stage,) = only(ogs.parse(text)).stages
    assert (stage.duration_ms, stage.moves, stage.periods) == (300000, 25, 1)
    assert (stage.on_enter, stage.on_repeat, stage.on_expire) == (SET, SET, FLAG)


def test_absolute_and_none():
    assert ogs.parse(ABSOLUTE) == Setup(Control([Stage(DAY)]))
    (stage,) = only(ogs.parse(ABSOLUTE)).stages
    assert (stage.moves, stage.increment_ms, stage.on_enter, stage.on_expire) == (0, 0, ADD, FLAG)
    assert ogs.parse(NONE) == Setup(Control([]))
    assert only(ogs.parse(NONE)).untimed()


def test_system_is_an_alias_and_ogs_extra_keys_are_ignored():
    plain = ogs.parse(BYOYOMI)
    sent = (
        '{"system": "byoyomi", "time_control": "byoyomi", "speed": "correspondence", '
        '"main_time": 86400, "period_time": 3600, "periods": 5, "periods_min": 1, '
        '"periods_max": 10, "pause_on_weekends": true, "pause_on_weekend": false}'
    )
    assert ogs.parse(sent) == plain
    assert ogs.parse(BYOYOMI.replace('"time_control"', '"system"')) == plain
    canadian = CANADIAN[:-1] + ', "stones_per_period_min": 1, "stones_per_period_max": 20}'
    assert ogs.parse(canadian) == ogs.parse(CANADIAN)
    assert ogs.parse('{"system":"none","speed":"correspondence"}') == ogs.parse(NONE)


def test_fractional_seconds():
    def total(seconds):
        (stage,) = only(ogs.parse('{"time_control":"absolute","total_time":%s}' % seconds)).stages
        return stage.duration_ms

    assert total("0.5") == 500
    assert total("360.906") == 360906  # exact: at most 3 decimals
    assert total("86400.123") == 86400123
    assert total("360.90599999999995") == 360906  # rounded to the nearest ms
    assert total("1.0005") == 1001  # half a ms rounds up
    assert total("1.00049") == 1000
    assert total("1e2") == 100000
    assert total("1.5E-3") == 2
    assert total("2.0") == 2000


def check_error(text, *problem):
    error = raises(PresetError, ogs.parse, text)
    assert error.notation == "ogs"
    assert error.text == text
    assert error.position is None
    message = str(error)
    assert message.startswith('ogs preset "')
    assert text[:20].replace('"', '\\"') in message
    for part in problem:
        assert part in message, (part, message)


def test_text_that_is_not_a_json_object_is_refused():
    for text in ("", "{", "fischer 300+3", "{'time_control': 'none'}"):
        check_error(text, "not valid JSON")
    check_error("[]", "expected a time_control object, found an array")
    check_error('"none"', 'found "none"')
    assert "must be text" in str(raises(PresetError, ogs.parse, None))


def test_the_system_must_be_named_and_known():
    check_error("{}", 'missing "time_control" (or "system")')
    check_error('{"time_control":"blitz"}', "time_control: expected one of fischer, byoyomi")
    check_error('{"time_control":5}', "found 5")
    check_error('{"time_control":{"system":"none"}}', "found an object")
    check_error('{"time_control":"none","system":"simple"}', "disagree")


def test_unknown_keys_are_named():
    check_error('{"time_control":"none","main_time":5}', 'unknown key "main_time" for none')
    check_error(ABSOLUTE[:-1] + ', "b": 1, "a": 2}', 'unknown keys "a", "b" for absolute')
    check_error(BYOYOMI[:-1] + ', "stones_per_period_max": 2}', '"stones_per_period_max"')
    check_error(FISCHER[:-1] + ', "total_time": 2}', 'unknown key "total_time"')


def test_missing_fields_are_named():
    check_error(
        '{"time_control":"fischer","initial_time":60,"time_increment":5}', 'needs "max_time"'
    )
    check_error('{"time_control":"byoyomi","main_time":60,"period_time":5}', 'needs "periods"')
    check_error('{"time_control":"simple"}', 'simple needs "per_move"')
    check_error('{"system":"canadian","main_time":0,"period_time":5}', 'needs "stones_per_period"')
    check_error('{"time_control":"absolute"}', 'needs "total_time"')


def test_bad_values_are_refused():
    check_error(ABSOLUTE.replace("86400", "-1"), "total_time: expected seconds >= 0, found -1")
    check_error(ABSOLUTE.replace("86400", "-0.5"), "total_time: expected seconds >= 0")
    check_error(ABSOLUTE.replace("86400", "0"), "no time to play")  # as in every notation
    check_error(ABSOLUTE.replace("86400", '"600"'), 'found "600"')
    check_error(ABSOLUTE.replace("86400", "true"), "found true")
    check_error(ABSOLUTE.replace("86400", "null"), "found null")
    check_error(ABSOLUTE.replace("86400", "0.0004"), "no time to play")  # 0 ms
    check_error(ABSOLUTE.replace("86400", "1e999"), "total_time", "more than the clock can hold")
    check_error(ABSOLUTE.replace("86400", "536871"), "536871 seconds is more than the clock")
    check_error(FISCHER.replace('"max_time": 86400', '"max_time": 0'), "max_time: expected more")
    check_error(FISCHER.replace("3600", "-3"), "time_increment: expected seconds >= 0, found -3")
    check_error(BYOYOMI.replace("86400", "-1"), "main_time: expected seconds >= 0")
    check_error(BYOYOMI.replace("3600", "0"), "period_time: expected more than 0 seconds")
    check_error(
        BYOYOMI.replace('"periods": 5', '"periods": 0'), "periods: expected a whole number"
    )
    check_error(BYOYOMI.replace('"periods": 5', '"periods": 2.0'), "found 2.0")
    check_error(BYOYOMI.replace('"periods": 5', '"periods": true'), "found true")
    check_error(CANADIAN.replace("10}", "0}"), "stones_per_period: expected a whole number from 1")
    check_error(CANADIAN.replace("10}", "100001}"), "stones_per_period", "found 100001")


def test_format_writes_the_canonical_object():
    assert ogs.format(ogs.parse(FISCHER)) == (
        '{"time_control":"fischer","initial_time":86400,"time_increment":3600,"max_time":86400}'
    )
    assert ogs.format(ogs.parse(BYOYOMI)) == (
        '{"time_control":"byoyomi","main_time":86400,"period_time":3600,"periods":5}'
    )
    assert ogs.format(ogs.parse(SIMPLE)) == '{"time_control":"simple","per_move":86400}'
    assert ogs.format(ogs.parse(CANADIAN)) == (
        '{"time_control":"canadian","main_time":86400,"period_time":86400,"stones_per_period":10}'
    )
    assert ogs.format(ogs.parse(ABSOLUTE)) == '{"time_control":"absolute","total_time":86400}'
    assert ogs.format(ogs.parse(NONE)) == '{"time_control":"none"}'
    # One byo-yomi period and no main time is the same clock as simple time.
    text = '{"time_control":"byoyomi","main_time":0,"period_time":30,"periods":1}'
    assert ogs.format(ogs.parse(text)) == '{"time_control":"simple","per_move":30}'
    text = '{"time_control":"byoyomi","main_time":60,"period_time":30,"periods":1}'
    assert ogs.format(ogs.parse(text)) == text


def test_round_trips():
    for text in (FISCHER, BYOYOMI, SIMPLE, CANADIAN, ABSOLUTE, NONE):
        setup = ogs.parse(text)
        assert ogs.parse(ogs.format(setup)) == setup
        assert ogs.format(ogs.parse(ogs.format(setup))) == ogs.format(setup)


def refuses(setup, *problem):
    error = raises(PresetError, ogs.format, setup)
    assert error.notation == "ogs" and error.position is None
    assert "OGS cannot say" in str(error)
    for part in problem:
        assert part in str(error), (part, str(error))


def test_format_refuses_what_ogs_cannot_say():
    bank = Control([Stage(60000)])
    refuses(Setup(Control([Stage(500)])), "500 ms: its times are whole seconds")
    refuses(Setup(Control([Stage(60000, increment_ms=1500)], max_ms=90000)), "1500 ms")
    refuses(Setup(bank, Control([Stage(30000)])), "different controls")
    refuses(Setup(bank, hourglass=True), "hourglass")
    refuses(Setup(bank, word=True), "word")
    refuses(Setup(bank, start_ms=5000), "start clock")
    refuses(Setup(bank, limit_turns=3), "game limit")
    refuses(Setup(Control([Stage(60000)], move_ms=1000)), "Arimaa")
    refuses(Setup(Control([Stage(60000, increment_ms=2000)])), "without a maximum time")
    refuses(Setup(Control([Stage(60000, increment_ms=2000, mode=BRONSTEIN)], max_ms=1)))
    refuses(Setup(Control([Stage(30000, moves=1, periods=5)], max_ms=60000)))
    refuses(Setup(Control([Stage(60000, on_expire=NEXT), Stage(1000), Stage(1000)])))
    refuses(Setup(Control([Stage(30000, moves=2, on_enter=SET, on_repeat=ADD)])))
    refuses(1, "not a Setup")


def test_a_pcn_bank_is_the_same_clock_as_absolute():
    # Without a quota a stage never repeats, so how it would repeat does not matter.
    pcn_bank = Setup(Control([Stage(60000, on_repeat=SET)]))
    assert ogs.parse(ogs.format(pcn_bank)) == pcn_bank


def test_looks_like():
    for text in (FISCHER, BYOYOMI, SIMPLE, CANADIAN, ABSOLUTE, NONE, '{"system":"none"}'):
        assert ogs.looks_like(text)
    for text in ("", "[]", '{"time_control":"blitz"}', '[{"duration_ms":1}]', "5|3", None):
        assert not ogs.looks_like(text)
