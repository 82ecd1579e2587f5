# SPDX-License-Identifier: MIT
# The 7-segment board's battery: a low sign that leaves every digit of a time readable, and the
# level on request ("b 87" on both modules).
from test_ui_seg7 import COLON, FIVE, ONE, ZERO, views
from ui.seg7 import BRIGHT, SegScreen
from ui.status import INFO_BATTERY, INFO_COUNTERS, Status

L, B, MINUS, POINT = 0x38, 0x7C, 0x40, 0x80
EIGHT, SEVEN, THREE, NINE = 0x7F, 0x07, 0x4F, 0x6F


def low(battery_low=True, percent=12):
    status = Status()
    status.battery_low = battery_low
    status.battery_percent = percent
    return status


def test_the_colon_module_puts_an_l_where_the_first_digit_says_nothing():
    screen = SegScreen()
    left, right = views(5 * 60000, 90 * 60000)  # "05:00" and " 1:30"
    assert screen.clock(left, right, low())
    assert list(screen.frame) == [L, FIVE | COLON, ZERO, ZERO, L, ONE | COLON, THREE, ZERO, BRIGHT]
    assert screen.clock(left, right, low(False))  # the supply recovered: the times as they were
    assert list(screen.frame)[:8] == [ZERO, FIVE | COLON, ZERO, ZERO, 0, ONE | COLON, THREE, ZERO]


def test_from_ten_minutes_the_colon_module_puts_the_l_last_and_keeps_the_flag():
    screen = SegScreen()
    left, right = views(15 * 60000, 0)  # "15:00", and a flag on the right
    right.flagged = right.flagged_first = True
    screen.clock(left, right, low())
    assert list(screen.frame)[:4] == [ONE, FIVE | COLON, ZERO, L]  # "15:0L", never "L5:00"
    assert list(screen.frame)[4:8] == [0x71, 0x38, 0x77, 0x3D]  # FLAG, untouched


def test_on_the_running_side_the_l_comes_every_other_second():
    screen = SegScreen()
    left, right = views(15 * 60000, 12 * 60000 + 7000)
    left.running = True
    screen.clock(left, right, low())  # 15:00 shown: an even second
    assert list(screen.frame)[:8] == [ONE, FIVE | COLON, ZERO, L, ONE, 0x5B | COLON, ZERO, L]
    left.time_ms = 15 * 60000 - 1  # 14:59: the figure itself, the waiting side's L stays
    assert screen.clock(left, right, low())
    assert list(screen.frame)[:8] == [ONE, 0x66 | COLON, FIVE, NINE, ONE, 0x5B | COLON, ZERO, L]
    left.time_ms = 15 * 60000 - 1001  # 14:58
    screen.clock(left, right, low())
    assert list(screen.frame)[:4] == [ONE, 0x66 | COLON, FIVE, L]


def test_seconds_and_tenths_keep_every_digit_and_ten_hours_take_the_l_last():
    screen = SegScreen()
    left, right = views(15300, 10 * 3600000 + 30 * 60000)  # "15:3 " and "10:30"
    screen.clock(left, right, low())
    assert list(screen.frame)[:4] == [ONE, FIVE | COLON, THREE, 0]
    assert list(screen.frame)[4:8] == [ONE, ZERO | COLON, THREE, L]


def test_the_point_module_lights_the_last_point_which_no_time_uses():
    screen = SegScreen(points=True)
    left, right = views(15 * 60000, 15300)  # "15.00" and " 15.3"
    screen.clock(left, right, low(False))
    normal = list(screen.frame)
    assert screen.clock(left, right, low())
    assert list(screen.frame) == normal[:3] + [normal[3] | POINT] + normal[4:7] + [
        normal[7] | POINT,
        BRIGHT,
    ]
    assert not normal[3] & POINT and not normal[7] & POINT


def test_set_again_shows_the_level_on_both_modules():
    screen = SegScreen()
    left, right = views(300000)
    status = low(False, 87)
    status.info = INFO_BATTERY
    assert screen.clock(left, right, status)
    assert list(screen.frame) == [B, 0, EIGHT, SEVEN, B, 0, EIGHT, SEVEN, BRIGHT]
    status.battery_percent = 100
    screen.clock(left, right, status)
    assert list(screen.frame)[:4] == [B, ONE, ZERO, ZERO]
    status.battery_percent = 5
    screen.clock(left, right, status)
    assert list(screen.frame)[:4] == [B, 0, 0, FIVE]
    status.battery_percent = -1  # nothing sensed
    screen.clock(left, right, status)
    assert list(screen.frame)[4:8] == [B, 0, MINUS, MINUS]
    status.info = INFO_COUNTERS
    screen.clock(left, right, status)
    assert list(screen.frame)[:4] == [0x54, 0, 0, ZERO]  # n 0: the counters again
