# SPDX-License-Identifier: MIT
# The TM1637 driver against a chip model listening on the fake lines: bits, ACKs, registers, cost.
import micropython
from fake_devices import Tm1637Chip
from fakes import fake_machine as m
from hal.rp2040.tm1637 import REFRESH_EVERY, Tm1637, TwoModules, bus_cost, write_cost
from support import raises
from ui.seg7 import encode


class CountedPin(m.Pin):
    """A fake pin that counts the calls that set or read it (all pins together)."""

    calls = 0

    def value(self, level=None):
        CountedPin.calls += 1
        return m.Pin.value(self, level)

    __call__ = value


class Sleeps:
    def __init__(self):
        self.calls = 0
        self.us = 0

    def sleep_us(self, us):
        self.calls += 1
        self.us += us


def module(clk, dio, clock, **options):
    chip = Tm1637Chip(m.line(clk), m.line(dio))
    driver = Tm1637(m.Pin(clk), m.Pin(dio), clock.sleep_us, **options)
    chip.trace = []
    return chip, driver


def pair(**options):
    m.reset()
    clock = m.Clock()
    left_chip, left = module(2, 3, clock, **options)
    right_chip, right = module(6, 7, clock, **options)
    return left_chip, right_chip, TwoModules(left, right)


def clock_frame(left, right):
    frame = bytearray(8)
    encode(left, frame, 0)
    encode(right, frame, 4)
    return frame


def bits(byte):
    return "".join("1" if byte >> bit & 1 else "0" for bit in range(8))


def transaction(*data):
    return "S" + "".join(bits(byte) + "0" for byte in data) + "P"  # "0": each one acknowledged


def test_a_digit_write_is_the_datasheet_bit_sequence():
    m.reset()
    clock = m.Clock()
    chip, tm = module(2, 3, clock)
    tm.write(bytearray((0x3F,)))  # "0": segments a..f
    # S = start, P = stop; bits least significant first, then the ACK clock (0: acknowledged).
    data_command = "S" + "00000010" + "0" + "P"  # 0x40: write, auto-increment
    address = "S" + "00000011" + "0"  # 0xC0: grid 0
    digit = "11111100" + "0" + "P"  # 0x3F
    control = "S" + "11110001" + "0" + "P"  # 0x8F: display on, brightness 7
    assert "".join(chip.trace) == data_command + address + digit + control
    assert chip.grids[0] == 0x3F and chip.on and chip.brightness == 7
    assert tm.acked and tm.naks == 0


def test_the_chip_ack_never_fights_our_output():
    for delay in (10, 0):
        m.reset()
        chip, tm = module(2, 3, m.Clock(), delay_us=delay)
        tm.write(bytearray((0xFF, 0xFF, 0xFF, 0xFF)))
        tm.update(bytearray((0, 0x80, 0, 0xFF)))
        assert m.line(3).contention == 0 and m.line(2).contention == 0
        assert m.line(3).mode == m.Pin.OPEN_DRAIN
        assert tm.acked and chip.grids[:4] == bytearray((0, 0x80, 0, 0xFF))


def test_four_digits_land_in_the_grids_and_cost_63_clocks():
    m.reset()
    clock = m.Clock()
    chip, tm = module(2, 3, clock)
    clock.slept_us = 0
    tm.write(bytearray((0x06, 0x5B, 0x4F, 0x66)), 0)  # 1 2 3 4
    assert bytes(chip.grids[:4]) == bytes((0x06, 0x5B, 0x4F, 0x66))
    assert chip.transactions >= 3
    marks = [mark for mark in chip.trace if mark in "01"]
    assert len(marks) == 7 * 9  # 0x40, 0xC0, four digits, 0x8F; nine clocks each
    # Delays: 2 per clock, 1 per start, 3 per stop, of 10 us: (126 + 3 + 9) * 10 us.
    assert clock.slept_us == 1380


