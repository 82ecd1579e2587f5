# SPDX-License-Identifier: MIT
# Game's short ways against its general way, over fixed pseudo-random schedules (both interpreters).
from clock.game import (
    ABORTED,
    ARBITER,
    BLOCK_RENEWED,
    FLAG_FELL,
    HALTED,
    PERIOD_USED,
    SOFT_TIMEOUT,
    STAGE_BEGAN,
    TIME,
    Game,
    View,
)
from notation import registry
from twins import ADJUST, END, LOOK, MOVES, PAUSE, PRESS, RESUME, WAKE, play, setups

TOP = (1 << 30) - 1


class Schedule:
    """The same pseudo-random steps on every interpreter (a 31-bit linear congruential
    generator: MicroPython's random module draws another sequence)."""

    def __init__(self, seed):
        self.state = seed

    def below(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n

    def steps(self, count):
        schedule = []
        for _ in range(count):
            pick = self.below(24)
            if pick < 9:  # presses most of the time
                step = PRESS
            elif pick < 16:
                step = pick - 8  # WRONG, LOOK, PAUSE, RESUME, UNDO, UPDATE, WAKE
            elif pick < 23:
                step = (PRESS, WAKE, PAUSE, RESUME, ADJUST, ADJUST, MOVES)[pick - 16]
            else:  # the arbiter ends one game in four, some time
                step = END if self.below(4) == 0 else LOOK
            if step == WAKE:
                ms = self.below(3) - 1
            else:  # of every length a move has, and none: at a wake-up's very stamp
                ms = self.below((0, 200, 2000, 9000, 40000)[self.below(5)] + 1)
            schedule.append((step, ms))
        return schedule


def test_every_system_shows_records_and_announces_the_same_both_ways():
    taken = seen = 0
    reasons = []
    for number, (name, setup) in enumerate(setups()):
        for seed in (1, 2, 3):
            schedule = Schedule(seed * 7919 + number).steps(60)
            t0 = TOP - 30000 if seed == 2 else seed * 1000  # seed 2 plays across the wrap
            presses, bits, reason = play(setup, schedule, t0, name)
            taken += presses
            seen |= bits
            reasons.append(reason)
    # The schedules reach what the short ways must hand over to the general way.
    assert taken > 300, taken
    for bit in (STAGE_BEGAN, PERIOD_USED, BLOCK_RENEWED, SOFT_TIMEOUT, FLAG_FELL):
        assert seen & bit, "no schedule met %d" % bit
    for reason in (TIME, HALTED, ABORTED, ARBITER):
        assert reason in reasons, "no game ended for reason %d" % reason


def test_a_flag_a_correction_charges_in_a_pause_stays_the_first():
    # Found by the comparison above: the correction charged the move past the first stage's
    # end (an interim flag), and the press that followed took the short way, which never
    # looked at the marks: who flagged first was lost, and went to the other side later.
    setup = registry.parse("2/20s/1, G/10s/2")  # Fischer (before): 21 s for the first move
    game = Game(setup)
    game.start(0, 0)
    assert game.pause(21001) & FLAG_FELL  # the first stage ran out 1 ms ago
    game.adjust_time(0, 1000)
    game.resume(21001)
    game.press(0, 21001)
    assert game.first_flag() == 0
    game.press(1, 21001 + 25000)  # the second side runs out of their first stage too
    assert game.first_flag() == 0
    assert game.view(0, 46001, View()).flagged_first
    assert not game.view(1, 46001, View()).flagged_first
