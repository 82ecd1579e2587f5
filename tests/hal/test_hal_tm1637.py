# The TM1637 driver against a chip model listening on the fake lines: bits, ACKs, registers.
from fake_devices import Tm1637Chip
from fakes import fake_machine as m
from hal.rp2040.tm1637 import Tm1637, TwoModules
from support import raises


def module(clk, dio, clock):
    chip = Tm1637Chip(m.line(clk), m.line(dio))
    driver = Tm1637(m.Pin(clk), m.Pin(dio), clock.sleep_us)
    chip.trace = []
    return chip, driver


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
    m.reset()
    chip, tm = module(2, 3, m.Clock())
    tm.write(bytearray((0xFF, 0xFF, 0xFF, 0xFF)))
    assert m.line(3).contention == 0 and m.line(2).contention == 0
    assert m.line(3).mode == m.Pin.OPEN_DRAIN


def test_four_digits_land_in_the_grids_and_cost_63_clocks():
    m.reset()
    clock = m.Clock()
    chip, tm = module(2, 3, clock)
    clock.slept_us = 0
    tm.write(bytearray((0x06, 0x5B, 0x4F, 0x66)), 0)  # 1 2 3 4
    assert bytes(chip.grids[:4]) == bytes((0x06, 0x5B, 0x4F, 0x66))
    assert chip.transactions >= 3
    bits = [mark for mark in chip.trace if mark in "01"]
    assert len(bits) == 7 * 9  # 0x40, 0xC0, four digits, 0x8F; nine clocks each
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


def test_two_modules_write_only_the_side_that_changed():
    m.reset()
    clock = m.Clock()
    left_chip, left = module(2, 3, clock)
    right_chip, right = module(6, 7, clock)
    pair = TwoModules(left, right)
    frame = bytearray((0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F))  # 1234 5678
    assert pair.show(frame) == 2
    assert bytes(left_chip.grids[:4]) == bytes(frame[:4])
    assert bytes(right_chip.grids[:4]) == bytes(frame[4:])
    left_chip.trace, right_chip.trace = [], []
    assert pair.show(frame) == 0
    frame[6] = 0x3F
    assert pair.show(frame) == 1
    assert left_chip.trace == [] and right_chip.trace != []
    assert right_chip.grids[2] == 0x3F
    raises(ValueError, pair.show, bytearray(4))


def test_the_first_show_writes_both_modules_even_when_blank():
    m.reset()
    clock = m.Clock()
    left_chip, left = module(2, 3, clock)
    right_chip, right = module(6, 7, clock)
    left_chip.grids[0] = right_chip.grids[0] = 0xFF  # as if noise
    assert TwoModules(left, right).show(bytearray(8)) == 2
    assert left_chip.grids[0] == 0 and right_chip.grids[0] == 0
