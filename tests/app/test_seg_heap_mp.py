# SPDX-License-Identifier: MIT
# Under the MicroPython unix port: the 7-segment board's own passes (a pause dimming the modules,
# the counters shown or a colon blinking while a clock runs) allocate nothing.
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
    # woken by each blink of the light on move; the modules were dimmed as it paused
    assert locked_steps(clock, 20) == 0
    assert clock.hal.now == 3000 + 20 * 1000


def test_running_with_the_counters_shown_allocates_nothing():
    clock = Clock(screen=SegScreen(), preset="FIDE classical")
    clock.press(b.RIGHT, 2000)
    clock.press(b.SET, 3000)
    clock.run_until(3100)
    assert clock.app.status.info
    assert locked_steps(clock, 8) > 0  # each half second to 6.5 s, before the 10 s save
    assert not clock.app.status.info  # and their end


def test_running_above_an_hour_with_the_colon_blinking_allocates_nothing():
    clock = Clock(screen=SegScreen(), preset="FIDE classical")
    clock.press(b.RIGHT, 2000)
    clock.run_until(2100)
    assert locked_steps(clock, 12) == 12  # each half second, to 8 s: before the 10 s save
    assert clock.hal.now == 8001  # 1:30:30 at 2000: 2001 lit, 2501 dark...


def test_the_ready_screen_s_start_hint_allocates_nothing():
    clock = Clock(screen=SegScreen(), preset="Blitz 5+3")  # ready since 1000
    clock.run_until(1100)
    # woken at 2100, 3100, 4100 (each second), 5000 (the hint), 5700, 6050, 6400 (its steps),
    # 7100, 7500 (the times again)
    assert locked_steps(clock, 9) == 5
    assert clock.hal.now == 7500
