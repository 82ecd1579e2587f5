# SPDX-License-Identifier: MIT
# The OLED panels' protocol (SSD1306, SSD1309; the SH1106 by its own module): the frame, its
# windows, the commands and the power-on sequence; a transport leaf puts the bytes on its bus.
#
# As micropython-lib's ssd1306.py keeps the panel in one class and the bus in small leaves
# (write_cmd, write_data), OledPanel keeps what every bus shares: show() cuts the windows that
# changed to the glass and hands each to the leaf's _send_window(); init(), _send() (a command)
# and _send_window() are the leaf's: ssd1306.py on I2C (and ssd1306_dma.py, whose windows go by
# DMA), ssd1306_spi.py on 4-wire SPI. A leaf whose writes can fail calls _fail(): the panel is
# then taken as lost (`failing`, counted in `lost`), set up again by a later show() and sent the
# whole frame (`recovered`); health() says it for the app.
#
# A frame is 1024 bytes in the panel's own layout (framebuf.MONO_VLSB, 128x64): byte
# page * 128 + x holds the pixels (x, 8 * page) .. (x, 8 * page + 7), least significant bit on top.
# A window is columns x0..x1 of pages p0..p1. The panel runs in horizontal addressing mode, so
# after the column and page address commands it takes the window's bytes page row by page row:
# each row is a run of the frame, frame[page * 128 + x0 : page * 128 + x1 + 1]. copy_rows (viper
# on the board) puts the rows one after the other into the stage. Viper is machine code:
# mpy-cross compiles this module only with the board's -march=armv6m, as flash.sh,
# tests/run_all.sh and the firmware build give it.
import micropython
from micropython import const

try:
    ptr8  # viper's byte pointer: a name only MicroPython's compiler knows
except NameError:
    ptr8 = memoryview  # elsewhere copy_rows runs as plain Python: the annotations are names only

WIDTH = const(128)
HEIGHT = const(64)
PAGES = const(8)
FRAME_BYTES = const(1024)
_COMMANDS = const(0x00)  # control byte: Co = 0, D/C = 0, every following byte is a command
_DATA = const(0x40)  # control byte: Co = 0, D/C = 1, every following byte is display data

# Commands, by their datasheet names (SSD1306 rev 1.1, section 9; the SSD1309 and SH1106 share
# them, but for the charge pump and the addressing modes).
_SET_MEM_ADDR = const(0x20)  # addressing mode: 0 horizontal, 1 vertical, 2 page
_SET_COL_ADDR = const(0x21)  # horizontal/vertical mode: first and last column
_SET_PAGE_ADDR = const(0x22)  # horizontal/vertical mode: first and last page
_SET_SCROLL_OFF = const(0x2E)
_SET_DISP_START_LINE = const(0x40)  # | line 0..63
_SET_CONTRAST = const(0x81)
_SET_CHARGE_PUMP = const(0x8D)  # then 0x14 on, 0x10 off
_SET_SEG_REMAP = const(0xA0)  # | 1: column 127 on SEG0
_SET_ENTIRE_ON = const(0xA4)  # | 1: every pixel lit, whatever the RAM holds
_SET_NORM_INV = const(0xA6)  # | 1: inverted
_SET_MUX_RATIO = const(0xA8)
_SET_DISP = const(0xAE)  # | 1: on
_SET_COM_OUT_DIR = const(0xC0)  # | 8: scan from COM[N-1] to COM0
_SET_DISP_OFFSET = const(0xD3)
_SET_DISP_CLK_DIV = const(0xD5)
_SET_PRECHARGE = const(0xD9)
_SET_COM_PIN_CFG = const(0xDA)
_SET_VCOM_DESEL = const(0xDB)
_PUMP_ON = const(0x14)
CONTRAST = const(0xCF)  # the power-on contrast (_INIT)
SAVING_CONTRAST = const(0x30)  # power_save(True): a lit pixel draws about a quarter the current
# An SSD1309 (external VCC): its 2.42" pixels are 6.4 times the 0.96" panel's area and draw as
# much more, so on battery it takes half the SSD1306's contrast (measured by make bench-chip).
SAVING_CONTRAST_EXTERNAL = const(0x18)

