# SPDX-License-Identifier: MIT
# The HAL's wait(until) on select.poll: asleep until the stamp, an edge or a byte on stdin.
import io
import sys

from fakes import fake_machine as m
from fakes.fake_select import MP_STREAM_GET_FILENO, MP_STREAM_POLL, FakeSelect, FakeStream
from hal.events import EdgeRing
from hal.rp2040.usb_serial import UsbSerial
from hal.rp2040.waiter import Waiter

POLLIN = FakeSelect.POLLIN


def setup(start=1000):
    m.reset()
    clock = m.Clock(start)
    select = FakeSelect(clock)
    edges = EdgeRing()
    waiter = Waiter(select, io, edges, clock.ticks_ms)
    return clock, select, edges, waiter


def lever(edges, clock, gpio=14):
    pin = m.Pin(gpio, m.Pin.IN, m.Pin.PULL_UP)
    pin.irq(handler=lambda p: edges.push(0, p.value() == 0, clock.ticks_ms()), hard=True)
    return pin


# Each poller's timeouts start with the 0 of the Waiter's first ipoll(), which makes the
# poller's result tuple at construction rather than in a wait.


def test_wait_sleeps_until_the_stamp_in_one_wake():
    clock, select, edges, waiter = setup()
    waiter.wait(1025)
    assert clock.ticks_ms() == 1025
    assert select.polls[0].timeouts == [0, 25] and waiter.wakes == 1 and select.interrupts == 0


def test_a_stamp_already_past_returns_at_once_without_polling():
    clock, select, edges, waiter = setup()
    waiter.wait(1000)
    waiter.wait(990)
    assert clock.ticks_ms() == 1000 and select.polls[0].timeouts == [0] and waiter.wakes == 0


def test_a_pending_edge_returns_at_once():
    clock, select, edges, waiter = setup()
    edges.push(1, True, 1000)
    waiter.wait(5000)
    waiter.wait(None)
    assert clock.ticks_ms() == 1000 and waiter.wakes == 0
    assert edges.pop() and not edges.pending()


def test_an_edge_arriving_during_the_wait_ends_it():
    clock, select, edges, waiter = setup()
    pin = lever(edges, clock)
    select.at(1007, lambda: pin.drive(0))  # the lever's IRQ wakes the CPU at 1007
    waiter.wait(2000)
    assert clock.ticks_ms() == 1007 and waiter.wakes == 1 and select.interrupts == 1
    assert edges.pop() and edges.pressed and edges.stamp == 1007


def test_an_interrupt_that_makes_nothing_ready_does_not_end_the_wait():
    clock, select, edges, waiter = setup()
    select.at(1010, lambda: None)  # USB housekeeping, say: poll asks again and sleeps on
    waiter.wait(1050)
    assert clock.ticks_ms() == 1050 and waiter.wakes == 1
    assert select.interrupts == 1 and select.polls[0].asks == 1 + 3


def test_wait_none_waits_for_an_edge_only():
    clock, select, edges, waiter = setup()
    pin = lever(edges, clock)
    select.at(61000, lambda: pin.drive(0))
    waiter.wait(None)
    assert clock.ticks_ms() == 61000 and select.polls[0].timeouts == [0, -1] and waiter.wakes == 1


def test_wait_across_the_ticks_wrap():
    clock, select, edges, waiter = setup(start=0x3FFFFFFF - 9)
    waiter.wait(10)  # 20 ms later, after the wrap
    assert clock.ticks_ms() == 10 and select.polls[0].timeouts == [0, 20]
    waiter.wait(0x3FFFFFFF - 990)  # 1001 ms before now, across the wrap: due
    assert clock.ticks_ms() == 10 and waiter.wakes == 1


def test_a_poll_that_returns_early_is_asked_again_for_the_rest():
    clock, select, edges, waiter = setup()
    poller = select.polls[0]
    ipoll = poller.ipoll

    def early(timeout):  # a port whose poll clock runs 3 ms fast
        if timeout > 3:
            timeout -= 3
        return ipoll(timeout)

    waiter._ipoll = early
    waiter.wait(1100)
    assert clock.ticks_ms() == 1100 and poller.timeouts == [0, 97, 3] and waiter.wakes == 2


def test_the_edge_stream_answers_poll_and_is_no_file():
    clock, select, edges, waiter = setup()
    stream = waiter.edge_stream
    assert isinstance(stream, io.IOBase)
    assert stream.ioctl(MP_STREAM_POLL, POLLIN | FakeSelect.POLLOUT) == 0
    edges.push(2, False, 1000)
    assert stream.ioctl(MP_STREAM_POLL, POLLIN | FakeSelect.POLLOUT) == POLLIN
    assert stream.ioctl(MP_STREAM_POLL, FakeSelect.POLLOUT) == 0
    assert stream.ioctl(MP_STREAM_GET_FILENO, 0) == -1 and stream.ioctl(4, 0) == -1


class FakeSys:
    def __init__(self):
        self.stdin = FakeStream()
        self.stdout = FakeStream()


class FakeMicropython:
    def kbd_intr(self, char):
        pass


def serial_setup():
    clock, select, edges, waiter = setup()
    sys = FakeSys()
    port = UsbSerial(sys, select, FakeMicropython(), waiter)
    return clock, select, waiter, sys.stdin, port


def test_stdin_bytes_end_the_wait_while_the_serial_is_open():
    clock, select, waiter, stdin, port = serial_setup()
    assert select.polls[0].registered(stdin)
    select.at(1300, lambda: stdin.arrive(b"PING\n"))
    waiter.wait(5000)
    assert clock.ticks_ms() == 1300 and waiter.wakes == 1
    buf = bytearray(8)
    assert port.read_into(buf) == 5 and buf[:5] == b"PING\n"
    waiter.wait(1400)  # all read: the wait runs to its stamp
    assert clock.ticks_ms() == 1400


def test_bytes_already_waiting_end_the_wait_at_once():
    clock, select, waiter, stdin, port = serial_setup()
    stdin.arrive(b"S")
    waiter.wait(5000)
    assert clock.ticks_ms() == 1000 and select.polls[0].timeouts == [0, 4000]


def test_after_the_serial_closes_stdin_no_longer_ends_the_wait():
    clock, select, waiter, stdin, port = serial_setup()
    port.close()
    assert not select.polls[0].registered(stdin)
    select.at(1300, lambda: stdin.arrive(b"x"))
    waiter.wait(2000)
    assert clock.ticks_ms() == 2000 and select.interrupts == 1


def real_modules():
    if sys.implementation.name != "micropython":
        import pytest

        pytest.skip("CPython's select.poll cannot poll a Python object")
    import select
    import time

    return select, time


def test_real_select_polls_the_edge_stream_micropython_only():
    select, time = real_modules()
    edges = EdgeRing()
    waiter = Waiter(select, io, edges, time.ticks_ms)
    poller = waiter._poller
    start = time.ticks_ms()
    assert list(poller.ipoll(30)) == []
    assert time.ticks_diff(time.ticks_ms(), start) >= 30
    edges.push(0, True, start)
    start = time.ticks_ms()
    ready = [(stream is waiter.edge_stream, events) for stream, events in poller.ipoll(1000)]
    assert ready == [(True, select.POLLIN)]
    assert time.ticks_diff(time.ticks_ms(), start) < 100
    edges.pop()
    start = time.ticks_ms()
    waiter.wait(time.ticks_add(start, 20))  # the wait itself, on the real clock
    assert time.ticks_diff(time.ticks_ms(), start) >= 20 and waiter.wakes == 1
