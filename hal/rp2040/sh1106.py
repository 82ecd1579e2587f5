# SPDX-License-Identifier: MIT
# Our own SH1106 driver (1.3" 128x64 OLED modules): the SSD1306 driver with the SH1106's RAM.
#
# The SH1106 (datasheet V2.3) has 132 columns of RAM for a 128-column glass: the modules show
# RAM columns 2..129, so every column address is the frame's x + COLUMN_OFFSET. It has page
# addressing only (no SSD1306 0x20/0x21/0x22): a window goes out page by page, each page as
# set-page and set-column (low and high nibble) commands, then the page's columns of data; the
# column pointer advances along the page and never wraps to the next. Its charge pump is the
# DC-DC command 0xAD 0x8B (the SSD1306's 0x8D is not a command here).
# Per page of a window: 5 bytes of commands (address byte included) and 2 + w bytes of data.
import micropython
from micropython import const

from hal.rp2040.ssd1306 import Ssd1306, board_i2c, board_lines, copy_rows
from hal.rp2040.ssd1306_dma import Ssd1306Dma

try:
    ptr8  # viper's pointers: names only MicroPython's compiler knows
except NameError:
    ptr8 = ptr16 = memoryview  # elsewhere stage_pages runs as plain Python

COLUMN_OFFSET = const(2)
PAGE_COMMAND_BYTES = const(5)  # I2C address, control byte, page, column low, column high
_PAGE_WORDS = const(5)  # by DMA, per page: 00 page low high, then the data control byte 40
_COLUMNS = const(128)  # the frame's width, as a constant viper can use
_STOP = const(0x200)  # IC_DATA_CMD: a STOP after this byte (ssd1306_dma.STOP)
_COMMANDS = const(0x00)
_SET_LOW_COLUMN = const(0x00)  # | the column's low nibble
_SET_HIGH_COLUMN = const(0x10)  # | the column's high nibble
_SET_DISP_START_LINE = const(0x40)
_SET_CONTRAST = const(0x81)
_SET_SEG_REMAP = const(0xA0)
_SET_ENTIRE_ON = const(0xA4)
_SET_NORM_INV = const(0xA6)
_SET_MUX_RATIO = const(0xA8)
_SET_DC_DC = const(0xAD)  # then 0x8B: the DC-DC converter on
_SET_DISP = const(0xAE)
_SET_PAGE = const(0xB0)  # | page 0..7
_SET_COM_OUT_DIR = const(0xC0)
_SET_DISP_OFFSET = const(0xD3)
_SET_DISP_CLK_DIV = const(0xD5)
_SET_PRECHARGE = const(0xD9)
_SET_COM_PIN_CFG = const(0xDA)
_SET_VCOM_DESEL = const(0xDB)

# fmt: off
_INIT = (
    _SET_DISP,  # display off while configuring
    _SET_DISP_CLK_DIV, 0x80,
    _SET_MUX_RATIO, 0x3F,  # 64 lines
    _SET_DISP_OFFSET, 0x00,
    _SET_DISP_START_LINE | 0,
    _SET_DC_DC, 0x8B,  # the module's own charge pump on
    _SET_SEG_REMAP | 1,  # (| 0 when flipped)
    _SET_COM_OUT_DIR | 8,  # (| 0 when flipped)
    _SET_COM_PIN_CFG, 0x12,
    _SET_CONTRAST, 0xCF,
    _SET_PRECHARGE, 0x22,  # the SH1106's reset value
    _SET_VCOM_DESEL, 0x35,  # the SH1106's reset value
    _SET_ENTIRE_ON,
    _SET_NORM_INV,
    _SET_DISP | 1,
)
# fmt: on


def window_bytes(x0, x1, p0, p1):
    """Bytes on the bus (address bytes included) that show() spends on window x0..x1, p0..p1."""
    return (p1 - p0 + 1) * (PAGE_COMMAND_BYTES + 2 + x1 - x0 + 1)


