# SPDX-License-Identifier: MIT
# Text pictures of display frames for the desktop simulator and tests (CPython only).
import sim  # noqa: F401  (puts the firmware on the path)
from ui import canvas, kinds

_HALVES = " \u2580\u2584\u2588"  # ' ', upper half, lower half, full block
_ON = "\u2588"
_COLON = "\u2022"


def oled_text(frame, bus="i2c"):
    """The 128x64 frame as 32 lines of 128 characters, two pixel rows per character (the same
    whatever the panel's bus)."""
    lines = []
    for row in range(0, canvas.HEIGHT, 2):
        lines.append(
            "".join(
                _HALVES[canvas.pixel(frame, x, row) + 2 * canvas.pixel(frame, x, row + 1)]
                for x in range(canvas.WIDTH)
            )
        )
    return "\n".join(lines)


# (dx, dy) of the pixel each braille dot bit stands for, bit 0 first (Unicode's dot numbering).
_BRAILLE_DOTS = ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (0, 3), (1, 3))


def oled_braille(frame, bus="i2c", scale=(1, 1)):
    """The 128x64 frame in braille cells of 2x4 dots, a cell with no dot on a space (the same
    whatever the panel's bus). At `scale` (num, den) = (1, 1), half size: 16 lines of 64 cells,
    each pixel its own dot; at (3, 2), 24 lines of 96 cells, each dot the pixel it falls on
    (nearest neighbour): braille dots are square, so every scale keeps the panel's shape."""
    num, den = scale
    width = (canvas.WIDTH * num + den - 1) // den
    height = (canvas.HEIGHT * num + den - 1) // den
    lines = []
    for y in range(0, height, 4):
        cells = []
        for x in range(0, width, 2):
            bits = 0
            for bit, (dx, dy) in enumerate(_BRAILLE_DOTS):
                if x + dx < width and y + dy < height:
                    pixel = canvas.pixel(frame, (x + dx) * den // num, (y + dy) * den // num)
                    bits |= pixel << bit
            cells.append(chr(0x2800 + bits) if bits else " ")
        lines.append("".join(cells))
    return "\n".join(lines)


def _digit(segments):
    """Five lines of five characters for one digit's segment bits (a..g = bits 0..6)."""

    def on(bit, text):
        return text if segments >> bit & 1 else " " * len(text)

    bar = _ON * 3
    return [
        " " + on(0, bar) + " ",
        on(5, _ON) + "   " + on(1, _ON),
        " " + on(6, bar) + " ",
        on(4, _ON) + "   " + on(2, _ON),
        " " + on(3, bar) + " ",
    ]


def _module(frame, start, points):
    lines = ["", "", "", "", ""]
    for i in range(4):
        byte = frame[start + i]
        for n, text in enumerate(_digit(byte)):
            lines[n] += text
        if i == 1:  # the colon: bit 7 of the second digit
            colon = _COLON if byte & 0x80 else " "
            for n, mark in enumerate((" ", colon, " ", colon, " ")):
                lines[n] += " " + mark + " "
        elif i < 3:
            point = "." if points and byte & 0x80 else " "
            for n in range(5):
                lines[n] += point if n == 4 else " "
        elif points and byte & 0x80:
            lines[4] += "."
    return lines


def seg_text(frame, points=False):
    """Both 4-digit modules of an 8-byte TM1637 frame side by side, five lines tall, with the
    colon. points=True also draws bit 7 of the other digits as a decimal point (a module with
    points; the assumed colon module has none)."""
    left = _module(frame, 0, points)
    right = _module(frame, 4, points)
    width = max(len(line) for line in left)
    return "\n".join(a.ljust(width) + "      " + b for a, b in zip(left, right))


def _lcd_module(frame, start):
    lines = ["", "", "", "", ""]
    for i in range(6):
        byte = frame[start + i]
        for n, text in enumerate(_digit(byte)):
            lines[n] += text
        point = "." if byte & 0x80 else " "
        for n in range(5):
            lines[n] += point if n == 4 else " "
    return lines


def lcd_text(frame):
    """Both six-digit LCD modules of a 12-byte HT1621 frame side by side, five lines tall, with
    the point after each digit (the first digit is the side's running mark)."""
    left = _lcd_module(frame, 0)
    right = _lcd_module(frame, 6)
    return "\n".join(a + "    " + b for a, b in zip(left, right))


def frame_text(board, frame):
    """The frame as the board's display shows it, as lines of text ("" for no frame yet)."""
    if frame is None:
        return ""
    full, _half = kinds.row(board)[kinds.TEXT]
    return globals()[full](frame, **kinds.options(board))


# The sizes between the full picture (two pixel rows a character) and the half one, largest first:
# a terminal too narrow for the full one gets the largest of these that fits.
BETWEEN = ((7, 4), (3, 2), (5, 4))


def half_text(board, frame, scale=(1, 1)):
    """The frame at half size (or `scale` times that: BETWEEN) as lines of text, or None where
    the kind has no such picture."""
    _full, half = kinds.row(board)[kinds.TEXT]
    if frame is None or half is None:
        return None
    return globals()[half](frame, scale=scale, **kinds.options(board))