def test_a_missing_module_reads_as_naks():
    m.reset()
    tm = Tm1637(m.Pin(6), m.Pin(7), m.Clock().sleep_us)  # nothing pulls DIO low
    assert not tm.acked
    tm.write(bytearray(4))
    assert not tm.acked and tm.naks > 0


def test_brightness_power_and_bad_arguments():
    m.reset()
    chip, tm = module(2, 3, m.Clock())
    tm.brightness(2)
    assert chip.brightness == 2 and chip.on
    tm.power(False)
    assert not chip.on
    tm.power(True)
    assert chip.on and chip.brightness == 2
    raises(ValueError, tm.brightness, 8)
    raises(ValueError, tm.write, bytearray(4), 3)
    raises(ValueError, Tm1637, m.Pin(6), m.Pin(7), m.Clock().sleep_us, 7, -1)


def test_two_modules_write_only_the_side_that_changed():
    left_chip, right_chip, modules = pair()
    frame = bytearray((0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F))  # 1234 5678
    assert modules.show(frame) == 2
    assert bytes(left_chip.grids[:4]) == bytes(frame[:4])
    assert bytes(right_chip.grids[:4]) == bytes(frame[4:])
    left_chip.trace, right_chip.trace = [], []
    assert modules.show(frame) == 0
    frame[6] = 0x3F
    assert modules.show(frame) == 1
    assert left_chip.trace == [] and right_chip.trace != []
    assert right_chip.grids[2] == 0x3F
    raises(ValueError, modules.show, bytearray(4))


def test_a_ninth_byte_is_the_brightness_sent_as_one_command_when_it_changes():
    # ui/seg7.py's frames: the pause dims both modules with one display-control byte each.
    left_chip, right_chip, modules = pair()
    frame = clock_frame("05:00", "04:59") + bytearray((7,))
    modules.show(frame)
    left_chip.trace, right_chip.trace = [], []
    frame[8] = 1
    assert modules.show(frame) == 2
    for chip in (left_chip, right_chip):
        assert "".join(chip.trace) == transaction(0x89)  # display on, brightness 1
        assert chip.brightness == 1 and chip.on
    assert bytes(left_chip.grids[:4]) == bytes(frame[:4])
    left_chip.trace, right_chip.trace = [], []
    assert modules.show(frame) == 0 and left_chip.trace == right_chip.trace == []
    frame[8] = 7
    frame[7] = 0x7F  # 04:58 as the clock resumes: the right module's digit too
    assert modules.show(frame) == 2
    assert "".join(left_chip.trace) == transaction(0x8F)
    assert "".join(right_chip.trace) == transaction(0x8F) + transaction(0xC3, 0x7F)
    assert left_chip.brightness == right_chip.brightness == 7
    for step in range(2 * REFRESH_EVERY):  # the refreshes keep the level
        frame[3] ^= 0x80
        modules.show(frame)
    assert left_chip.brightness == 7
    raises(ValueError, modules.show, bytearray(10))


def test_the_first_show_writes_both_modules_even_when_blank():
    left_chip, right_chip, modules = pair()
    left_chip.grids[0] = right_chip.grids[0] = 0xFF  # as if noise
    assert modules.show(bytearray(8)) == 2
    assert left_chip.grids[0] == 0 and right_chip.grids[0] == 0


def test_a_seconds_tick_sends_only_the_changed_digits():
    left_chip, right_chip, modules = pair()
    modules.show(clock_frame("05:00", "05:00"))
    for chip in (left_chip, right_chip):
        chip.trace = []
    frame = clock_frame("04:59", "05:00")
    assert modules.show(frame) == 1
    # Three digits changed: one transaction, address 0xC1 and the run 4:59 (the colon with it).
    assert "".join(left_chip.trace) == transaction(0xC1, frame[1], frame[2], frame[3])
    assert right_chip.trace == []
    left_chip.trace = []
    frame = clock_frame("04:58", "05:00")
    assert modules.show(frame) == 1
    assert "".join(left_chip.trace) == transaction(0xC3, frame[3])  # 2 bytes, 18 clocks
    assert bytes(left_chip.grids[:4]) == bytes(frame[:4])


