# CPython only: the SGF parser never crashes, and what it reads or formats survives a round trip.
from hypothesis import given, settings
from hypothesis import strategies as st

from clock.model import ADD, BRONSTEIN, DELAY, FISCHER, FISCHER_AFTER, FLAG, NEXT, SET, SOFT
from clock.model import ClockError, Control, Setup, Stage
from notation import sgf
from notation.errors import PresetError

TOKENS = (
    "TM", "OT", "GM", "(", ";", ")", "[", "]", "\\", "\\]", " ", "\n", "0", "5", "30", "1800",
    "0.5", "1.0001", "-", "+", "x", "/", "byo-yomi", "byoyomi", "byo yomi", "Canadian",
    "fischer", "simple", "moves", "sec", "min", "99999999",
)  # fmt: skip
ALPHABET = "TMOGB[]();\\ 0123456789.x/-+byoCadnfischermplvt"


def texts():
    tokens = st.lists(st.sampled_from(TOKENS), max_size=14).map("".join)
    return st.one_of(st.text(max_size=40), st.text(alphabet=ALPHABET, max_size=30), tokens)


def overtimes():
    number = st.sampled_from(["0", "1", "5", "25", "30", "0.5", "12.25", "999999"])
    space = st.sampled_from(["", " ", "  "])
    word = st.sampled_from(["byo-yomi", "Byoyomi", "byo yomi", "Canadian", "fischer", "simple"])
    shapes = st.one_of(
        st.tuples(number, space, st.sampled_from(["x", "X", "/"]), space, number, space, word),
        st.tuples(number, space, word),
        st.tuples(number, st.just(" moves / "), number, st.sampled_from([" sec", " min"])),
    )
    return st.one_of(shapes.map("".join), st.just(""))


def records():
    tm = st.sampled_from(["", "TM[0]", "TM[60]", "TM[1800]", "TM[0.5]", "TM[+5]", "TM[-1]"])
    ot = overtimes().map(lambda value: "OT[%s]" % value)
    other = st.sampled_from(["", "GM[1]", "PB[a\\]b]", "AB[aa][bb]", " ", "\n"])
    props = st.lists(st.one_of(tm, ot, other), max_size=4).map("".join)
    wrapped = props.map(lambda value: "(;" + value + ")")
    return st.one_of(props, wrapped, overtimes())


def check(text):
    try:
        result = sgf.parse(text)
    except PresetError as error:
        assert error.notation == "sgf"
        assert error.position is None or 0 <= error.position <= len(text)
        return None
    assert isinstance(result, Setup)
    again = sgf.format(result)
    assert sgf.parse(again) == result
    assert sgf.format(sgf.parse(again)) == again
    return result


@settings(max_examples=10000, deadline=None)
@given(st.one_of(texts(), records()))
def test_fuzz_parse_returns_setup_or_preset_error(text):
    check(text)


@settings(max_examples=2000, deadline=None)
@given(records())
def test_well_shaped_records_round_trip(text):
    check(text)


def make_stage(fields):
    try:
        return Stage(*fields)
    except ClockError:
        return None


def stages():
    stage = st.tuples(
        st.sampled_from([0, 1, 500, 30000, 1800000]),
        st.sampled_from([0, 0, 1, 1, 25]),
        st.sampled_from([0, 0, 0, 2000]),
        st.sampled_from([FISCHER, FISCHER_AFTER, FISCHER_AFTER, BRONSTEIN, DELAY]),
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
        text = sgf.format(setup)
    except PresetError as error:
        assert error.notation == "sgf" and "SGF cannot say" in str(error)
        return
    assert sgf.parse(text) == setup
