# SPDX-License-Identifier: MIT
# The HT1621 driver against a chip model on the fake lines: the datasheet's bits, the set-up, only
# changed digits sent, two modules on shared WR and DATA, standby, the glass's segment order.
from fakes import fake_machine as m
from fakes.ht1621_chip import Ht1621Chip
from hal.rp2040.ht1621 import (
    DIGITS,
    GLASS,
    REFRESH_EVERY,
    Ht1621,
    TwoLcds,
    from_board,
    glass_table,
    write_clocks,
)
from support import raises
from ui.seg7 import encode

CS_LEFT, CS_RIGHT, WR, DATA = 8, 9, 10, 11


def pair():
    m.reset()
    wr, data = m.line(WR), m.line(DATA)
    left_chip = Ht1621Chip(m.line(CS_LEFT), wr, data)
    right_chip = Ht1621Chip(m.line(CS_RIGHT), wr, data)
    table = glass_table()
    left = Ht1621(m.Pin(CS_LEFT), m.Pin(WR), m.Pin(DATA), table)
    right = Ht1621(m.Pin(CS_RIGHT), m.Pin(WR), m.Pin(DATA), table)
    return left_chip, right_chip, TwoLcds(left, right)


def frame_of(left, right):
    frame = bytearray(12)
    encode(left, frame, DIGITS - len(left.replace(".", "")))
    encode(right, frame, 2 * DIGITS - len(right.replace(".", "")))
    return frame


def segments_shown(chip, table):
    """The frame bytes the chip's RAM shows, digit by digit (the table undone)."""
    back = {table[byte]: byte for byte in range(256)}
    return bytes(back[chip.glass_byte(digit)] for digit in range(DIGITS))


def test_the_set_up_is_the_datasheets_commands_and_a_blank_ram():
    left, right, lcds = pair()
    for chip in (left, right):
        # SYS EN, the RC oscillator, 1/3 bias with four commons, LCD ON
        assert chip.commands == [0x01, 0x18, 0x29, 0x03]
        assert chip.on and chip.ram == bytearray(32)
    # mode 3 + command 9 bits each, then a write of all 32 addresses: 3 + 6 + 32 * 4 WR clocks
    assert left.clocks == 4 * 12 + 3 + 6 + 128 == right.clocks


def test_a_digit_is_two_nibbles_its_high_bits_first_and_d0_first_in_each():
    left, right, lcds = pair()
    tm = lcds.left
    frame = bytearray(12)
    frame[0] = 0x06  # "1": segments b and c, glass bits 5 and 6
    before = left.clocks
    assert tm.update(frame, 0) == 1
    assert left.clocks - before == write_clocks(1) == 17
    glass = (1 << GLASS[1]) | (1 << GLASS[2])
    assert glass == 0x60 and left.glass_byte(0) == 0x60
    # sent 0110 0000 most significant first: address 0 gets D0=0 D1=1 D2=1 D3=0, i.e. 0b0110
    assert left.ram[0] == 0b0110 and left.ram[1] == 0


def test_only_the_run_of_changed_digits_goes_out():
    left, right, lcds = pair()
    table = lcds.left._table
    lcds.show(frame_of("5.00", "3.00"))
    assert segments_shown(left, table) == frame_of("5.00", "")[:6]
    before = left.clocks
    assert lcds.left.update(frame_of("4.59", "3.00"), 0) == 3  # digits 3..5 changed
    assert left.clocks - before == write_clocks(3)
    before = left.clocks, right.clocks
    assert lcds.show(frame_of("4.59", "3.00")) == 0  # nothing changed: nothing sent
    assert (left.clocks, right.clocks) == before
    assert segments_shown(right, table) == frame_of("", "3.00")[6:]


def test_shared_wr_and_data_reach_only_the_selected_module():
    left, right, lcds = pair()
    right_before = bytes(right.ram)
    lcds.show(frame_of("1.30.00", ""))
    assert bytes(right.ram) == right_before
    assert left.glass_byte(1) == lcds.left._table[0x06 | 0x80]  # "1." : the point after H


def test_every_nth_write_sends_the_set_up_and_the_module_again():
    left, right, lcds = pair()
    frame = bytearray(12)
    left.power_up()  # the module lost its supply: RAM noise, glass off
    for count in range(1, REFRESH_EVERY + 1):
        frame[5] = 0x3F if count % 2 else 0x06
        lcds.left.update(frame, 0)
    assert left.on and left.commands[-4:] == [0x01, 0x18, 0x29, 0x03]
    assert left.ram[12:] == bytearray(20) and left.ram[:10] == bytearray(10)


def test_power_off_stops_the_oscillator_and_on_brings_the_picture_back():
    left, right, lcds = pair()
    lcds.show(frame_of("5.00", "5.00"))
    ram = bytes(left.ram)
    lcds.power(False)
    assert not left.on and not left.system and not right.on
    lcds.power(True)
    assert left.on and right.on and bytes(left.ram) == ram


def test_the_glass_table_puts_each_segment_where_the_modules_wire_it():
    table = glass_table()
    assert table[0x3F] == 0x7D  # "0" on the common modules' glass
    assert table[0x06] == 0x60 and table[0x7F] == 0x7F and table[0x80] == 0x80
    assert sorted(GLASS) == list(range(8))
    assert len(set(table)) == 256


def test_a_frame_that_is_not_twelve_bytes_is_refused():
    left, right, lcds = pair()
    raises(ValueError, lcds.show, bytearray(9))


def test_the_board_builds_two_modules_on_its_pins():
    class Board:
        LCD_LEFT_CS = CS_LEFT
        LCD_RIGHT_CS = CS_RIGHT
        LCD_WR = WR
        LCD_DATA = DATA

    m.reset()
    wr, data = m.line(WR), m.line(DATA)
    chips = [Ht1621Chip(m.line(CS_LEFT), wr, data), Ht1621Chip(m.line(CS_RIGHT), wr, data)]
    lcds = from_board(m, Board, None)
    lcds.show(frame_of("2.00", "9.59"))
    assert chips[0].on and chips[1].on
    assert segments_shown(chips[1], lcds.left._table)[2:] == frame_of("", "9.59")[8:]
    assert m.line(CS_LEFT).mode == m.Pin.OUT and m.line(CS_LEFT).level == 1  # deselected
