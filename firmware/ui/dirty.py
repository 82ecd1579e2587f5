# SPDX-License-Identifier: MIT
# The windows of a frame that changed since the display last showed it (SSD1306 pages).
from micropython import const

CAPACITY = const(24)


class Dirty:
    """Windows as columns x0..x1 and pages p0..p1 (inclusive), 4 bytes each in `boxes`, `count`
    of them; `whole` when all of the frame may have changed. The screen adds, the display sends
    and then clears. Allocates nothing."""

    def __init__(self, capacity=CAPACITY):
        self.boxes = bytearray(4 * capacity)
        self.count = 0
        self.whole = True  # nothing was shown yet

    def clear(self):
        self.count = 0
        self.whole = False

    def all(self):
        self.count = 0
        self.whole = True

    def add(self, x0, x1, y0, y1):
        """The pixels x0..x1, y0..y1 (inclusive) changed."""
        if self.whole:
            return
        at = 4 * self.count
        if at == len(self.boxes):
            self.all()
            return
        boxes = self.boxes
        boxes[at] = x0
        boxes[at + 1] = x1
        boxes[at + 2] = y0 >> 3
        boxes[at + 3] = y1 >> 3
        self.count += 1
