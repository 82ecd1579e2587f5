# SPDX-License-Identifier: MIT
# Every state the app reaches within a few inputs of a fresh clock, a paused game, a finished
# one and a game offered back after a power cut; every input from each: nothing raises, no
# result or waiting game is lost, what is stored restores (tests/explore.py). Both interpreters.
import explore
from harness import MINIMAL


def test_the_full_board_from_every_state_within_three_inputs_of_the_seeds():
    before = explore.FROM_SLOTS[0]
    states, transitions, deepest = explore.walk(depth=3, seeds=explore.SEEDS)
    assert states >= 500 and transitions >= 3900 and deepest == 3, (states, transitions)
    assert explore.FROM_SLOTS[0] - before > 50  # running games restored from the slot ring


def test_the_minimal_board_from_every_state_within_four_inputs_of_the_seeds():
    # On a display that sends by DMA: a press's bands go first, other frames unwaited.
    states, transitions, deepest = explore.walk(
        MINIMAL,
        explore.MINIMAL_INPUTS,
        depth=4,
        seeds=explore.SEEDS,
        display=explore.SendingDisplay,
    )
    assert states >= 240 and deepest == 4, (states, transitions)
