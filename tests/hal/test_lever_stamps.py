# SPDX-License-Identifier: MIT
# Lever edges stamped by the PIO and DMA (hal/rp2040/lever_stamps.py) on the fake rp2: the PIO
# program runs on the fake GPIOs, two DMA channels fill the rings, the drain gives the EdgeRing
# each edge at the millisecond of its own microsecond, whatever the interrupts were doing.
from fakes import fake_machine as m
from fakes import fake_rp2
from hal import buttons as b
from hal.events import EdgeRing
from hal.rp2040 import lever_pio
from hal.rp2040.hal import Rp2040Hal
from hal.rp2040.lever_stamps import LeverStamps

LEFT_GPIO = 14
RIGHT_GPIO = 15
WRAP_US = 1 << 32  # TIMERAWL wraps every 71.6 minutes
TICKS = 1 << 30  # ticks_ms wraps every 12.4 days


def setup(us=5_000_000):
    m.reset()
    m.state.us = us
    edges = EdgeRing()
    for gpio in (LEFT_GPIO, RIGHT_GPIO):
        m.Pin(gpio, m.Pin.IN, m.Pin.PULL_UP)
    stamps = LeverStamps(fake_rp2, m, m.addressof, LEFT_GPIO, (b.LEFT, b.RIGHT), edges)
    return edges, stamps


def popped(edges):
    out = []
    while edges.pop():
        out.append((edges.button, edges.pressed, edges.stamp))
    return out


def lever(gpio, level, at_us):
    m.state.us = at_us
    m.Pin(gpio).drive(level)


def test_the_program_samples_two_pins_and_counts_down_at_each_push():
    program = lever_pio.program(fake_rp2)
    words = list(program[0])
    assert len(words) == 13 and words[:4] == [0xA0C3, 0x4002, 0xA026, 0x00A4]
    assert program[4] >> 12 & 31 == 3 and program[4] >> 7 & 31 == 0  # the wrap: 4 cycles
    edges, stamps = setup()
    sm = m.state.pio_machines[0]
    assert sm.in_base == LEFT_GPIO and stamps.taken == 1  # the baseline: levels, no edge
    assert popped(edges) == [] and sm.osr == 0xFFFFFFFF and sm.y == 3


def test_the_channels_pair_each_word_with_the_timer_in_aligned_rings():
    edges, stamps = setup()
    words, times = m.state.dma[0], m.state.dma[1]
    assert words.read == 0x50200020 and words.ctrl >> 15 & 0x3F == 4  # RXF0, DREQ_PIO0_RX0
    assert times.read == m.TIMERAWL and times.ctrl >> 15 & 0x3F == 0x3F
    for channel, other in ((words, times), (times, words)):
        assert channel.ctrl >> 11 & 15 == other.channel  # each chains to the other
        assert channel.ctrl >> 6 & 15 == 8 and channel.ctrl >> 10 & 1  # a 256-byte write ring
        assert channel.ctrl >> 2 & 3 == 2 and channel.count == 1
    assert words.write & 0xFF == 4 and times.write & 0xFF == 4  # the baseline's entry written
    assert times.write - words.write == 256 and not times.ctrl >> 21 & 1  # B's interrupt


def test_a_press_and_a_release_are_stamped_at_the_millisecond_of_their_microsecond():
    edges, stamps = setup()
    lever(LEFT_GPIO, 0, 5_000_999)
    lever(LEFT_GPIO, 1, 5_123_000)
    lever(RIGHT_GPIO, 0, 5_123_001)
    assert popped(edges) == [(b.LEFT, True, 5000), (b.LEFT, False, 5123), (b.RIGHT, True, 5123)]
    assert stamps.taken == 4 and stamps.lost == 0


def test_an_edge_while_interrupts_are_masked_is_stamped_at_its_instant():
    edges, stamps = setup()
    play = m.Pin(16, m.Pin.IN, m.Pin.PULL_UP)
    from hal.rp2040.buttons import Button

    button = Button(play, b.PLAY, edges, m.ticks_ms)  # a button its interrupt stamps
    button.enable()
    was = m.disable_irq()  # a flash erase: 45 ms with the interrupts masked
    lever(LEFT_GPIO, 0, 7_010_900)
    m.state.us = 7_011_300
    play.drive(0)
    assert popped(edges) == []  # nothing reached the ring yet
    m.state.us = 7_055_000
    m.enable_irq(was)
    got = popped(edges)
    assert (b.LEFT, True, 7010) in got  # the lever: its own millisecond
    assert (b.PLAY, True, 7055) in got  # the interrupt's stamp: when the erase ended


