# Boot: the board's HAL, the screen for its display, the app; then the loop, for years.
import time

import machine
import micropython

import board
from app.clock_app import ClockApp
from app.runner import Runner
from hal.rp2040.hal import Rp2040Hal

micropython.alloc_emergency_exception_buf(100)


def screen_for(kind):
    if kind == "tm1637":
        from ui.seg7 import SegScreen

        return SegScreen()
    from ui.oled import OledScreen

    return OledScreen()


def main():
    hal = Rp2040Hal(machine, board, time.ticks_ms, time.sleep_us, watchdog=True)
    app = ClockApp(hal, tuple(board.BUTTONS), screen_for(board.DISPLAY), hal.ticks_ms())
    Runner(hal, app).run()


main()
