# SPDX-License-Identifier: MIT
# PCN periods and records (JSON): the seed's ten examples, every error path, format, round trips.
from clock.model import ADD, BRONSTEIN, DELAY, FISCHER_AFTER, FLAG, NEXT, SET, MAX_MS
from clock.model import Control, Setup, Stage
from notation import pcn
from notation.errors import PresetError
from support import raises

CHESS = "+rnbq+k^bn+r/+p+p+p+p+p+p+p+p/8/8/8/8/+P+P+P+P+P+P+P+P/+RNBQ+K^BN+R / C/c"
SHOGI = "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s"


def record(periods, plies, feen=CHESS):
    """A seed example's JSON: its periods (text or None), setup and plies (pmn, elapsed_ms)."""
    items = []
    for pmn, elapsed in plies:
        if elapsed is None:
            items.append('{ "pmn": "%s" }' % pmn)
        else:
            items.append('{ "pmn": "%s", "elapsed_ms": %d }' % (pmn, elapsed))
    head = "" if periods is None else '"periods": [\n%s\n],\n' % periods
    return '{\n%s"setup": {\n"feen": "%s"\n},\n"plies": [\n%s\n]\n}' % (
        head,
        feen,
        ",\n".join(items),
    )


# The seed's examples 1 to 9, each: (JSON record, elapsed_ms per ply, expected stages).
EXAMPLES = [
    (  # 1. Bank only: 10 minutes
        record('{ "duration_ms": 600000 }', [("e2-e4", 18400), ("e7-e5", 22100)]),
        [18400, 22100],
        [Stage(600000, on_repeat=SET, on_expire=FLAG)],
    ),
    (  # 2. Fischer 5+3
        record(
            '{ "duration_ms": 300000, "increment_ms": 3000 }',
            [("e2-e4", 8000), ("e7-e5", 12000), ("g1-f3", 15000), ("b8-c6", 5000)],
        ),
        [8000, 12000, 15000, 5000],
        [Stage(300000, increment_ms=3000, on_repeat=SET, on_expire=FLAG)],
    ),
    (  # 3. Byo-yomi: 10 minutes, then 30 s per ply
        record(
            '{ "duration_ms": 600000 },\n{ "duration_ms": 30000, "plies": 1 }',
            [("7g-7f", 5200), ("3c-3d", 8000), ("2g-2f", 28400), ("8d-8e", 4100)],
            SHOGI,
        ),
        [5200, 8000, 28400, 4100],
        [
            Stage(600000, on_repeat=SET, on_expire=NEXT),
            Stage(30000, moves=1, on_repeat=SET, on_expire=FLAG),
        ],
    ),
    (  # 4. Pure byo-yomi
        record('{ "duration_ms": 30000, "plies": 1 }', [("e2-e4", 15000), ("e7-e5", 22000)]),
        [15000, 22000],
        [Stage(30000, moves=1, on_repeat=SET, on_expire=FLAG)],
    ),
    (  # 5. Canadian: 25 plies in 5 minutes
        record('{ "duration_ms": 300000, "plies": 25 }', [("e2-e4", 10000), ("e7-e5", 12500)]),
        [10000, 12500],
        [Stage(300000, moves=25, on_repeat=SET, on_expire=FLAG)],
    ),
    (  # 6. 1 hour, then 25 plies in 5 minutes
        record(
            '{ "duration_ms": 3600000 },\n{ "duration_ms": 300000, "plies": 25 }',
            [("d2-d4", 27300), ("d7-d5", 18000)],
        ),
        [27300, 18000],
        [
            Stage(3600000, on_repeat=SET, on_expire=NEXT),
            Stage(300000, moves=25, on_repeat=SET, on_expire=FLAG),
        ],
    ),
    (  # 7. Classical: 40 plies in 2 hours, then 30 minutes
        record(
            '{ "duration_ms": 7200000, "plies": 40 },\n{ "duration_ms": 1800000 }',
            [("e2-e4", 50000), ("c7-c5", 35000), ("g1-f3", 42200)],
        ),
        [50000, 35000, 42200],
        [
            Stage(7200000, moves=40, on_repeat=SET, on_expire=NEXT),
            Stage(1800000, on_repeat=SET, on_expire=FLAG),
        ],
    ),
    (  # 8. Rapid 15+10
        record(
            '{ "duration_ms": 900000, "increment_ms": 10000 }', [("e2-e4", 5000), ("e7-e5", 8000)]
        ),
        [5000, 8000],
        [Stage(900000, increment_ms=10000, on_repeat=SET, on_expire=FLAG)],
    ),
    (  # 9. Bullet 1+0
        record(
            '{ "duration_ms": 60000 }',
            [("e2-e4", 1200), ("e7-e5", 800), ("d2-d4", 1500), ("e5+d4", 900)],
        ),
        [1200, 800, 1500, 900],
        [Stage(60000, on_repeat=SET, on_expire=FLAG)],
    ),
]

