# SPDX-License-Identifier: MIT
# Device models for the fake machine: the OLED panels (tests/fakes/panels.py) on an I2C bus and a
# TM1637 on two fake pins.
from fakes.panels import Sh1106Panel, Ssd1306Panel, Ssd1309Panel  # noqa: F401


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
