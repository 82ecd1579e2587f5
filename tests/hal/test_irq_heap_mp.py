# Under the MicroPython unix port: IRQ handlers, the tick callback and the display and tone
# updates of the main loop allocate nothing (each call made directly between heap_lock/unlock).
# tests/core/test_heap_mp.py shows that the lock does catch an allocation.
import micropython
from fake_devices import Ssd1306Panel, Tm1637Chip
from fakes import fake_machine as m
from hal import buttons as b
from hal.events import EdgeRing
from hal.rp2040.buttons import make_buttons
from hal.rp2040.buzzer import Buzzer
from hal.rp2040.ssd1306 import Ssd1306
from hal.rp2040.ticker import Ticker
from hal.rp2040.tm1637 import Tm1637, TwoModules


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


def test_the_tick_callback_and_a_wait_that_is_due_allocate_nothing():
    m.reset()
    clock = m.Clock(1000)
    edges = EdgeRing()
    ticker = Ticker(m, edges, clock.ticks_ms)
    ticker.start()
    timer = m.state.timers[0]
    tick = ticker._tick
    micropython.heap_lock()
    try:
        tick(timer)
        timer.fire()
        ticker.wait(999)
        ticker.wait(0x3FFFFFFF)  # 1001 ms before now, across the wrap: due
    finally:
        micropython.heap_unlock()
    assert ticker.count == 2 and m.state.idle_calls == 0


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


def test_oled_show_unchanged_and_changed_allocates_nothing():
    m.reset()
    bus = m.bus(0)
    panel = bus.attach(0x3C, Ssd1306Panel())
    oled = Ssd1306(m.I2C(0, scl=m.Pin(5), sda=m.Pin(4)), 0x3C)
    bus.log = None
    panel.commands = None
    frame = bytearray(1024)
    oled.show(frame)  # the first sight of a frame buffer makes its page views
    frame[700] = 0x81
    micropython.heap_lock()
    try:
        first = oled.show(frame)
        unchanged = oled.show(frame)
        frame[3] = 0x18
        changed = oled.show(frame)
    finally:
        micropython.heap_unlock()
    assert (first, unchanged, changed) == (1, 0, 1)
    assert panel.ram == frame


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
