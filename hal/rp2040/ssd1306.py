# SPDX-License-Identifier: MIT
# Our own SSD1306 128x64 OLED driver over I2C: the I2C leaf of oled_panel.py's protocol; show()
# sends only the windows that changed.
#
# Not micropython-lib's ssd1306.py: that one sends the whole 1 KB on every show().
#
# copy_rows (oled_panel.py) puts a window's rows one after the other behind the data control byte,
# and one I2C write sends them. One window costs two writes: 8 bytes of commands (address byte
# included) and 2 + w * pages bytes of data, each byte 9 clocks: at 400 kHz a 12 x 32 digit is
# 58 bytes, 1.3 ms. (framebuf's blit did the copy before: on the RP2040 it takes 1 us a pixel,
# 2.1 ms for a half's time, where copy_rows takes a few microseconds.)
#
# No allocation once a window size was seen: the bytes to send are a memoryview over the start of
# one shared buffer, made once per size and kept.
#
# A display that fails (a write not acknowledged: unplugged, dead; a line of the bus held low;
# machine.I2C's timeout) costs the loop one failed write: the show stops there, and the panel is
# taken as lost (`lost` counts the times). Each later show() tries again, first asking the bus's
# lines (i2c_lines.py) whether a write could get through: a line still held costs a word's read,
# a held SDA gets the bus clear, a block left halfway through a transfer is made again; then the
# panel is set up from its power-on sequence (a panel plugged back in has forgotten it) and sent
# the whole frame (`recovered` counts the times it came back). health() says all of it.
from micropython import const

# The protocol's names, which the other leaves and the tests take from here too.
from hal.rp2040.oled_panel import (  # noqa: F401
    CONTRAST,
    FRAME_BYTES,
    HEIGHT,
    PAGES,
    SAVING_CONTRAST,
    SAVING_CONTRAST_EXTERNAL,
    WIDTH,
    OledPanel,
    copy_rows,
)

WINDOW_COMMAND_BYTES = const(8)  # I2C address, control byte, 0x21 x0 x1 0x22 p0 p1
WINDOW_DATA_OVERHEAD = const(2)  # I2C address, data control byte
_STAGE = const(256)  # the largest window sent in one piece; a larger one goes page by page
_ETIMEDOUT = const(110)  # machine.I2C's timeout ran out: SCL held, a transfer stopped halfway
_SCL_HELD = const(2)  # i2c_lines.SCL_HELD
# machine.I2C's bound on one write: the longest, 258 bytes, is 5.8 ms at 400 kHz
I2C_TIMEOUT_US = const(15000)
_COMMANDS = const(0x00)  # control byte: Co = 0, D/C = 0, every following byte is a command


def window_bytes(x0, x1, p0, p1):
    """Bytes on the bus (address bytes included) that show() spends on window x0..x1, p0..p1."""
    width = x1 - x0 + 1
    pages = p1 - p0 + 1
    if width * pages > _STAGE:
        return pages * (WINDOW_COMMAND_BYTES + WINDOW_DATA_OVERHEAD + width)
    return WINDOW_COMMAND_BYTES + WINDOW_DATA_OVERHEAD + width * pages


