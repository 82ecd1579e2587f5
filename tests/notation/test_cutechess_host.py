# SPDX-License-Identifier: MIT
# CPython only: the cutechess parser never crashes, and what it reads or formats round-trips.
from hypothesis import given, settings
from hypothesis import strategies as st

from clock.model import BRONSTEIN, DELAY, FISCHER, FISCHER_AFTER
from notation import cutechess
import fuzzing

TOKENS = (
    "tc=", "st=", "inf", "hg", "0", "1", "40", "60", "0.5", "1.25", "1.0001", "99999999999",
    "/", ":", "+", ".", " ", "x", "TC=",
)  # fmt: skip
ALPHABET = "tcsinfhg=0123456789/:+. "
TEXTS = fuzzing.texts(TOKENS, ALPHABET, max_tokens=12, max_text=30, max_alphabet=20)


def options():
    moves = st.sampled_from(["", "", "0/", "1/", "40/", "100001/"])
    hourglass = st.sampled_from(["", "", "hg"])
    time = st.sampled_from(["0", "1", "60", "0.5", "1:30", "2:30.25", "0:0", "999999"])
    increment = st.sampled_from(["", "", "+0", "+0.5", "+2", "+0.0001"])
    tc = st.tuples(st.sampled_from(["tc=", ""]), moves, hourglass, time, increment)
    st_option = st.sampled_from(["0", "5", "0.25", "1.5", "600"]).map(lambda value: "st=" + value)
    return st.one_of(tc.map("".join), st_option, st.just("tc=inf"))


@settings(max_examples=1000, deadline=None)
@given(st.one_of(TEXTS, options()))
def test_fuzz_parse_returns_setup_or_preset_error(text):
    fuzzing.check(cutechess, text)


@settings(max_examples=1000, deadline=None)
@given(options())
def test_well_shaped_options_round_trip(text):
    fuzzing.check(cutechess, text)


STAGES = fuzzing.stages(
    2,
    [0, 1, 500, 60000, 300000],
    mode=[FISCHER, FISCHER, FISCHER_AFTER, BRONSTEIN, DELAY],
)


@settings(max_examples=1000, deadline=None)
@given(fuzzing.setups(STAGES, hourglass=st.booleans()))
def test_format_says_the_setup_exactly_or_refuses(setup):
    error = fuzzing.format_refuses_or_round_trips(cutechess, setup)
    assert error is None or "cutechess-cli cannot say" in str(error)
