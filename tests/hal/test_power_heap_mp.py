# SPDX-License-Identifier: MIT
# Under the MicroPython unix port: a light-sleep wait, the VBUS interrupt and the HT1621 driver's
# writes allocate nothing (each call made between heap_lock/unlock).
import micropython
from fakes import fake_machine as m
from fakes.ht1621_chip import Ht1621Chip
from hal import buttons as b
from hal.events import EdgeRing
from hal.rp2040.ht1621 import Ht1621, TwoLcds, glass_table
from hal.rp2040.sleeper import Sleeper


class Machine:
    """The fake machine's pins with a lightsleep that only counts, as the chip's C call would."""

    Pin = m.Pin

    def __init__(self):
        self.slept = 0

    def lightsleep(self, ms=None):
        self.slept += 1


def test_a_light_sleep_and_the_vbus_interrupt_allocate_nothing():
    m.reset()
    clock = m.Clock(1000)
    machine = Machine()
    edges = EdgeRing()
    sleeper = Sleeper(machine, 24, {b.LEFT: 14, b.PLAY: 16}, edges, clock.ticks_ms, None)
    sleep = sleeper.sleep
    poll = sleeper.on_battery  # never called: the wait is long enough to sleep
    micropython.heap_lock()
    try:
        sleep(1500, poll)
        sleep(1800, poll)
        m.set_vbus(True)  # the fake runs the hard handler under the lock too
    finally:
        micropython.heap_unlock()
    assert machine.slept == 2 and sleeper.light == 2 and sleeper.plugs == 1


def test_the_ht1621_writes_allocate_nothing():
    m.reset()
    wr, data = m.line(10), m.line(11)
    left = Ht1621Chip(m.line(8), wr, data, record=False)
    table = glass_table()
    lcds = TwoLcds(
        Ht1621(m.Pin(8), m.Pin(10), m.Pin(11), table),
        Ht1621(m.Pin(9), m.Pin(10), m.Pin(11), table),
    )
    frame = bytearray(12)
    show = lcds.show
    micropython.heap_lock()
    try:
        for second in range(70):  # past a refresh of both modules
            frame[5] = 0x3F if second % 2 else 0x06
            frame[11] = frame[5]
            show(frame)
        lcds.power(False)
        lcds.power(True)
    finally:
        micropython.heap_unlock()
    assert left.on and left.glass_byte(5) == table[frame[5]]
