# SPDX-License-Identifier: MIT
# Game's short ways against its general way, over schedules hypothesis draws (CPython).
from hypothesis import given, settings
from hypothesis import strategies as st

from twins import PRESS, STEPS, WAKE, play, setups

SETUPS = setups()
TOP = (1 << 30) - 1

step = st.one_of(
    st.tuples(st.just(PRESS), st.integers(0, 45000)),
    st.tuples(st.just(WAKE), st.integers(-1, 1)),
    st.tuples(st.integers(0, STEPS - 1).filter(lambda s: s != WAKE), st.integers(0, 45000)),
    st.tuples(st.integers(0, STEPS - 1).filter(lambda s: s != WAKE), st.just(0)),
)


@settings(max_examples=400, deadline=None)
@given(
    index=st.integers(0, len(SETUPS) - 1),
    t0=st.one_of(st.integers(0, TOP), st.integers(TOP - 60000, TOP)),
    schedule=st.lists(step, max_size=50),
)
def test_any_schedule_shows_records_and_announces_the_same_both_ways(index, t0, schedule):
    name, setup = SETUPS[index]
    play(setup, schedule, t0, name)
