# SPDX-License-Identifier: MIT
# Lever and button interrupts: every edge, bounce included, lands in the EdgeRing with its stamp.
from fakes import fake_machine as m
from hal import buttons as b
from hal.events import EdgeRing
from hal.rp2040.buttons import make_buttons


def setup(pins=None):
    m.reset()
    clock = m.Clock(1000)
    edges = EdgeRing()
    made = make_buttons(m, pins or {b.LEFT: 14, b.RIGHT: 15, b.PLAY: 16}, edges, clock.ticks_ms)
    return clock, edges, made


def popped(edges):
    out = []
    while edges.pop():
        out.append((edges.button, edges.pressed, edges.stamp))
    return out


def test_pins_are_pulled_up_inputs_with_a_hard_irq_on_both_edges():
    setup()
    for gpio in (14, 15, 16):
        line = m.line(gpio)
        assert line.mode == m.Pin.IN and line.pull == m.Pin.PULL_UP
        assert line.level == 1  # released: the pull-up wins
        assert line.hard is True
        assert line.trigger == m.Pin.IRQ_FALLING | m.Pin.IRQ_RISING


def test_a_lever_press_and_release_land_with_the_clock_stamps():
    clock, edges, made = setup()
    lever = m.Pin(15)
    lever.drive(0)  # the switch closes to GND
    clock.advance(250)
    lever.drive(1)
    assert popped(edges) == [(b.RIGHT, True, 1000), (b.RIGHT, False, 1250)]


def test_bounce_edges_are_all_recorded_for_the_debouncer():
    clock, edges, made = setup()
    lever = m.Pin(14)
    for level in (0, 1, 0, 1, 0):  # a press that bounces twice, 1 ms apart
        lever.drive(level)
        clock.advance(1)
    assert popped(edges) == [
        (b.LEFT, True, 1000),
        (b.LEFT, False, 1001),
        (b.LEFT, True, 1002),
        (b.LEFT, False, 1003),
        (b.LEFT, True, 1004),
    ]


def test_each_gpio_reports_its_own_logical_button():
    clock, edges, made = setup({b.LEFT: 14, b.RIGHT: 15, b.PLAY: 16, b.SET: 17, b.MINUS: 19})
    for gpio in (19, 16, 17, 14, 15):
        m.Pin(gpio).drive(0)
    got = [button for button, pressed, stamp in popped(edges)]
    assert got == [b.MINUS, b.PLAY, b.SET, b.LEFT, b.RIGHT]
    assert [button.button for button in made] == [b.LEFT, b.RIGHT, b.PLAY, b.SET, b.MINUS]


def test_pressed_reads_the_level_and_disable_stops_the_edges():
    clock, edges, made = setup()
    m.Pin(16).drive(0)
    play = made[2]
    assert play.pressed()
    play.disable()
    edges.clear()
    m.Pin(16).drive(1)
    assert not edges.pending()
    assert not play.pressed()


def test_a_full_ring_drops_the_newest_edges_and_counts_them():
    clock, edges, made = setup()
    lever = m.Pin(14)
    for i in range(70):
        lever.drive(i % 2)
    assert edges.lost == 70 - 63  # 64 slots, one kept free
    assert len(popped(edges)) == 63
