# SPDX-License-Identifier: MIT
# Under the MicroPython unix port: the LCD's clock frames allocate nothing, changed or not, the
# flags, the low battery point and the counters included.
import micropython

from clock.game import View
from ui.lcd import LcdScreen
from ui.status import INFO_BATTERY, INFO_COUNTERS, Status

# (left ms, right ms): every text shape; the last pair repeats, so nothing changes
TIMES = (
    (300000, 300000),
    (299000, 300000),
    (5425000, 19950),
    (12 * 3600000 + 1000, 9900),
    (100 * 3600000, 0),
    (65000, 0),
    (65000, 0),
)


def test_lcd_frames_allocate_nothing():
    screen = LcdScreen()
    left, right = View(), View()
    left.running = True
    left.moves = 123
    status = Status()
    status.battery_percent = 87
    screen.clock(left, right, status)  # the first build: the screen's own buffers exist already
    clock = screen.clock
    changed = 0
    micropython.heap_lock()
    try:
        for left_ms, right_ms in TIMES:
            left.time_ms = left_ms
            right.time_ms = right_ms
            if clock(left, right, status):
                changed += 1
        status.battery_low = True
        right.flagged = right.flagged_first = True
        clock(left, right, status)
        status.info = INFO_COUNTERS
        clock(left, right, status)
        status.info = INFO_BATTERY
        clock(left, right, status)
    finally:
        micropython.heap_unlock()
    assert changed == len(TIMES) - 1
