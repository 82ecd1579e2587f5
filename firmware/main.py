# SPDX-License-Identifier: MIT
# Boot: the big buffers, the board's HAL, the screen for its display, the app; then the loop, for years.
#
# The game record and the display frame are the largest objects the clock keeps (16 KB and 1 KB
# on an OLED board): they are made first, before the rest is imported, while the heap is one
# piece; the modules' bytecode and the boot's short-lived objects then fill in around them.
#
# Below them all, the boot first sets 32 KB aside (the floor) and frees it once the app is built.
# MicroPython's allocator takes the first free run that is big enough, scanning from the lowest
# free block, and every call of a function with more than 11 words of state takes its frame from
# the heap (py/objfun.c): a dozen to thirty on each press. The boot leaves small holes among what
# it keeps, where depends on what it found on flash: on a clock in service the first run big
# enough for a frame lay 40 KB up, and each such call scanned to it (0.1 ms a call; presses 35 %
# slower than on the first boot after flashing: docs/performance-chip.md). The floor goes in
# 256-byte pieces, each in the lowest free run that takes it (the first boot's format leaves
# such runs below the rest), so what the boot keeps fills the small holes and lies above the
# pieces; once they are freed, play allocates and frees frames in runs at the bottom of the heap.
import gc

gc.collect()
_floor = [None] * 128
for _i in range(128):
    _floor[_i] = bytearray(256)  # a frame takes at most 12 blocks of 16 bytes
import board
from clock.record import Record


def main():
    record = Record()
    display = getattr(board, "DISPLAY", None)  # checked below: refused when it is missing
    size = {"oled": 1024, "lcd": 12}.get(display, 9)  # ui.canvas.SIZE, ui.lcd's, ui.seg7's
    frame = bytearray(size)
    import io
    import os
    import select
    import sys
    import time

    import machine
    import micropython

    from app.clock_app import built
    from app.runner import Runner
    from app.serial_channel import LeaveForRepl
    from hal.buttons import PLAY
    from hal.rp2040 import usb_serial
    from hal.rp2040.hal import Rp2040Hal
    from hal.storage import Storage

    # The board file first: the lines below read its PLAY pin and storage folder.
    problem = board_problem()
    if problem is not None:
        print("clock: board.py refused: %s" % problem)
        return
    # PLAY held at power-on, or the REPL command, leaves the board at the REPL for flashing:
    # decided before the HAL starts, so no watchdog runs and Ctrl-C works.
    if usb_serial.app_skipped(machine, Storage(board.STORAGE_ROOT, os, open), board.BUTTONS[PLAY]):
        print("clock: app skipped (PLAY held or REPL asked): REPL")
        return
    # The table of display kinds makes the driver and the screen; needed only at boot, it is
    # unloaded then and takes no RAM in play.
    from ui import kinds

    try:
        import refsleep  # the own UF2 (cmod/refsleep): sleeps on a REF_CLOCK, exact light sleeps
    except ImportError:
        refsleep = None  # stock MicroPython: light sleep
    try:
        import rp2
        import uctypes
    except ImportError:  # no PIO and DMA: the levers' interrupts stamp their edges
        rp2 = uctypes = None
    # The filesystem's flash: the game's slot ring is in it (hal/lfs_slots.py). Only on the own
    # UF2 (refsleep is its module): on stock MicroPython the modules load into RAM and the ring's
    # code and state left a 2-ply game a 5 KB largest free block, so there the files take every
    # save, as before the ring.
    flash = None if rp2 is None or refsleep is None else rp2.Flash()

    try:
        hal = Rp2040Hal(
            machine,
            board,
            time.ticks_ms,
            time.sleep_us,
            watchdog=False,  # started once the app is built: below
            select=select,
            io=io,
            display=kinds.driver_for,
            checked=True,  # board_problem() above
            refsleep=refsleep,
            flash=flash,
            rp2=rp2,
            addressof=uctypes and uctypes.addressof,
        )
    except ValueError as error:  # hal.board_check's BoardError, or a pin machine refuses
        print("clock: board.py refused: %s" % error)
        return
    screen = kinds.screen_for(board, frame)
    kinds.forget()
    del kinds
    # Stray bytes no longer Ctrl-C; a byte ends the loop's sleep.
    hal.serial = usb_serial.UsbSerial(sys, select, micropython, hal.waiter)
    app = built(hal, tuple(board.BUTTONS), screen, record, _free)
    if hal.storage.read("hall.txt") is not None:  # set up for a hall: its games kept for it
        from app import hall

        hall.boot(app)
    if getattr(board, "WIFI", False):
        wifi(app, select, hal.ticks_ms())  # long-lived as the app: built above the floor too
    global _floor
    _floor = None  # free runs at the bottom of the heap, for the frames of play
    gc.collect()
    # The watchdog only now: a boot that fails before (a MemoryError, say) falls to the REPL
    # with none running, instead of resetting the chip into the same failure again and again.
    hal.start_watchdog(machine, board.WATCHDOG_MS)
    try:
        Runner(hal, app).run()
    except LeaveForRepl:
        hal.serial.close()
        hal.deinit()
        usb_serial.reboot_to_repl(machine, hal.storage)


def _free(tries_left):
    """Room for the saved game at boot (app.clock_app.built): the floor goes, a collection."""
    global _floor
    _floor = None
    gc.collect()
    said = "trying again" if tries_left else "kept on flash, a new game"
    print("clock: out of memory reading the saved game: " + said)


def wifi(app, select, now):
    """A Pico W (board.WIFI) joins its hall's Wi-Fi and broker in the background of the loop
    (app/hall_net.py); its chip is started here, before the first frame. Without the network
    module or umqtt.simple (stock MicroPython for a Pico, say) it is a clock in no hall, and
    HALL says why."""
    from app import hall as halls

    try:
        import network
        import socket
        from umqtt.simple import MQTTClient
    except ImportError as error:
        halls.of(app).log("no Wi-Fi: %s" % error)
        return
    from app import hall_net

    hall_net.start(app, network, socket, select, MQTTClient, now)


def board_problem():
    """hal.board_check's line for board.py, or None (unloaded after: the check takes no RAM in
    play)."""
    from hal import board_check

    try:
        board_check.check(board)
    except board_check.BoardError as error:
        return str(error)
    finally:
        board_check.forget()
    return None


main()
