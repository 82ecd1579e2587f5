# SPDX-License-Identifier: MIT
# Test helpers that read a 128x64 frame back: where 5x7 text is drawn (pure: CPython and MicroPython).
from ui import canvas, font


def text_at(frame, x, y, text, on=1):
    """True if `text` is drawn in the 5x7 font with its top left at (x, y): every pixel of each
    glyph box matches (on=0: an inverted text, glyph pixels dark on a lit ground)."""
    for n in range(len(text)):
        code = ord(text[n])
        for c in range(font.WIDTH):
            bits = font.glyph_column(code, c)
            for r in range(font.HEIGHT):
                lit = bits >> r & 1 if on else 1 - (bits >> r & 1)
                if canvas.pixel(frame, x + n * font.ADVANCE + c, y + r) != lit:
                    return False
    return True


def find_text(frame, text, y, x_from=0, x_to=128, on=1):
    """The x where `text` starts on row y between x_from and x_to, or -1."""
    for x in range(x_from, x_to):
        if text_at(frame, x, y, text, on):
            return x
    return -1


def lit_count(frame, x, y, w, h):
    n = 0
    for i in range(x, x + w):
        for j in range(y, y + h):
            n += canvas.pixel(frame, i, j)
    return n
