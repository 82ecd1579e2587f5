# SPDX-License-Identifier: MIT
# The SSD1306 / SSD1309 driver on 4-wire SPI: the SPI leaf of oled_panel.py's protocol, its
# windows sent with D/C and CS pins.
#
# 4-wire SPI (SSD1306 datasheet 8.1.3; the SSD1309's is the same): while CS is low, the panel
# takes each byte as a command when D/C is low and as display data when D/C is high (it samples
# D/C at the byte's last bit; machine.SPI.write returns once the last bit is out). There are no
# control bytes and no address, and nothing answers: a write cannot fail, so `errors` stays 0.
# A window costs 6 command bytes and w x pages bytes of data, 8 clocks each: at 8 MHz a 12 x 32
# digit is 54 bytes, 54 us, and the whole frame 1030 bytes, 1.03 ms. The stage takes a whole
# frame (1 KB, where the I2C driver keeps 256 bytes), so every window goes in one write.
# Like the I2C driver it allocates nothing once a window size was seen.
from micropython import const

from hal.rp2040.oled_panel import FRAME_BYTES, OledPanel, copy_rows

WINDOW_COMMAND_BYTES = const(6)  # 0x21 x0 x1 0x22 p0 p1
RESET_US = const(10)  # RES low, then high before the first command: the datasheets ask 3 us


def window_bytes(x0, x1, p0, p1):
    """Bytes on the SPI bus that show() spends on window x0..x1, p0..p1."""
    return WINDOW_COMMAND_BYTES + (x1 - x0 + 1) * (p1 - p0 + 1)


class Ssd1306Spi(OledPanel):
    """128x64 SSD1306 (or SSD1309, `external_vcc`) on an injected machine.SPI, with its D/C and
    CS lines on injected output Pins and, where wired, RES (then `sleep_us` times the reset
    pulse). show(), contrast(), power() and the frame as the protocol (OledPanel) takes them."""

    def __init__(
        self, spi, dc, cs, res=None, sleep_us=None, flip=False, external_vcc=False, baudrate=0
    ):
        self._write = spi.write  # bound once: taking a bound method allocates
        self._spi = spi
        self._baudrate = baudrate  # asked again at the first wake() (0: never)
        self._dc = dc.value
        self._cs = cs.value
        self._cs(1)
        self._dc(0)
        self._setup(flip, external_vcc, FRAME_BYTES)
        # The protocol's buffers less their I2C control byte: SPI has none.
        self._window_commands = memoryview(self._window)[1:]
        self._power_on = memoryview(self._init)[1:]
        self._one = memoryview(self._command)[1:2]
        self._two = memoryview(self._command)[1:3]
        if res is not None:
            res.value(0)
            sleep_us(RESET_US)
            res.value(1)
            sleep_us(RESET_US)
        self.init()

    def init(self):
        """(Re)configure the panel; the next show() sends every page."""
        self._known = False
        self._commands(self._power_on)
        self._ready = True

    def wake(self):
        """After the first light sleep or dormant spell (hal/rp2040/sleeper.py): MicroPython
        v1.28.0 brings clk_peri back at 125 MHz where the boot set 48 MHz, leaving the bus's
        divider as it was, so the bus would run 2.6 times faster than the panel takes. Asking
        for the rate again works the divider out from 125 MHz; clk_peri stays there after."""
        if self._baudrate:
            self._spi.init(baudrate=self._baudrate)
            self._baudrate = 0

    def _commands(self, buf):
        self._dc(0)
        self._cs(0)
        self._write(buf)
        self._cs(1)

    def _send(self, count, command, argument=0):
        buf = self._command
        buf[1] = command
        buf[2] = argument
        self._commands(self._one if count == 2 else self._two)

    def _send_window(self, x0, x1, p0, p1):
        """Send columns x0..x1 of pages p0..p1, a window on the glass (show() cut it)."""
        width = x1 - x0 + 1
        pages = p1 - p0 + 1
        size = width * pages
        data = self._sizes.get(size)
        if data is None:
            data = self._data(size)
        copy_rows(self._stage, self._frame, x0, width, p0, pages)
        command = self._window
        command[2] = x0
        command[3] = x1
        command[5] = p0
        command[6] = p1
        dc = self._dc
        cs = self._cs
        dc(0)
        cs(0)
        self._write(self._window_commands)
        dc(1)
        self._write(data)
        cs(1)
        return WINDOW_COMMAND_BYTES + size

    def _data(self, size):
        """`size` bytes of the stage (after its first, the I2C control byte), to send."""
        data = memoryview(self._stage)[1 : 1 + size]
        self._sizes[size] = data
        return data


def board_spi(machine, board):
    """The SPI bus on the board's OLED pins. miso=None: rp2's SPI would otherwise take its default
    MISO pin (GP16 on SPI0, a button here)."""
    Pin = machine.Pin
    return machine.SPI(
        board.SPI_ID,
        baudrate=board.SPI_FREQ,
        polarity=0,
        phase=0,
        sck=Pin(board.SPI_SCK),
        mosi=Pin(board.SPI_MOSI),
        miso=None,
    )


def board_pins(machine, board):
    """The D/C, CS and RES (None when not wired) pins, outputs; CS high: the panel deselected."""
    Pin = machine.Pin
    res = getattr(board, "OLED_RES", None)
    return (
        Pin(board.OLED_DC, Pin.OUT, value=0),
        Pin(board.OLED_CS, Pin.OUT, value=1),
        None if res is None else Pin(res, Pin.OUT, value=1),
    )


def from_board(machine, board, sleep_us, external_vcc=False):
    """The board's SSD1306 (or, with `external_vcc`, SSD1309) on its SPI pins (ui/kinds.py: the
    driver of the "oled" kind on SPI)."""
    dc, cs, res = board_pins(machine, board)
    spi = board_spi(machine, board)
    return Ssd1306Spi(
        spi, dc, cs, res, sleep_us, external_vcc=external_vcc, baudrate=board.SPI_FREQ
    )
