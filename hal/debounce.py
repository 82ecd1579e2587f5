# SPDX-License-Identifier: MIT
# Debounce by timestamp: a leading edge acts at once, then the button ignores bounce for a lockout.
#
# A release that comes inside the lockout (a tap shorter than it) is not lost: once the lockout
# has ended with the button still up, settle() hands it over, stamped when it came.
from array import array

import ticks
from micropython import const

LOCKOUT_MS = const(30)


class Debouncer:
    """Tracks each button's accepted state. accept() says whether an edge is a real change;
    settle() gives the releases the lockout held back, due() when the next one is."""

    def __init__(self, count, lockout_ms=LOCKOUT_MS):
        self.lockout_ms = lockout_ms
        self.stamp = 0  # of the release settle() last gave
        self.waiting = 0  # a bit per button whose release the lockout holds back
        self._count = count
        self._down = bytearray(count)  # accepted state
        self._raw = bytearray(count)  # the last edge seen, accepted or not
        self._raw_at = array("i", [0] * count)  # and its stamp
        self._since = array("i", [0] * count)  # stamp of the last accepted edge
        self._seen = bytearray(count)  # an edge was accepted at least once

    def accept(self, button, pressed, stamp):
        raw_before = self._raw[button] == 1
        self._raw[button] = 1 if pressed else 0
        self._raw_at[button] = stamp
        if pressed:
            self.waiting &= ~(1 << button)
        elif self._down[button]:
            self.waiting |= 1 << button  # until accepted below or settled
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
        if not pressed:
            self.waiting &= ~(1 << button)
        return True

    def due(self):
        """The stamp from which settle() gives a held-back release; -1 when none waits."""
        if self.waiting:
            for button in range(self._count):
                if self.waiting & (1 << button):
                    return ticks.add(self._since[button], self.lockout_ms)
        return -1

    def settle(self, now):
        """A button whose last edge, a release inside the lockout, still stands once the
        lockout has ended by `now`: it is up now, released at `stamp`. -1 when there is none."""
        if not self.waiting:
            return -1
        for button in range(self._count):
            if self.waiting & (1 << button):
                since = ticks.diff(now, self._since[button])
                if since >= self.lockout_ms or since < 0:
                    self._down[button] = 0
                    self.waiting &= ~(1 << button)
                    self.stamp = stamp = self._raw_at[button]
                    self._since[button] = stamp
                    return button
        return -1
