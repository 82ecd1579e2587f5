# SPDX-License-Identifier: MIT
# Drawing on the 128x64 MONO_VLSB frame with framebuf: bytes, pixels, clipping, text, digits.
from ui import canvas, font
from uiread import lit_count, text_at


def test_layout_is_pages_of_columns_bit_0_on_top():
    f = bytearray(canvas.SIZE)
    c = canvas.Canvas(f)
    c.fb.pixel(5, 0, 1)
    c.fb.pixel(5, 9, 1)  # page 1, bit 1
    c.fb.pixel(127, 63, 1)
    assert f[5] == 1 and f[128 + 5] == 2 and f[1023] == 0x80
    assert canvas.pixel(f, 5, 9) == 1 and canvas.pixel(f, 5, 8) == 0
    c.fb.pixel(5, 9, 0)
    assert f[128 + 5] == 0


def test_fill_rect_across_pages_and_clear():
    f = bytearray(canvas.SIZE)
    c = canvas.Canvas(f)
    c.fill_rect(10, 6, 3, 12, 1)  # rows 6..17: bits 6-7 of page 0, all of page 1, 0-1 of 2
    assert f[10] == 0xC0 and f[128 + 11] == 0xFF and f[256 + 12] == 0x03 and f[13] == 0
    assert lit_count(f, 0, 0, 128, 64) == 36
    c.fill_rect(11, 8, 1, 8, 0)  # clear a whole page byte
    assert f[128 + 11] == 0 and f[128 + 10] == 0xFF
    c.clear()
    assert lit_count(f, 0, 0, 128, 64) == 0
    c.clear(1)
    assert f[0] == 255 and f[1023] == 255


def test_drawing_is_clipped_to_the_screen():
    f = bytearray(canvas.SIZE)
    c = canvas.Canvas(f)
    c.fill_rect(-5, -5, 10, 10, 1)
    assert lit_count(f, 0, 0, 128, 64) == 25
    c.fill_rect(120, 60, 50, 50, 1)
    assert lit_count(f, 120, 60, 8, 4) == 32
    c.fb.pixel(128, 0, 1)
    c.fb.pixel(-1, 70, 1)
    c.fb.hline(100, 64, 10, 1)
    assert canvas.pixel(f, 200, 5) == 0
    assert lit_count(f, 0, 0, 128, 64) == 25 + 32


def test_text_at_a_page_boundary_and_off_it():
    f = bytearray(canvas.SIZE)
    c = canvas.Canvas(f)
    assert c.text(3, 8, b"P3") == 3 + 12
    assert text_at(f, 3, 8, "P3")
    assert f[128 + 3] == 0x7F  # P's first column: rows 8..14, one byte of page 1
    c.clear()
    c.text(40, 13, b"#23")  # rows 13..19 straddle pages 1 and 2
    assert text_at(f, 40, 13, "#23") and not text_at(f, 40, 12, "#23")
    assert lit_count(f, 0, 0, 128, 64) == lit_count(f, 40, 13, 17, 7)


def test_text_stops_at_a_zero_byte_and_draws_inverted():
    f = bytearray(canvas.SIZE)
    c = canvas.Canvas(f)
    assert c.text(0, 0, b"AB\x00CD") == 12
    c.clear()
    c.fill_rect(0, 10, 20, 9, 1)
    c.text(1, 11, b"OK", 0, -1, 0)
    assert text_at(f, 1, 11, "OK", on=0)
    assert canvas.text_width(3) == 17 and canvas.text_width(0) == 0


def test_a_big_one_is_the_two_right_bars():
    f = bytearray(canvas.SIZE)
    c = canvas.Canvas(f)
    assert c.big_char(10, 5, ord("1"), 12, 30, 3) == 12
    assert lit_count(f, 19, 5, 3, 30) == 90  # b and c: the right 3 columns, full height
    assert lit_count(f, 0, 0, 128, 64) == 90


def test_a_big_eight_lights_every_bar_and_leaves_the_holes():
    f = bytearray(canvas.SIZE)
    c = canvas.Canvas(f)
    c.big_char(0, 0, ord("8"), 12, 30, 3)
    # middle bar from row (30 - 3) // 2 = 13; holes between the bars stay dark
    assert canvas.pixel(f, 6, 0) and canvas.pixel(f, 6, 14) and canvas.pixel(f, 6, 29)
    assert canvas.pixel(f, 0, 7) and canvas.pixel(f, 11, 22)
    assert lit_count(f, 3, 3, 6, 10) == 0 and lit_count(f, 3, 16, 6, 11) == 0


def test_big_colon_and_point():
    f = bytearray(canvas.SIZE)
    c = canvas.Canvas(f)
    assert c.big_char(0, 0, ord(":"), 12, 30, 3) == 3
    assert lit_count(f, 0, 0, 3, 30) == 18  # two 3x3 dots
    assert canvas.pixel(f, 1, 7) and canvas.pixel(f, 1, 21) and not canvas.pixel(f, 1, 14)
    c.clear()
    assert c.big_char(0, 0, ord("."), 12, 30, 3) == 3
    assert lit_count(f, 0, 27, 3, 3) == 9 and lit_count(f, 0, 0, 3, 27) == 0


def test_big_text_width_matches_what_is_drawn():
    f = bytearray(canvas.SIZE)
    c = canvas.Canvas(f)
    text = b"05:00\x00\x00"
    width = canvas.big_text_width(text, 0, len(text), 12, 3, 2)
    assert width == 4 * 12 + 3 + 4 * 2
    assert c.big_text(1, 0, text, 0, len(text), 12, 30, 3, 2) == 1 + width
    assert lit_count(f, 1 + width, 0, 128 - 1 - width, 64) == 0
    assert lit_count(f, 1 + width - 3, 0, 3, 30) > 0


def test_text_draws_what_char_draws_for_every_glyph_on_every_row_and_at_the_edges():
    """text() writes glyph columns into the frame's bytes; char() blits them with framebuf, as
    the drawing was done before: the two must leave the same frame, lit or dark, page-aligned
    or not, cut by an edge or not, over a ground that is neither blank nor full."""
    ground = bytes((i * 37 + 11) & 0xFF for i in range(canvas.SIZE))
    codes = bytes(range(font.FIRST - 2, font.LAST + 3))  # two unknown codes at each end
    for y in (-3, 0, 1, 7, 8, 29, 56, 57, 60):
        for x in (-4, 0, 3, 100):
            for on in (1, 0):
                fast = canvas.Canvas(bytearray(ground))
                slow = canvas.Canvas(bytearray(ground))
                for start in range(0, len(codes), 5):
                    chunk = codes[start : start + 5]
                    end_x = fast.text(x, y, chunk, 0, -1, on)
                    cx = x
                    for code in chunk:
                        cx = slow.char(cx, y, code, on)
                    assert end_x == cx
                    assert fast.frame == slow.frame, (x, y, on, chunk)
