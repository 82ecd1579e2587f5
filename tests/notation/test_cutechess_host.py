# CPython only: the cutechess parser never crashes, and what it reads or formats round-trips.
from hypothesis import given, settings
from hypothesis import strategies as st

from clock.model import ADD, BRONSTEIN, DELAY, FISCHER, FISCHER_AFTER, FLAG, NEXT, SET, SOFT
from clock.model import ClockError, Control, Setup, Stage
from notation import cutechess
from notation.errors import PresetError

TOKENS = (
    "tc=", "st=", "inf", "hg", "0", "1", "40", "60", "0.5", "1.25", "1.0001", "99999999999",
    "/", ":", "+", ".", " ", "x", "TC=",
)  # fmt: skip
ALPHABET = "tcsinfhg=0123456789/:+. "


def texts():
    tokens = st.lists(st.sampled_from(TOKENS), max_size=12).map("".join)
    return st.one_of(st.text(max_size=30), st.text(alphabet=ALPHABET, max_size=20), tokens)


def options():
    moves = st.sampled_from(["", "", "0/", "1/", "40/", "100001/"])
    hourglass = st.sampled_from(["", "", "hg"])
    time = st.sampled_from(["0", "1", "60", "0.5", "1:30", "2:30.25", "0:0", "999999"])
    increment = st.sampled_from(["", "", "+0", "+0.5", "+2", "+0.0001"])
    tc = st.tuples(st.sampled_from(["tc=", ""]), moves, hourglass, time, increment)
    st_option = st.sampled_from(["0", "5", "0.25", "1.5", "600"]).map(lambda value: "st=" + value)
    return st.one_of(tc.map("".join), st_option, st.just("tc=inf"))


def check(text):
    try:
        result = cutechess.parse(text)
    except PresetError as error:
        assert error.notation == "cutechess"
        assert error.position is None or 0 <= error.position <= len(text)
        return None
    assert isinstance(result, Setup)
    again = cutechess.format(result)
    assert cutechess.parse(again) == result
    assert cutechess.format(cutechess.parse(again)) == again
    return result


@settings(max_examples=10000, deadline=None)
@given(st.one_of(texts(), options()))
def test_fuzz_parse_returns_setup_or_preset_error(text):
    check(text)


@settings(max_examples=2000, deadline=None)
@given(options())
def test_well_shaped_options_round_trip(text):
    check(text)


def make_stage(fields):
    try:
        return Stage(*fields)
    except ClockError:
        return None


def stages():
    stage = st.tuples(
        st.sampled_from([0, 1, 500, 60000, 300000]),
        st.sampled_from([0, 0, 1, 40]),
        st.sampled_from([0, 0, 5, 2000]),
        st.sampled_from([FISCHER, FISCHER, FISCHER_AFTER, BRONSTEIN, DELAY]),
        st.sampled_from([1, 1, 1, 2]),
        st.sampled_from([1, 1, 1, 3]),
        st.sampled_from([ADD, ADD, SET]),
        st.sampled_from([ADD, ADD, SET]),
        st.sampled_from([FLAG, FLAG, NEXT, SOFT]),
    ).map(make_stage)
    return st.lists(stage.filter(lambda value: value is not None), max_size=2)


@settings(max_examples=2000, deadline=None)
@given(stages(), stages(), st.booleans(), st.booleans())
def test_format_says_the_setup_exactly_or_refuses(first, second, hourglass, same):
    control = Control(first)
    setup = Setup(control, control if same else Control(second), hourglass)
    try:
        text = cutechess.format(setup)
    except PresetError as error:
        assert error.notation == "cutechess" and "cutechess-cli cannot say" in str(error)
        return
    assert cutechess.parse(text) == setup