class Sh1106(Ssd1306):
    """128x64 SH1106 on an injected machine.I2C at `address` (show(), contrast(), power() and
    the frame as the Ssd1306 takes them)."""

    def __init__(self, i2c, address=0x3C, flip=False, lines=None):
        self._page = bytearray((_COMMANDS, _SET_PAGE, _SET_LOW_COLUMN, _SET_HIGH_COLUMN))
        super().__init__(i2c, address, flip, lines=lines)

    def _sequence(self, flip, external_vcc):
        sequence = list(_INIT)
        if flip:
            sequence[sequence.index(_SET_SEG_REMAP | 1)] = _SET_SEG_REMAP
            sequence[sequence.index(_SET_COM_OUT_DIR | 8)] = _SET_COM_OUT_DIR
        return sequence

    def _send_window(self, x0, x1, p0, p1):
        width = x1 - x0 + 1
        data = self._sizes.get(width)
        if data is None:
            data = self._data(width)
        command = self._page
        column = x0 + COLUMN_OFFSET
        command[2] = _SET_LOW_COLUMN | column & 0x0F
        command[3] = _SET_HIGH_COLUMN | column >> 4
        writeto = self._writeto
        address = self._address
        sent = 0
        for page in range(p0, p1 + 1):
            copy_rows(self._stage, self._frame, x0, width, page, 1)
            command[1] = _SET_PAGE | page
            try:
                writeto(address, command)
                writeto(address, data)
            except OSError as error:
                self._fail(error)
                return -1
            sent += PAGE_COMMAND_BYTES + 1 + len(data)
        return sent


@micropython.viper
def stage_pages(stage: ptr16, at: int, frame: ptr8, x0: int, x1: int, p0: int, p1: int) -> int:
    """Write window x0..x1, p0..p1 of `frame` into `stage` from word `at` as IC_DATA_CMD words
    (ssd1306_dma.py): per page, its commands and its data, each a transaction ended by a STOP.
    Return the word after them."""
    column = x0 + COLUMN_OFFSET
    page = p0
    while page <= p1:
        stage[at] = 0x00  # control byte: commands follow
        stage[at + 1] = 0xB0 | page
        stage[at + 2] = column & 0x0F
        stage[at + 3] = 0x10 | column >> 4 | _STOP
        stage[at + 4] = 0x40  # control byte: display data follows
        at += _PAGE_WORDS
        i = page * _COLUMNS + x0
        last = page * _COLUMNS + x1
        while i <= last:
            stage[at] = frame[i]
            at += 1
            i += 1
        stage[at - 1] = stage[at - 1] | _STOP
        page += 1
    return at


class Sh1106Dma(Ssd1306Dma):
    """The Sh1106 with its pages written by DMA (Ssd1306Dma's send(), wait() and show(); the
    Sh1106's page writes when it falls back to blocking ones)."""

    PAGE_WORDS = _PAGE_WORDS
    _sequence = Sh1106._sequence
    _send_window = Sh1106._send_window

    def __init__(
        self, i2c, dma, mem32, i2c_id=0, address=0x3C, flip=False, lines=None, freq=400000
    ):
        self._page = bytearray((_COMMANDS, _SET_PAGE, _SET_LOW_COLUMN, _SET_HIGH_COLUMN))
        super().__init__(i2c, dma, mem32, i2c_id, address, flip, lines=lines, freq=freq)
        self._stager = stage_pages


def from_board(machine, board, sleep_us):
    """The board's SH1106 on its I2C pins, fed by DMA where the port has rp2.DMA."""
    i2c = board_i2c(machine, board)
    lines = board_lines(machine, board, sleep_us)
    try:
        from rp2 import DMA
    except ImportError:
        return Sh1106(i2c, board.OLED_ADDRESS, lines=lines)
    return Sh1106Dma(
        i2c,
        DMA(),
        machine.mem32,
        board.I2C_ID,
        board.OLED_ADDRESS,
        lines=lines,
        freq=board.I2C_FREQ,
    )
