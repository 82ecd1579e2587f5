# SPDX-License-Identifier: MIT
# Under the MicroPython unix port: IRQ handlers, the HAL's wait (on the real select and io) and
# the display and tone updates of the main loop allocate nothing (each call made directly
# between heap_lock/unlock).
# tests/core/test_heap_mp.py shows that the lock does catch an allocation.
import io
import select
import time

import micropython
from fake_devices import Ssd1306Panel, Tm1637Chip
from fakes import fake_machine as m
from hal import buttons as b
from hal.events import EdgeRing
from hal.rp2040.buttons import make_buttons
from hal.rp2040.buzzer import Buzzer
from hal.rp2040.hal import Rp2040Hal
from ui.kinds import driver_for
from hal.rp2040.leds import Leds
from hal.rp2040.ssd1306 import Ssd1306
from ui.dirty import Dirty
from hal.rp2040.tm1637 import Tm1637, TwoModules
from hal.rp2040.waiter import Waiter


def test_the_button_handler_allocates_nothing():
    m.reset()
    clock = m.Clock(1000)
    edges = EdgeRing()
    lever = make_buttons(m, {b.LEFT: 14, b.RIGHT: 15, b.PLAY: 16}, edges, clock.ticks_ms)[0]
    handler = lever._handler
    pin = m.Pin(14)
    pin.drive(0)  # the fake runs a hard handler under a heap lock as well
    micropython.heap_lock()
    try:
        handler(pin)
        pin.drive(1)
    finally:
        micropython.heap_unlock()
    assert edges.pop() and edges.pop() and edges.pop() and not edges.pressed
    assert edges.stamp == 1000


class Serial(io.IOBase):
    """A watched stream with a byte waiting, as USB stdin would be."""

    def __init__(self):
        self.waiting = 0

    def ioctl(self, req, arg):
        if req == 3:
            return arg & select.POLLIN if self.waiting else 0
        return -1


def test_waits_on_the_real_select_allocate_nothing():
    edges = EdgeRing()
    waiter = Waiter(select, io, edges, time.ticks_ms)
    serial = Serial()
    waiter.watch(serial)
    ticks_add = time.ticks_add
    now = time.ticks_ms
    micropython.heap_lock()
    try:
        waiter.wait(ticks_add(now(), 3))  # asleep in poll, to the stamp
        waiter.wait(ticks_add(now(), -1001))  # due
        serial.waiting = 1
        waiter.wait(ticks_add(now(), 1000))  # a byte waiting
        serial.waiting = 0
        edges.push(0, True, now())
        waiter.wait(None)  # an edge pending
        waiter.wait(ticks_add(now(), 1000))
    finally:
        micropython.heap_unlock()
    assert waiter.wakes == 2 and edges.pop()


class Board:
    NAME = "heap_board"
    DISPLAY = "oled"
    I2C_ID = 0
    I2C_SDA = 4
    I2C_SCL = 5
    I2C_FREQ = 400000
    OLED_ADDRESS = 0x3C
    BUTTONS = {b.LEFT: 14, b.RIGHT: 15, b.PLAY: 16}
    BUZZER = None
    BATTERY_ADC = None
    WATCHDOG_MS = 16
    STORAGE_ROOT = "/"


def test_the_hal_wait_capped_by_the_watchdog_allocates_nothing():
    m.reset()
    m.bus(0).attach(0x3C, Ssd1306Panel())
    clock = m.Clock()
    hal = Rp2040Hal(
        m,
        Board,
        time.ticks_ms,
        clock.sleep_us,
        watchdog=True,
        select=select,
        io=io,
        display=driver_for,
    )
    start = time.ticks_ms()
    micropython.heap_lock()
    try:
        hal.wait(None)  # 8 ms: half the watchdog period
        hal.wait(time.ticks_add(time.ticks_ms(), 100000))
    finally:
        micropython.heap_unlock()
    assert time.ticks_diff(time.ticks_ms(), start) >= 16 and hal.waiter.wakes == 2


