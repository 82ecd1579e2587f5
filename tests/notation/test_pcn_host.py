# SPDX-License-Identifier: MIT
# PCN on CPython: the seed's examples in TOML, TOML errors, fuzzing both forms, round trips.
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from clock.model import MAX_COUNT, MAX_MS, NEXT, SET, Control, Setup, Stage
from notation import pcn, pcn_toml
from notation.errors import PresetError
from support import raises
from test_pcn import CHESS, EXAMPLE_10, EXAMPLES, SHOGI
import fuzzing


def toml_record(periods, plies, feen=CHESS):
    """A seed example in TOML, as the seed writes it."""
    lines = []
    for period in periods:
        lines.append("[[periods]]")
        lines += ["%s = %d" % item for item in period]
    lines += ["[setup]", 'feen = "%s"' % feen]
    for pmn, elapsed in plies:
        lines += ["[[plies]]", 'pmn = "%s"' % pmn]
        if elapsed is not None:
            lines.append("elapsed_ms = %d" % elapsed)
    return "\n".join(lines) + "\n"


D, I, P = "duration_ms", "increment_ms", "plies"
TOML_EXAMPLES = [
    toml_record([[(D, 600000)]], [("e2-e4", 18400), ("e7-e5", 22100)]),
    toml_record(
        [[(D, 300000), (I, 3000)]],
        [("e2-e4", 8000), ("e7-e5", 12000), ("g1-f3", 15000), ("b8-c6", 5000)],
    ),
    toml_record(
        [[(D, 600000)], [(D, 30000), (P, 1)]],
        [("7g-7f", 5200), ("3c-3d", 8000), ("2g-2f", 28400), ("8d-8e", 4100)],
        SHOGI,
    ),
    toml_record([[(D, 30000), (P, 1)]], [("e2-e4", 15000), ("e7-e5", 22000)]),
    toml_record([[(D, 300000), (P, 25)]], [("e2-e4", 10000), ("e7-e5", 12500)]),
    toml_record([[(D, 3600000)], [(D, 300000), (P, 25)]], [("d2-d4", 27300), ("d7-d5", 18000)]),
    toml_record(
        [[(D, 7200000), (P, 40)], [(D, 1800000)]],
        [("e2-e4", 50000), ("c7-c5", 35000), ("g1-f3", 42200)],
    ),
    toml_record([[(D, 900000), (I, 10000)]], [("e2-e4", 5000), ("e7-e5", 8000)]),
    toml_record(
        [[(D, 60000)]], [("e2-e4", 1200), ("e7-e5", 800), ("d2-d4", 1500), ("e5+d4", 900)]
    ),
]
TOML_EXAMPLE_10 = '[sides.first]\nname = "Human"\n[sides.second]\nname = "Engine"\n' + toml_record(
    [], [("e2-e4", None), ("e7-e5", None)]
)


def test_seed_examples_in_toml_match_json_and_the_stages():
    for toml_text, (json_text, elapsed, expected) in zip(TOML_EXAMPLES, EXAMPLES):
        setup = pcn_toml.parse(toml_text)
        assert setup == pcn.parse(json_text) == Setup(Control(expected))
        assert list(setup.first.stages) == expected
        assert pcn_toml.parse_record(toml_text) == pcn.parse_record(json_text)
        assert pcn_toml.parse_record(toml_text)[1] == elapsed
    assert pcn_toml.parse(TOML_EXAMPLE_10) == Setup(Control([]))
    assert pcn_toml.parse_record(TOML_EXAMPLE_10) == (
        Setup(Control([])),
        [None, None],
        {"first": "Human", "second": "Engine"},
    )


def test_the_seeds_toml_reads_exactly_as_written():
    text = """[[periods]]
duration_ms = 7200000
plies = 40
[[periods]]
duration_ms = 1800000
[setup]
feen = "+rnbq+k^bn+r/+p+p+p+p+p+p+p+p/8/8/8/8/+P+P+P+P+P+P+P+P/+RNBQ+K^BN+R / C/c"
[[plies]]
pmn = "e2-e4"
elapsed_ms = 50000
"""
    assert text == TOML_EXAMPLES[6][: len(text)]
    assert list(pcn_toml.parse(text).first.stages) == [
        Stage(7200000, moves=40, on_repeat=SET, on_expire=NEXT),
        Stage(1800000, on_repeat=SET),
    ]
    assert pcn_toml.parse("periods = [{duration_ms = 60000}]") == pcn.parse(
        '[{"duration_ms":60000}]'
    )


