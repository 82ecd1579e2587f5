# SPDX-License-Identifier: MIT
# Under the MicroPython unix port: the battery sign and the level view build without allocating.
import micropython
from test_ui_seg7 import views
from ui.seg7 import SegScreen
from ui.status import INFO_BATTERY, Status


def test_the_low_sign_and_the_level_allocate_nothing():
    for points in (False, True):
        screen = SegScreen(points=points)
        left, right = views(5 * 60000, 15 * 60000)  # "05:00" and "15:00"
        status = Status()
        status.battery_percent = 42
        micropython.heap_lock()
        try:
            status.battery_low = True
            changed = screen.clock(left, right, status)
            right.running = True
            right.time_ms -= 1000  # 14:59, its L gone for a second
            changed = screen.clock(left, right, status) and changed
            status.info = INFO_BATTERY
            changed = screen.clock(left, right, status) and changed
            status.info = 0
            status.battery_low = False
            changed = screen.clock(left, right, status) and changed
        finally:
            micropython.heap_unlock()
        assert changed
