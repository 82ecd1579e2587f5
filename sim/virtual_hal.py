# SPDX-License-Identifier: MIT
# The HAL in virtual time, for tests and scripted runs: scheduled button edges, recorded frames
# and tones. Imports under MicroPython too (tests/harness.py, the heap tests, tier 4's game).
import ticks
from sim.hal_base import HEALTHY_MV, DesktopBuzzer, DesktopHal


class VirtualHal(DesktopHal):
    """Time moves only in wait(): straight to the next due stamp or scheduled edge."""

    def __init__(self, storage, start=0, battery_mv=HEALTHY_MV):
        self.now = start
        DesktopHal.__init__(self, storage, DesktopBuzzer(record=True), battery_mv)
        self.horizon = None  # wait() never goes past this stamp (tests stop time here)
        self._script = []  # (stamp, button, pressed), in order

    def ticks_ms(self):
        return self.now

    def schedule(self, stamp, button, pressed):
        script = self._script
        index = len(script)
        while index > 0 and ticks.diff(script[index - 1][0], stamp) > 0:
            index -= 1
        script.insert(index, (stamp, button, pressed))

    def press(self, button, stamp, hold_ms=80):
        self.schedule(stamp, button, True)
        self.schedule(ticks.add(stamp, hold_ms), button, False)

    def next_edge(self):
        return self._script[0][0] if self._script else None

    def wait(self, until):
        if self.edges.pending():
            return
        target = until
        edge = self.next_edge()
        if edge is not None and (target is None or ticks.diff(edge, target) < 0):
            target = edge
        horizon = self.horizon
        if horizon is not None and (target is None or ticks.diff(target, horizon) > 0):
            target = horizon
        if target is not None and ticks.diff(target, self.now) > 0:
            self.now = target
        script = self._script
        while script and ticks.diff(script[0][0], self.now) <= 0:
            stamp, button, pressed = script.pop(0)
            self.edges.push(button, pressed, stamp)
