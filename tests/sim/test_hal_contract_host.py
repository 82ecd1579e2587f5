# SPDX-License-Identifier: MIT
# The desktop's real-time HALs keep the hal/__init__.py contract (tests/hal_contract.py): the
# simulator's on a fake terminal and clock, the pty one in real time with its key lines on a pipe.
import os
import threading

import hal_contract
import ticks
from hal import buttons
from hal.storage import Storage
from sim.hal_base import DesktopBuzzer
from sim.pty_hal import HOLD_MS, PtyHal
from sim.pty_serial import PtySerial
from sim.realtime import RealTimeHal, folder_storage
from test_sim_hal_host import Terminal


class RealTimeRig:
    hold_ms = 60
    slack_ms = 0
    frame_bytes = 1024
    battery_mv = 4000

    def __init__(self, folder):
        self.terminal = Terminal(2**30 - 300)
        keymap = {button: (button, self.hold_ms) for button in range(buttons.COUNT)}
        self.hal = RealTimeHal(
            folder_storage(folder),
            self.terminal.read_key,
            keymap,
            DesktopBuzzer(),
            ticks_ms=self.terminal.ticks_ms,
        )

    def press(self, button, at):
        self.terminal.keys.append((at, button))


class PtyRig:
    hold_ms = HOLD_MS
    slack_ms = 150  # a loaded machine's scheduling
    frame_bytes = 8
    battery_mv = -1

    def __init__(self, folder):
        self.port = PtySerial()
        read, self._write = os.pipe()
        self.key_lines = os.fdopen(read, "rb", buffering=0)
        self.hal = PtyHal(Storage(folder, os, open), self.port, self.key_lines)

    def press(self, button, at):
        delay = max(0, ticks.diff(at, self.hal.ticks_ms())) / 1000
        line = ("%s\n" % buttons.NAMES[button]).encode()
        threading.Timer(delay, os.write, (self._write, line)).start()

    def close(self):
        self.port.close()
        self.key_lines.close()
        os.close(self._write)


def test_the_simulators_real_time_hal_keeps_the_contract(tmp_path):
    hal_contract.check(RealTimeRig(str(tmp_path)))


def test_the_pty_hal_keeps_the_contract(tmp_path):
    rig = PtyRig(str(tmp_path))
    try:
        hal_contract.check(rig)
    finally:
        rig.close()


def test_a_byte_from_the_host_ends_the_pty_hals_wait_and_waits_there_for_the_app(tmp_path):
    rig = PtyRig(str(tmp_path))
    host = os.open(rig.port.path, os.O_RDWR | os.O_NOCTTY)
    try:
        hal = rig.hal
        start = hal.ticks_ms()
        threading.Timer(0.05, os.write, (host, b"PING\n")).start()
        hal.wait(ticks.add(start, 5000))
        assert 40 <= ticks.diff(hal.ticks_ms(), start) < 2000
        buf = bytearray(16)
        assert hal.serial.read_into(buf) == 5 and buf[:5] == b"PING\n"
        hal.serial.write(b"OK pong\r\n")
        assert os.read(host, 16) == b"OK pong\r\n"
    finally:
        os.close(host)
        rig.close()
