# CPython only: the GGS parser never crashes, and what it reads survives a round trip.
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from clock.model import ADD, BRONSTEIN, DELAY, FISCHER, FISCHER_AFTER, FLAG, NEXT, SET, SOFT
from clock.model import ClockError, Control, Setup, Stage
from notation import ggs
from notation.errors import PresetError

TOKENS = (
    "0", "1", "2", "5", "00", "30", "59", "60", "75", "100", "1234567890", ":", ":", ":00",
    "/", "/", "/", ",", ",", "N", "n", " ", ".", "-", "x", "h", "2:00", "1:00:00", ",N0",
)  # fmt: skip
ALPHABET = "0123456789:/,N .x"

CLOCK = st.tuples(st.integers(0, 59), st.integers(0, 59))
TIME = st.one_of(
    st.integers(0, 5000).map(str),
    CLOCK.map(lambda t: "%d:%02d" % t),
    st.tuples(st.integers(0, 100), CLOCK).map(lambda t: "%d:%02d:%02d" % ((t[0],) + t[1])),
)


def field(low):
    count = st.tuples(st.sampled_from(["", "N"]), st.integers(low, 200)).map(lambda c: ",%s%d" % c)
    return st.one_of(
        st.just(""), TIME, st.tuples(TIME, count).map("".join)  # fmt: skip
    )


def valid_texts():
    return st.tuples(field(0), field(1), field(0)).map("/".join)


VALID = valid_texts()


def texts():
    tokens = st.lists(st.sampled_from(TOKENS), max_size=14).map("".join)
    return st.one_of(
        st.text(max_size=40), st.text(alphabet=ALPHABET, max_size=30), tokens, mutants()
    )


@st.composite
def mutants(draw):
    """A valid text with one character deleted, replaced or inserted."""
    text = draw(VALID)
    at = draw(st.integers(0, len(text)))
    char = draw(st.sampled_from(ALPHABET + "\x00\u00e9"))
    how = draw(st.integers(0, 2))
    if how == 0:
        return text[:at] + text[at + 1 :]
    return text[:at] + char + text[at + (how == 1) :]


def check(text):
    try:
        result = ggs.parse(text)
    except PresetError as error:
        assert error.position is None or 0 <= error.position <= len(text)
        assert error.notation == "ggs"
        return None
    assert isinstance(result, Setup)
    again = ggs.format(result)
    assert ggs.parse(again) == result
    assert ggs.format(ggs.parse(again)) == again
    return result


@settings(max_examples=10000, deadline=None)
@given(texts())
def test_fuzz_parse_returns_setup_or_preset_error(text):
    check(text)


@settings(max_examples=1000, deadline=None)
@given(VALID)
def test_round_trip_of_valid_texts(text):
    assert check(text) is not None, text


MS = st.sampled_from([0, 500, 5000, 60000, 3600000])
INC = st.sampled_from([0, 0, 500, 12000])
MODE = st.sampled_from([FISCHER_AFTER] * 4 + [BRONSTEIN] * 4 + [FISCHER, DELAY])
EVERY = st.sampled_from([1] * 4 + [3])


@st.composite
def setups(draw):
    """GGS-like pairs of stages, with each field sometimes off the GGS pattern."""
    try:
        main = Stage(
            draw(MS),
            moves=draw(st.sampled_from([0, 40])),
            increment_ms=draw(INC),
            mode=draw(MODE),
            increment_every=draw(EVERY),
            periods=draw(st.sampled_from([1] * 9 + [2])),
            on_enter=draw(st.sampled_from([ADD] * 9 + [SET])),
            on_repeat=draw(st.sampled_from([ADD] * 9 + [SET])),
            on_expire=draw(st.sampled_from([SOFT, NEXT, SOFT, NEXT, FLAG])),
        )
        enter = draw(st.sampled_from([ADD, SET]))
        overtime = Stage(
            draw(MS),
            moves=draw(st.sampled_from([0, 10])),
            increment_ms=draw(st.one_of(st.just(main.increment_ms), INC)),
            mode=draw(st.one_of(st.just(main.mode), MODE)),
            increment_every=draw(st.one_of(st.just(main.increment_every), EVERY)),
            on_enter=enter,
            on_repeat=draw(st.sampled_from([enter] * 9 + [ADD, SET])),
            on_expire=draw(st.sampled_from([FLAG] * 9 + [SOFT])),
        )
        stages = draw(st.sampled_from([[main, overtime]] * 9 + [[main], [main] * 3]))
        return Setup(Control(stages), word=draw(st.sampled_from([False] * 9 + [True])))
    except ClockError:
        assume(False)


@settings(max_examples=1000, deadline=None)
@given(setups())
def test_format_refuses_or_round_trips(setup):
    try:
        text = ggs.format(setup)
    except PresetError as error:
        assert error.notation == "ggs" and error.position is None
        return
    assert ggs.parse(text) == setup
