# SPDX-License-Identifier: MIT
# Debounce by timestamp: a leading edge acts at once, then the button ignores bounce for a lockout.
from array import array

import ticks
from micropython import const

LOCKOUT_MS = const(30)


class Debouncer:
    """Tracks each button's accepted state. accept() says whether an edge is a real change."""

    def __init__(self, count, lockout_ms=LOCKOUT_MS):
        self.lockout_ms = lockout_ms
        self._down = bytearray(count)  # accepted state
        self._raw = bytearray(count)  # the last edge seen, accepted or not
        self._since = array("i", [0] * count)  # stamp of the last accepted edge
        self._seen = bytearray(count)  # an edge was accepted at least once

    def accept(self, button, pressed, stamp):
        raw_before = self._raw[button] == 1
        self._raw[button] = 1 if pressed else 0
        since = ticks.diff(stamp, self._since[button])
        if self._seen[button] and 0 <= since < self.lockout_ms:
            return False  # bounce after the last accepted edge (a week later, diff wraps)
        down = self._down[button] == 1
        if pressed and down and raw_before:
            return False  # a repeat of a press still held
        if not pressed and not down:
            return False
        # A press while "down" after an ignored release: that release was a short tap's.
        self._down[button] = 1 if pressed else 0
        self._since[button] = stamp
        self._seen[button] = 1
        return True