EXAMPLE_10 = (
    '{\n"sides": {\n"first": { "name": "Human" },\n"second": { "name": "Engine" }\n},\n'
    + record(None, [("e2-e4", None), ("e7-e5", None)])[1:]
)


def fields(stage):
    return (
        stage.duration_ms,
        stage.moves,
        stage.increment_ms,
        stage.mode,
        stage.increment_every,
        stage.periods,
        stage.on_enter,
        stage.on_repeat,
        stage.on_expire,
    )


def stages(setup):
    assert setup.first == setup.second  # PCN is match-wide
    return list(setup.first.stages)


def test_seed_examples_give_the_stages_worked_out_by_hand():
    for text, _, expected in EXAMPLES:
        assert stages(pcn.parse(text)) == expected
        assert pcn.parse(text) == Setup(Control(expected))


def test_example_7_classical_field_by_field():
    first, second = stages(pcn.parse(EXAMPLES[6][0]))
    assert fields(first) == (7200000, 40, 0, FISCHER_AFTER, 1, 1, ADD, SET, NEXT)
    assert fields(second) == (1800000, 0, 0, FISCHER_AFTER, 1, 1, ADD, SET, FLAG)


def test_each_period_maps_field_by_field():
    # Fischer 5+3: 300 s, +3 s after each ply; byo-yomi cap 30 s; quota 25 plies in 5 min.
    (fischer,) = stages(pcn.parse(EXAMPLES[1][0]))
    assert fields(fischer) == (300000, 0, 3000, FISCHER_AFTER, 1, 1, ADD, SET, FLAG)
    main, cap = stages(pcn.parse(EXAMPLES[2][0]))
    assert fields(main) == (600000, 0, 0, FISCHER_AFTER, 1, 1, ADD, SET, NEXT)
    assert fields(cap) == (30000, 1, 0, FISCHER_AFTER, 1, 1, ADD, SET, FLAG)
    assert cap.is_period()
    bank, quota = stages(pcn.parse(EXAMPLES[5][0]))
    assert fields(bank) == (3600000, 0, 0, FISCHER_AFTER, 1, 1, ADD, SET, NEXT)
    assert fields(quota) == (300000, 25, 0, FISCHER_AFTER, 1, 1, ADD, SET, FLAG)


def test_example_10_without_periods_is_untimed():
    setup = pcn.parse(EXAMPLE_10)
    assert setup == Setup(Control([]))
    assert setup.first.untimed() and setup.second.untimed()


def test_the_bare_array_form():
    setup = pcn.parse('[{"duration_ms": 300000, "increment_ms": 3000}]')
    assert stages(setup) == [Stage(300000, increment_ms=3000, on_repeat=SET)]
    three = pcn.parse(
        '[{"duration_ms":1000,"plies":2},{"duration_ms":0,"plies":1},{"duration_ms":5}]'
    )
    assert stages(three) == [
        Stage(1000, moves=2, on_repeat=SET, on_expire=NEXT),
        Stage(0, moves=1, on_repeat=SET, on_expire=NEXT),
        Stage(5, on_repeat=SET, on_expire=FLAG),
    ]


def test_records_give_each_plys_elapsed_time_and_the_sides():
    for text, elapsed, expected in EXAMPLES:
        setup, times, sides = pcn.parse_record(text)
        assert setup == Setup(Control(expected))
        assert times == elapsed
        assert sides == {"first": None, "second": None}
    setup, times, sides = pcn.parse_record(EXAMPLE_10)
    assert setup == Setup(Control([]))
    assert times == [None, None]
    assert sides == {"first": "Human", "second": "Engine"}


def test_seed_example_2_clock_arithmetic_from_the_record():
    # The seed: after ply 1, 300000 - 8000 + 3000 = 295000; after ply 3, 295000 - 15000 + 3000.
    setup, times, _ = pcn.parse_record(EXAMPLES[1][0])
    stage = setup.first.stages[0]
    left = stage.duration_ms
    for elapsed in times[0::2]:  # the first player's plies
        left = left - elapsed + stage.increment_ms
    assert left == 283000


