# CPython only: the Arimaa parser never crashes, and what it reads survives a round trip.
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from clock.model import ClockError, Control, Setup, Stage
from notation import arimaa
from notation.errors import PresetError

TOKENS = (
    "0", "1", "2", "5", "10", "50", "100", "101", "120", "99999", "1234567890",
    "/", "/", "/", "/", "h", "m", "s", "t", "5s", "1h30", "1m30s", "120t", ".", "%", "-",
    " ", "x", "T", ":",
)  # fmt: skip
ALPHABET = "0123456789/hmst. x"

TIME = st.one_of(
    st.integers(0, 600).map(str),
    st.tuples(
        st.sampled_from(["", "1h", "2h"]),
        st.sampled_from(["", "0m", "5m", "30m"]),
        st.sampled_from(["", "0s", "5s", "59s"]),
    )
    .map("".join)
    .filter(bool),
    st.sampled_from(["1h30", "2m15"]),
)
GAME = st.one_of(
    st.integers(0, 140).map(str),  # hours
    TIME.filter(lambda t: not t.isdigit()),
    st.integers(0, 1000).map(lambda n: "%dt" % n),
)
FIELDS = st.tuples(TIME, TIME, st.integers(0, 100).map(str), TIME, GAME, TIME)


def valid_texts():
    return st.tuples(FIELDS, st.integers(2, 6)).map(lambda f: "/".join(f[0][: f[1]]))


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
        result = arimaa.parse(text)
    except PresetError as error:
        assert error.position is None or 0 <= error.position <= len(text)
        assert error.notation == "arimaa"
        return None
    assert isinstance(result, Setup)
    again = arimaa.format(result)
    assert arimaa.parse(again) == result
    assert arimaa.format(arimaa.parse(again)) == again
    return result


@settings(max_examples=10000, deadline=None)
@given(texts())
def test_fuzz_parse_returns_setup_or_preset_error(text):
    check(text)


@settings(max_examples=1000, deadline=None)
@given(VALID)
def test_round_trip_of_valid_texts(text):
    assert check(text) is not None, text


MS = st.sampled_from([0, 0, 500, 5000, 60000, 3600000, 5410000])


@st.composite
def setups(draw):
    try:
        stage = Stage(
            draw(MS),
            moves=draw(st.sampled_from([0] * 9 + [40])),
            increment_ms=draw(st.sampled_from([0] * 9 + [5000])),
        )
        control = Control(
            [stage],
            move_ms=draw(st.one_of(MS, st.just(None))),
            reserve_percent=draw(st.sampled_from([0, 50, 100, 100])),
            reserve_limit_ms=draw(MS),
            move_limit_ms=draw(MS),
            max_ms=draw(st.sampled_from([0] * 9 + [60000])),
        )
        return Setup(
            control,
            hourglass=draw(st.sampled_from([False] * 9 + [True])),
            limit_ms=draw(MS),
            limit_turns=draw(st.sampled_from([0, 0, 0, 120])),
        )
    except ClockError:
        assume(False)


@settings(max_examples=1000, deadline=None)
@given(setups())
def test_format_refuses_or_round_trips(setup):
    try:
        text = arimaa.format(setup)
    except PresetError as error:
        assert error.notation == "arimaa" and error.position is None
        return
    assert arimaa.parse(text) == setup
