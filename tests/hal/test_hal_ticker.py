# The 1 kHz ticker and wait(until): hard timer where the port allows, idle until a stamp or an edge.
from fakes import fake_machine as m
from hal.events import EdgeRing
from hal.rp2040.ticker import Ticker


def setup(start=1000, hard=True):
    m.reset()
    m.state.timer_accepts_hard = hard
    clock = m.Clock(start)
    edges = EdgeRing()
    ticker = Ticker(m, edges, clock.ticks_ms)
    ticker.start()
    timer = m.state.timers[-1]

    def millisecond():  # what the board does between two idle() returns
        clock.advance(1)
        timer.fire()

    m.state.idle_hook = millisecond
    return clock, edges, ticker, timer


def test_the_timer_runs_at_1000_hz_periodic_with_a_hard_callback():
    clock, edges, ticker, timer = setup()
    assert timer.running and timer.freq == 1000 and timer.mode == m.Timer.PERIODIC
    assert timer.hard and ticker.hard
    timer.fire()
    timer.fire()
    assert ticker.count == 2


def test_a_port_without_hard_timers_gets_a_soft_callback():
    clock, edges, ticker, timer = setup(hard=False)
    assert timer.running and timer.freq == 1000
    assert not timer.hard and not ticker.hard
    assert timer.inits == 1


def test_wait_sleeps_until_the_stamp():
    clock, edges, ticker, timer = setup()
    ticker.wait(1025)
    assert clock.ticks_ms() == 1025
    assert m.state.idle_calls == 25 and ticker.count == 25


def test_wait_for_a_stamp_already_past_returns_at_once():
    clock, edges, ticker, timer = setup()
    ticker.wait(1000)
    ticker.wait(990)
    assert m.state.idle_calls == 0


def test_wait_across_the_ticks_wrap():
    clock, edges, ticker, timer = setup(start=0x3FFFFFFF - 9)
    ticker.wait(10)  # 20 ms later, after the wrap
    assert clock.ticks_ms() == 10 and m.state.idle_calls == 20


def test_an_edge_ends_the_wait_early():
    clock, edges, ticker, timer = setup()
    lever = m.Pin(14, m.Pin.IN, m.Pin.PULL_UP)
    lever.irq(handler=lambda pin: edges.push(0, True, clock.ticks_ms()), hard=True)

    def millisecond():
        clock.advance(1)
        if clock.ticks_ms() == 1007:
            lever.drive(0)

    m.state.idle_hook = millisecond
    ticker.wait(2000)
    assert clock.ticks_ms() == 1007
    assert edges.pop() and edges.stamp == 1007


def test_wait_none_waits_for_an_edge_only():
    clock, edges, ticker, timer = setup()

    def millisecond():
        clock.advance(1)
        if clock.ticks_ms() == 1000 + 60000:
            edges.push(2, True, clock.ticks_ms())

    m.state.idle_hook = millisecond
    ticker.wait(None)
    assert clock.ticks_ms() == 61000


def test_a_pending_edge_returns_at_once_and_stop_deinits_the_timer():
    clock, edges, ticker, timer = setup()
    edges.push(1, True, 1000)
    ticker.wait(None)
    ticker.wait(5000)
    assert m.state.idle_calls == 0
    ticker.stop()
    assert not timer.running
