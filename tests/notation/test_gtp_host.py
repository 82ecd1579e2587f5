# CPython only: the GTP parser never crashes, and what it reads or formats survives a round trip.
from hypothesis import given, settings
from hypothesis import strategies as st

from clock.model import ADD, BRONSTEIN, DELAY, FISCHER, FISCHER_AFTER, FLAG, NEXT, SET, SOFT
from clock.model import ClockError, Control, Setup, Stage
from notation import gtp
from notation.errors import PresetError

TOKENS = (
    "time_settings", "kgs-time_settings", "none", "absolute", "byoyomi", "canadian", " ",
    "\t", "\n", "#", "0", "1", "5", "30", "1800", "-1", "1.5", "9999999999", "12 ",
)  # fmt: skip
ALPHABET = "time_sengkvabolucyr- \t\n#0123456789."


def texts():
    tokens = st.lists(st.sampled_from(TOKENS), max_size=10).map("".join)
    return st.one_of(st.text(max_size=40), st.text(alphabet=ALPHABET, max_size=40), tokens)


def commands():
    number = st.sampled_from(["0", "0", "1", "5", "30", "600", "1800", "200000", "999999"])
    space = st.sampled_from([" ", " ", "  ", "\t"])
    three = st.tuples(space, number, space, number, space, number).map("".join)
    standard = three.map(lambda args: "time_settings" + args)
    system = st.sampled_from(["byoyomi", "canadian"])
    kgs = st.one_of(
        st.just("kgs-time_settings none"),
        number.map(lambda value: "kgs-time_settings absolute " + value),
        st.tuples(system, three).map(lambda parts: "kgs-time_settings " + "".join(parts)),
    )
    ident = st.sampled_from(["", "", "3 ", "12 "])
    tail = st.sampled_from(["", "", " ", "\n", " # comment"])
    return st.tuples(ident, st.one_of(standard, kgs), tail).map("".join)


def check(text):
    try:
        result = gtp.parse(text)
    except PresetError as error:
        assert error.notation == "gtp"
        assert error.position is None or 0 <= error.position <= len(text)
        return None
    assert isinstance(result, Setup)
    again = gtp.format(result)
    assert gtp.parse(again) == result
    assert gtp.format(gtp.parse(again)) == again
    return result


@settings(max_examples=10000, deadline=None)
@given(st.one_of(texts(), commands()))
def test_fuzz_parse_returns_setup_or_preset_error(text):
    check(text)


@settings(max_examples=2000, deadline=None)
@given(commands())
def test_well_shaped_commands_round_trip(text):
    check(text)


def make_stage(fields):
    try:
        return Stage(*fields)
    except ClockError:
        return None


def stages():
    stage = st.tuples(
        st.sampled_from([0, 1, 1000, 30000, 1800000]),
        st.sampled_from([0, 0, 1, 1, 25]),
        st.sampled_from([0, 0, 0, 2000]),
        st.sampled_from([FISCHER, FISCHER_AFTER, BRONSTEIN, DELAY]),
        st.sampled_from([1, 1, 1, 2]),
        st.sampled_from([1, 1, 5]),
        st.sampled_from([ADD, SET]),
        st.sampled_from([ADD, SET]),
        st.sampled_from([FLAG, FLAG, NEXT, SOFT]),
    ).map(make_stage)
    return st.lists(stage.filter(lambda value: value is not None), max_size=3)


@settings(max_examples=2000, deadline=None)
@given(stages(), stages(), st.booleans())
def test_format_says_the_setup_exactly_or_refuses(first, second, same):
    control = Control(first)
    setup = Setup(control, control if same else Control(second))
    try:
        text = gtp.format(setup)
    except PresetError as error:
        assert error.notation == "gtp" and "GTP cannot say" in str(error)
        return
    assert gtp.parse(text) == setup
