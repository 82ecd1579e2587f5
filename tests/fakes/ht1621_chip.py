# SPDX-License-Identifier: MIT
# An HT1621 LCD controller listening on three fake lines (CS, WR, DATA): its RAM, commands and glass.
#
# As the Holtek datasheet has it: CS low opens a transfer, DATA is read at each rising edge of WR,
# CS high ends it; mode 100 carries 9-bit commands (8 bits most significant first, one that does
# not count), mode 101 a 6-bit address (most significant first) and 4-bit nibbles D0..D3, each to
# the next of 32 addresses. Modules may share WR and DATA: a chip whose CS is high hears nothing.
# A mode it does not know, or a transfer cut inside a command or a nibble, is an error here.
# After power_up() the RAM is noise and the chip off, as a module that lost its supply.

SYS_DIS = 0x00
SYS_EN = 0x01
LCD_OFF = 0x02
LCD_ON = 0x03


class Ht1621Chip:
    def __init__(self, cs_line, wr_line, data_line, record=True):
        self.cs = cs_line
        self.wr = wr_line
        self.data = data_line
        self.ram = bytearray(32)
        self.system = False
        self.glass = False
        self.bias = None
        self.clock_source = None
        self.commands = [] if record else None  # every command taken; None: none kept
        self.transfers = 0
        self.clocks = 0  # WR rising edges while selected
        self._active = False
        self._count = 0
        self._mode = 0
        self._word = 0
        self._taken = 0
        self._address = 0
        self._cs_level = cs_line.level
        self._wr_level = wr_line.level
        cs_line.listeners.append(self._changed)
        wr_line.listeners.append(self._changed)

    @property
    def on(self):
        """The glass is driven: the oscillator and the bias generator on."""
        return self.system and self.glass

    def power_up(self, noise=0x0F):
        for i in range(32):
            self.ram[i] = noise
        self.system = self.glass = False

    def glass_byte(self, digit):
        """The 8 bits of a six-digit module's digit (addresses 2 digit, 2 digit + 1) in the order
        they were sent: D0 of the first address is bit 7."""
        byte = 0
        for address in (2 * digit, 2 * digit + 1):
            nibble = self.ram[address]
            for bit in range(4):
                byte = byte << 1 | (nibble >> bit & 1)
        return byte

    def _changed(self, line):
        cs = self.cs.level
        wr = self.wr.level
        cs_was = self._cs_level
        wr_was = self._wr_level
        self._cs_level = cs
        self._wr_level = wr
        if cs != cs_was:
            if not cs:
                self._active = True
                self._count = self._mode = self._word = self._taken = self._address = 0
            elif self._active:
                self._active = False
                self._end()
        if self._active and wr and not wr_was:
            self._bit(self.data.level)

    def _end(self):
        self.transfers += 1
        if self._count < 3 or self._taken:
            raise ValueError("an HT1621 transfer cut inside a command or a nibble")

    def _bit(self, value):
        self.clocks += 1
        self._count += 1
        if self._count <= 3:
            self._mode = self._mode << 1 | value
            if self._count == 3 and self._mode not in (0b100, 0b101):
                raise ValueError("HT1621 mode %s" % bin(self._mode))
            return
        if self._mode == 0b100:
            self._word = self._word << 1 | value
            self._taken += 1
            if self._taken == 9:
                self._command(self._word >> 1)
                self._word = self._taken = 0
            return
        if self._count <= 9:
            self._address = (self._address << 1 | value) & 63
            return
        self._word |= value << self._taken
        self._taken += 1
        if self._taken == 4:
            self.ram[self._address & 31] = self._word
            self._address = (self._address + 1) & 31
            self._word = self._taken = 0

    def _command(self, command):
        if self.commands is not None:
            self.commands.append(command)
        if command == SYS_DIS:
            self.system = False
        elif command == SYS_EN:
            self.system = True
        elif command == LCD_OFF:
            self.glass = False
        elif command == LCD_ON:
            self.glass = True
        elif command & 0xF0 == 0x20:
            self.bias = command
        elif command in (0x14, 0x18, 0x1C):
            self.clock_source = command