def test_the_buzzer_update_allocates_nothing():
    m.reset()
    buzzer = Buzzer(m.PWM(m.Pin(13)))
    buzzer.play(2000, 100, 1000)
    micropython.heap_lock()
    try:
        buzzer.update(1050)
        buzzer.update(1100)
    finally:
        micropython.heap_unlock()
    assert m.state.pwms[13].duty_u16() == 0


def test_oled_show_of_windows_allocates_nothing():
    m.reset()
    bus = m.bus(0)
    panel = bus.attach(0x3C, Ssd1306Panel())
    oled = Ssd1306(m.I2C(0, scl=m.Pin(5), sda=m.Pin(4)), 0x3C)
    bus.log = None
    panel.commands = None
    frame = bytearray(1024)
    dirty = Dirty()
    oled.show(frame, dirty)  # the first sight of a frame, and of each window shape, allocates
    dirty.add(40, 51, 8, 39)
    dirty.add(0, 5, 0, 7)
    oled.show(frame, dirty)
    frame[700] = 0x81
    frame[3] = 0x18
    micropython.heap_lock()
    try:
        dirty.add(40, 51, 8, 39)  # a digit's window: page 5, column 60 (byte 700) is outside
        dirty.add(0, 5, 0, 7)  # rows 0..7: page 0, byte 3
        sent = oled.show(frame, dirty)
        nothing = oled.show(frame, dirty)
    finally:
        micropython.heap_unlock()
    assert (sent, nothing) == (2 * 10 + 12 * 4 + 6, 0)
    assert panel.ram[3] == 0x18 and panel.ram[700] == 0


def test_oled_dma_send_and_wait_allocate_nothing():
    from fakes.fake_rp2 import DMA
    from hal.rp2040.ssd1306_dma import Ssd1306Dma

    m.reset()
    bus = m.bus(0)
    panel = bus.attach(0x3C, Ssd1306Panel())
    dma = DMA()
    oled = Ssd1306Dma(m.I2C(0, scl=m.Pin(5), sda=m.Pin(4)), dma, m.mem32, 0, 0x3C)
    bus.log = None
    panel.commands = None
    frame = bytearray(1024)
    dirty = Dirty()
    oled.show(frame, dirty)
    frame[700] = 0x81
    frame[3] = 0x18
    micropython.heap_lock()
    try:
        dirty.add(0, 127, 41, 46)  # a press's band: page 5 across the screen (byte 700)
        sent = oled.send(frame, dirty)
        dirty.add(0, 5, 0, 7)  # rows 0..7: page 0, byte 3
        sent += oled.show(frame, dirty)
    finally:
        micropython.heap_unlock()
    assert sent == 2 * 10 + 128 + 6 and dma.started == 2 + 2  # the whole frame, then two
    assert panel.ram[3] == 0x18 and panel.ram[700] == 0x81


def test_two_modules_show_allocates_nothing():
    m.reset()
    clock = m.Clock()
    chips = (Tm1637Chip(m.line(2), m.line(3)), Tm1637Chip(m.line(6), m.line(7)))
    for chip in chips:
        chip.trace = None
    pair = TwoModules(
        Tm1637(m.Pin(2), m.Pin(3), clock.sleep_us), Tm1637(m.Pin(6), m.Pin(7), clock.sleep_us)
    )
    frame = bytearray((0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F))
    micropython.heap_lock()
    try:
        first = pair.show(frame)
        again = pair.show(frame)
        frame[5] = 0x3F
        one = pair.show(frame)
    finally:
        micropython.heap_unlock()
    assert (first, again, one) == (2, 0, 1)
    assert chips[1].grids[1] == 0x3F


def test_switching_the_lights_allocates_nothing():
    m.reset()
    leds = Leds(m.Pin(20, m.Pin.OUT, value=0), m.Pin(21, m.Pin.OUT, value=0))
    micropython.heap_lock()
    try:
        leds.set(True, False)
        leds.set(True, False)
        leds.set(False, True)
        leds.set(False, False)
    finally:
        micropython.heap_unlock()
    assert (m.line(20).writes, m.line(21).writes) == (3, 3)