def test_a_record_may_have_no_plies_and_partial_sides():
    setup, times, sides = pcn.parse_record('{"periods":[{"duration_ms":1}],"sides":{"first":{}}}')
    assert times == [] and sides == {"first": None, "second": None}
    assert pcn.parse_record('{"plies":[{"pmn":"e2-e4","elapsed_ms":0}]}')[1] == [0]


def check_error(function, text, *problem):
    error = raises(PresetError, function, text)
    assert error.notation == "pcn"
    assert error.text == text
    assert error.position is None
    message = str(error)
    assert message.startswith("pcn preset ")
    assert text[:20].replace('"', '\\"') in message
    for part in problem:
        assert part in message, (part, message)
    return error


def test_text_that_is_not_json_is_refused():
    for text in ("", "[1,2", "{periods: 1}", "300+3", '{"periods": [}'):
        check_error(pcn.parse, text, "not valid JSON")
    check_error(pcn.parse_record, "[", "not valid JSON")


def test_a_preset_must_be_text():
    error = raises(PresetError, pcn.parse, 300)
    assert "must be text" in str(error)


def test_shapes_that_are_not_periods_are_refused():
    check_error(pcn.parse, "5", "expected an array of periods or a PCN document, found 5")
    check_error(pcn.parse, '"x"', 'found "x"')
    check_error(pcn.parse, '{"periods": 5}', "periods: expected an array of periods, found 5")
    check_error(pcn.parse, '{"periods": {}}', "found an object")
    check_error(pcn.parse, "[]", "periods: expected at least one period")
    check_error(pcn.parse, '{"periods": []}', "at least one period")
    nine = "[" + ",".join(['{"duration_ms":1}'] * 9) + "]"
    check_error(pcn.parse, nine, "periods: at most 8 periods, found 9")
    check_error(pcn.parse, "[5]", "periods[0]: expected an object", "found 5")
    check_error(pcn.parse, '[{"duration_ms":1}, []]', "periods[1]: expected an object")
    check_error(pcn.parse, '{"duration_ms": 60000}', "duration_ms belongs in a period")
    check_error(pcn.parse, '{"plies": [], "increment_ms": 0}', "increment_ms belongs in a period")


def test_bad_period_fields_are_named_by_path():
    check_error(
        pcn.parse,
        '[{"duration_ms": 1}, {"duration_ms": 2, "plies": -3}]',
        "periods[1].plies: expected a whole number of plies >= 1, found -3",
    )
    check_error(pcn.parse, '[{"duration_ms":1,"plies":0}]', "periods[0].plies", "found 0")
    check_error(pcn.parse, '[{"duration_ms":1,"plies":1.5}]', "periods[0].plies", "found 1.5")
    check_error(pcn.parse, '[{"duration_ms":1,"bonus":2}]', 'periods[0]: unknown key "bonus"')
    check_error(pcn.parse, '[{"plies":2}]', "periods[0].duration_ms: missing")
    expected = "periods[0].duration_ms: expected a whole number of milliseconds >= 0, found "
    check_error(pcn.parse, '[{"duration_ms":1000.0}]', expected + "1000.0")
    check_error(pcn.parse, '[{"duration_ms":true}]', expected + "true")
    check_error(pcn.parse, '[{"duration_ms":"1000"}]', expected + '"1000"')
    check_error(pcn.parse, '[{"duration_ms":null}]', expected + "null")
    check_error(pcn.parse, '[{"duration_ms":-1}]', expected + "-1")
    check_error(
        pcn.parse,
        '[{"duration_ms":1,"increment_ms":-5}]',
        "periods[0].increment_ms: expected a whole number of milliseconds >= 0, found -5",
    )
    check_error(
        pcn.parse,
        '[{"duration_ms":%d}]' % (MAX_MS + 1),
        "periods[0].duration_ms: %d is more than the clock can hold" % (MAX_MS + 1),
    )
    check_error(
        pcn.parse, '[{"duration_ms":1,"plies":100001}]', "periods[0].plies: 100001 is more"
    )