# Datasheet power-on sequence for a 128x64 panel on the internal charge pump.
# fmt: off
_INIT = (
    _SET_DISP,  # display off while configuring
    _SET_DISP_CLK_DIV, 0x80,  # clock divide 1, oscillator frequency default
    _SET_MUX_RATIO, HEIGHT - 1,  # multiplex ratio: 64 lines
    _SET_DISP_OFFSET, 0x00,
    _SET_DISP_START_LINE | 0,
    _SET_CHARGE_PUMP, _PUMP_ON,  # no external VCC
    _SET_MEM_ADDR, 0x00,  # horizontal addressing: data runs along a page, then to the next
    _SET_SEG_REMAP | 1,  # column 127 on SEG0 (| 0 when flipped)
    _SET_COM_OUT_DIR | 8,  # COM scan from COM63 (| 0 when flipped)
    _SET_COM_PIN_CFG, 0x12,  # alternative configuration, as 128x64 modules are wired
    _SET_CONTRAST, CONTRAST,
    _SET_PRECHARGE, 0xF1,  # pre-charge 1 / discharge 15 clocks (internal VCC)
    _SET_VCOM_DESEL, 0x40,
    _SET_SCROLL_OFF,
    _SET_ENTIRE_ON,  # show the RAM contents
    _SET_NORM_INV,  # not inverted
    _SET_DISP | 1,  # display on
)
# fmt: on


@micropython.viper
def copy_rows(stage: ptr8, frame: ptr8, x0: int, width: int, p0: int, pages: int):
    """Copy columns x0 .. x0 + width - 1 of pages p0 .. p0 + pages - 1 of `frame`, row after row,
    into `stage` from its second byte (the first is the data control byte)."""
    at = 1
    row = p0 * WIDTH + x0
    end = row + pages * WIDTH
    while row < end:
        i = row
        last = row + width
        while i < last:
            stage[at] = frame[i]
            at += 1
            i += 1
        row += WIDTH


