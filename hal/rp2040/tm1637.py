# SPDX-License-Identifier: MIT
# Our own TM1637 driver (bit-banged two-wire bus) and a pair of four-digit modules as one display.
#
# The wire (TM1637 datasheet): DIO may change only while CLK is low; the chip samples it on
# the rising edge, least significant bit first. Start: DIO falls while CLK is high; stop: DIO
# rises while CLK is high. After the 8th falling CLK edge the chip pulls DIO low (ACK) until
# the 9th falling edge. DIO is open-drain (1 releases the line to the pull-ups, which the
# modules carry), so the chip's ACK never fights our output.
#
# Commands: data 0x40 (write the display registers, address auto-increment), address
# 0xC0 | first grid followed by the data bytes, display control 0x80 | 0x08 (on) | brightness.
# The chip latches the data and control commands, so a write sends only the address command and
# the run of grids from the first to the last that changed: a second's tick is one transaction
# of 2 bytes. A refresh sends all of it: [0x40] [0xC0, the four digits] [control]. Only a module
# that lost power needs one (it comes back dark, its registers noise), so a refresh is the
# first write, the write after any byte a module did not acknowledge (unplugged, or not
# listening), and every REFRESH_EVERY-th write of a module, for a supply glitch between two
# writes. Counted in writes, not seconds: the driver has no clock, and a running side writes
# its module at least once a second. The cost: 5 bytes more every 16th write of a digit,
# instead of 2 bytes and 2 transactions more on every write.
#
# Cost (write_cost): per byte 9 clocks, 28 pin calls, 18 half-period delays; per transaction 5
# pin calls and 4 delays for its start and stop. The pins are called, pin(v): machine.Pin's
# shortcut, with no method lookup per bit.
from micropython import const

# Commands, by the datasheet's names (TM1637 V2.4, section 7).
_DATA_CMD = const(0x40)  # data command: write the display registers, address auto-increment
_ADDRESS_CMD = const(0xC0)  # address command: | the first grid, 0..5
_DISPLAY_CTRL = const(0x80)  # display control: | _DISPLAY_ON | the pulse width (brightness 0..7)
_DISPLAY_ON = const(0x08)
_GRIDS = const(6)
DIGITS = const(4)  # per module
REFRESH_EVERY = const(16)
# Half a clock period, for the modules' RC filters (DIO rises through the pull-up after a
# release). 0 makes no sleep_us calls: a pin call on the RP2040 alone lasts microseconds, well
# over the datasheet's 100 ns setup and 400 ns pulse width, but the filters are unmeasured.
DELAY_US = const(10)
_MASKS = b"\x01\x02\x04\x08\x10\x20\x40\x80"


def bus_cost(transactions, count, delay_us=DELAY_US):
    """(CLK cycles, pin calls, sleep_us in all) of `transactions` transactions that carry
    `count` bytes in all, commands included. brightness() and power() cost bus_cost(1, 1)."""
    return 9 * count, 5 * transactions + 28 * count, delay_us * (4 * transactions + 18 * count)


def write_cost(data_bytes, control=False, delay_us=DELAY_US):
    """(CLK cycles, pin calls, sleep_us in all) of writing `data_bytes` grids: the address command
    and the data; with `control` (a refresh, or write()) the data command before them and the
    display control after them too."""
    if control:
        return bus_cost(3, data_bytes + 3, delay_us)
    return bus_cost(1, data_bytes + 1, delay_us)


