# SPDX-License-Identifier: MIT
# The glyph tables: the 5x7 font for ASCII 32..126 and the 7-segment alphabet.
from ui import font


def test_tables_cover_printable_ascii():
    assert len(font.GLYPHS) == (126 - 32 + 1) * 5
    assert len(font.SEGMENTS) == 128 - 32


def test_a_5x7_glyph_column_by_column():
    # "P": a full left column (rows 0-6 = 0x7f), the bowl over rows 0-3, the bowl's right edge
    assert [font.glyph_column(ord("P"), c) for c in range(5)] == [0x7F, 0x09, 0x09, 0x09, 0x06]
    assert [font.glyph_column(ord(" "), c) for c in range(5)] == [0, 0, 0, 0, 0]
    # nothing is drawn below row 6: the 8th bit stays free for the line gap
    for i in range(len(font.GLYPHS)):
        assert font.GLYPHS[i] < 0x80


def test_codes_without_a_glyph_show_a_question_mark():
    assert font.glyph_column(7, 2) == font.glyph_column(ord("?"), 2)
    assert font.glyph_column(200, 0) == font.glyph_column(ord("?"), 0)


def test_seven_segment_digits():
    # a=1 b=2 c=4 d=8 e=16 f=32 g=64: "0" is all but g, "1" is b+c, "8" is all seven
    expected = (0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F)
    assert tuple(font.segments(48 + d) for d in range(10)) == expected


def test_seven_segment_letters_and_marks():
    assert font.segments(ord("F")) == 0x71  # a e f g
    assert font.segments(ord("L")) == 0x38  # d e f
    assert font.segments(ord("-")) == 0x40  # g
    assert font.segments(ord(" ")) == 0
    assert font.segments(ord(".")) == font.MARK
    assert font.segments(ord(":")) == font.MARK
    assert font.segments(5) == 0 and font.segments(300) == 0
