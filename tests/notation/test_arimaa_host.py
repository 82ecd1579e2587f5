# SPDX-License-Identifier: MIT
# CPython only: the Arimaa parser never crashes, and what it reads survives a round trip.
from hypothesis import given, settings
from hypothesis import strategies as st

from clock.model import Control, Setup, Stage
from notation import arimaa
import fuzzing

TOKENS = (
    "0", "1", "2", "5", "10", "50", "100", "101", "120", "99999", "1234567890",
    "/", "/", "/", "/", "h", "m", "s", "t", "5s", "1h30", "1m30s", "120t", ".", "%", "-",
    " ", "x", "T", ":", "1:30", "0:05", ":60", "1:30:15", "d", "2d", "1d12h",
)  # fmt: skip
ALPHABET = "0123456789/dhmst.: x"

TIME = st.one_of(
    st.integers(0, 600).map(str),
    st.tuples(
        st.sampled_from(["", "1h", "2h"]),
        st.sampled_from(["", "0m", "5m", "30m"]),
        st.sampled_from(["", "0s", "5s", "59s"]),
    )
    .map("".join)
    .filter(bool),
    st.sampled_from(["1h30", "2m15", "1d", "2d12h", "1d30s"]),
    st.tuples(st.integers(0, 140), st.integers(0, 59)).map(lambda t: "%d:%02d" % t),
)
GAME = st.one_of(
    st.integers(0, 140).map(str),  # hours
    TIME.filter(lambda t: not t.isdigit()),
    st.tuples(st.integers(0, 99), st.integers(0, 59), st.integers(0, 59)).map(
        lambda t: "%d:%02d:%02d" % t
    ),
    st.integers(0, 1000).map(lambda n: "%dt" % n),
)
FIELDS = st.tuples(TIME, TIME, st.integers(0, 100).map(str), TIME, GAME, TIME)


def valid_texts():
    return st.tuples(FIELDS, st.integers(2, 6)).map(lambda f: "/".join(f[0][: f[1]]))


VALID = valid_texts()


@settings(max_examples=1000, deadline=None)
@given(fuzzing.texts(TOKENS, ALPHABET, valid=VALID))
def test_fuzz_parse_returns_setup_or_preset_error(text):
    fuzzing.check(arimaa, text)


@settings(max_examples=1000, deadline=None)
@given(VALID)
def test_round_trip_of_valid_texts(text):
    assert fuzzing.check(arimaa, text) is not None, text


MS = st.sampled_from([0, 0, 500, 5000, 60000, 3600000, 5410000])
STAGE = fuzzing.built(Stage, MS, moves=[0] * 9 + [40], increment_ms=[0] * 9 + [5000])
CONTROL = fuzzing.built(
    Control,
    st.lists(STAGE, min_size=1, max_size=1),
    move_ms=st.one_of(MS, st.just(None)),
    reserve_percent=[0, 50, 100, 100],
    reserve_limit_ms=MS,
    move_limit_ms=MS,
    max_ms=[0] * 9 + [60000],
)
SETUPS = fuzzing.built(
    Setup, CONTROL, hourglass=[False] * 9 + [True], limit_ms=MS, limit_turns=[0, 0, 0, 120]
)


@settings(max_examples=1000, deadline=None)
@given(SETUPS)
def test_format_refuses_or_round_trips(setup):
    error = fuzzing.format_refuses_or_round_trips(arimaa, setup)
    assert error is None or error.position is None
