# SPDX-License-Identifier: MIT
# CPython only: every setup the model allows is described in one line of printable ASCII.
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.describe import describe
import fuzzing

STAGES = fuzzing.stages(4, [0, 1, 1500, 60000, 5400000, 7200000])
SETUPS = fuzzing.setups(
    STAGES,
    hourglass=st.booleans(),
    word=st.booleans(),
    start_ms=[0, 0, 30000],
    limit_ms=[0, 0, 3600000],
    limit_turns=[0, 0, 60],
)


@settings(max_examples=1000, deadline=None)
@given(SETUPS)
def test_every_setup_reads_as_one_ascii_line(setup):
    line = describe(setup)
    assert line and all(" " <= char <= "~" for char in line), line
