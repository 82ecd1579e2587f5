# SPDX-License-Identifier: MIT
# Time across sleeps on the 32.768 kHz reference: the arithmetic, the offset over many sleeps and
# the wrap, a press during a sleep and during its wake, flashes without a wake, a reference that
# stops or runs off its rate (the clock notices, sleeps lightly, keeps the crystal's time).
import io

from fakes import fake_machine as m
from fakes import fake_rp2
from fakes.fake_fs import FakeFs
from fakes.fake_refsleep import MS, US, World
from fakes.fake_select import FakeSelect
from fakes.panels import Ssd1306Panel
from hal import buttons as b
from hal.rp2040 import reftime
from hal.rp2040.hal import Rp2040Hal
from hal.rp2040.reftime import RefTime, cycles_us, ms_ticks, ticks_us
from ticks import add, diff
from ui.kinds import driver_for


class Board:
    NAME = "reference"
    DISPLAY = "oled"
    I2C_ID = 0
    I2C_SDA = 4
    I2C_SCL = 5
    I2C_FREQ = 400000
    OLED_ADDRESS = 0x3C
    BUTTONS = {b.LEFT: 14, b.RIGHT: 15, b.PLAY: 16, b.SET: 17, b.PLUS: 18, b.MINUS: 19}
    LEDS = {b.LEFT: 20, b.RIGHT: 21}
    LED_FLASH_MS = 20
    REF_CLOCK = 22
    BUZZER = 13
    BATTERY_ADC = 29
    VBUS_SENSE = 24
    WATCHDOG_MS = 5000
    STORAGE_ROOT = "/"


def ref_hal(start_ms=1000, watchdog=False, phase_us=0, pio=False):
    """The HAL of Board on battery, its refsleep the World's (which is also the clock); with
    `pio`, the levers stamped by the fake rp2's PIO and DMA."""
    m.reset()
    world = World(start_ms, phase_us)
    m.bus(0).attach(0x3C, Ssd1306Panel())
    m.set_vbus(False)
    select = FakeSelect(world)
    world.select = select
    fs = FakeFs()
    hal = Rp2040Hal(
        m,
        Board,
        world.ticks_ms,
        world.sleep_us,
        watchdog=watchdog,
        fs=fs,
        opener=fs.open,
        select=select,
        io=io,
        display=driver_for,
        refsleep=world,
        rp2=fake_rp2 if pio else None,
        addressof=m.addressof if pio else None,
    )
    return hal, world, select


def clock_is_true(world):
    """The clock's time is the true time, never ahead, behind by less than 2 us."""
    ahead = world.clock_us() - world.true_us()
    return -2 < ahead <= 0


def test_a_reference_tick_is_15625_512_microseconds_exactly():
    assert ticks_us(1) == (30, 99375)  # 30.517578125 us: 0.517578125 x 192000
    assert ticks_us(512) == (15625, 0)
    assert ticks_us(32768) == (1000000, 0)
    assert ticks_us(30 * 32768 + 1) == (30000030, 99375)
    assert cycles_us(3814, 125) == (30, 64 * 1536)  # 30.512 us at 125 MHz
    assert cycles_us(366, 12) == (30, 6 * 16000)
    assert ms_ticks(1000) == 32768 and ms_ticks(1) == 33  # rounded up: a wake never early
    assert reftime.exact(125) and reftime.exact(12) and not reftime.exact(133)


def test_the_offset_carries_every_remainder():
    time = RefTime()
    out = [0] * reftime.OUT_LEN
    out[3] = out[6] = 125
    out[5] = 1  # one reference tick counted as one: 29.517578125 us not counted
    out[8] = 1
    for _ in range(512):
        time.account(out)
    # 512 ticks are 15625 us exactly: the offset is 15625 - 512 us, nothing rounded away
    assert (time.ms, time.us, time.frac) == (15, 113, 0)
    out[4] = 1  # and a cycle at 125 MHz each: 8 ns
    for _ in range(125):
        time.account(out)
    # 125 cycles are 1 us, 125 ticks 3814.697265625 us, less the 125 counted: + 3690.697265625
    assert (time.ms, time.us, time.frac) == (18, 803, 133875)


def test_a_day_of_sleeps_keeps_the_crystals_and_the_references_time_exactly():
    hal, world, select = ref_hal()
    for second in range(240):
        world.left = 1 + second % 12  # the tick generator's count left at each entry
        world.exit_cycles = 3 + second % 9
        world.advance(second % 3)  # a pass of a few ms awake
        hal.wait(add(hal.ticks_ms(), 997 + second % 7))
        assert clock_is_true(world), second
    assert hal.sleeper.on_ref == 240 and hal.sleeper.light == 0
    assert all(status == 0 for status, _ in world.sleeps)


