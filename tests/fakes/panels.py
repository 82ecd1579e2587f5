# SPDX-License-Identifier: MIT
# OLED controller models for the fake machine's I2C and SPI buses: SSD1306, SSD1309 and SH1106.
#
# Each takes the bytes the driver writes (on I2C control bytes, commands and their arguments,
# display data; on 4-wire SPI commands or data as the D/C line says), keeps the controller's RAM
# and settings, and refuses a command its chip lacks, so a driver that sends the SSD1306's charge
# pump to an SSD1309 or horizontal addressing to an SH1106 fails its test. visible() is the
# 1024-byte MONO_VLSB frame the glass shows.


class Ssd1306Panel:
    """What a 128x64 SSD1306 does with I2C bytes: commands, addressing and its 1024-byte GDDRAM.

    Unknown commands raise ValueError. Only horizontal addressing is modelled."""

    COLUMNS = 128  # of RAM
    OFFSET = 0  # the RAM column that the glass's column 0 shows
    # Commands and how many argument bytes follow each; single-byte ones take none.
    ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1}
    ARGS.update({0xDA: 1, 0xDB: 1})
    SINGLE = (0x2E, 0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xC0, 0xC8)

    def __init__(self):
        self.ram = bytearray(8 * self.COLUMNS)  # page * COLUMNS + column
        self.on = False
        self.contrast = 0x7F
        self.charge_pump = False
        self.precharge = 0x22
        self.vcomh = 0x20
        self.mode = 2  # page addressing after reset
        self.first_column, self.last_column = 0, self.COLUMNS - 1
        self.first_page, self.last_page = 0, 7
        self.column = self.page = 0
        self.remap = self.scan_reversed = self.inverted = False
        self.multiplex = 63
        self.data_bytes = 0
        self.resets = 0  # RES pulses seen (watch_reset)
        self._control = None  # None: the next byte is a control byte
        self._stream = False  # Co = 0: every following byte has the same D/C
        self._command = None
        self._args = bytearray(2)  # preallocated: the model runs under a heap lock too
        self._count = 0
        self.commands = []  # every complete command, as a tuple; None stops recording

    def begin(self):
        self._control = None
        self._stream = False

    def spi_receive(self, buf, dc):
        """Bytes clocked in while CS is low: display data with D/C high, else commands."""
        for byte in buf:
            if dc:
                self._data(byte)
            else:
                self._command_byte(byte)

    def watch_reset(self, res_line):
        """Reset as the chip does while its RES line (a fake machine line) is low."""
        res_line.listeners.append(self._res_changed)

    def _res_changed(self, res_line):
        if res_line.level == 0:
            self.resets += 1
            self.on = False
            self.charge_pump = False
            self.mode = 2
            self._command = None

    def end(self):
        pass

    def visible(self):
        """The frame the glass shows: columns OFFSET .. OFFSET + 127 of each page."""
        if self.COLUMNS == 128:
            return bytes(self.ram)
        rows = []
        for page in range(8):
            start = page * self.COLUMNS + self.OFFSET
            rows.append(bytes(self.ram[start : start + 128]))
        return b"".join(rows)

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

    def _known(self, byte):
        return byte in self.ARGS or byte in self.SINGLE or 0x40 <= byte <= 0x7F

    def _command_byte(self, byte):
        if self._command is None:
            if not self._known(byte):
                raise ValueError("unknown %s command 0x%02x" % (self.NAME, byte))
            self._command = byte
            self._count = 0
        else:
            self._args[self._count] = byte
            self._count += 1
        if self._count < self.ARGS.get(self._command, 0):
            return
        command = self._command
        self._command = None
        self._apply(command, self._args)
        if self.commands is not None:
            self.commands.append(tuple([command] + list(self._args[: self._count])))

    NAME = "SSD1306"

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
        elif command == 0xD9:
            self.precharge = args[0]
        elif command == 0xDB:
            self.vcomh = args[0]

    def page_bytes(self, page):
        return bytes(self.ram[page * 128 : page * 128 + 128])


class Ssd1309Panel(Ssd1306Panel):
    """The SSD1309 (2.42" modules): the SSD1306's commands and addressing, but no charge pump
    (the module's boost converter makes VCC): 0x8D is not a command."""

    NAME = "SSD1309"
    ARGS = dict(Ssd1306Panel.ARGS)
    del ARGS[0x8D]


class Sh1106Panel(Ssd1306Panel):
    """The SH1106 (1.3" modules): 132 columns of RAM, of which the glass shows 2..129; page
    addressing only (0xB0 | page, 0x00 | column low nibble, 0x10 | column high nibble); the
    DC-DC converter is 0xAD 0x8B. A write past column 131 raises ValueError (the chip would
    drop it: the driver lost its place)."""

    NAME = "SH1106"
    COLUMNS = 132
    OFFSET = 2
    ARGS = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
    SINGLE = (0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xC0, 0xC8)

    def __init__(self):
        Ssd1306Panel.__init__(self)
        self.dc_dc = False

    def _known(self, byte):
        return Ssd1306Panel._known(self, byte) or byte <= 0x1F or 0xB0 <= byte <= 0xB7

    def _data(self, byte):
        if self.column >= self.COLUMNS:
            raise ValueError("SH1106 data past column 131")
        self.ram[self.page * self.COLUMNS + self.column] = byte
        self.data_bytes += 1
        self.column += 1

    def _apply(self, command, args):
        if command <= 0x0F:
            self.column = self.column & 0xF0 | command
        elif command <= 0x1F:
            self.column = self.column & 0x0F | (command & 0x0F) << 4
        elif 0xB0 <= command <= 0xB7:
            self.page = command & 0x07
        elif command == 0xAD:
            self.dc_dc = args[0] == 0x8B
        else:
            Ssd1306Panel._apply(self, command, args)

    def page_bytes(self, page):
        start = page * self.COLUMNS + self.OFFSET
        return bytes(self.ram[start : start + 128])
