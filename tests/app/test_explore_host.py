# SPDX-License-Identifier: MIT
# The walk of tests/explore.py on the 7-segment board, deeper on demand, and random long runs
# (hypothesis' stateful testing) that reach what a bounded walk does not: deep menu positions,
# long games, many power cuts. EXPLORE_DEPTH=5 (say) walks every board that deep.
import os

import explore
from harness import FULL, MINIMAL
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from ui.seg7 import SegScreen

DEPTH = int(os.environ.get("EXPLORE_DEPTH", "0"))


def test_the_seven_segment_board_from_every_state_within_two_inputs_of_the_seeds():
    states, transitions, deepest = explore.walk(
        screen_class=SegScreen, depth=max(2, DEPTH), seeds=explore.SEEDS
    )
    assert states >= 100 and deepest >= 2, (states, transitions)


def test_deeper_on_demand():
    if DEPTH <= 3:
        return  # make test walks three deep (tests/app/test_explore.py)
    walks = (
        (FULL, explore.FULL_INPUTS, None),
        (MINIMAL, explore.MINIMAL_INPUTS, explore.SendingDisplay),
    )
    for present, inputs, display in walks:
        states, transitions, deepest = explore.walk(
            present, inputs, depth=DEPTH, seeds=explore.SEEDS, display=display
        )
        print("%s: %d states, %d transitions" % (len(present), states, transitions))


class RandomInputs(RuleBasedStateMachine):
    """One clock, inputs drawn at random, every invariant checked at every step."""

    def __init__(self):
        super().__init__()
        self.walker = explore.Walk(FULL, None)
        self.steps = 0

    @rule(choice=st.sampled_from(explore.FULL_INPUTS))
    def an_input(self, choice):
        self.walker.step(*choice)
        self.steps += 1

    @precondition(lambda self: self.steps % 7 == 6)
    @invariant()
    def stored_restores(self):
        self.walker.check_restart()


RandomInputs.TestCase.settings = settings(
    max_examples=int(os.environ.get("EXPLORE_EXAMPLES", "40")),
    stateful_step_count=40,
    deadline=None,
)
test_random_inputs = RandomInputs.TestCase
