# SPDX-License-Identifier: MIT
# Under the MicroPython unix port: on battery (the running light flashing, the faces dimmed) a
# pass of the main loop allocates nothing, on the OLED, 7-segment and LCD screens alike.
from hal import buttons as b
from harness import Clock
from test_heap_mp import locked_steps
from ui.lcd import LcdScreen
from ui.oled import OledScreen
from ui.seg7 import SegScreen


def test_running_on_battery_allocates_nothing():
    for screen in (OledScreen(), SegScreen(), LcdScreen()):
        clock = Clock(screen=screen, preset="Blitz 5+3")
        clock.hal.battery_powered = True
        clock.hal.leds.flash_ms = 60
        clock.app._check_battery(clock.hal.now)
        clock.press(b.RIGHT, 2000)
        clock.run_until(2000)
        writes = locked_steps(clock, 300)  # every second's text and each flash's two edges
        assert writes > 0 and clock.hal.now > 60000
        assert clock.app.status.on_battery and clock.app.lights.flash == 60
