# SPDX-License-Identifier: MIT
# CPython only: the chessclock parser never crashes, and what it reads survives a round trip.
from hypothesis import given, settings
from hypothesis import strategies as st

from clock.model import ADD, BRONSTEIN, DELAY, FISCHER, FISCHER_AFTER, FLAG, NEXT, SET, SOFT
from clock.model import Control, Setup, Stage
from notation import chessclock
import fuzzing

TOKENS = (
    "G", "g", "0", "1", "2", "40", "90", "100000", "123456789", "/", "/", "/", ",", ", ",
    " ", "\t", "h", "m", "s", "1h30", "10s", "2m15s", ".", ":", "-", "x", "t", "N",
    " fischer", " fischer-after", " bronstein", " delay", " hourglass", " word", "word",
    "+", " + ", " min", " sec", "minutes", " hour", "/move", " per move", "sek",
    "|", " | ", "'", "''", '"', ";", "SD", " d5", "d", "inc30", " inc", "0.5", " / move",
    "fischer ", "bronstein ", "delay ", "armageddon ", "Armageddon 5/4",
)  # fmt: skip
ALPHABET = "G0123456789/, hms.bdfwx+inecorpv|';SD"


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


# As players say it: "5+3", "90 min + 30 sec/move", a phase that ends when its time runs out.
SPOKEN_TIME = st.tuples(
    st.integers(0, 120).map(str), st.sampled_from(["", "m", " min", " minutes", "s", " h"])
).map("".join)
SPOKEN_INCREMENT = st.tuples(
    st.sampled_from(["", "+", " + "]),
    st.integers(0, 60).map(str),
    st.sampled_from(["", "s", " sec", " seconds", "/move", " s/move", " per move"]),
).map(lambda parts: "".join(parts) if parts[0] else "")
SPOKEN = st.tuples(st.sampled_from(["", "40/"]), SPOKEN_TIME, SPOKEN_INCREMENT).map("".join)
SPOKEN_LAST = st.tuples(st.sampled_from(["", "G/"]), SPOKEN_TIME, SPOKEN_INCREMENT).map("".join)


def valid_texts():
    phases = st.lists(st.one_of(PHASE, SPOKEN), max_size=2).flatmap(
        lambda first: st.one_of(LAST, SPOKEN_LAST).map(lambda last: first + [last])
    )
    comma = st.sampled_from([",", ", ", " , "])
    return st.tuples(comma, phases, WORDS).map(lambda t: t[0].join(t[1]) + t[2])


VALID = valid_texts()


@settings(max_examples=1000, deadline=None)
@given(fuzzing.texts(TOKENS, ALPHABET, valid=VALID))
def test_fuzz_parse_returns_setup_or_preset_error(text):
    fuzzing.check(chessclock, text)


@settings(max_examples=1000, deadline=None)
@given(VALID)
def test_round_trip_of_valid_texts(text):
    assert fuzzing.check(chessclock, text) is not None, text


STAGE = fuzzing.built(
    Stage,
    duration_ms=[0, 500, 1000, 60000, 5410000],
    moves=[0, 1, 40, 40],
    increment_ms=[0, 0, 1500, 30000],
    mode=[FISCHER, FISCHER_AFTER, BRONSTEIN, DELAY],
    increment_every=[1] * 9 + [2],
    periods=[1] * 9 + [3],
    on_enter=[ADD] * 9 + [SET],
    on_repeat=[ADD] * 9 + [SET],
    on_expire=[FLAG] * 8 + [SOFT, NEXT],
)
STAGES = st.sampled_from([0, 1, 1, 2, 2, 3, 4]).flatmap(
    lambda count: st.lists(STAGE, min_size=count, max_size=count)
)
SETUPS = fuzzing.built(
    Setup,
    fuzzing.built(Control, STAGES, max_ms=[0] * 9 + [60000]),
    hourglass=st.booleans(),
    word=st.booleans(),
    limit_turns=[0] * 9 + [40],
)


@settings(max_examples=1000, deadline=None)
@given(SETUPS)
def test_format_refuses_or_round_trips(setup):
    error = fuzzing.format_refuses_or_round_trips(chessclock, setup)
    assert error is None or error.position is None
