# SPDX-License-Identifier: MIT
# The HT1621 LCD frames: 12 digit bytes, left module then right, a point for each colon, the
# running side's bar in the first digit, flags, the low battery point, the counters and menus.
from app.lights import OFF, SLOW
from app.lights import Lights
from clock.game import View
from ui.lcd import LcdScreen
from ui.status import INFO_BATTERY, INFO_COUNTERS, Status

# a=1 b=2 c=4 d=8 e=16 f=32 g=64, bit 7 the point after the digit
ZERO, ONE, TWO, THREE, FIVE, NINE = 0x3F, 0x06, 0x5B, 0x4F, 0x6D, 0x6F
POINT = 0x80
BAR = 0x40
HOUR = 3600000


def views(left_ms, right_ms=300000):
    left, right = View(), View()
    left.time_ms = left_ms
    right.time_ms = right_ms
    return left, right


def shown(left_ms, right_ms=300000, status=None, running=None):
    screen = LcdScreen()
    left, right = views(left_ms, right_ms)
    if running == 0:
        left.running = True
    elif running == 1:
        right.running = True
    screen.clock(left, right, status or Status())
    return list(screen.frame)


def test_minutes_and_seconds_right_aligned_with_a_point_for_the_colon():
    # "05:00" and "01:05"; the first digit of each module is the side's mark, dark here
    assert shown(300000, 65000) == [0, 0, ZERO, FIVE | POINT, ZERO, ZERO] + [
        0,
        0,
        ZERO,
        ONE | POINT,
        ZERO,
        FIVE,
    ]


def test_hours_minutes_and_seconds_fill_five_digits():
    assert shown(HOUR + 30 * 60000 + 25000)[:6] == [0, ONE | POINT, THREE, ZERO | POINT, TWO, FIVE]


def test_from_ten_hours_hours_and_minutes():
    assert shown(12 * HOUR + 5 * 60000 + 59000)[:6] == [0, 0, ONE, TWO | POINT, ZERO, FIVE]
    assert shown(100 * HOUR + 60000)[:6] == [0, ONE, ZERO, ZERO | POINT, ZERO, ONE]


def test_tenths_below_twenty_seconds():
    assert shown(15300)[:6] == [0, 0, 0, ONE, FIVE | POINT, THREE]
    assert shown(9950)[:6] == [0, 0, 0, 0, NINE | POINT, NINE]


def test_the_running_side_has_the_bar_and_in_a_pause_the_side_on_move():
    assert shown(300000, 300000, running=0)[0] == BAR and shown(300000, running=0)[6] == 0
    assert shown(300000, 300000, running=1)[6] == BAR
    status = Status()
    status.lights = Lights(None)
    status.lights.left, status.lights.right = OFF, SLOW  # paused: the right side is on move
    frame = shown(300000, 300000, status)
    assert frame[0] == 0 and frame[6] == BAR


def test_flags_and_the_low_battery_point():
    screen = LcdScreen()
    left, right = views(0, 120000)
    left.flagged = left.flagged_first = True
    status = Status()
    status.battery_low = True
    screen.clock(left, right, status)
    frame = list(screen.frame)
    assert frame[:6] == [0, 0, 0x71, 0x38, 0x77, 0x3D | POINT]  # "FLAG" and the low point
    assert frame[11] & POINT and frame[6:11] == [0, 0, ZERO, TWO | POINT, ZERO]


def test_the_counters_and_the_battery_level():
    screen = LcdScreen()
    left, right = views(300000)
    left.moves, left.moves_left, left.periods_left = 23, -1, -1
    right.moves, right.moves_left, right.periods_left = 23, 12, -1
    status = Status()
    status.info = INFO_COUNTERS
    screen.clock(left, right, status)
    assert list(screen.frame) == [0, 0x54, 0, 0, TWO, THREE, 0, 0x37, 0, 0, ONE, TWO]
    status.info = INFO_BATTERY
    status.battery_percent = 87
    screen.clock(left, right, status)
    assert list(screen.frame[:6]) == [0, 0x7C, 0, 0, 0x7F, 0x07]
    status.battery_percent = -1
    screen.clock(left, right, status)
    assert list(screen.frame[:6]) == [0, 0x7C, 0, 0, 0x40, 0x40]


def test_an_unchanged_clock_is_not_a_new_frame():
    screen = LcdScreen()
    left, right = views(300999)
    assert screen.clock(left, right, Status())
    left.time_ms = 300001  # 05:00 still: the figure is cut, never rounded up
    assert not screen.clock(left, right, Status())
    left.time_ms = 299999
    assert screen.clock(left, right, Status())


def test_a_menu_line_on_twelve_digits_scrolls_when_longer():
    screen = LcdScreen()
    assert screen.menu("Preset", ["Blitz 5+3"], 0, 0)
    assert screen.frame[0] == 0x7C and screen.menu_wait(0) == -1  # "b": it fits
    assert screen.menu("Preset", ["Rapid 15+10 fischer"], 0, 0)
    assert screen.menu_wait(0) == 1200 and screen.menu_wait(1200) == 350
    first = bytes(screen.frame)
    assert screen.menu("Preset", ["Rapid 15+10 fischer"], 0, 1200)
    assert bytes(screen.frame) != first and screen.frame[:11] == bytearray(first[1:12])
    assert screen.until_blink(View()) == -1