def test_the_clock_wraps_with_ticks_ms():
    start = (1 << 30) - 5000  # 5 s before ticks_ms's wrap
    hal, world, select = ref_hal(start_ms=start)
    before = hal.ticks_ms()
    for _ in range(12):
        hal.wait(add(hal.ticks_ms(), 1000))
    after = hal.ticks_ms()
    assert after < before  # wrapped
    assert diff(after, before) == (world.t - start * MS) // MS
    assert clock_is_true(world)


def test_a_press_during_a_sleep_is_stamped_at_its_millisecond():
    hal, world, select = ref_hal()
    for offset in (137, 500, 999):
        start = hal.ticks_ms()
        select.at(start + offset, lambda: m.Pin(14).drive(0))
        hal.wait(add(start, 1000))
        assert hal.edges.pop() and (hal.edges.button, hal.edges.pressed) == (b.LEFT, True)
        # seen at the reference's next edges: 31 to 92 us after it, the same millisecond
        assert hal.edges.stamp == add(start, offset), (offset, hal.edges.stamp)
        assert hal.reference.woken and not hal.edges.pending()
        m.Pin(14).drive(1)
        hal.edges.clear()
        assert clock_is_true(world)


def test_a_lever_stamped_by_hardware_comes_out_in_the_clocks_millisecond_in_and_out_of_sleeps():
    hal, world, select = ref_hal(pio=True)
    assert hal.lever_stamps is not None
    got = []
    for offset in (1, 137, 500, 999):
        start = hal.ticks_ms()
        # pressed in the sleep; released while the crystal starts (within the wake's 2 ms)
        select.at(start + offset, lambda: m.Pin(14).drive(0))
        select.at(start + offset + 1, lambda: m.Pin(14).drive(1))
        hal.wait(add(start, 1000))
        while hal.edges.pop():
            got.append((hal.edges.pressed, diff(hal.edges.stamp, start) - offset))
        assert clock_is_true(world)
    # each edge at its own millisecond: the count read at it is placed at the next tick's
    # instant (at most 31 us late), so a press at a whole millisecond stays in it
    assert got == [(True, 0), (False, 1)] * 4
    world.advance(200)  # awake, on the crystal: the same
    start = hal.ticks_ms()
    m.Pin(15).drive(0)
    assert hal.edges.pop() and (hal.edges.button, hal.edges.stamp) == (b.RIGHT, start)


def test_a_press_during_the_wake_is_stamped_at_the_wakes_instant_and_kept():
    hal, world, select = ref_hal()
    start = hal.ticks_ms()
    select.at(start + 300, lambda: m.Pin(14).drive(0))
    select.at(start + 301, lambda: m.Pin(15).drive(0))  # while the crystal starts (1 ms)
    hal.wait(add(start, 1000))
    seen = []
    while hal.edges.pop():
        seen.append((hal.edges.button, hal.edges.stamp))
    assert seen == [(b.LEFT, start + 300), (b.RIGHT, start + 300)]
    assert clock_is_true(world)


def test_an_edge_before_the_sleep_means_no_sleep():
    hal, world, select = ref_hal()
    m.Pin(16).drive(0)
    before = hal.ticks_ms()
    hal.wait(add(before, 1000))
    assert world.sleeps == [] and hal.ticks_ms() == before and hal.edges.pending()


