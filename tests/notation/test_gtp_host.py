# SPDX-License-Identifier: MIT
# CPython only: the GTP parser never crashes, and what it reads or formats survives a round trip.
from hypothesis import given, settings
from hypothesis import strategies as st

from clock.model import BRONSTEIN, DELAY, FISCHER, FISCHER_AFTER
from notation import gtp
import fuzzing

TOKENS = (
    "time_settings", "kgs-time_settings", "none", "absolute", "byoyomi", "canadian", " ",
    "\t", "\n", "#", "0", "1", "5", "30", "1800", "-1", "1.5", "9999999999", "12 ",
)  # fmt: skip
ALPHABET = "time_sengkvabolucyr- \t\n#0123456789."


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


@settings(max_examples=1000, deadline=None)
@given(st.one_of(fuzzing.texts(TOKENS, ALPHABET, max_tokens=10, max_alphabet=40), commands()))
def test_fuzz_parse_returns_setup_or_preset_error(text):
    fuzzing.check(gtp, text)


@settings(max_examples=1000, deadline=None)
@given(commands())
def test_well_shaped_commands_round_trip(text):
    fuzzing.check(gtp, text)


STAGES = fuzzing.stages(
    3,
    [0, 1, 1000, 30000, 1800000],
    mode=[FISCHER, FISCHER_AFTER, BRONSTEIN, DELAY],
    **fuzzing.GO_CHOICES,
)


@settings(max_examples=1000, deadline=None)
@given(fuzzing.setups(STAGES))
def test_format_says_the_setup_exactly_or_refuses(setup):
    error = fuzzing.format_refuses_or_round_trips(gtp, setup)
    assert error is None or "GTP cannot say" in str(error)
