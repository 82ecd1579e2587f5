# SPDX-License-Identifier: MIT
# The USB CDC serial HAL with fake sys, select, micropython and machine modules: Ctrl-C is off
# while it is open, reads never block, and the two ways back to the REPL. Plain asserts.
import io

from fakes.fake_fs import FakeFs
from fakes.fake_machine import Clock
from fakes.fake_select import FakeSelect, FakeStream
from hal.events import EdgeRing
from hal.rp2040 import usb_serial
from hal.rp2040.usb_serial import UsbSerial
from hal.rp2040.waiter import Waiter
from hal.storage import Storage


class FakeSys:
    def __init__(self):
        self.stdin = FakeStream()  # readinto() of a byte that is not there fails
        self.stdout = FakeStdout()


class FakeStdout:
    def __init__(self):
        self.written = []
        self.buffer = self

    def write(self, data):
        self.written.append(bytes(data))


class FakeMicropython:
    def __init__(self):
        self.interrupt_chars = []

    def kbd_intr(self, char):
        self.interrupt_chars.append(char)


def make(waiter=False):
    sys = FakeSys()
    clock = Clock(1000)
    select = FakeSelect(clock)
    micropython = FakeMicropython()
    hal_waiter = Waiter(select, io, EdgeRing(), clock.ticks_ms) if waiter else None
    return UsbSerial(sys, select, micropython, hal_waiter), sys, select, micropython


def test_ctrl_c_is_an_ordinary_byte_while_open_and_interrupts_again_after_close():
    port, sys, select, micropython = make()
    assert micropython.interrupt_chars == [-1]
    sys.stdin.waiting = [0x03, ord("\n")]
    buf = bytearray(8)
    assert port.read_into(buf) == 2 and buf[:2] == b"\x03\n"
    port.close()
    assert micropython.interrupt_chars == [-1, 3]
    assert select.polls[0].entries == []
    port.close()  # once only
    assert micropython.interrupt_chars == [-1, 3]


def test_reads_never_block_and_stop_at_the_buffer_size():
    port, sys, select, _ = make()
    buf = bytearray(4)
    assert port.read_into(buf) == 0  # nothing waiting: no read at all
    assert select.polls[0].timeouts == [0]  # a zero timeout: never waits
    sys.stdin.waiting = list(b"STATE\n")
    assert port.read_into(buf) == 4 and bytes(buf) == b"STAT"
    assert port.read_into(buf) == 2 and buf[:2] == b"E\n"
    assert port.read_into(buf) == 0
    assert all(timeout == 0 for timeout in select.polls[0].timeouts)
    assert not port.any()


def test_with_the_hal_waiter_stdin_is_watched_while_open_only():
    port, sys, select, _ = make(waiter=True)
    watching = select.polls[0]  # the waiter's poller, made first
    assert watching.registered(sys.stdin) and len(watching.entries) == 2
    port.close()
    assert not watching.registered(sys.stdin) and len(watching.entries) == 1
    assert select.polls[1].entries == []  # the serial's own poller


def test_writes_go_to_stdout_and_nothing_after_close():
    port, sys, _, _ = make()
    port.write(b"OK pong\r\n")
    port.close()
    port.write(b"lost\r\n")
    sys.stdin.waiting = [65]
    assert port.read_into(bytearray(4)) == 0
    assert sys.stdout.written == [b"OK pong\r\n"]


class FakePin:
    IN = 0
    PULL_UP = 1
    level = 1

    def __init__(self, number, mode, pull):
        assert mode == FakePin.IN and pull == FakePin.PULL_UP
        self.number = number

    def value(self):
        return FakePin.level


class FakeMachine:
    Pin = FakePin

    def __init__(self):
        self.resets = 0

    def reset(self):
        self.resets += 1


def test_the_repl_command_reboots_once_into_the_repl():
    fs = FakeFs()
    storage = Storage("/", fs, fs.open)
    machine = FakeMachine()
    FakePin.level = 1
    assert not usb_serial.app_skipped(machine, storage, 16)
    usb_serial.reboot_to_repl(machine, storage)
    assert machine.resets == 1 and storage.read(usb_serial.MARKER) is not None
    assert usb_serial.app_skipped(machine, storage, 16)  # the boot after: the REPL
    assert not usb_serial.app_skipped(machine, storage, 16)  # and the one after: the app


def test_holding_play_at_power_on_skips_the_app():
    fs = FakeFs()
    storage = Storage("/", fs, fs.open)
    FakePin.level = 0  # pressed: the button closes to GND
    assert usb_serial.app_skipped(FakeMachine(), storage, 16)
    FakePin.level = 1
    assert not usb_serial.app_skipped(FakeMachine(), storage, 16)
