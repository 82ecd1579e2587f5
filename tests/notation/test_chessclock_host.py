# CPython only: the chessclock parser never crashes, and what it reads survives a round trip.
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from clock.model import ADD, BRONSTEIN, DELAY, FISCHER, FISCHER_AFTER, FLAG, NEXT, SET, SOFT
from clock.model import ClockError, Control, Setup, Stage
from notation import chessclock
from notation.errors import PresetError

TOKENS = (
    "G", "g", "0", "1", "2", "40", "90", "100000", "123456789", "/", "/", "/", ",", ", ",
    " ", "\t", "h", "m", "s", "1h30", "10s", "2m15s", ".", ":", "-", "x", "t", "N",
    " fischer", " fischer-after", " bronstein", " delay", " hourglass", " word", "word",
)  # fmt: skip
ALPHABET = "G0123456789/, hms.bdfwx"


TIME = st.one_of(
    st.integers(0, 6000).map(str),
    st.tuples(
        st.sampled_from(["", "1h", "2h", "10h"]),
        st.sampled_from(["", "0m", "5m", "30m", "75m"]),
        st.sampled_from(["", "0s", "10s", "59s", "90s"]),
    )
    .map("".join)
    .filter(bool),
    st.sampled_from(["1h30", "2m15", "1h5"]),
)
INCREMENT = st.one_of(
    st.just(""), st.integers(0, 120).map(lambda i: "/%d" % i), st.sampled_from(["/1m", "/5s"])
)
MOVES = st.integers(1, 200).map(str)
PHASE = st.tuples(MOVES, TIME, INCREMENT).map(lambda p: "%s/%s%s" % p)
LAST = st.tuples(st.one_of(MOVES, st.just("G")), TIME, INCREMENT).map(lambda p: "%s/%s%s" % p)
WORDS = st.tuples(
    st.sampled_from(["", " fischer", " fischer-after", " bronstein", " delay"]),
    st.sampled_from(["", " hourglass", " word", " hourglass word", " word hourglass"]),
).map("".join)


def valid_texts():
    phases = st.lists(PHASE, max_size=2).flatmap(
        lambda first: LAST.map(lambda last: first + [last])
    )
    comma = st.sampled_from([",", ", ", " , "])
    return st.tuples(comma, phases, WORDS).map(lambda t: t[0].join(t[1]) + t[2])


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
        result = chessclock.parse(text)
    except PresetError as error:
        assert error.position is None or 0 <= error.position <= len(text)
        assert error.notation == "chessclock"
        return None
    assert isinstance(result, Setup)
    again = chessclock.format(result)
    assert chessclock.parse(again) == result
    assert chessclock.format(chessclock.parse(again)) == again
    return result


@settings(max_examples=10000, deadline=None)
@given(texts())
def test_fuzz_parse_returns_setup_or_preset_error(text):
    check(text)


@settings(max_examples=1000, deadline=None)
@given(VALID)
def test_round_trip_of_valid_texts(text):
    assert check(text) is not None, text


@st.composite
def setups(draw):
    stages = []
    for _ in range(draw(st.sampled_from([0, 1, 1, 2, 2, 3, 4]))):
        try:
            stages.append(
                Stage(
                    draw(st.sampled_from([0, 500, 1000, 60000, 5410000])),
                    moves=draw(st.sampled_from([0, 1, 40, 40])),
                    increment_ms=draw(st.sampled_from([0, 0, 1500, 30000])),
                    mode=draw(st.sampled_from([FISCHER, FISCHER_AFTER, BRONSTEIN, DELAY])),
                    increment_every=draw(st.sampled_from([1] * 9 + [2])),
                    periods=draw(st.sampled_from([1] * 9 + [3])),
                    on_enter=draw(st.sampled_from([ADD] * 9 + [SET])),
                    on_repeat=draw(st.sampled_from([ADD] * 9 + [SET])),
                    on_expire=draw(st.sampled_from([FLAG] * 8 + [SOFT, NEXT])),
                )
            )
        except ClockError:
            assume(False)
    return Setup(
        Control(stages, max_ms=draw(st.sampled_from([0] * 9 + [60000]))),
        hourglass=draw(st.booleans()),
        word=draw(st.booleans()),
        limit_turns=draw(st.sampled_from([0] * 9 + [40])),
    )


@settings(max_examples=1000, deadline=None)
@given(setups())
def test_format_refuses_or_round_trips(setup):
    try:
        text = chessclock.format(setup)
    except PresetError as error:
        assert error.notation == "chessclock" and error.position is None
        return
    assert chessclock.parse(text) == setup
