# SPDX-License-Identifier: MIT
# Under the MicroPython unix port: the 7-segment board's own passes (a pause dimming the modules,
# the counters shown while a clock runs) allocate nothing.
import micropython

from hal import buttons as b
from harness import Clock
from ui.seg7 import SegScreen


class CountingDisplay:
    """The board's drivers write from the frame itself; the virtual recorder's copy would allocate."""

    def __init__(self):
        self.writes = 0

    def show(self, frame, dirty=None):
        self.writes += 1


def locked_steps(clock, count):
    display = CountingDisplay()
    clock.hal.display = display
    for _ in range(count):
        micropython.heap_lock()
        try:
            clock.runner.step()
        finally:
            micropython.heap_unlock()
    return display.writes


def test_a_paused_clock_allocates_nothing():
    clock = Clock(screen=SegScreen(), preset="Blitz 5+3")
    clock.press(b.RIGHT, 2000)
    clock.press(b.PLAY, 3000)
    clock.run_until(3100)
    assert clock.state() == "paused"
    assert locked_steps(clock, 20) == 0  # dimmed as it paused: nothing more to draw
    assert clock.hal.now >= 3100 + 19 * 1000


def test_running_with_the_counters_shown_allocates_nothing():
    clock = Clock(screen=SegScreen(), preset="FIDE classical")
    clock.press(b.RIGHT, 2000)
    clock.press(b.SET, 3000)
    clock.run_until(3100)
    assert clock.app.status.info
    clock.app.gestures.play_at_once = True
    assert locked_steps(clock, 6) > 0  # to 7 s, before the game's 10 s save
    assert not clock.app.status.info  # and their end
