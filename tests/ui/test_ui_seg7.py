# The TM1637 frames: 8 segment bytes, left module then right, with the colon and flag conventions.
from clock.game import View
from ui.seg7 import SegScreen, encode
from ui.status import Status

# a=1 b=2 c=4 d=8 e=16 f=32 g=64; bit 7 of the second digit is the colon
ZERO, ONE, THREE, FIVE, NINE = 0x3F, 0x06, 0x4F, 0x6D, 0x6F
COLON = 0x80


def views(left_ms, right_ms=300000):
    left, right = View(), View()
    left.time_ms = left_ms
    right.time_ms = right_ms
    return left, right


def shown(left_ms, right_ms=300000, status=None):
    screen = SegScreen()
    screen.clock(*views(left_ms, right_ms), status or Status())
    return list(screen.frame)


def test_encode_mm_ss_with_the_colon():
    out = bytearray(4)
    assert encode("05:00", out, 0) == 4
    assert list(out) == [ZERO, FIVE | COLON, ZERO, ZERO]  # 0x3f 0xed 0x3f 0x3f
    out = bytearray(8)
    assert encode(b"12", out, 5) == 7 and list(out) == [0, 0, 0, 0, 0, ONE, 0x5B, 0]


def test_encode_stops_at_the_end_and_marks_a_leading_point():
    out = bytearray(4)
    assert encode("ABCDEF", out, 1) == 4 and list(out) == [0, 0x77, 0x7C, 0x39]
    assert encode(".5", out, 0, 2) == 2 and list(out[:2]) == [COLON, FIVE]


def test_minutes_and_seconds_on_both_modules():
    assert shown(300000, 65000) == [ZERO, FIVE | COLON, ZERO, ZERO, ZERO, ONE | COLON, ZERO, FIVE]


def test_hours_right_aligned_with_a_blank_first_digit():
    # 1:30:25 shows "1:30" (H:MM): blank, 1, colon, 3, 0
    assert shown(5425000)[:4] == [0, ONE | COLON, THREE, ZERO]
    # 12 hours fills the four digits
    assert shown(12 * 3600000 + 5 * 60000)[:4] == [ONE, 0x5B | COLON, ZERO, FIVE]


def test_a_hundred_hours_shows_the_hours_and_h():
    assert shown(100 * 3600000 + 60000)[:4] == [ONE, ZERO, ZERO, 0x74]


def test_tenths_below_twenty_seconds():
    # "19.9": blank, 1, 9 with bit 7 (the point), 9; the colon off
    assert shown(19950)[:4] == [0, ONE, NINE | 0x80, NINE]
    assert shown(9950)[:4] == [0, 0, NINE | 0x80, NINE]
    assert shown(0)[:4] == [0, 0, ZERO | 0x80, ZERO]


def test_paused_or_over_turns_the_colon_off():
    status = Status()
    status.paused = True
    assert shown(300000, 5425000, status) == [ZERO, FIVE, ZERO, ZERO, 0, ONE, THREE, ZERO]
    status = Status()
    status.over = True
    assert shown(300000, 19950, status) == [ZERO, FIVE, ZERO, ZERO, 0, ONE, NINE | 0x80, NINE]


def test_flags_first_and_second():
    left, right = views(0, 0)
    left.flagged = right.flagged = True
    status = Status()
    status.first_flag_side = 1
    screen = SegScreen()
    screen.clock(left, right, status)
    flag = [0x71, 0x38, 0x77, 0x3D]  # F L A G
    assert list(screen.frame) == [0x71, 0x38, 0x3D, 0x5B] + flag  # FLG2 | FLAG
    status.first_flag_side = -1
    right.flagged = False
    left.flagged_first = True
    assert screen.clock(left, right, status)
    assert list(screen.frame)[:4] == flag


def test_changed_only_when_a_segment_changes():
    screen = SegScreen()
    left, right = views(299999)
    status = Status()
    assert screen.clock(left, right, status)
    frame = bytes(screen.frame)
    left.time_ms = 299001  # still 04:59
    assert not screen.clock(left, right, status)
    left.running = True  # not shown on the modules
    assert not screen.clock(left, right, status)
    assert bytes(screen.frame) == frame
    left.time_ms = 298999
    assert screen.clock(left, right, status)
    status.paused = True
    assert screen.clock(left, right, status)
    screen.invalidate()
    assert screen.clock(left, right, status)


def test_draws_into_a_given_frame():
    frame = bytearray(8)
    screen = SegScreen(frame)
    screen.clock(*views(300000), Status())
    assert frame[1] == FIVE | COLON


def test_menu_shows_the_selected_line_on_eight_digits():
    screen = SegScreen()
    assert screen.menu("PRESET", ["Fischer", "Byo-yomi"], 0)
    # F i s c h e r, lower-case forms where 7 segments have them, then a blank
    assert list(screen.frame) == [0x71, 0x10, 0x6D, 0x58, 0x74, 0x7B, 0x50, 0]
    assert not screen.menu("PRESET", ["Fischer", "Byo-yomi"], 0)
    assert screen.menu("PRESET", ["Fischer", "5:00 3"], 1)
    assert list(screen.frame)[:5] == [FIVE | 0x80, ZERO, ZERO, 0, THREE]  # bit 7 after the 5
    assert screen.menu("SET", [], -1)
    assert list(screen.frame)[:3] == [0x6D, 0x79, 0x78]
