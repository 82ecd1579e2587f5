# SPDX-License-Identifier: MIT
# A preallocated ring of timestamped edges: interrupt handlers push, the main loop pops.
from array import array

from micropython import const

_SIZE = const(64)  # a bouncing lever during a 25 ms full OLED redraw fits


class EdgeRing:
    """Edges as (button, pressed, stamp). push() allocates nothing and may run in a hard IRQ;
    when the ring is full the newest edge is dropped and counted in `lost`."""

    def __init__(self):
        self._codes = array("i", [0] * _SIZE)
        self._stamps = array("i", [0] * _SIZE)
        self._head = 0  # next slot to write (IRQ side only)
        self._tail = 0  # next slot to read (main loop only)
        self.lost = 0
        self.button = 0  # of the last edge popped
        self.pressed = False
        self.stamp = 0

    def push(self, button, pressed, stamp):
        head = self._head
        following = (head + 1) % _SIZE
        if following == self._tail:
            self.lost += 1
            return
        self._codes[head] = button * 2 + (1 if pressed else 0)
        self._stamps[head] = stamp
        self._head = following

    def pending(self):
        return self._head != self._tail

    def pop(self):
        """Take the oldest edge into button/pressed/stamp; false when there is none."""
        tail = self._tail
        if tail == self._head:
            return False
        code = self._codes[tail]
        self.button = code >> 1
        self.pressed = code & 1 == 1
        self.stamp = self._stamps[tail]
        self._tail = (tail + 1) % _SIZE
        return True

    def clear(self):
        self._tail = self._head
