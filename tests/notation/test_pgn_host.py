# SPDX-License-Identifier: MIT
# CPython only: the PGN parser never crashes, and what it reads or formats survives a round trip.
from hypothesis import given, settings
from hypothesis import strategies as st

from notation import pgn
import fuzzing

TOKENS = (
    "0", "1", "2", "30", "40", "300", "7200", "0.5", "1.25", "1.0001", "99999999999",
    "/", ":", "+", "S", "B", "*", "=", "-", "?", ".", " ", '"', "[TimeControl ", "]", "x",
)  # fmt: skip
ALPHABET = '0123456789/:+SB*=-?. []"TimeControl'


def field():
    moves = st.sampled_from(["", "", "1/", "40/", "20/", "0/", "100001/"])
    seconds = st.sampled_from(["0", "1", "60", "300", "7200", "0.5", "12.125", "600000"])
    extra = st.sampled_from(["", "", "+0", "+2", "+30", "+0.5", "S5", "B5", "+0S3", "+1B1"])
    return st.tuples(moves, seconds, extra).map("".join)


def sides():
    fields = st.lists(field(), min_size=1, max_size=5).map(":".join)
    return st.one_of(fields, st.sampled_from(["-", "*180", "*0.5", "?"]))


def values():
    one = sides()
    two = st.tuples(sides(), sides()).map("=".join)
    plain = st.one_of(one, two)
    return st.one_of(plain, plain.map(lambda value: '[TimeControl "%s"]' % value))


@settings(max_examples=1000, deadline=None)
@given(st.one_of(fuzzing.texts(TOKENS, ALPHABET, max_tokens=16), values()))
def test_fuzz_parse_returns_setup_or_preset_error(text):
    fuzzing.check(pgn, text)


@settings(max_examples=1000, deadline=None)
@given(values())
def test_well_shaped_values_round_trip(text):
    fuzzing.check(pgn, text)


STAGES = fuzzing.stages(4, [0, 1, 500, 60000, 300000, 7200000])


@settings(max_examples=1000, deadline=None)
@given(fuzzing.setups(STAGES, hourglass=st.booleans(), start_ms=[0, 0, 0, 1000]))
def test_format_says_the_setup_exactly_or_refuses(setup):
    error = fuzzing.format_refuses_or_round_trips(pgn, setup)
    assert error is None or "PGN cannot say" in str(error)