def test_bad_records_are_refused_by_path():
    check_error(pcn.parse_record, '[{"duration_ms":1}]', "expected a PCN game record")
    check_error(pcn.parse_record, '{"plies":{}}', "plies: expected an array of plies")
    check_error(pcn.parse_record, '{"plies":[{}, 3]}', "plies[1]: expected an object, found 3")
    check_error(
        pcn.parse_record,
        '{"plies":[{"elapsed_ms":-2}]}',
        "plies[0].elapsed_ms: expected a whole number of milliseconds >= 0, found -2",
    )
    check_error(pcn.parse_record, '{"plies":[{"elapsed_ms":2.5}]}', "plies[0].elapsed_ms")
    check_error(pcn.parse_record, '{"sides":[]}', "sides: expected an object")
    check_error(pcn.parse_record, '{"sides":{"second":"Bob"}}', "sides.second: expected an object")
    check_error(
        pcn.parse_record, '{"sides":{"first":{"name":7}}}', "sides.first.name: expected text"
    )
    check_error(pcn.parse_record, '{"periods":[]}', "at least one period")


def test_format_writes_compact_json_in_key_order():
    assert pcn.format(pcn.parse(EXAMPLES[1][0])) == '[{"duration_ms":300000,"increment_ms":3000}]'
    assert pcn.format(pcn.parse(EXAMPLES[6][0])) == (
        '[{"duration_ms":7200000,"plies":40},{"duration_ms":1800000}]'
    )
    assert pcn.format(pcn.parse(EXAMPLES[2][0])) == (
        '[{"duration_ms":600000},{"duration_ms":30000,"plies":1}]'
    )
    text = '[{"plies":3,"increment_ms":2,"duration_ms":1}]'
    assert pcn.format(pcn.parse(text)) == '[{"duration_ms":1,"increment_ms":2,"plies":3}]'
    assert pcn.format(pcn.parse(EXAMPLE_10)) == "{}"


def test_round_trips():
    for text in [example[0] for example in EXAMPLES] + [EXAMPLE_10, "{}", '[{"duration_ms":0}]']:
        setup = pcn.parse(text)
        assert pcn.parse(pcn.format(setup)) == setup
        assert pcn.format(pcn.parse(pcn.format(setup))) == pcn.format(setup)


def refuses(setup, *problem):
    error = raises(PresetError, pcn.format, setup)
    assert error.notation == "pcn" and error.position is None
    assert "PCN cannot say" in str(error)
    for part in problem:
        assert part in str(error), (part, str(error))


def test_format_refuses_what_pcn_cannot_say():
    bank = Control([Stage(60000, on_repeat=SET)])
    refuses(Setup(bank, Control([Stage(30000, on_repeat=SET)])), "different controls")
    refuses(Setup(bank, hourglass=True), "hourglass")
    refuses(Setup(bank, word=True), "word")
    refuses(Setup(bank, start_ms=1000), "start clock")
    refuses(Setup(bank, limit_ms=1000), "game time limit")
    refuses(Setup(bank, limit_turns=10), "game time limit")
    refuses(Setup(Control([Stage(60000, on_repeat=SET)], max_ms=90000)), "maximum time")
    refuses(Setup(Control([Stage(60000, on_repeat=SET)], move_limit_ms=5)), "Arimaa")
    refuses(Setup(Control([Stage(60000, on_repeat=SET)], move_ms=5)), "Arimaa")
    for stage in (
        Stage(60000, increment_ms=5, mode=BRONSTEIN, on_repeat=SET),
        Stage(60000, increment_ms=5, mode=DELAY, on_repeat=SET),
        Stage(60000, increment_ms=5, increment_every=2, on_repeat=SET),
        Stage(30000, moves=1, periods=3, on_repeat=SET),
        Stage(30000, moves=1, on_enter=SET, on_repeat=SET),
        Stage(60000, moves=2, on_repeat=ADD),
        Stage(60000, on_repeat=SET, on_expire=NEXT),
    ):
        refuses(Setup(Control([stage])), "stage 1")
    refuses(Setup(Control([Stage(1, on_repeat=SET), Stage(2, on_repeat=SET)])), "stage 1")
    refuses("300+3", "not a Setup")


def test_looks_like():
    for text in [example[0] for example in EXAMPLES] + [EXAMPLE_10, "{}", ' [{"duration_ms":1}] ']:
        assert pcn.looks_like(text)
    for text in ("", "5+3", "[[periods]]\nduration_ms = 1", '{"time_control":"none"}', "[]", 5):
        assert not pcn.looks_like(text)
