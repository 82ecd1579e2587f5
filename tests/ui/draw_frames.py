# SPDX-License-Identifier: MIT
# Draws a fixed set of OLED frames and prints each as hex: run by CPython (the framebuf shim)
# and by the MicroPython unix port (the C framebuf); test_framebuf_shim_host.py compares them.
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
for path in ("tests", "", "firmware"):
    sys.path.insert(0, ROOT + "/" + path if path else ROOT)
if sys.implementation.name != "micropython":
    sys.path.insert(0, ROOT + "/sim/shim")

import framebuf  # noqa: E402
from clock.game import View  # noqa: E402
from ui import canvas  # noqa: E402
from ui.oled import OledScreen  # noqa: E402
from ui.status import Status  # noqa: E402


class Lights:
    """The app's lights as a screen reads them: the right side on move in a pause (SLOW)."""

    left = 0
    right = 2
    left_lit = False
    right_lit = True


def frames():
    frame = bytearray(canvas.SIZE)
    c = canvas.Canvas(frame)
    c.fill_rect(-5, 60, 20, 9, 1)  # clipped at two edges
    c.fb.hline(100, 63, 40, 1)
    c.text(120, 30, b"WXYZ")  # runs off the right edge
    c.text(3, 13, b"#23 S2 P3")  # straddles two pages
    c.fill_rect(0, 40, 60, 10, 1)
    c.text(2, 41, b"PAUSE", 0, -1, 0)  # dark on lit
    c.big_text(64, 2, b"12:34.5", 0, 7, 7, 20, 2, 2)
    c.big_text(-3, 20, b"8", 0, 1, 13, 32, 3, 2, 0)
    source = framebuf.FrameBuffer(bytearray(b"\x81\x42\x24\x18\xff"), 5, 8, framebuf.MONO_VLSB)
    c.fb.blit(source, 124, 58)  # clipped
    c.fb.blit(source, 50, 5, 0)
    yield frame
    screen = OledScreen()
    left, right = View(), View()
    status = Status()
    cases = (
        (300000, 19950, 0),
        (299000, 19850, 1),
        (3725000, 9900, 2),
        (100 * 3600000, 0, 3),
        (65000, 0, 4),
    )
    for left_ms, right_ms, n in cases:
        left.time_ms = left_ms
        right.time_ms = right_ms
        left.running = n % 2 == 0
        right.running = not left.running
        left.moves = 10 * n
        right.delay_ms = 4200 if n == 1 else 0
        right.reserve_ms = 272000 if n == 2 else -1
        right.flagged = right.flagged_first = right_ms == 0
        status.paused = n == 2
        status.lights = Lights() if n == 2 else None
        status.battery_percent = 87 - n
        status.battery_low = n == 4
        status.muted = n == 3
        status.message = "HALT" if n == 4 else ""
        screen.clock(left, right, status)
        yield screen.frame
    screen.menu("PRESETS", ["Fischer 5+3", "Byo-yomi 30s x5", "Delay"], 1)
    yield screen.frame


def main():
    for frame in frames():
        print("".join("%02x" % b for b in frame))


main()
