# SPDX-License-Identifier: MIT
# How tall the OLED draws a time, in pixels, measured on the frame: docs/fide.md turns these into
# millimetres for each panel (0.96", 1.3", 2.42") to say how far off they read.
from test_ui_oled import views
from ui.oled import OledScreen
from ui.status import Status


def lit_rows(frame, x0, x1):
    """The first and last lit pixel row of columns x0..x1 in pages 1-4 (the time's band)."""
    rows = [
        y
        for y in range(8, 40)
        for x in range(x0, x1 + 1)
        if frame[(y >> 3) * 128 + x] >> (y & 7) & 1
    ]
    return min(rows), max(rows)


def height(left_ms):
    screen = OledScreen()
    screen.clock(*views(left_ms), Status())
    top, bottom = lit_rows(screen.frame, 0, 61)
    return bottom - top + 1


def test_minutes_are_30_px_high_tenths_32_and_hours_24():
    assert height(4 * 60000 + 32000) == 30  # "04:32"
    assert height(14 * 60000) == 30  # "14:00"
    assert height(19900) == 32  # "19.9"
    assert height(65 * 60000) == 24  # "1:05:00": five digits in the half's width
    assert height(10 * 3600000) == 20  # "10:00:00"