def test_a_run_spans_the_first_to_the_last_changed_digit():
    m.reset()
    chip, tm = module(2, 3, m.Clock())
    frame = bytearray((0x06, 0x5B, 0x4F, 0x66))
    assert tm.update(frame) == 4  # the first write is a refresh
    assert tm.update(frame) == 0
    frame[0], frame[2] = 0x3F, 0x7F
    chip.trace = []
    assert tm.update(frame) == 3
    assert "".join(chip.trace) == transaction(0xC0, 0x3F, 0x5B, 0x7F)
    frame[1], frame[2] = 0, 0
    assert tm.update(frame) == 2
    assert chip.grids[:4] == frame


def lcg(seed):
    return (seed * 1103515245 + 12345) & 0x7FFFFFFF


def test_random_frames_leave_the_registers_equal_to_the_frame():
    for delay in (10, 0):
        left_chip, right_chip, modules = pair(delay_us=delay)
        left_chip.trace = right_chip.trace = None
        frame = bytearray(8)
        seed = 1
        for step in range(400):
            seed = lcg(seed)
            changes = seed >> 8 & 3  # 0..3 bytes, on either module
            for _ in range(changes):
                seed = lcg(seed)
                frame[seed >> 8 & 7] = seed >> 16 & 0xFF
            before = left_chip.received + right_chip.received
            written = modules.show(frame)
            sent = left_chip.received + right_chip.received - before
            assert left_chip.grids[:4] == frame[:4] and right_chip.grids[:4] == frame[4:]
            assert left_chip.on and right_chip.on and left_chip.brightness == 7
            assert (written == 0) == (sent == 0)
            assert sent <= 2 * (4 + 3)
        assert modules.left.acked and modules.right.naks == 0


def test_a_nak_forces_a_full_rewrite_next_time():
    left_chip, right_chip, modules = pair()
    frame = clock_frame("05:00", "05:00")
    modules.show(frame)
    left_chip.power_down()  # unplugged: nothing acknowledges
    frame = clock_frame("04:59", "05:00")
    assert modules.show(frame) == 1
    assert not modules.left.acked and modules.left.naks == 4  # 0xC1 and three digits
    left_chip.power_up()  # back: noise in the registers, the display dark
    left_chip.trace = []
    assert modules.show(frame) == 1  # unchanged, yet rewritten in full
    refresh = transaction(0x40) + transaction(0xC0, *frame[:4]) + transaction(0x8F)
    assert "".join(left_chip.trace) == refresh
    assert left_chip.grids[:4] == frame[:4] and left_chip.on and left_chip.brightness == 7
    assert modules.left.acked
    left_chip.trace = []
    frame = clock_frame("04:58", "05:00")
    assert modules.show(frame) == 1
    assert "".join(left_chip.trace) == transaction(0xC3, frame[3])  # partial writes again


def test_a_module_that_lost_power_between_writes_is_back_by_the_refresh():
    left_chip, right_chip, modules = pair()
    modules.brightness(3)
    frame = clock_frame("09:59", "10:00")
    modules.show(frame)
    left_chip.power_up()  # a glitch between two writes: the chip acknowledges but shows nothing
    for second in range(REFRESH_EVERY - 1):
        left_chip.trace = []
        encode("09:%02d" % (58 - second), frame, 0)
        modules.show(frame)
        assert "".join(left_chip.trace).count("S") == 1
        assert not left_chip.on
    left_chip.trace = []
    encode("09:%02d" % (58 - REFRESH_EVERY + 1), frame, 0)
    assert modules.show(frame) == 1
    assert "".join(left_chip.trace).count("S") == 3  # the REFRESH_EVERY-th write
    assert left_chip.grids[:4] == frame[:4] and left_chip.on and left_chip.brightness == 3