def check_error(function, text, position, *problem):
    error = raises(PresetError, function, text)
    assert error.notation == "pcn" and error.text == text
    assert error.position == position, (error.position, str(error))
    for part in problem:
        assert part in str(error), (part, str(error))
    return error


def test_invalid_toml_is_refused_where_tomllib_says():
    check_error(pcn_toml.parse, "x = 1\ny = 2 3", 12, "not valid TOML", "at character 13")
    check_error(pcn_toml.parse, "[[periods]]\nduration_ms = ", 26, "Invalid value")
    check_error(pcn_toml.parse, "[[periods]\n", 9, "Expected ']]'")
    check_error(pcn_toml.parse, "a = 1\na = 2", 11, "not valid TOML")
    check_error(pcn_toml.parse_record, "[", 1, "not valid TOML")
    check_error(pcn_toml.parse, "x = " + "9" * 5000, None, "not valid TOML")
    check_error(pcn_toml.parse, "x = " + "[" * 2000 + "]" * 2000, None, "not valid TOML")
    assert "must be text" in str(raises(PresetError, pcn_toml.parse, b"[[periods]]"))


def test_toml_periods_are_checked_as_json_ones():
    check_error(pcn_toml.parse, "periods = 5", None, "periods: expected an array of periods")
    check_error(pcn_toml.parse, "periods = []", None, "at least one period")
    check_error(
        pcn_toml.parse,
        "[[periods]]\nduration_ms = 1.5",
        None,
        "periods[0].duration_ms: expected a whole number of milliseconds >= 0, found 1.5",
    )
    check_error(
        pcn_toml.parse,
        "[[periods]]\nduration_ms = 1\n[[periods]]\nduration_ms = 2\nplies = -3",
        None,
        "periods[1].plies: expected a whole number of plies >= 1, found -3",
    )
    check_error(pcn_toml.parse, "[[periods]]\nduration_ms = 1979-05-27", None, "found 1979-05-27")
    check_error(pcn_toml.parse, '[[periods]]\nduration_ms = 1\nx = "y"', None, 'unknown key "x"')
    check_error(pcn_toml.parse, "duration_ms = 60000", None, "belongs in a period")
    check_error(pcn_toml.parse_record, "[[plies]]\nelapsed_ms = -1", None, "plies[0].elapsed_ms")
    check_error(pcn_toml.parse_record, "[sides]\nfirst = 1", None, "sides.first: expected")


def test_toml_format_and_round_trips():
    assert pcn_toml.format(pcn.parse(EXAMPLES[6][0])) == (
        "[[periods]]\nduration_ms = 7200000\nplies = 40\n[[periods]]\nduration_ms = 1800000\n"
    )
    assert pcn_toml.format(pcn.parse(EXAMPLES[1][0])) == (
        "[[periods]]\nduration_ms = 300000\nincrement_ms = 3000\n"
    )
    assert pcn_toml.format(Setup(Control([]))) == ""
    for text in TOML_EXAMPLES + [TOML_EXAMPLE_10]:
        setup = pcn_toml.parse(text)
        assert pcn_toml.parse(pcn_toml.format(setup)) == setup
        assert pcn.parse(pcn.format(setup)) == setup
    error = raises(PresetError, pcn_toml.format, Setup(Control([Stage(1)]), hourglass=True))
    assert "PCN cannot say hourglass" in str(error)


def test_toml_looks_like():
    for text in TOML_EXAMPLES + [TOML_EXAMPLE_10, "# a comment\n\n[[periods]]\nduration_ms = 1"]:
        assert pcn_toml.looks_like(text)
        assert not pcn.looks_like(text)
    for text in ("", "[]", '[{"duration_ms":1}]', "300+3", '{"time_control":"none"}', None):
        assert not pcn_toml.looks_like(text)


