# SPDX-License-Identifier: MIT
# The HAL in real time with its serial port on a pty (PtySerial), buttons from lines of text.
import os
import select

import sim  # noqa: F401  (puts the firmware on the path)
import ticks
from hal import buttons
from sim.hal_base import DesktopBuzzer
from sim.realtime import RealTimeHal, monotonic_ms

HOLD_MS = 80  # a button named on a key line is held this long
GAP_MS = 50  # ... and the next line's press comes this long after its release, or later
KEY_LINES = {name: (button, HOLD_MS) for button, name in enumerate(buttons.NAMES)}
KEY_LINES.update({"l": KEY_LINES["left"], "r": KEY_LINES["right"], "p": KEY_LINES["play"]})
KEY_LINES.update({"s": KEY_LINES["set"], "+": KEY_LINES["plus"], "-": KEY_LINES["minus"]})


class PtyHal(RealTimeHal):
    """wait() sleeps in select() on the port and on `key_lines` (None, or a text stream of
    button names, one a line: l, r, p, s, +, - or left, right, play...): it returns when a byte
    comes for the app to read, so a command or a key is answered at once. Each key line is a
    press of its own, in the order of the lines, however close together they come: held
    HOLD_MS, the next one GAP_MS after its release (a script's lines are never one press, nor a
    chord). The buzzer is silent (a served clock has no speaker); battery_mv() is -1."""

    def __init__(self, storage, port, key_lines=None, ticks_ms=monotonic_ms):
        buzzer = DesktopBuzzer(present=False)
        RealTimeHal.__init__(self, storage, None, KEY_LINES, buzzer, -1, ticks_ms)
        self.serial = port
        self.key_lines = key_lines
        self._typed = ""  # a key line not finished yet
        self._queued = []  # key lines read and not pressed yet, oldest first
        self._free_at = None  # the stamp from which the next queued key may be pressed

    def wait(self, until):
        if self._press_queued():
            return
        if self._queued and self._free_at is not None:
            if until is None or ticks.diff(self._free_at, until) < 0:
                until = self._free_at
        RealTimeHal.wait(self, until)
        self._press_queued()

    def _press_queued(self):
        """Press the oldest queued key if its turn came; whether it did."""
        if not self._queued or self.held:
            return False
        now = self.ticks_ms()
        if self._free_at is not None and ticks.diff(now, self._free_at) < 0:
            return False
        self._take(self._queued.pop(0))
        self._free_at = ticks.add(now, HOLD_MS + GAP_MS)
        return True

    def _sleep(self, timeout):
        streams = [self.serial]
        if self.key_lines is not None:
            streams.append(self.key_lines)
        ready = select.select(streams, [], [], None if timeout < 0 else timeout / 1000)[0]
        if self.key_lines is not None and self.key_lines in ready:
            self._lines_ready()
        return bool(ready)

    def _lines_ready(self):
        data = os.read(self.key_lines.fileno(), 1024)
        if not data:
            self.key_lines = None  # end of input: keep serving
            return
        self._typed += data.decode("ascii", "replace")
        *lines, self._typed = self._typed.split("\n")
        for line in lines:
            name = line.strip().lower()
            if name in self.keymap:
                self._queued.append(name)
