# SPDX-License-Identifier: MIT
# Game's short ways against its general way, over schedules hypothesis draws (CPython).
from hypothesis import given, settings
from hypothesis import strategies as st

from twins import ADJUST, PAUSE, PRESS, RESUME, STEPS, WAKE, play, setups

SETUPS = setups()
TOP = (1 << 30) - 1

times = st.one_of(st.just(0), st.integers(0, 2000), st.integers(0, 45000))
step = st.one_of(
    st.tuples(st.just(PRESS), times),
    st.tuples(st.just(WAKE), st.integers(-1, 1)),
    st.tuples(st.integers(0, STEPS - 1).filter(lambda s: s != WAKE), times),
)
# A correction in a pause charges the move so far: the short ways must take that into account.
correction = st.tuples(
    st.tuples(st.just(PAUSE), times),
    st.tuples(st.just(ADJUST), times),
    st.tuples(st.just(RESUME), times),
)
chunks = st.lists(st.one_of(step.map(lambda s: [s]), correction.map(list)), max_size=40)


@settings(max_examples=400, deadline=None)
@given(
    index=st.integers(0, len(SETUPS) - 1),
    t0=st.one_of(st.integers(0, TOP), st.integers(TOP - 60000, TOP)),
    chunks=chunks,
)
def test_any_schedule_shows_records_and_announces_the_same_both_ways(index, t0, chunks):
    name, setup = SETUPS[index]
    play(setup, [step for chunk in chunks for step in chunk], t0, name)
