# SPDX-License-Identifier: MIT
# Drawing on the 128x64 OLED frame with MicroPython's C `framebuf`: 5x7 text, 7-segment digits.
#
# The frame is the SSD1306's own layout (framebuf.MONO_VLSB): byte page * 128 + x holds the
# pixels (x, 8 * page) .. (x, 8 * page + 7), bit 0 on top. Every pixel is set by framebuf in C;
# Python only chooses rectangles and glyphs, so a frame change costs a few calls, not a loop
# over 1024 bytes. Nothing here allocates once a Canvas exists (menus pass str and do).
import framebuf
from micropython import const

from ui import font

WIDTH = const(128)
HEIGHT = const(64)
SIZE = const(1024)
_GLYPH_COUNT = const(95)  # font.FIRST .. font.LAST


def pixel(frame, x, y):
    """1 if pixel (x, y) of a frame is lit, else 0 (0 off the screen). For tests and the
    simulator's pictures: a plain read of the bytes, no framebuf needed."""
    if x < 0 or y < 0 or x >= WIDTH or y >= HEIGHT:
        return 0
    return frame[(y >> 3) * WIDTH + x] >> (y & 7) & 1


def text_width(count):
    """Pixels taken by `count` characters of the 5x7 font (no trailing gap)."""
    return count * font.ADVANCE - 1 if count > 0 else 0


def big_width(code, w, t):
    """Width of a large character: ':' and '.' are `t` wide, everything else `w`."""
    return t if code == 58 or code == 46 else w


def big_text_width(chars, start, end, w, t, gap):
    """Width of Canvas.big_text() for the same arguments (a 0 byte ends the text)."""
    width = 0
    for i in range(start, end):
        c = chars[i]
        if c == 0:
            break
        if width:
            width += gap
        width += big_width(c, w, t)
    return width


class Canvas:
    """Draws on `frame` (bytearray(SIZE)). `fb` is the framebuf.FrameBuffer over it, for the
    plain shapes: fill, fill_rect, hline, vline, pixel."""

    def __init__(self, frame):
        self.frame = frame
        self.fb = framebuf.FrameBuffer(frame, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        self.fill_rect = self.fb.fill_rect  # bound once: taking a bound method allocates
        # All glyphs side by side, read in place from the font's bytes; one glyph is cut out by
        # blitting the strip into a glyph-sized buffer (blit clips to its target).
        self._strip = (font.GLYPHS, _GLYPH_COUNT * font.WIDTH, 8, framebuf.MONO_VLSB)
        self._glyph = framebuf.FrameBuffer(bytearray(font.WIDTH), font.WIDTH, 8, 0)
        # Palette for dark text on a lit ground: glyph ink 1 -> 0, ground 0 -> 1 (then skipped).
        self._dark = framebuf.FrameBuffer(bytearray((0x80,)), 2, 1, framebuf.MONO_HLSB)

    def clear(self, on=0):
        self.fb.fill(on)

    def char(self, x, y, code, on=1):
        """Draw the 5x7 glyph of character code `code` with its top left at (x, y); return the
        x where the next character goes. Only glyph pixels are drawn: lit (on=1) or dark."""
        if code < font.FIRST or code > font.LAST:
            code = 63  # "?"
        glyph = self._glyph
        glyph.blit(self._strip, (font.FIRST - code) * font.WIDTH, 0)
        if on:
            self.fb.blit(glyph, x, y, 0)
        else:
            self.fb.blit(glyph, x, y, 1, self._dark)
        return x + font.ADVANCE

    def text(self, x, y, chars, start=0, end=-1, on=1):
        """Draw chars[start:end] (bytes or bytearray; a str allocates on MicroPython, so only for
        menus) in the 5x7 font; a 0 byte ends the text. Return the x after the last character.
        char() for each, inline: a call per character is most of the cost."""
        if end < 0:
            end = len(chars)
        glyph = self._glyph
        strip = self._strip
        fb = self.fb
        dark = self._dark
        for i in range(start, end):
            c = chars[i]
            if type(c) is not int:
                c = ord(c)
            if c == 0:
                break
            if c < font.FIRST or c > font.LAST:
                c = 63  # "?"
            glyph.blit(strip, (font.FIRST - c) * font.WIDTH, 0)
            if on:
                fb.blit(glyph, x, y, 0)
            else:
                fb.blit(glyph, x, y, 1, dark)
            x += font.ADVANCE
        return x

    def big_char(self, x, y, code, w, h, t, on=1):
        """Draw character code `code` as 7-segment bars of thickness t in a w x h box at (x, y):
        digits and the letters of the 7-segment alphabet, ':' as two t x t dots, '.' as one.
        Only the lit bars are drawn. Return its width."""
        fill_rect = self.fill_rect
        m = (h - t) // 2  # top of the middle bar
        if code == 58:
            fill_rect(x, y + m // 2, t, t, on)
            fill_rect(x, y + (m + h - t) // 2, t, t, on)
            return t
        if code == 46:
            fill_rect(x, y + h - t, t, t, on)
            return t
        s = font.segments(code)
        upper = m + t
        lower = h - m
        if s & 1:
            fill_rect(x, y, w, t, on)
        if s & 2:
            fill_rect(x + w - t, y, t, upper, on)
        if s & 4:
            fill_rect(x + w - t, y + m, t, lower, on)
        if s & 8:
            fill_rect(x, y + h - t, w, t, on)
        if s & 16:
            fill_rect(x, y + m, t, lower, on)
        if s & 32:
            fill_rect(x, y, t, upper, on)
        if s & 64:
            fill_rect(x, y + m, w, t, on)
        return w

    def big_text(self, x, y, chars, start, end, w, h, t, gap, on=1):
        """Draw bytes chars[start:end] (a 0 byte ends them) with big_char, `gap` pixels apart.
        Return the x after the last character."""
        left = x
        for i in range(start, end):
            c = chars[i]
            if c == 0:
                break
            if x > left:
                x += gap
            x += self.big_char(x, y, c, w, h, t, on)
        return x
