# SPDX-License-Identifier: MIT
# CPython only: the SGF parser never crashes, and what it reads or formats survives a round trip.
from hypothesis import given, settings
from hypothesis import strategies as st

from notation import sgf
import fuzzing

TOKENS = (
    "TM", "OT", "GM", "(", ";", ")", "[", "]", "\\", "\\]", " ", "\n", "0", "5", "30", "1800",
    "0.5", "1.0001", "-", "+", "x", "/", "byo-yomi", "byoyomi", "byo yomi", "Canadian",
    "fischer", "simple", "moves", "sec", "min", "99999999",
)  # fmt: skip
ALPHABET = "TMOGB[]();\\ 0123456789.x/-+byoCadnfischermplvt"


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


@settings(max_examples=1000, deadline=None)
@given(st.one_of(fuzzing.texts(TOKENS, ALPHABET), records()))
def test_fuzz_parse_returns_setup_or_preset_error(text):
    fuzzing.check(sgf, text)


@settings(max_examples=1000, deadline=None)
@given(records())
def test_well_shaped_records_round_trip(text):
    fuzzing.check(sgf, text)


STAGES = fuzzing.stages(3, [0, 1, 500, 30000, 1800000], **fuzzing.GO_CHOICES)


@settings(max_examples=1000, deadline=None)
@given(fuzzing.setups(STAGES))
def test_format_says_the_setup_exactly_or_refuses(setup):
    error = fuzzing.format_refuses_or_round_trips(sgf, setup)
    assert error is None or "SGF cannot say" in str(error)
