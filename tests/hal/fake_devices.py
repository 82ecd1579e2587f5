# SPDX-License-Identifier: MIT
# Device models for the fake machine: an SSD1306 on an I2C bus and a TM1637 on two fake pins.

# SSD1306 commands and how many argument bytes follow each (the rest take none).
_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1}
_ARGS[0xDB] = 1
_SINGLE = (0x2E, 0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xC0, 0xC8)


class Ssd1306Panel:
    """What a 128x64 SSD1306 does with I2C bytes: commands, addressing and its 1024-byte GDDRAM.

    Unknown commands raise ValueError. Only horizontal addressing is modelled."""

    def __init__(self):
        self.ram = bytearray(1024)  # page * 128 + column
        self.on = False
        self.contrast = 0x7F
        self.charge_pump = False
        self.mode = 2  # page addressing after reset
        self.first_column, self.last_column = 0, 127
        self.first_page, self.last_page = 0, 7
        self.column = self.page = 0
        self.remap = self.scan_reversed = self.inverted = False
        self.multiplex = 63
        self.data_bytes = 0
        self._control = None  # None: the next byte is a control byte
        self._stream = False  # Co = 0: every following byte has the same D/C
        self._command = None
        self._args = bytearray(2)  # preallocated: the model runs under a heap lock too
        self._count = 0
        self.commands = []  # every complete command, as a tuple; None stops recording

    def begin(self):
        self._control = None
        self._stream = False

    def end(self):
        pass

    def receive(self, buf):
        for byte in buf:
            if self._control is None:
                self._control = byte & 0x40
                self._stream = not byte & 0x80
                if byte & 0x3F:
                    raise ValueError("bad control byte 0x%02x" % byte)
                continue
            if self._control:
                self._data(byte)
            else:
                self._command_byte(byte)
            if not self._stream:
                self._control = None

    def _data(self, byte):
        if self.mode != 0:
            raise ValueError("data in an addressing mode the model lacks")
        self.ram[self.page * 128 + self.column] = byte
        self.data_bytes += 1
        if self.column < self.last_column:
            self.column += 1
            return
        self.column = self.first_column
        self.page = self.page + 1 if self.page < self.last_page else self.first_page

    def _command_byte(self, byte):
        if self._command is None:
            if byte not in _ARGS and byte not in _SINGLE and not 0x40 <= byte <= 0x7F:
                raise ValueError("unknown SSD1306 command 0x%02x" % byte)
            self._command = byte
            self._count = 0
        else:
            self._args[self._count] = byte
            self._count += 1
        if self._count < _ARGS.get(self._command, 0):
            return
        command = self._command
        self._command = None
        self._apply(command, self._args)
        if self.commands is not None:
            self.commands.append(tuple([command] + list(self._args[: self._count])))

    def _apply(self, command, args):
        if command in (0xAE, 0xAF):
            self.on = command == 0xAF
        elif command == 0x81:
            self.contrast = args[0]
        elif command == 0x8D:
            self.charge_pump = args[0] == 0x14
        elif command == 0x20:
            self.mode = args[0]
        elif command == 0x21:
            self.first_column, self.last_column = args[0], args[1]
            self.column = args[0]
        elif command == 0x22:
            self.first_page, self.last_page = args[0], args[1]
            self.page = args[0]
        elif command in (0xA0, 0xA1):
            self.remap = command == 0xA1
        elif command in (0xC0, 0xC8):
            self.scan_reversed = command == 0xC8
        elif command in (0xA6, 0xA7):
            self.inverted = command == 0xA7
        elif command == 0xA8:
            self.multiplex = args[0]

    def page_bytes(self, page):
        return bytes(self.ram[page * 128 : page * 128 + 128])


class Tm1637Chip:
    """A TM1637 listening on two fake lines: decodes start/stop/bits, ACKs each byte by pulling
    DIO low from the 8th falling clock edge to the 9th, and keeps its six display registers.
    Counts the clocks (a rising and a falling edge inside a transaction) and the bytes it takes.
    After power_down() it ignores the lines (no ACK); power_up() brings it back as from a power
    loss: registers noise, display off."""

    def __init__(self, clk_line, dio_line):
        self.clk = clk_line
        self.dio = dio_line
        self.grids = bytearray(6)
        self.on = False
        self.brightness = 0
        self.trace = []  # 'S', 'P' and every bit sampled on a rising clock; None: no record
        self.transactions = 0
        self.clocks = 0
        self.received = 0  # bytes, commands included
        self.powered = True
        self._bits = -1  # -1: outside a transaction
        self._byte = 0
        self._sampled = bytearray(9)  # a byte's bits and its ACK, traced once all nine are in
        self._first = True  # the next byte is the transaction's command
        self._writable = False  # after an address command: data bytes follow
        self._address = 0
        self._auto = True
        self._clk_level = clk_line.level
        self._dio_level = dio_line.level
        clk_line.listeners.append(self._changed)
        dio_line.listeners.append(self._changed)

    def _record(self, mark):
        if self.trace is not None:
            self.trace.append(mark)

    def power_down(self):
        self.powered = False
        if self.dio.external is not None:
            self.dio.external = None
            self.dio.settle()

    def power_up(self, noise=0xFF):
        for grid in range(6):
            self.grids[grid] = noise
        self.on = False
        self.brightness = 0
        self._bits, self._auto = -1, True
        self.powered = True

    def _changed(self, line):
        clk, dio = self.clk.level, self.dio.level
        clk_was, dio_was = self._clk_level, self._dio_level
        self._clk_level, self._dio_level = clk, dio
        if not self.powered:
            return
        if clk and clk_was and dio != dio_was:
            if dio:
                self._bits = -1  # stop
                self.transactions += 1
                self._record("P")
            else:
                self._bits, self._byte, self._first, self._writable = 0, 0, True, False
                self._record("S")
        elif clk and not clk_was and 0 <= self._bits < 9:
            # A rising clock before a stop samples a bit too: it is dropped with the stop.
            self._sampled[self._bits] = dio
            if self._bits < 8:
                self._byte |= dio << self._bits
            self._bits += 1
            if self._bits == 8:
                self._take(self._byte)
            elif self._bits == 9 and self.trace is not None:
                for bit in self._sampled:
                    self.trace.append("1" if bit else "0")
        elif not clk and clk_was and self._bits > 0:
            self.clocks += 1
            if self._bits == 8:
                self.dio.external = 0  # ACK
                self.dio.settle()
            elif self._bits == 9:
                self.dio.external = None
                self.dio.settle()
                self._bits, self._byte = 0, 0

    def _take(self, byte):
        self.received += 1
        if self._writable:
            self.grids[self._address % 6] = byte
            if self._auto:
                self._address += 1
            return
        if not self._first:
            raise ValueError("a byte after a command that takes none: 0x%02x" % byte)
        self._first = False
        if byte & 0xC0 == 0x40:
            self._auto = not byte & 0x04
        elif byte & 0xC0 == 0xC0:
            self._address = byte & 0x07
            self._writable = True
        elif byte & 0xC0 == 0x80:
            self.on = bool(byte & 0x08)
            self.brightness = byte & 0x07
        else:
            raise ValueError("unknown TM1637 command 0x%02x" % byte)
