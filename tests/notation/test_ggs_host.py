# SPDX-License-Identifier: MIT
# CPython only: the GGS parser never crashes, and what it reads survives a round trip.
from hypothesis import given, settings
from hypothesis import strategies as st

from clock.model import ADD, BRONSTEIN, DELAY, FISCHER, FISCHER_AFTER, FLAG, NEXT, SET, SOFT
from clock.model import Control, Setup, Stage
from notation import ggs
import fuzzing

TOKENS = (
    "0", "1", "2", "5", "00", "30", "59", "60", "75", "100", "1234567890", ":", ":", ":00",
    "/", "/", "/", ",", ",", "N", "n", " ", ".", "-", "x", "h", "2:00", "1:00:00", ",N0",
    "1.", "6.", "7.", "1.12:01:23", "24:00:00",
)  # fmt: skip
ALPHABET = "0123456789:/,N .x"

CLOCK = st.tuples(st.integers(0, 59), st.integers(0, 59))
TIME = st.one_of(
    st.integers(0, 5000).map(str),
    CLOCK.map(lambda t: "%d:%02d" % t),
    st.tuples(st.integers(0, 100), CLOCK).map(lambda t: "%d:%02d:%02d" % ((t[0],) + t[1])),
    st.tuples(st.integers(0, 5), st.integers(0, 23), CLOCK).map(
        lambda t: "%d.%02d:%02d:%02d" % ((t[0], t[1]) + t[2])
    ),
)


def field(low):
    count = st.tuples(st.sampled_from(["", "N"]), st.integers(low, 200)).map(lambda c: ",%s%d" % c)
    return st.one_of(
        st.just(""), TIME, st.tuples(TIME, count).map("".join)  # fmt: skip
    )


def valid_texts():
    """Three fields, or GGF's one or two with the time written."""
    first = field(0).filter(bool)
    return st.one_of(
        st.tuples(field(0), field(1), field(0)).map("/".join),
        first,
        st.tuples(first, field(1)).map("/".join),
    )


VALID = valid_texts()


@settings(max_examples=1000, deadline=None)
@given(fuzzing.texts(TOKENS, ALPHABET, valid=VALID))
def test_fuzz_parse_returns_setup_or_preset_error(text):
    fuzzing.check(ggs, text)


@settings(max_examples=1000, deadline=None)
@given(VALID)
def test_round_trip_of_valid_texts(text):
    assert fuzzing.check(ggs, text) is not None, text


MS = st.sampled_from([0, 500, 5000, 60000, 3600000])
INC = st.sampled_from([0, 0, 500, 12000])
MODE = st.sampled_from([FISCHER_AFTER] * 4 + [BRONSTEIN] * 4 + [FISCHER, DELAY])
EVERY = st.sampled_from([1] * 4 + [3])


@st.composite
def setups(draw):
    """GGS-like pairs of stages, with each field sometimes off the GGS pattern."""
    main = draw(
        fuzzing.built(
            Stage,
            MS,
            moves=[0, 40],
            increment_ms=INC,
            mode=MODE,
            increment_every=EVERY,
            periods=[1] * 9 + [2],
            on_enter=[ADD] * 9 + [SET],
            on_repeat=[ADD] * 9 + [SET],
            on_expire=[SOFT, NEXT, SOFT, NEXT, FLAG],
        )
    )
    enter = draw(st.sampled_from([ADD, SET]))
    overtime = draw(
        fuzzing.built(
            Stage,
            MS,
            moves=[0, 10],
            increment_ms=st.one_of(st.just(main.increment_ms), INC),
            mode=st.one_of(st.just(main.mode), MODE),
            increment_every=st.one_of(st.just(main.increment_every), EVERY),
            on_enter=[enter],
            on_repeat=[enter] * 9 + [ADD, SET],
            on_expire=[FLAG] * 9 + [SOFT],
        )
    )
    stages = draw(st.sampled_from([[main, overtime]] * 9 + [[main], [main] * 3]))
    return Setup(Control(stages), word=draw(st.sampled_from([False] * 9 + [True])))


@settings(max_examples=1000, deadline=None)
@given(setups())
def test_format_refuses_or_round_trips(setup):
    error = fuzzing.format_refuses_or_round_trips(ggs, setup)
    assert error is None or error.position is None
