# SPDX-License-Identifier: MIT
# Under the MicroPython unix port: building the clock frames allocates nothing, changed or not.
import micropython

from clock.game import View
from ui.oled import OledScreen
from ui.seg7 import SegScreen
from ui.status import Status

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


def setup():
    left, right = View(), View()
    left.running = True
    left.moves = 123
    left.stage = 1
    left.periods_left = 5
    left.moves_left = 1
    right.reserve_ms = 272000
    right.penalty_ms = 65000
    right.delay_ms = 4200
    right.start_ms = 30000
    status = Status()
    status.battery_percent = 87
    status.muted = True
    return left, right, status


def test_clock_frames_allocate_nothing():
    oled, seg = OledScreen(), SegScreen()
    left, right, status = setup()
    changed = []
    for left_ms, right_ms in TIMES:
        left.time_ms = left_ms
        right.time_ms = right_ms
        micropython.heap_lock()
        try:
            a = oled.clock(left, right, status)
            b = seg.clock(left, right, status)
        finally:
            micropython.heap_unlock()
        changed.append(a and b)
    assert changed == [True] * 6 + [False]


def test_marks_and_a_bytes_message_allocate_nothing():
    oled, seg = OledScreen(), SegScreen()
    left, right, status = setup()
    left.time_ms = right.time_ms = 300000
    micropython.heap_lock()
    try:
        oled.clock(left, right, status)
        seg.clock(left, right, status)
        status.paused = True  # the modules dim
        status.message = b"HALT"
        status.battery_low = True
        a = oled.clock(left, right, status)
        b = seg.clock(left, right, status)
        status.info = True  # the counters
        left.moves_left = 12
        f = seg.clock(left, right, status)
        status.info = False
        left.flagged = right.flagged = left.flagged_first = True
        right.soft_timeout = True
        status.first_flag_side = 0
        status.over = True
        status.battery_percent = -1
        c = oled.clock(left, right, status)
        d = seg.clock(left, right, status)
        e = oled.clock(left, right, status)
    finally:
        micropython.heap_unlock()
    assert a and b and c and d and not e and f


def test_a_lock_does_catch_allocation():
    screen = OledScreen()
    raised = False
    micropython.heap_lock()
    try:
        screen.menu("SET", ["a", "b"], 0)  # menus may allocate
    except MemoryError:
        raised = True
    finally:
        micropython.heap_unlock()
    assert raised