def test_the_timers_wrap_between_the_edge_and_the_drain():
    edges, stamps = setup(WRAP_US - 2_000)
    was = m.disable_irq()
    lever(LEFT_GPIO, 0, WRAP_US - 100)  # TIMERAWL 0xFFFFFF9C
    m.state.us = WRAP_US + 500  # TIMERAWH 1, TIMERAWL 500 when the drain runs
    m.enable_irq(was)
    assert popped(edges) == [(b.LEFT, True, (WRAP_US - 100) // 1000)]
    years = 9 * 365 * 86400 * 10**6  # TIMERAWH past 2**16 too
    lever(LEFT_GPIO, 1, years + 123_456)
    assert popped(edges) == [(b.LEFT, False, (years + 123_456) // 1000 % TICKS)]


def test_the_ticks_wrap_gives_stamps_that_wrap_as_ticks_ms():
    start = (TICKS - 1) * 1000  # ticks_ms reads 2**30 - 1 during this millisecond
    edges, stamps = setup(start)
    lever(RIGHT_GPIO, 0, start + 999)
    lever(RIGHT_GPIO, 1, start + 1_000)  # the next millisecond: 0
    assert popped(edges) == [(b.RIGHT, True, TICKS - 1), (b.RIGHT, False, 0)]
    assert m.ticks_ms() == 0


def test_two_edges_in_one_millisecond_keep_their_order_and_millisecond():
    edges, stamps = setup()
    lever(LEFT_GPIO, 0, 6_000_100)
    lever(RIGHT_GPIO, 0, 6_000_400)
    m.state.us = 6_500_000
    m.drive_all({LEFT_GPIO: 1, RIGHT_GPIO: 1})  # both in one sample: one word, two edges
    got = popped(edges)
    assert got == [
        (b.LEFT, True, 6000),
        (b.RIGHT, True, 6000),
        (b.LEFT, False, 6500),
        (b.RIGHT, False, 6500),
    ]
    assert stamps.taken == 4  # the baseline, two words, one word for both


def test_more_edges_than_the_ring_holds_lose_the_oldest_and_count_them():
    edges, stamps = setup()
    was = m.disable_irq()
    for i in range(70):  # 35 presses and releases while the interrupts are masked
        lever(LEFT_GPIO, i % 2, 8_000_000 + 1_000 * i)
    m.enable_irq(was)
    got = popped(edges)
    assert stamps.lost == 70 - 63 and edges.lost == 7  # counted, and in the EdgeRing's count
    # The 63 newest: edges 7..69. The first is a release (edge 7) after a lost press: the
    # levels it brings equal the last taken, so it is no edge; the other 62 are all there.
    assert len(got) == 62
    for n, (button, pressed, stamp) in enumerate(got):
        i = n + 8
        assert (button, pressed, stamp) == (b.LEFT, i % 2 == 0, 8_000 + i)
    lever(LEFT_GPIO, 0, 9_000_000)  # the next drain carries on from there
    assert popped(edges) == [(b.LEFT, True, 9_000)] and stamps.lost == 7


class Racing:
    """mem16 whose first read of TIMERAWL's top half lets `burst` edges in: a ring lapped while
    drain() is between reading where it ends and reading the entries."""

    def __init__(self, burst):
        self.burst = burst

    def __getitem__(self, address):
        if address == m.TIMERAWL + 2 and self.burst is not None:
            burst = self.burst
            self.burst = None
            burst()
        return m.mem16[address]


def test_a_word_the_ring_rewrote_while_it_was_read_is_lost_never_paired_with_a_stamp():
    edges, stamps = setup()
    m.disable_irq()  # the drain below is the interrupt's, and nothing else runs
    for i in range(40):
        lever(RIGHT_GPIO, i % 2, 9_000_000 + 1_000 * i)

    def burst():  # 40 more, 1 ms apart too: most slots the drain is about to read change
        for i in range(40, 80):
            lever(RIGHT_GPIO, i % 2, 9_000_000 + 1_000 * i)

    m.state.taken = len(m.state.pending)  # their interrupts: the drain below is theirs
    stamps._mem16 = Racing(burst)
    stamps.drain()
    got = popped(edges)
    assert stamps.lost > 0 and stamps.taken - 1 + stamps.lost == 40
    for button, pressed, stamp in got:  # whatever was taken carries its own edge's stamp
        i = stamp - 9_000
        assert button == b.RIGHT and pressed == (i % 2 == 0) and 0 <= i < 40


def test_the_hal_stamps_the_levers_by_pio_and_the_buttons_by_their_interrupts():
    m.reset()
    m.state.us = 3_000_000

    class Board:
        NAME = "pio_board"
        DISPLAY = "none"
        BUTTONS = {b.LEFT: 14, b.RIGHT: 15, b.PLAY: 16}
        BUZZER = None
        BATTERY_ADC = None
        WATCHDOG_MS = 0
        STORAGE_ROOT = "/"

    hal = make_hal(Board)
    assert hal.lever_stamps is not None and m.state.pio_machines[0].running
    assert m.line(14).handler == hal.lever_stamps.drain  # the wake, and a drain
    was = m.disable_irq()
    lever(15, 0, 3_001_500)
    m.state.us = 3_002_700
    m.Pin(16).drive(0)
    m.state.us = 3_040_000
    m.enable_irq(was)
    got = []
    while hal.edges.pop():
        got.append((hal.edges.button, hal.edges.pressed, hal.edges.stamp))
    assert got == [(b.RIGHT, True, 3001), (b.PLAY, True, 3040)]
    hal.deinit()
    assert not m.state.pio_machines[0].running


def test_levers_not_side_by_side_keep_their_interrupt_stamps():
    m.reset()

    class Board:
        NAME = "apart"
        DISPLAY = "none"
        BUTTONS = {b.LEFT: 14, b.RIGHT: 17, b.PLAY: 16}
        BUZZER = None
        BATTERY_ADC = None
        WATCHDOG_MS = 0
        STORAGE_ROOT = "/"

    hal = make_hal(Board)
    assert hal.lever_stamps is None and not getattr(m.state, "pio_machines", {})
    m.state.us = 4_000_500
    m.Pin(17).drive(0)
    assert hal.edges.pop() and (hal.edges.button, hal.edges.stamp) == (b.RIGHT, 4000)


def make_hal(board):
    import io

    from fakes.fake_select import FakeSelect

    world = FakeSelect(m.Clock())
    return Rp2040Hal(
        m,
        board,
        m.ticks_ms,
        lambda us: None,
        select=world,
        io=io,
        display=lambda machine, board, sleep_us: Display(),
        checked=True,
        rp2=fake_rp2,
        addressof=m.addressof,
    )


class Display:
    def show(self, frame, dirty=None):
        pass

    def power(self, on):
        pass
