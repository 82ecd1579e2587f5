# SPDX-License-Identifier: MIT
# SET while a clock runs on the 7-segment board: the counters, SET again the battery level,
# SET again neither; each goes by itself after INFO_MS.
from app.clock_app import INFO_MS
from hal import buttons as b
from harness import Clock
from ui.seg7 import SegScreen
from ui.status import INFO_BATTERY, INFO_COUNTERS


def test_set_shows_the_counters_then_the_battery_then_neither():
    clock = Clock(screen=SegScreen(), preset="Blitz 5+3")
    clock.press(b.RIGHT, 2000)
    clock.press(b.SET, 3000)
    clock.run_until(3200)
    assert clock.app.status.info == INFO_COUNTERS
    clock.press(b.SET, 4000)
    clock.run_until(4200)
    assert clock.app.status.info == INFO_BATTERY
    frame = list(clock.app.screen.frame)
    assert frame[:4] == frame[4:8] == [0x7C, 0, 0x07, 0x07]  # "b 77": 4000 mV on 3.3..4.2 V
    clock.press(b.SET, 5000)
    clock.run_until(5200)
    assert not clock.app.status.info
    assert list(clock.app.screen.frame)[:4] != [0x7C, 0, 0x07, 0x07]


def test_the_battery_level_goes_by_itself():
    clock = Clock(screen=SegScreen(), preset="Blitz 5+3")
    clock.press(b.RIGHT, 2000)
    clock.press(b.SET, 3000)
    clock.press(b.SET, 3500)
    clock.run_until(3700)
    assert clock.app.status.info == INFO_BATTERY
    clock.run_until(3500 + INFO_MS + 200)
    assert not clock.app.status.info and clock.state() == "running"


def test_a_sagging_battery_puts_the_l_before_the_times_within_ten_seconds():
    clock = Clock(screen=SegScreen(), preset="Blitz 5+3")
    clock.press(b.RIGHT, 2000)
    clock.run_until(3000)
    frame = clock.app.screen.frame
    assert frame[0] == 0x3F and frame[4] == 0x3F  # "05:02", "05:03": a leading 0 each
    clock.hal._battery_mv = 3450  # below the 3.5 V warning
    clock.run_until(13100)  # the supply is read every 10 s
    assert clock.app.status.battery_low
    assert frame[0] == 0x38 and frame[4] == 0x38  # L4:52, L5:03
    assert frame[1] & 0x7F == 0x66 and frame[5] & 0x7F == 0x6D  # the minutes stay: 4 and 5
