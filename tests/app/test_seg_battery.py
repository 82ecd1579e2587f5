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