class Ssd1306(OledPanel):
    """128x64 SSD1306 on an injected machine.I2C at `address`. `external_vcc`: the panel's
    module makes its own VCC, as an SSD1309 2.42" one does: that chip has no charge pump, so the
    command is not sent, and pre-charge and VCOMH are set for an external supply. `lines`: the
    bus's I2cLines (i2c_lines.py), or a function that makes them at the first failure (a clock
    whose panel never fails holds none); None: a failed panel is simply tried again."""

    def __init__(self, i2c, address=0x3C, flip=False, external_vcc=False, lines=None):
        self._i2c = i2c
        self._writeto = i2c.writeto  # bound once: taking a bound method allocates
        self._address = address
        self._lines = lines
        self._stale = False  # a transfer stopped halfway: the I2C block is to be made again
        self._setup(flip, external_vcc, _STAGE)
        self.init()

    def _fail(self, error):
        if error.args and error.args[0] == _ETIMEDOUT:
            self._stale = True
        OledPanel._fail(self, error)

    def _bus_free(self):
        """After a failure: whether a write could get through now. A held SCL is left alone
        (nothing from the master frees it); a held SDA gets the bus clear; a block that stopped
        halfway through a transfer is made again."""
        lines = self._bus_lines()
        if lines is None:
            return True
        held = lines.held()
        if held & _SCL_HELD:
            self._stale = True
            return False
        if held or self._stale:
            self._stale = False
            if lines.clear():
                return False
            self._bus_made()
        return True

    def _bus_lines(self):
        """The bus's I2cLines, made now if only their maker was given; or None."""
        lines = self._lines
        if lines is not None and not hasattr(lines, "held"):
            lines = self._lines = lines()
        return lines

    def _bus_made(self):
        """The I2C block was made again (its registers reset)."""

    def init(self):
        """(Re)configure the panel and forget what it shows: the next show() sends every page.
        A panel that does not answer is tried again by the next show()."""
        self._known = False
        if self.failing and not self._bus_free():
            self._ready = False
            return
        try:
            self._i2c.writeto(self._address, self._init)
        except OSError as error:
            self._fail(error)
            return
        self._ready = True
        if self.failing:
            self.failing = False
            self.recovered += 1

    def _send(self, count, command, argument=0):
        if self.failing:
            return  # the panel is set up whole, the contrast and power included, once back
        buf = self._command
        buf[0] = _COMMANDS
        buf[1] = command
        buf[2] = argument
        try:
            self._i2c.writeto(self._address, memoryview(buf)[:count])
        except OSError as error:
            self._fail(error)

    def _send_window(self, x0, x1, p0, p1):
        """Send columns x0..x1 of pages p0..p1, a window on the glass (show() cut it); the bytes
        it put on the bus, or -1 when a write failed."""
        width = x1 - x0 + 1
        pages = p1 - p0 + 1
        size = width * pages
        if size > self._stage_bytes:
            sent = 0
            for page in range(p0, p1 + 1):
                done = self._send_window(x0, x1, page, page)
                if done < 0:
                    return -1
                sent += done
            return sent
        data = self._sizes.get(size)
        if data is None:
            data = self._data(size)
        copy_rows(self._stage, self._frame, x0, width, p0, pages)
        command = self._window
        command[2] = x0
        command[3] = x1
        command[5] = p0
        command[6] = p1
        try:
            self._writeto(self._address, command)
            self._writeto(self._address, data)
        except OSError as error:
            self._fail(error)  # a fault on the bus must not stop the clock
            return -1
        return WINDOW_COMMAND_BYTES + 1 + len(data)


def board_i2c(machine, board):
    """The I2C bus on the board's OLED pins; a write waits I2C_TIMEOUT_US at most (at 400 kHz;
    as much longer as a slower bus takes) where rp2's default is 50 ms."""
    Pin = machine.Pin
    return machine.I2C(
        board.I2C_ID,
        scl=Pin(board.I2C_SCL),
        sda=Pin(board.I2C_SDA),
        freq=board.I2C_FREQ,
        timeout=I2C_TIMEOUT_US * 400000 // board.I2C_FREQ,
    )


def board_lines(machine, board, sleep_us):
    """A function that makes the lines of the board's display bus (i2c_lines.py, which make the
    bus again): a driver calls it at its panel's first failure, so a healthy clock never
    imports them."""

    def make():
        from hal.rp2040 import i2c_lines

        return i2c_lines.for_board(machine, board, sleep_us, lambda: board_i2c(machine, board))

    return make


def from_board(machine, board, sleep_us):
    """The board's panel on its I2C pins (ui/kinds.py: the driver of the "oled" kind on I2C)."""
    i2c = board_i2c(machine, board)
    return Ssd1306(i2c, board.OLED_ADDRESS, lines=board_lines(machine, board, sleep_us))