class OledPanel:
    """A 128x64 panel's protocol, its bus a leaf's (the leaf's __init__ calls _setup(), then
    init())."""

    def _setup(self, flip, external_vcc, stage):
        """What every transport keeps: the stage for `stage` bytes of a window, the window's and
        the power-on commands (each behind the I2C control byte: SPI sends what follows it), what
        the panel shows, the counts of its faults."""
        self._stage = bytearray(1 + stage)
        self._stage[0] = _DATA
        self._stage_bytes = stage
        self._sizes = {}  # bytes of a window -> the stage's first 1 + bytes, as a memoryview
        self._window = bytearray((_COMMANDS, _SET_COL_ADDR, 0, WIDTH - 1, _SET_PAGE_ADDR, 0, 0))
        self._command = bytearray(3)
        self._saving = SAVING_CONTRAST_EXTERNAL if external_vcc else SAVING_CONTRAST
        sequence = self._sequence(flip, external_vcc)
        self._init = bytearray(1 + len(sequence))
        self._init[0] = _COMMANDS
        self._init[1:] = bytes(sequence)
        # The contrast and display on/off as last set: a panel set up again gets them back.
        self._contrast_at = 2 + sequence.index(_SET_CONTRAST)
        self._ready = False  # configured; False again after a failed write
        self._known = False  # the panel surely shows the last frame sent
        self._frame = None
        self.failing = False  # a write failed and the panel has not been set up since
        self.errors = 0  # writes that failed (the whole frame goes out once one gets through)
        self.lost = 0  # times the panel stopped taking writes
        self.recovered = 0  # times it was set up again after that
        self.sent = 0  # bytes on the bus by show() since power-on, address bytes included

    def health(self):
        """(whether the panel took the last writes, times lost, times recovered, failed
        writes): for the app's serial state and the hall."""
        return not self.failing, self.lost, self.recovered, self.errors

    def _fail(self, error):
        """A write failed: the panel is set up again and sent whole by a later show()."""
        self.errors += 1
        self._known = False
        self._ready = False
        if not self.failing:
            self.failing = True
            self.lost += 1

    def _sequence(self, flip, external_vcc):
        """The power-on commands, as a list."""
        sequence = list(_INIT)
        if flip:
            sequence[sequence.index(_SET_SEG_REMAP | 1)] = _SET_SEG_REMAP
            sequence[sequence.index(_SET_COM_OUT_DIR | 8)] = _SET_COM_OUT_DIR
        if external_vcc:
            at = sequence.index(_SET_CHARGE_PUMP)
            del sequence[at : at + 2]
            sequence[sequence.index(_SET_PRECHARGE) + 1] = 0x22  # 2 + 2 clocks (SSD1309 reset)
            sequence[sequence.index(_SET_VCOM_DESEL) + 1] = 0x34  # 0.78 x VCC (SSD1309 reset)
        return sequence

    def invalidate(self):
        self._known = False

    def contrast(self, level):
        if not 0 <= level <= 255:
            raise ValueError("contrast is 0..255")
        self._init[self._contrast_at] = level
        self._send(3, _SET_CONTRAST, level)

    def power(self, on):
        """Display on or off (sleep: the panel keeps its RAM; the charge pump stops)."""
        self._init[len(self._init) - 1] = _SET_DISP | 1 if on else _SET_DISP  # the last command
        self._send(2, _SET_DISP | 1 if on else _SET_DISP)

    def power_save(self, on):
        """A dimmer face on battery: a lit pixel's segment current follows the contrast (SSD1306
        datasheet, Set Contrast Control), so SAVING_CONTRAST draws about 0x30 / 0xCF of it
        (an SSD1309's SAVING_CONTRAST_EXTERNAL 0x18 / 0xCF)."""
        self.contrast(self._saving if on else CONTRAST)

    def show(self, frame, dirty=None):
        """Send what changed of `frame`: the windows listed in `dirty` (an object with `count`,
        `boxes` = x0, x1, p0, p1 per window, `whole` and `clear()`, which show() calls once they
        are sent), or the whole frame when `dirty` is None or whole, or after a bus error.
        Returns the bytes it put on the bus."""
        if (frame is not self._frame or not self._ready) and not self._begin(frame):
            return 0
        sent = 0
        if dirty is None or dirty.whole or not self._known:
            self._known = True
            sent = self._send_window(0, WIDTH - 1, 0, PAGES - 1)
            if sent < 0:
                sent = 0
        else:
            boxes = dirty.boxes
            for i in range(0, 4 * dirty.count, 4):
                # copy_rows checks no bounds on the board: a window is cut to the glass first.
                x1 = boxes[i + 1]
                p1 = boxes[i + 3]
                if x1 >= WIDTH:
                    x1 = WIDTH - 1
                if p1 >= PAGES:
                    p1 = PAGES - 1
                if boxes[i] <= x1 and boxes[i + 2] <= p1:
                    done = self._send_window(boxes[i], x1, boxes[i + 2], p1)
                    if done < 0:
                        break  # failed: the rest would fail too, each after its timeout
                    sent += done
        if dirty is not None:
            dirty.clear()
        self.sent += sent
        return sent

    def _begin(self, frame):
        """Take `frame` if it is a new one (1024 bytes, else ValueError) and configure a panel
        not ready yet; False if it still does not answer. show() calls it only then."""
        if frame is not self._frame:
            if len(frame) != FRAME_BYTES:
                raise ValueError("a frame is 1024 bytes")
            self._frame = frame
        if not self._ready:
            self.init()
        return self._ready

    def _data(self, size):
        """The control byte and `size` bytes of the stage, to send."""
        data = memoryview(self._stage)[: 1 + size]
        self._sizes[size] = data
        return data