def test_a_running_lights_flashes_go_on_in_the_sleep_without_a_wake():
    hal, world, select = ref_hal()
    start = hal.ticks_ms()
    hal.leds.set(True, False)
    hal.leds.flash(True, False, start, 20, 1000)
    hal.wait(add(start, 2500))
    assert len(world.sleeps) == 1  # one sleep: no wake for the flashes
    lit = [(t // MS - start, on) for t, mask, on in world.flashes]
    # lit at the start (the sleep began within the first flash), dark at 20 ms, then each second
    assert [on for _, on in lit] == [True, False, True, False, True, False]
    assert [ms for ms, _ in lit][1:] == [20, 1000, 1020, 2000, 2020]
    assert not hal.leds.left_on and m.line(20).level == 0  # taken back from the pin


def test_a_missing_reference_is_noticed_before_the_sleep_which_is_a_light_one():
    hal, world, select = ref_hal()
    hal.wait(add(hal.ticks_ms(), 1000))
    world.stop_reference(world.ms)  # gone for good
    before = hal.ticks_ms()
    hal.wait(add(before, 1000))
    assert world.sleeps[-1] == (reftime.NO_REFERENCE, 0)
    assert hal.reference.faults == 1 and m.state.sleeps[-1] is not None  # a light sleep
    assert hal.sleeper.light == 1 and diff(hal.ticks_ms(), before) >= 1000
    assert clock_is_true(world)  # the crystal kept the time through the try
    # a minute without trying again: light sleeps, exact
    for _ in range(5):
        hal.wait(add(hal.ticks_ms(), 1000))
    assert hal.reference.faults == 1 and hal.sleeper.light == 6
    assert world.lights == 6  # refsleep.light, not machine.lightsleep: the timer kept exact
    assert clock_is_true(world)


def test_a_reference_off_its_rate_is_refused():
    hal, world, select = ref_hal()
    world.rate = 1.05  # 5 % fast: not the 32.768 kHz part, or failing
    hal.wait(add(hal.ticks_ms(), 1000))
    assert world.sleeps[-1][0] == reftime.OFF_RATE and hal.reference.faults == 1
    assert hal.sleeper.light == 1 and clock_is_true(world)


def test_a_reference_back_after_a_fault_is_used_again_a_minute_later():
    hal, world, select = ref_hal()
    world.stop_reference(world.ms, world.ms + 2000)
    hal.wait(add(hal.ticks_ms(), 1000))
    assert hal.reference.faults == 1
    world.advance(61000)
    hal.wait(add(hal.ticks_ms(), 1000))
    assert world.sleeps[-1][0] == reftime.SLEPT and hal.sleeper.on_ref == 1
    assert clock_is_true(world)


def test_a_reference_off_its_rate_at_the_wake_marks_that_sleep_lost():
    hal, world, select = ref_hal()
    world.rate_at_wake = 0.95  # it began to drift while the chip slept on it
    hal.wait(add(hal.ticks_ms(), 1000))
    assert world.sleeps[-1][0] == reftime.LOST
    assert hal.reference.lost == 1 and hal.reference.lost_at >= 0
    world.rate_at_wake = None
    hal.wait(add(hal.ticks_ms(), 1000))
    assert hal.sleeper.light == 1  # light sleeps for a minute after it


def test_a_reference_that_stops_inside_a_sleep_stops_the_chip_with_it():
    # The limit of sleeping on the reference (docs/build.md): clk_sys and the timer come from
    # it, so nothing in the chip runs while it is stopped, and if it comes back at its rate
    # before the wake's check, the time it was stopped is not counted.
    hal, world, select = ref_hal()
    start = world.ms
    world.stop_reference(start + 400, start + 600)
    hal.wait(add(hal.ticks_ms(), 1000))
    assert world.sleeps[-1][0] == reftime.SLEPT
    behind = world.true_us() - world.clock_us()
    assert 199000 < behind < 201000


def test_the_pins_the_board_does_not_use_are_parked_at_their_lowest_draw():
    hal, world, select = ref_hal()
    pads = 0x4001C000 + 4
    used = (4, 5, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 24, 29)
    for gpio in range(30):
        word = m.mem32[pads + 4 * gpio]
        if gpio in used or gpio in (23, 25):
            assert word == 0, gpio  # untouched here (the pins the board uses, the Pico's own)
        else:
            assert word == 0x80, gpio  # output off; input, pull-up and pull-down off


class NoReference:
    NAME = "no_reference"
    DISPLAY = "oled"
    I2C_ID = 0
    I2C_SDA = 4
    I2C_SCL = 5
    I2C_FREQ = 400000
    OLED_ADDRESS = 0x3C
    BUTTONS = Board.BUTTONS
    LEDS = Board.LEDS
    BUZZER = 13
    BATTERY_ADC = 29
    VBUS_SENSE = 24
    WATCHDOG_MS = 5000
    STORAGE_ROOT = "/"


def test_on_the_own_uf2_a_board_without_a_reference_sleeps_lightly_through_refsleep():
    m.reset()
    world = World(1000)
    m.bus(0).attach(0x3C, Ssd1306Panel())
    m.set_vbus(False)
    select = FakeSelect(world)
    world.select = select
    fs = FakeFs()
    hal = Rp2040Hal(
        m,
        NoReference,
        world.ticks_ms,
        world.sleep_us,
        fs=fs,
        opener=fs.open,
        select=select,
        io=io,
        display=driver_for,
        refsleep=world,
    )
    assert hal.reference is None and hal.ticks_ms == world.ticks_ms
    hal.wait(add(hal.ticks_ms(), 1000))
    assert world.lights == 1 and hal.sleeper.light == 1 and world.sleeps == []
    assert m.state.sleeps[-1] is not None and clock_is_true(world)
