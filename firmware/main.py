# SPDX-License-Identifier: MIT
# Boot: the board's HAL, the screen for its display, the app; then the loop, for years.
import io
import os
import select
import sys
import time

import machine
import micropython

import board
from app.clock_app import ClockApp
from app.runner import Runner
from app.serial_channel import LeaveForRepl
from hal.buttons import PLAY
from hal.rp2040 import usb_serial
from hal.rp2040.hal import Rp2040Hal
from hal.storage import Storage

micropython.alloc_emergency_exception_buf(100)


def screen():
    """The app's screen for the board's display. The table of display kinds is needed only at
    boot: unloaded here, it takes no RAM in play."""
    from ui import kinds

    try:
        return kinds.screen_for(board)
    finally:
        kinds.forget()


def main():
    # PLAY held at power-on, or the REPL command, leaves the board at the REPL for flashing:
    # decided before the HAL starts, so no watchdog runs and Ctrl-C works.
    if usb_serial.app_skipped(machine, Storage(board.STORAGE_ROOT, os, open), board.BUTTONS[PLAY]):
        print("clock: app skipped (PLAY held or REPL asked): REPL")
        return
    hal = Rp2040Hal(
        machine, board, time.ticks_ms, time.sleep_us, watchdog=True, select=select, io=io
    )
    # Stray bytes no longer Ctrl-C; a byte ends the loop's sleep.
    hal.serial = usb_serial.UsbSerial(sys, select, micropython, hal.waiter)
    app = ClockApp(hal, tuple(board.BUTTONS), screen(), hal.ticks_ms())
    try:
        Runner(hal, app).run()
    except LeaveForRepl:
        hal.serial.close()
        hal.deinit()
        usb_serial.reboot_to_repl(machine, hal.storage)


main()
