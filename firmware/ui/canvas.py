# Drawing on a 128x64 monochrome frame in the SSD1306 MONO_VLSB layout, allocating nothing.
from micropython import const

from ui import font

WIDTH = const(128)
HEIGHT = const(64)
SIZE = const(1024)  # 8 pages of 128 columns; a byte is 8 pixels down a column, bit 0 on top

_GLYPHS = font.GLYPHS
_SEGMENTS = font.SEGMENTS


def clear(buf, on=0):
    value = 255 if on else 0
    for i in range(SIZE):
        buf[i] = value


def pixel(buf, x, y):
    """1 if pixel (x, y) is lit, else 0 (0 off the screen)."""
    if x < 0 or y < 0 or x >= WIDTH or y >= HEIGHT:
        return 0
    return buf[(y >> 3) * WIDTH + x] >> (y & 7) & 1


def set_pixel(buf, x, y, on=1):
    if x < 0 or y < 0 or x >= WIDTH or y >= HEIGHT:
        return
    i = (y >> 3) * WIDTH + x
    if on:
        buf[i] |= 1 << (y & 7)
    else:
        buf[i] &= 255 ^ (1 << (y & 7))


def fill_rect(buf, x, y, w, h, on=1):
    """Light (or with on=0, clear) the w x h rectangle at (x, y), clipped to the screen."""
    if x < 0:
        w += x
        x = 0
    if y < 0:
        h += y
        y = 0
    if x + w > WIDTH:
        w = WIDTH - x
    if y + h > HEIGHT:
        h = HEIGHT - y
    if w <= 0 or h <= 0:
        return
    end = y + h
    while y < end:
        stop = (y | 7) + 1  # the next page boundary
        if stop > end:
            stop = end
        mask = ((1 << (stop - y)) - 1) << (y & 7)
        first = (y >> 3) * WIDTH + x
        if on:
            for i in range(first, first + w):
                buf[i] |= mask
        else:
            mask ^= 255
            for i in range(first, first + w):
                buf[i] &= mask
        y = stop


def hline(buf, x, y, w, on=1):
    fill_rect(buf, x, y, w, 1, on)


def vline(buf, x, y, h, on=1):
    fill_rect(buf, x, y, 1, h, on)


def char(buf, x, y, code, on=1):
    """Draw the 5x7 glyph of character code `code` with its top left at (x, y); return the x
    where the next character goes. Only lit glyph pixels are drawn (on=0 clears them)."""
    if code < font.FIRST or code > font.LAST:
        code = 63  # "?"
    g = (code - font.FIRST) * font.WIDTH
    shift = y & 7
    page = y >> 3
    for c in range(font.WIDTH):
        col = x + c
        bits = _GLYPHS[g + c]
        if col < 0 or col >= WIDTH or not bits:
            continue
        lo = (bits << shift) & 255
        hi = bits >> (8 - shift)
        i = page * WIDTH + col
        if on:
            if 0 <= page < 8:
                buf[i] |= lo
            if hi and 0 <= page + 1 < 8:
                buf[i + WIDTH] |= hi
        else:
            if 0 <= page < 8:
                buf[i] &= 255 ^ lo
            if hi and 0 <= page + 1 < 8:
                buf[i + WIDTH] &= 255 ^ hi
    return x + font.ADVANCE


def text(buf, x, y, chars, start=0, end=-1, on=1):
    """Draw chars[start:end] (bytes or bytearray; a str allocates on MicroPython, so only for
    menus) in the 5x7 font; a 0 byte ends the text. Return the x after the last character."""
    if end < 0:
        end = len(chars)
    for i in range(start, end):
        c = chars[i]
        if type(c) is not int:
            c = ord(c)
        if c == 0:
            break
        x = char(buf, x, y, c, on)
    return x


def text_width(count):
    """Pixels taken by `count` characters of the 5x7 font (no trailing gap)."""
    return count * font.ADVANCE - 1 if count > 0 else 0


def big_width(code, w, t):
    """Width of a large character: ':' and '.' are `t` wide, everything else `w`."""
    return t if code == 58 or code == 46 else w


def big_char(buf, x, y, code, w, h, t, on=1):
    """Draw character code `code` as 7-segment bars of thickness t in a w x h box at (x, y):
    digits and the letters of the 7-segment alphabet, ':' as two t x t dots, '.' as one.
    Return its width."""
    m = (h - t) // 2  # top of the middle bar
    if code == 58:
        fill_rect(buf, x, y + m // 2, t, t, on)
        fill_rect(buf, x, y + (m + h - t) // 2, t, t, on)
        return t
    if code == 46:
        fill_rect(buf, x, y + h - t, t, t, on)
        return t
    s = _SEGMENTS[code - 32] if 32 <= code < 128 else 0
    upper = m + t
    lower = h - m
    if s & 1:
        fill_rect(buf, x, y, w, t, on)
    if s & 2:
        fill_rect(buf, x + w - t, y, t, upper, on)
    if s & 4:
        fill_rect(buf, x + w - t, y + m, t, lower, on)
    if s & 8:
        fill_rect(buf, x, y + h - t, w, t, on)
    if s & 16:
        fill_rect(buf, x, y + m, t, lower, on)
    if s & 32:
        fill_rect(buf, x, y, t, upper, on)
    if s & 64:
        fill_rect(buf, x, y + m, w, t, on)
    return w


def big_text_width(chars, start, end, w, t, gap):
    """Width of big_text() for the same arguments."""
    width = 0
    for i in range(start, end):
        c = chars[i]
        if c == 0:
            break
        if width:
            width += gap
        width += big_width(c, w, t)
    return width


def big_text(buf, x, y, chars, start, end, w, h, t, gap, on=1):
    """Draw bytes chars[start:end] (a 0 byte ends them) with big_char, `gap` pixels apart.
    Return the x after the last character."""
    left = x
    for i in range(start, end):
        c = chars[i]
        if c == 0:
            break
        if x > left:
            x += gap
        x += big_char(buf, x, y, c, w, h, t, on)
    return x
