# SPDX-License-Identifier: MIT
# The simulator's text pictures come from the table of display kinds: full size for each kind,
# half size where the kind has one, and a point module's points.
from boards import pico_oled, pico_tm1637
from sim import frames
from ui import kinds


class PointModules:
    DISPLAY = "tm1637"
    TM1637_POINTS = True


def test_each_kind_draws_its_frame_with_the_function_its_row_names():
    oled = bytearray(1024)
    oled[0] = 0xFF
    assert frames.frame_text(pico_oled, oled) == frames.oled_text(oled)
    assert frames.half_text(pico_oled, oled) == frames.oled_braille(oled)
    seg = bytes((0x86, 0xDB, 0x4F, 0x66, 0x6D, 0xFD, 0x07, 0x7F))  # a point on the first
    assert frames.frame_text(pico_tm1637, seg) == frames.seg_text(seg)
    assert frames.half_text(pico_tm1637, seg) is None
    assert frames.frame_text(PointModules, seg) == frames.seg_text(seg, points=True)
    assert frames.frame_text(PointModules, seg) != frames.seg_text(seg)
    assert frames.frame_text(pico_oled, None) == "" and frames.half_text(pico_oled, None) is None


def test_every_text_function_the_table_names_exists():
    for row in kinds.KINDS.values():
        for name in row[kinds.TEXT]:
            assert name is None or callable(getattr(frames, name))
