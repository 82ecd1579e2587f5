# SPDX-License-Identifier: MIT
# Our own HT1621 driver (three wires: CS, WR, DATA) and two six-digit LCD modules as one display.
#
# The wire (Holtek HT1621 datasheet): CS low opens a transfer, the chip reads DATA at each rising
# edge of WR, CS high ends it. A transfer opens with a 3-bit mode: 100 for commands, 9 bits each
# (the command's 8 bits, most significant first, then one bit that does not count); 101 for a
# write: a 6-bit RAM address (most significant first), then 4-bit nibbles D0..D3 to it and to
# each address after it. The RAM is 32 addresses of 4 bits, one SEG line each across the four
# COM lines. The chip drives the glass from its own RC oscillator: nothing is sent to keep a
# picture, so the RP2040 may sleep.
#
# A digit of the six-digit modules is two addresses, eight segments; sent as one byte, most
# significant bit first, its high nibble lands in the digit's first address. Which bit lights
# which segment is the glass's wiring (GLASS below: the common six-digit HT1621 modules'); the
# frame (ui/lcd.py) is in the 7-segment convention of the whole firmware (bit 0 = segment a ..
# bit 6 = g, bit 7 the point after the digit), turned into the glass's order by a table.
#
# Only changed digits are sent: one write of the run from the first to the last that changed. A
# second's tick is 3 + 6 + 8 = 17 WR clocks, 3 pin calls each (DATA, WR low, WR high). The
# datasheet's WR clock is at most 150 kHz at 3 V, 3.34 us a half period: a MicroPython pin call
# on the RP2040 takes longer than that, so there are no delays. The modules give no answer, so a
# module that lost its supply cannot be told: every REFRESH_EVERY-th write sends the set-up
# commands and the whole module again.
from micropython import const

DIGITS = const(6)  # per module
_ADDRESSES = const(32)
REFRESH_EVERY = const(64)
_MODE_COMMAND = const(0b100)
_MODE_WRITE = const(0b101)
# Commands, by the datasheet's names.
SYS_DIS = const(0x00)  # oscillator and bias generator off: the chip's lowest state
SYS_EN = const(0x01)
LCD_OFF = const(0x02)
LCD_ON = const(0x03)
RC_256K = const(0x18)  # the on-chip RC oscillator
BIAS_THIRD_4COM = const(0x29)  # 1/3 bias, four commons: how the six-digit glasses are made
_SETUP = (SYS_EN, RC_256K, BIAS_THIRD_4COM, LCD_ON)
# Where segments a, b, c, d, e, f, g and the point land in a digit's byte on the glass.
GLASS = (4, 5, 6, 3, 2, 0, 1, 7)


def glass_table(order=GLASS):
    """The 256 glass bytes of the 256 frame bytes."""
    table = bytearray(256)
    for byte in range(256):
        out = 0
        for bit in range(8):
            if byte >> bit & 1:
                out |= 1 << order[bit]
        table[byte] = out
    return table


def write_clocks(digits):
    """WR clocks of a write of `digits` digits: the mode, the address, 8 bits a digit."""
    return 3 + 6 + 8 * digits


class Ht1621:
    """One HT1621 on injected machine.Pins: its own `cs`, and `wr` and `data`, which modules may
    share (only the module whose CS is low listens). `table` maps frame bytes to glass bytes."""

    def __init__(self, cs, wr, data, table=None):
        self._cs = cs
        self._wr = wr
        self._data = data
        self._table = table if table is not None else glass_table()
        cs.init(cs.OUT, value=1)
        wr.init(wr.OUT, value=1)
        data.init(data.OUT, value=1)
        self._held = bytearray(DIGITS)  # the glass bytes the RAM holds
        self._writes = 0
        self.on = True
        self.refresh()

    def _bits(self, value, count):
        """`count` bits of `value`, most significant first (CS already low)."""
        wr = self._wr
        data = self._data
        mask = 1 << (count - 1)
        while mask:
            wr(0)
            data(value & mask)
            wr(1)
            mask >>= 1

    def command(self, command):
        cs = self._cs
        cs(0)
        self._bits(_MODE_COMMAND, 3)
        self._bits(command << 1, 9)
        cs(1)

    def refresh(self):
        """The set-up commands, then every address: the digits held, the rest blank."""
        for command in _SETUP:
            self.command(command)
        if not self.on:
            self.command(LCD_OFF)
        self._writes = 0
        cs = self._cs
        cs(0)
        self._bits(_MODE_WRITE, 3)
        self._bits(0, 6)
        held = self._held
        for digit in range(DIGITS):
            self._bits(held[digit], 8)
        for _address in range(2 * DIGITS, _ADDRESSES):
            self._bits(0, 4)  # a nibble at a time: a wider mask would be a long int
        cs(1)

    def power(self, on):
        """The glass on, or off with the oscillator stopped (the chip's standby)."""
        self.on = on
        if on:
            self.command(SYS_EN)
            self.command(LCD_ON)
        else:
            self.command(LCD_OFF)
            self.command(SYS_DIS)

    def update(self, frame, at=0):
        """Show frame[at:at + 6] on the six digits, sending the run that changed (or a refresh,
        see the top). Returns the digits sent: 0 when nothing changed."""
        table = self._table
        held = self._held
        first = -1
        last = 0
        for digit in range(DIGITS):
            byte = table[frame[at + digit]]
            if byte != held[digit]:
                held[digit] = byte
                if first < 0:
                    first = digit
                last = digit
        if first < 0:
            return 0
        self._writes += 1
        if self._writes >= REFRESH_EVERY:
            self.refresh()
            return DIGITS
        cs = self._cs
        cs(0)
        self._bits(_MODE_WRITE, 3)
        self._bits(2 * first, 6)
        for digit in range(first, last + 1):
            self._bits(held[digit], 8)
        cs(1)
        return last + 1 - first


class TwoLcds:
    """Two six-digit modules as one display: show() takes a 12-byte frame (0..5 the left module,
    6..11 the right) and sends each module what changed on it."""

    def __init__(self, left, right):
        self.left = left
        self.right = right

    def show(self, frame, dirty=None):
        """`dirty` (the OLED's changed windows) is ignored. Returns the modules written, 0..2."""
        if len(frame) != 2 * DIGITS:
            raise ValueError("a frame is 12 bytes")
        left = self.left.update(frame, 0)
        right = self.right.update(frame, DIGITS)
        return (1 if left else 0) + (1 if right else 0)

    def power(self, on):
        self.left.power(on)
        self.right.power(on)


def from_board(machine, board, sleep_us):
    """The board's two modules on their pins (ui/kinds.py: the driver of the "lcd" kind): a CS
    each, WR and DATA shared."""
    Pin = machine.Pin
    wr = Pin(board.LCD_WR)
    data = Pin(board.LCD_DATA)
    table = glass_table()
    left = Ht1621(Pin(board.LCD_LEFT_CS), wr, data, table)
    right = Ht1621(Pin(board.LCD_RIGHT_CS), wr, data, table)
    return TwoLcds(left, right)
