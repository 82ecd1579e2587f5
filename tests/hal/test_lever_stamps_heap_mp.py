# SPDX-License-Identifier: MIT
# Under the MicroPython unix port: the lever stamps' drain, the hard handler of the DMA's and the
# levers' interrupts, allocates nothing, with entries to take (the wraps included) or none.
import micropython
from fakes import fake_machine as m
from fakes import fake_rp2
from hal import buttons as b
from hal.events import EdgeRing
from hal.rp2040.lever_stamps import LeverStamps


def setup(us):
    m.reset()
    m.state.us = us
    edges = EdgeRing()
    for gpio in (14, 15):
        m.Pin(gpio, m.Pin.IN, m.Pin.PULL_UP)
    return edges, LeverStamps(fake_rp2, m, m.addressof, 14, (b.LEFT, b.RIGHT), edges)


def test_the_drain_allocates_nothing():
    edges, stamps = setup((1 << 32) - 3_000)  # TIMERAWL wraps between the edges and the drain
    was = m.disable_irq()
    for i in range(6):  # edges while masked: their drains wait (fake: handlers in `pending`)
        m.state.us += 900
        m.Pin(14 + i % 2).drive(i // 2 % 2)
    m.state.us += 5_000
    micropython.heap_lock()
    try:
        m.enable_irq(was)  # the pended interrupts run their drains, under a heap lock too
        stamps.drain()  # nothing new
    finally:
        micropython.heap_unlock()
    assert stamps.taken == 7 and stamps.lost == 0
    count = 0
    while edges.pop():
        count += 1
    assert count == 6


def test_a_drain_that_lost_entries_allocates_nothing():
    edges, stamps = setup(1_000_000)
    was = m.disable_irq()
    for i in range(70):
        m.state.us += 1_000
        m.Pin(15).drive(i % 2)
    micropython.heap_lock()
    try:
        m.enable_irq(was)
    finally:
        micropython.heap_unlock()
    assert stamps.lost == 7