# ---- fuzzing: parse returns a Setup or raises PresetError, never anything else

KEYS = ["periods", "duration_ms", "increment_ms", "plies", "elapsed_ms", "sides", "first", "name"]
# Scalars drawn from a list reach the limits cheaply; hypothesis's own floats and text are slow.
SCALARS = st.sampled_from(
    [None, True, False, 0, 1, -1, -3, 1.5, 1000.0, 1e400, "", "x", MAX_MS, MAX_MS + 1]
    + [MAX_COUNT, MAX_COUNT + 1, float("nan"), 2**64]
) | st.integers(-(2**40), 2**40)
VALUES = st.recursive(
    SCALARS | st.text(max_size=3),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=2), children, max_size=3),
    max_leaves=5,
)
FIELD = SCALARS | st.integers(0, MAX_MS)
PERIOD = st.fixed_dictionaries(
    {}, optional={"duration_ms": FIELD, "increment_ms": FIELD, "plies": FIELD, "x": FIELD}
)
DOCUMENTS = (
    VALUES
    | st.lists(PERIOD | SCALARS, max_size=9)
    | st.fixed_dictionaries(
        {"periods": st.lists(PERIOD, max_size=9)}, optional={"plies": VALUES, "sides": VALUES}
    )
)
JSON_TEXT = st.text(alphabet='[]{}:,"-.0123456789eE durationmsplie')


def parses_or_refuses(function, text):
    fuzzing.parses_or_refuses(function, text, "pcn", (Setup, tuple))


@settings(max_examples=1000, deadline=None)
@given(st.text() | JSON_TEXT | DOCUMENTS.map(lambda doc: json.dumps(doc, allow_nan=True)))
def test_fuzz_pcn_parse(text):
    parses_or_refuses(pcn.parse, text)
    parses_or_refuses(pcn.parse_record, text)


def toml_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)  # Python's inf and nan are TOML's too
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value if item is not None) + "]"
    if isinstance(value, dict):
        items = [
            "%s = %s" % (json.dumps(k), toml_value(v)) for k, v in value.items() if v is not None
        ]
        return "{" + ", ".join(items) + "}"
    return '""'


def toml_document(doc):
    """TOML text for a generated value: [[periods]] tables for a list, keys for a dict."""
    if isinstance(doc, list):
        tables = []
        for item in doc:
            body = item.items() if isinstance(item, dict) else [("x", item)]
            lines = ["%s = %s" % (json.dumps(k), toml_value(v)) for k, v in body if v is not None]
            tables.append("\n".join(["[[periods]]"] + lines))
        return "\n".join(tables)
    if isinstance(doc, dict):
        return "\n".join(
            "%s = %s" % (json.dumps(k), toml_value(v)) for k, v in doc.items() if v is not None
        )
    return "x = " + toml_value(doc)


TOML_TEXT = st.text(alphabet='[]{}=,"-.0123456789 \n#periodsuatn_')


@settings(max_examples=1000, deadline=None)
@given(st.text() | TOML_TEXT | DOCUMENTS.map(toml_document))
def test_fuzz_pcn_toml_parse(text):
    parses_or_refuses(pcn_toml.parse, text)


def test_the_toml_fuzz_reaches_the_periods():
    text = toml_document([{"duration_ms": 5, "plies": 2}, {"duration_ms": 7}])
    assert pcn_toml.parse(text) == pcn.parse('[{"duration_ms":5,"plies":2},{"duration_ms":7}]')


# ---- round trips

VALID_PERIOD = st.fixed_dictionaries(
    {"duration_ms": st.integers(0, MAX_MS)},
    optional={"increment_ms": st.integers(0, MAX_MS), "plies": st.integers(1, MAX_COUNT)},
)


@settings(max_examples=1000, deadline=None)
@given(st.lists(VALID_PERIOD, min_size=1, max_size=8))
def test_round_trip(periods):
    setup = pcn.parse(json.dumps(periods))
    fuzzing.round_trips(pcn, setup)
    assert pcn_toml.parse(pcn_toml.format(setup)) == setup
    assert pcn.parse(json.dumps({"periods": periods, "plies": []})) == setup
    assert len(setup.first.stages) == len(periods)