def test_brightness_and_power_hold_across_partial_writes_and_refreshes():
    left_chip, right_chip, modules = pair()
    frame = clock_frame("05:00", "05:00")
    modules.show(frame)
    modules.brightness(1)
    modules.power(False)
    for second in range(2 * REFRESH_EVERY):
        encode("04:%02d" % (59 - second), frame, 4)
        modules.show(frame)
        assert not right_chip.on and right_chip.brightness == 1
    assert right_chip.grids[:4] == frame[4:]  # written while dark
    modules.power(True)
    assert right_chip.on and left_chip.on and right_chip.brightness == 1
    modules.brightness(6)
    assert left_chip.brightness == right_chip.brightness == 6 and left_chip.on


def test_show_takes_and_ignores_dirty_windows():
    left_chip, right_chip, modules = pair()
    frame = clock_frame("05:00", "05:00")
    assert modules.show(frame, ((0, 0, 128, 64),)) == 2
    frame[7] ^= 1
    assert modules.show(frame, None) == 1 and right_chip.grids[3] == frame[7]


def counted_module(delay):
    m.reset()
    sleeps = Sleeps()
    chip = Tm1637Chip(m.line(2), m.line(3))
    chip.trace = None
    tm = Tm1637(CountedPin(2), CountedPin(3), sleeps.sleep_us, delay_us=delay)
    return chip, tm, sleeps


def cost_of(chip, sleeps, action, *args):
    """(clocks, pin calls, sleep_us, sleep_us calls) that action(*args) put on the wire."""
    clocks, pins, us, calls = chip.clocks, CountedPin.calls, sleeps.us, sleeps.calls
    action(*args)
    spent = (chip.clocks - clocks, CountedPin.calls - pins, sleeps.us - us)
    return spent, sleeps.calls - calls


def test_write_cost_is_what_the_chip_and_the_pins_see():
    for delay in (10, 3, 0):
        chip, tm, sleeps = counted_module(delay)
        frame = bytearray(4)
        spent, calls = cost_of(chip, sleeps, tm.update, frame)  # the first: a refresh
        assert spent == tm.cost(4, True) == write_cost(4, True, delay)
        assert calls == (spent[2] // delay if delay else 0)
        for count in range(1, 5):
            for grid in range(count):
                frame[grid] ^= 0x80
            spent, calls = cost_of(chip, sleeps, tm.update, frame)
            assert spent == write_cost(count, False, delay) == tm.cost(count)
            assert calls == (spent[2] // delay if delay else 0)
        spent, calls = cost_of(chip, sleeps, tm.brightness, 5)
        assert spent == bus_cost(1, 1, delay)
        assert chip.grids[:4] == frame and chip.brightness == 5 and tm.naks == 0
    # The numbers the top of tm1637.py gives: a one-digit tick, and today's full module write.
    assert write_cost(1) == (18, 61, 400) and write_cost(0, delay_us=0) == (9, 33, 0)
    assert write_cost(4, True) == (63, 211, 1380)


def test_show_allocates_nothing_for_changing_frames():
    # A no-op under CPython; under MicroPython the locked heap raises on any allocation.
    for delay in (10, 0):
        left_chip, right_chip, modules = pair(delay_us=delay)
        left_chip.trace = right_chip.trace = None
        frame = bytearray(9)  # with the brightness
        modules.show(frame)
        micropython.heap_lock()
        try:
            for step in range(REFRESH_EVERY + 2):  # partial writes and a refresh
                frame[step & 3] ^= 0x3F
                frame[4 + (step & 1)] += 1
                frame[8] = 7 if step & 2 else 1
                modules.show(frame, None)
            left_chip.power_down()
            frame[0] ^= 0x40
            modules.show(frame)  # not acknowledged
            left_chip.power_up()
            modules.show(frame)  # the rewrite it forces
        finally:
            micropython.heap_unlock()
        assert left_chip.grids[:4] == frame[:4] and right_chip.grids[:4] == frame[4:8]
        assert left_chip.brightness == right_chip.brightness == frame[8]
        assert modules.left.naks > 0 and modules.left.acked
