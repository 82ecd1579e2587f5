# SPDX-License-Identifier: MIT
# The simulator's text pictures of display frames (CPython only).
from sim import frames
from clock.game import View
from ui import canvas
from ui.oled import OledScreen
from ui.seg7 import SegScreen
from ui.status import Status


def test_oled_text_is_32_lines_of_128_half_blocks():
    frame = bytearray(canvas.SIZE)
    c = canvas.Canvas(frame)
    c.fb.pixel(0, 0, 1)  # top half of character (0, 0)
    c.fb.pixel(1, 1, 1)  # bottom half of (1, 0)
    c.fill_rect(2, 0, 1, 2, 1)  # both: a full block
    lines = frames.oled_text(frame).split("\n")
    assert len(lines) == 32 and all(len(line) == 128 for line in lines)
    assert lines[0][:4] == "\u2580\u2584\u2588 "
    assert set("".join(lines[1:])) == {" "}


def test_a_big_one_is_a_vertical_bar_of_full_blocks():
    frame = bytearray(canvas.SIZE)
    c = canvas.Canvas(frame)
    c.big_char(10, 4, ord("1"), 12, 30, 3)  # rows 4..33: text lines 2..16
    lines = frames.oled_text(frame).split("\n")
    for row in range(2, 17):
        assert lines[row] == " " * 19 + "\u2588" * 3 + " " * 106


def test_oled_clock_picture_shows_both_times():
    left, right = View(), View()
    left.time_ms = 300000
    right.time_ms = 5425000
    left.running = True
    screen = OledScreen()
    screen.clock(left, right, Status())
    lines = frames.oled_text(screen.frame).split("\n")
    assert "\u2588" * 12 in lines[5][:62]  # the top bars of "05:00"
    # the running side's band, rows 41-46 across its half: text lines 20 to 23
    assert lines[20][:62] == "\u2584" * 62 and lines[23][:62] == "\u2580" * 62
    assert lines[21][:62] == lines[22][:62] == "\u2588" * 62
    assert set(lines[21][66:] + lines[22][66:]) == {" "}  # past the dotted divider


def test_oled_braille_is_16_lines_of_64_cells_each_pixel_its_own_dot():
    # Unicode's braille dots 1..8 are bits 0..7: a 2x4 cell's left column top down is dots
    # 1, 2, 3, 7 and its right column 4, 5, 6, 8.
    dot_bits = {(0, 0): 0, (0, 1): 1, (0, 2): 2, (1, 0): 3, (1, 1): 4, (1, 2): 5}
    dot_bits.update({(0, 3): 6, (1, 3): 7})
    for (dx, dy), bit in dot_bits.items():
        frame = bytearray(canvas.SIZE)
        canvas.Canvas(frame).fb.pixel(6 + dx, 8 + dy, 1)  # cell 3 of line 2
        lines = frames.oled_braille(frame).split("\n")
        assert len(lines) == 16 and all(len(line) == 64 for line in lines)
        assert lines[2] == " " * 3 + chr(0x2800 + (1 << bit)) + " " * 60
        assert set("".join(lines[:2] + lines[3:])) == {" "}
    frame = bytearray(canvas.SIZE)
    canvas.Canvas(frame).fill_rect(126, 60, 2, 4, 1)  # the bottom right cell, all eight dots
    assert frames.oled_braille(frame).split("\n")[15] == " " * 63 + "\u28ff"


def test_oled_braille_scaled_keeps_the_panel_s_shape_and_each_pixel_where_it_was():
    frame = bytearray(canvas.SIZE)
    canvas.Canvas(frame).fill_rect(0, 0, 128, 64, 1)
    for (num, den), cols, rows in (((3, 2), 96, 24), ((7, 4), 112, 28), ((5, 4), 80, 20)):
        lines = frames.oled_braille(frame, scale=(num, den)).split("\n")
        assert (len(lines), {len(line) for line in lines}) == (rows, {cols})
        assert set("".join(lines)) == {"\u28ff"}  # every dot on: 2 cols x 4 rows of dots a cell
    frame = bytearray(canvas.SIZE)
    canvas.Canvas(frame).fb.pixel(127, 63, 1)  # the bottom right pixel: 1.5 x 1.5 dots
    lines = frames.oled_braille(frame, scale=(3, 2)).split("\n")
    on = [(y, x) for y, line in enumerate(lines) for x, cell in enumerate(line) if cell != " "]
    assert on == [(23, 95)] and lines[23][95] == chr(0x2800 | 1 << 7)  # dot 8: its corner


def test_seg_text_draws_digits_and_the_colon():
    screen = SegScreen()
    left, right = View(), View()
    left.time_ms = 300000
    right.time_ms = 19950
    screen.clock(left, right, Status())
    lines = frames.seg_text(screen.frame).split("\n")
    assert len(lines) == 5
    # "0" "5" : "0" "0": a 5x5 digit, a space, the colon column " * " between digits 2 and 3
    assert lines[0].startswith(" \u2588\u2588\u2588   \u2588\u2588\u2588     \u2588\u2588\u2588 ")
    assert lines[1][11:14] == " \u2022 " and lines[3][11:14] == " \u2022 "
    assert lines[1].startswith("\u2588   \u2588 \u2588    ")
    # "19:9 ": seconds, the colon, the tenths, a dark last digit
    assert [line[31:36] for line in lines] == [
        "     ",
        "    \u2588",
        "     ",
        "    \u2588",
        "     ",
    ]
    assert lines[1][42:45] == " \u2022 " and lines[3][42:45] == " \u2022 "
    assert [line[51:56] for line in lines] == [" " * 5] * 5
    assert "." not in lines[4]
    screen = SegScreen(points=True)
    screen.clock(left, right, Status())
    points = frames.seg_text(screen.frame, points=True).split("\n")
    assert [line[31:36] for line in points] == [" " * 5] * 5  # " 19.9": a blank first digit
    assert points[4][50] == "."  # the third digit's point: "19.9"