class Tm1637:
    """One TM1637 on injected CLK and DIO machine.Pins; `sleep_us` is time.sleep_us on the board
    and `delay_us` the half clock period (0: no sleep_us calls)."""

    def __init__(self, clk, dio, sleep_us, brightness=7, delay_us=DELAY_US):
        if not 0 <= brightness <= 7:
            raise ValueError("brightness is 0..7")
        if delay_us < 0:
            raise ValueError("delay_us is 0 or more")
        self._clk = clk
        self._dio = dio
        self._sleep = sleep_us
        self._delay = delay_us
        self._control = _DISPLAY_CTRL | _DISPLAY_ON | brightness
        self._held = bytearray(_GRIDS)  # what the registers hold, if self._known
        self._known = False
        self._writes = 0  # since the last refresh
        self.acked = True  # every byte of the last write was acknowledged
        self.naks = 0  # bytes not acknowledged since power-on (a module missing or miswired)
        dio.init(dio.OPEN_DRAIN, dio.PULL_UP, value=1)  # first: rising under a high CLK = stop
        clk.init(clk.OUT, value=1)
        self.write(bytearray(_GRIDS))  # blank: the registers hold noise after power-on

    def cost(self, data_bytes, control=False):
        """write_cost() at this module's delay."""
        return write_cost(data_bytes, control, self._delay)

    def _send(self, command, data, start, end):
        """One transaction: start, `command`, data[start:end], stop."""
        clk = self._clk
        dio = self._dio
        masks = _MASKS
        byte = command
        naks = 0
        delay = self._delay
        if delay:  # the same sequence twice, with and without the sleeps
            sleep = self._sleep
            dio(0)
            sleep(delay)
            clk(0)
            while True:
                for mask in masks:
                    dio(byte & mask)
                    sleep(delay)
                    clk(1)
                    sleep(delay)
                    clk(0)
                dio(1)  # let go: the chip pulls DIO low to acknowledge
                sleep(delay)
                clk(1)
                sleep(delay)
                if dio():
                    naks += 1
                clk(0)
                if start >= end:
                    break
                byte = data[start]
                start += 1
            dio(0)
            sleep(delay)
            clk(1)
            sleep(delay)
            dio(1)
            sleep(delay)
        else:
            dio(0)
            clk(0)
            while True:
                for mask in masks:
                    dio(byte & mask)
                    clk(1)
                    clk(0)
                dio(1)
                clk(1)
                if dio():
                    naks += 1
                clk(0)
                if start >= end:
                    break
                byte = data[start]
                start += 1
            dio(0)
            clk(1)
            dio(1)
        if naks:
            self.acked = False
            self.naks += naks
            self._known = False

    def _refresh(self, start, end):
        held = self._held
        self._send(_DATA_CMD, held, 0, 0)
        self._send(_ADDRESS_CMD | start, held, start, end)
        self._send(self._control, held, 0, 0)

    def brightness(self, level):
        if not 0 <= level <= 7:
            raise ValueError("brightness is 0..7")
        self._control = self._control & _DISPLAY_ON | _DISPLAY_CTRL | level
        self.acked = True
        self._send(self._control, self._held, 0, 0)

    def power(self, on):
        self._control = self._control & ~_DISPLAY_ON | (_DISPLAY_ON if on else 0)
        self.acked = True
        self._send(self._control, self._held, 0, 0)

    def write(self, segments, pos=0):
        """Segment bytes (bit 0 = a .. bit 6 = g, bit 7 = dot or colon) to grids pos, pos + 1...,
        all of them, with the data and control commands."""
        count = len(segments)
        if pos < 0 or pos + count > _GRIDS:
            raise ValueError("a TM1637 has six grids")
        held = self._held
        for i in range(count):
            held[pos + i] = segments[i]
        self.acked = True
        self._refresh(pos, pos + count)

    def update(self, frame, at=0):
        """Show frame[at:at + 4] on the four digits, sending what changed or a refresh (see the
        top). Returns the number of data bytes sent: 0 when nothing changed."""
        held = self._held
        first = -1
        last = 0
        for grid in range(DIGITS):
            byte = frame[at + grid]
            if byte != held[grid]:
                held[grid] = byte
                if first < 0:
                    first = grid
                last = grid
        self.acked = True
        if self._known:
            if first < 0:
                return 0
            if self._writes < REFRESH_EVERY - 1:
                self._writes += 1
                self._send(_ADDRESS_CMD | first, held, first, last + 1)
                return last + 1 - first
        self._writes = 0
        self._known = True  # unless a byte goes unacknowledged
        self._refresh(0, DIGITS)
        return DIGITS


class TwoModules:
    """Two four-digit modules as one display: show() takes an 8-byte frame (0..3 the left module,
    4..7 the right) and sends each module only what changed on it; a 9th byte, where there is
    one, is the brightness of both (ui/seg7.py's frames), sent when it changes."""

    def __init__(self, left, right):
        self.left = left
        self.right = right
        self._level = -1  # the 9th byte last shown

    def show(self, frame, dirty=None):
        """`dirty` (the OLED's changed windows) is ignored: each module finds its own changes.
        Returns the number of modules written, 0..2."""
        count = len(frame)
        if count != 2 * DIGITS and count != 2 * DIGITS + 1:
            raise ValueError("a frame is 8 bytes, or 9 with the brightness")
        left = right = False
        if count > 2 * DIGITS and frame[2 * DIGITS] != self._level:
            self._level = frame[2 * DIGITS]
            self.brightness(self._level)
            left = right = True
        if self.left.update(frame, 0):
            left = True
        if self.right.update(frame, DIGITS):
            right = True
        return left + right

    def brightness(self, level):
        self.left.brightness(level)
        self.right.brightness(level)

    def power(self, on):
        self.left.power(on)
        self.right.power(on)


def from_board(machine, board, sleep_us):
    """The board's two modules on their pins (ui/kinds.py: the driver of the "tm1637" kind)."""
    Pin = machine.Pin
    delay = getattr(board, "TM1637_DELAY_US", DELAY_US)
    left = Tm1637(Pin(board.TM1637_LEFT_CLK), Pin(board.TM1637_LEFT_DIO), sleep_us, delay_us=delay)
    right = Tm1637(
        Pin(board.TM1637_RIGHT_CLK), Pin(board.TM1637_RIGHT_DIO), sleep_us, delay_us=delay
    )
    return TwoModules(left, right)
