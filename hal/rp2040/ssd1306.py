# Our own SSD1306 128x64 OLED driver over I2C: show(frame) sends only the pages that changed.
#
# Not micropython-lib's ssd1306.py: that one subclasses framebuf.FrameBuffer and sends the whole
# 1 KB on every show(), and neither it nor framebuf installs on the CPython test host.
#
# A frame is 1024 bytes in the panel's own layout (framebuf.MONO_VLSB, 128x64): byte
# page * 128 + x holds the pixels (x, 8 * page) .. (x, 8 * page + 7), least significant bit on top.
# One changed page costs two I2C writes: 8 bytes of addressing commands and 130 bytes of data
# (address and control bytes included), 138 * 9 bits ~ 3.1 ms at 400 kHz; a full frame ~ 25 ms.
from micropython import const

WIDTH = const(128)
HEIGHT = const(64)
PAGES = const(8)
FRAME_BYTES = const(1024)
_SPAN = const(129)  # per page: the data control byte, then 128 columns
_COMMANDS = const(0x00)  # control byte: Co = 0, D/C = 0, every following byte is a command
_DATA = const(0x40)  # control byte: Co = 0, D/C = 1, every following byte is display data

# Datasheet power-on sequence for a 128x64 panel on the internal charge pump.
# fmt: off
_INIT = (
    0xAE,  # display off while configuring
    0xD5, 0x80,  # clock divide 1, oscillator frequency default
    0xA8, 0x3F,  # multiplex ratio: 64 lines
    0xD3, 0x00,  # display offset 0
    0x40,  # start line 0
    0x8D, 0x14,  # charge pump on (no external VCC)
    0x20, 0x00,  # horizontal addressing: data runs along a page, then to the next
    0xA1,  # segment remap: column 127 on SEG0 (0xA0 when flipped)
    0xC8,  # COM scan from COM63 (0xC0 when flipped)
    0xDA, 0x12,  # COM pins: alternative configuration, as 128x64 modules are wired
    0x81, 0xCF,  # contrast
    0xD9, 0xF1,  # pre-charge 1 / discharge 15 clocks (internal VCC)
    0xDB, 0x40,  # VCOMH deselect level
    0x2E,  # no scrolling
    0xA4,  # show the RAM contents
    0xA6,  # not inverted
    0xAF,  # display on
)
# fmt: on


class Ssd1306:
    """128x64 SSD1306 on an injected machine.I2C at `address`. show() allocates nothing once it
    has seen the frame buffer (it keeps views of the last frame object it was given)."""

    def __init__(self, i2c, address=0x3C, flip=False):
        self._i2c = i2c
        self._address = address
        # What the panel holds, page by page, each page led by the data control byte so that it
        # goes out in one write straight from this buffer.
        self._held = bytearray(PAGES * _SPAN)
        held = memoryview(self._held)
        self._sends = []
        self._pages = []
        for page in range(PAGES):
            self._held[page * _SPAN] = _DATA
            self._sends.append(held[page * _SPAN : page * _SPAN + _SPAN])
            self._pages.append(held[page * _SPAN + 1 : page * _SPAN + _SPAN])
        self._known = bytearray(PAGES)  # 1 where the panel surely shows _pages[page]
        self._address_page = bytearray((_COMMANDS, 0x21, 0, WIDTH - 1, 0x22, 0, 0))
        self._command = bytearray(3)
        self._init = bytearray(1 + len(_INIT))
        self._init[0] = _COMMANDS
        self._init[1:] = bytes(_INIT)
        if flip:
            self._init[1 + _INIT.index(0xA1)] = 0xA0
            self._init[1 + _INIT.index(0xC8)] = 0xC0
        self._ready = False  # configured; False again after a failed init()
        self._frame = None
        self._frame_pages = None
        self.errors = 0  # I2C writes that failed (the pages are sent again on the next show)
        self.init()

    def init(self):
        """(Re)configure the panel and forget what it shows: the next show() sends every page.
        A panel that does not answer is tried again by the next show()."""
        self.invalidate()
        try:
            self._i2c.writeto(self._address, self._init)
        except OSError:
            self.errors += 1
            self._ready = False
            return
        self._ready = True

    def invalidate(self):
        for page in range(PAGES):
            self._known[page] = 0

    def _send(self, count, command, argument=0):
        buf = self._command
        buf[0] = _COMMANDS
        buf[1] = command
        buf[2] = argument
        try:
            self._i2c.writeto(self._address, memoryview(buf)[:count])
        except OSError:
            self.errors += 1

    def contrast(self, level):
        if not 0 <= level <= 255:
            raise ValueError("contrast is 0..255")
        self._send(3, 0x81, level)

    def power(self, on):
        """Display on or off (sleep: the panel keeps its RAM; the charge pump stops)."""
        self._send(2, 0xAF if on else 0xAE)

    def _adopt(self, frame):
        if len(frame) != FRAME_BYTES:
            raise ValueError("a frame is 1024 bytes")
        view = memoryview(frame)
        self._frame_pages = [view[p * WIDTH : p * WIDTH + WIDTH] for p in range(PAGES)]
        self._frame = frame

    def show(self, frame):
        """Send the pages of `frame` that differ from what the panel shows; return how many."""
        if frame is not self._frame:
            self._adopt(frame)
        if not self._ready:
            self.init()
            if not self._ready:
                return 0
        i2c = self._i2c
        address = self._address
        command = self._address_page
        known = self._known
        sent = 0
        for page in range(PAGES):
            source = self._frame_pages[page]
            held = self._pages[page]
            if known[page] and source == held:
                continue
            held[:] = source
            command[5] = page
            command[6] = page
            known[page] = 0
            try:
                i2c.writeto(address, command)
                i2c.writeto(address, self._sends[page])
            except OSError:
                self.errors += 1  # a glitch on the bus must not stop the clock
                continue
            known[page] = 1
            sent += 1
        return sent
