# SPDX-License-Identifier: MIT
# The TM1637 frames: 8 segment bytes, left module then right, with the colon and flag conventions,
# and the brightness of both.
from clock.game import View
from ui.seg7 import BRIGHT, DIM, SegScreen, encode
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
    digits = [ZERO, FIVE | COLON, ZERO, ZERO, ZERO, ONE | COLON, ZERO, FIVE]
    assert shown(300000, 65000) == digits + [BRIGHT]


def test_hours_right_aligned_with_a_blank_first_digit():
    # 1:30:25 shows "1:30" (H:MM): blank, 1, colon, 3, 0
    assert shown(5425000)[:4] == [0, ONE | COLON, THREE, ZERO]
    # 12 hours fills the four digits
    assert shown(12 * 3600000 + 5 * 60000)[:4] == [ONE, 0x5B | COLON, ZERO, FIVE]


def test_a_hundred_hours_shows_the_hours_and_h():
    assert shown(100 * 3600000 + 60000)[:4] == [ONE, ZERO, ZERO, 0x74]


def test_tenths_below_twenty_seconds_use_the_colon_and_leave_the_last_digit_dark():
    # "15.3" must not read as "153": seconds, the colon, the tenths, a dark last digit
    assert shown(19950)[:4] == [ONE, NINE | COLON, NINE, 0]
    assert shown(15300)[:4] == [ONE, FIVE | COLON, THREE, 0]
    assert shown(9950)[:4] == [0, NINE | COLON, NINE, 0]
    assert shown(0)[:4] == [0, ZERO | COLON, ZERO, 0]


def test_below_twenty_seconds_never_looks_like_a_time_of_minutes_or_hours():
    tenths = set(bytes(shown(ms)[:4]) for ms in range(0, 20000, 100))
    assert len(tenths) == 200
    assert all(frame[3] == 0 and frame[1] & COLON for frame in tenths)
    for ms in list(range(20000, 4000000, 997)) + [36000000, 359999999]:
        frame = shown(ms)
        assert frame[3] != 0 and frame[1] & COLON, ms


def test_a_point_module_right_aligns_with_its_points():
    def on_points(left_ms):
        screen = SegScreen(points=True)
        screen.clock(*views(left_ms), Status())
        return list(screen.frame)[:4]

    assert on_points(19950) == [0, ONE, NINE | COLON, NINE]  # " 19.9"
    assert on_points(300000) == [ZERO, FIVE | COLON, ZERO, ZERO]  # "05.00"
    assert on_points(5425000) == [0, ONE | COLON, THREE, ZERO]  # " 1.30"


def test_a_pause_dims_both_modules_and_keeps_the_digits_and_the_colon():
    running = shown(300000, 5425000)
    assert running[8] == BRIGHT
    status = Status()
    status.paused = True
    paused = shown(300000, 5425000, status)
    assert paused[:8] == running[:8] and paused[8] == DIM < BRIGHT  # " 1:30" keeps its colon
    status = Status()
    status.over = True
    over = shown(300000, 19950, status)
    assert over == [ZERO, FIVE | COLON, ZERO, ZERO] + shown(19950)[:4] + [BRIGHT]


def test_the_counters_show_periods_or_moves_left_else_moves_made():
    left, right = views(30000, 30000)
    left.periods_left = 3  # byo-yomi
    right.moves = 123
    status = Status()
    status.info = True
    screen = SegScreen()
    assert screen.clock(left, right, status)
    P, M, N = 0x73, 0x37, 0x54
    assert list(screen.frame) == [P, 0, 0, THREE, N, ONE, 0x5B, THREE, BRIGHT]
    left.moves_left = 25  # Canadian: 25 stones in the period
    right.moves_left = 1  # the last move before a time control
    right.periods_left = 5
    assert screen.clock(left, right, status)
    assert list(screen.frame)[:8] == [M, 0, 0x5B, FIVE, P, 0, 0, FIVE]
    right.periods_left = -1
    right.moves = 4000
    screen.clock(left, right, status)
    assert list(screen.frame)[4:8] == [M, 0, 0, ONE]
    right.moves_left = -1
    screen.clock(left, right, status)
    assert list(screen.frame)[4:8] == [N, NINE, NINE, NINE]
    status.info = False
    assert screen.clock(left, right, status)
    assert list(screen.frame)[:4] == [ZERO, ZERO | COLON, THREE, ZERO]


def test_flags_first_and_second():
    left, right = views(0, 0)
    left.flagged = right.flagged = True
    status = Status()
    status.first_flag_side = 1
    screen = SegScreen()
    screen.clock(left, right, status)
    flag = [0x71, 0x38, 0x77, 0x3D]  # F L A G
    assert list(screen.frame)[:8] == [0x71, 0x38, 0x3D, 0x5B] + flag  # FLG2 | FLAG
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
    status.paused = True  # the brightness alone changes
    assert screen.clock(left, right, status)
    assert not screen.clock(left, right, status)
    screen.invalidate()
    assert screen.clock(left, right, status)


def test_a_side_is_rebuilt_only_when_its_text_changes_and_then_in_full():
    screen = SegScreen()
    left, right = views(20000, 3600000)
    status = Status()
    screen.clock(left, right, status)
    assert list(screen.frame)[:8] == [ZERO, ZERO | COLON, 0x5B, ZERO, 0, ONE | COLON, ZERO, ZERO]
    left.time_ms = 19999  # "00:20" -> "19:9 ": the tenths begin
    right.time_ms = 3599999  # " 1:00" -> "59:59"
    assert screen.clock(left, right, status)
    assert list(screen.frame)[:8] == [ONE, NINE | COLON, NINE, 0, FIVE, NINE | COLON, FIVE, NINE]
    left.time_ms = -5  # shown as 0.0
    right.flagged = right.flagged_first = True
    assert screen.clock(left, right, status)
    assert list(screen.frame)[:8] == [0, ZERO | COLON, ZERO, 0, 0x71, 0x38, 0x77, 0x3D]
    left.time_ms = 0
    assert not screen.clock(left, right, status)


def test_draws_into_a_given_frame():
    frame = bytearray(9)
    screen = SegScreen(frame)
    screen.clock(*views(300000), Status())
    assert frame[1] == FIVE | COLON


def test_menu_shows_the_selected_line_on_eight_digits():
    screen = SegScreen()
    assert screen.menu("PRESET", ["Fischer", "Byo-yomi"], 0)
    # F i s c h e r, lower-case forms where 7 segments have them, then a blank
    assert list(screen.frame) == [0x71, 0x10, 0x6D, 0x58, 0x74, 0x7B, 0x50, 0, BRIGHT]
    assert not screen.menu("PRESET", ["Fischer", "Byo-yomi"], 0)
    assert screen.menu("PRESET", ["Fischer", "5:00 3"], 1)
    assert list(screen.frame)[:5] == [FIVE | 0x80, ZERO, ZERO, 0, THREE]  # bit 7 after the 5
    assert screen.menu("SET", [], -1)
    assert list(screen.frame)[:3] == [0x6D, 0x79, 0x78]


def cells(text):
    out = bytearray(len(text))
    return list(out[: encode(text, out, 0)])


def test_a_long_menu_line_scrolls_from_its_start_to_its_end_and_back():
    screen = SegScreen()
    line = "Othello 5 min + 1"  # 17 digits: 9 steps
    strip = cells(line)
    assert screen.menu("Presets", [line], 0, 5000)
    assert list(screen.frame)[:8] == strip[:8] and screen.menu_wait(5000) == 1200
    assert not screen.menu("Presets", [line], 0, 6199)
    assert screen.menu("Presets", [line], 0, 6200)
    assert list(screen.frame)[:8] == strip[1:9] and screen.menu_wait(6200) == 350
    assert screen.menu("Presets", [line], 0, 6200 + 8 * 350)
    assert list(screen.frame)[:8] == strip[9:]  # the end, held until the cycle restarts
    assert screen.menu_wait(6200 + 8 * 350) == 1200 + 350
    assert screen.menu("Presets", [line], 0, 5000 + 2 * 1200 + 9 * 350)
    assert list(screen.frame)[:8] == strip[:8]
    assert screen.menu("Presets", ["Sound: on"], 0, 9000)  # 8 digits: it stays
    assert list(screen.frame)[:8] == cells("Sound: on") and screen.menu_wait(9000) == -1
    assert not screen.menu("Presets", ["Sound: on"], 0, 20000)


def test_a_new_line_scrolls_from_its_start():
    screen = SegScreen()
    screen.menu("Presets", ["Othello 30 min"], 0, 0)
    screen.menu("Presets", ["Othello 30 min"], 0, 2000)
    assert screen.menu("Presets", ["Othello 5 min + 1"], 0, 2000)
    assert list(screen.frame)[:8] == cells("Othello 5 min + 1")[:8]
    assert screen.menu_wait(2000) == 1200


def _frames_of(line):
    """The distinct frames a menu line shows over 30 s."""
    screen = SegScreen()
    seen = set()
    for now in range(0, 30000, 50):
        screen.menu("Presets", [line], 0, now)
        seen.add(bytes(screen.frame[:8]))
    return seen


def test_no_two_factory_menu_entries_look_the_same():
    from app import gestures as act
    from app.menus import PresetMenu
    from app.presets import Presets
    from app.settings import Settings
    from fakes.fake_fs import FakeFs
    from hal.storage import Storage

    fs = FakeFs()
    storage = Storage("/", fs, fs.open)
    menu = PresetMenu(Presets(storage), Settings(storage), 0)
    entries = []
    for index in range(len(menu.presets.items) + 3):  # the presets, sound, custom, factory
        menu.index = index
        entries.append(menu.lines()[menu.selected])
    menu.act(None, act.SET, 0)  # on "Factory presets": the question instead (no app needed)
    entries.append(menu.lines()[menu.selected])
    assert len(set(entries)) == len(entries) == 20
    shown = [_frames_of(line) for line in entries]
    for line, frames in zip(entries, shown):  # the whole line comes into view, nothing else
        strip = bytes(cells(line) + [0] * 8)
        assert frames == set(strip[k : k + 8] for k in range(max(1, len(cells(line)) - 7)))
    for a in range(len(shown)):
        for b in range(a):
            assert shown[a] != shown[b], (entries[a], entries[b])


def test_the_board_says_which_modules_it_has():
    from boards import pico_tm1637

    screen = SegScreen(points=pico_tm1637.TM1637_POINTS)
    screen.clock(*views(15300), Status())
    assert list(screen.frame)[:4] == [ONE, FIVE | COLON, THREE, 0]  # the colon module


class Lights:
    """What the app's Lights tell a screen: the modes, and the levels as last written."""

    def __init__(self, left, right, left_lit=True, right_lit=True):
        self.left = left
        self.right = right
        self.left_lit = left_lit
        self.right_lit = right_lit


def running_views(left_ms, right_ms=5425000, counting_up=False):
    left, right = views(left_ms, right_ms)
    left.running = True
    left.counting_up = counting_up
    return left, right


def test_the_running_side_s_colon_blinks_on_h_mm_lit_the_first_half_of_each_second():
    screen = SegScreen()
    # 1:30:25 counting down: the second shown, 25, runs from .999 to .000; lit to .500
    for ms, lit in ((5425999, True), (5425500, True), (5425499, False), (5425000, False)):
        screen.clock(*running_views(ms), Status())
        assert list(screen.frame[:4]) == [0, ONE | (COLON if lit else 0), THREE, ZERO], ms
        assert screen.frame[5] == ONE | COLON  # the waiting side's stays lit
    for ms, lit in ((3600000, True), (3600499, True), (3600500, False), (3600999, False)):
        screen.clock(*running_views(ms, counting_up=True), Status())  # counting up: .000 on
        assert bool(screen.frame[1] & COLON) == lit, ms
    for ms in (300000, 300300, 300700, 19950):  # MM:SS and tenths: steady, their digits move
        screen.clock(*running_views(ms), Status())
        assert screen.frame[1] & COLON, ms


def test_a_running_h_mm_changes_the_frame_twice_a_second_and_says_when():
    screen = SegScreen()
    changes = []
    ms = 5427000
    while ms > 5425000:
        left, right = running_views(ms)
        if screen.clock(left, right, Status()):
            changes.append(ms)
        wait = screen.until_blink(left)
        assert 0 < wait <= 500, (ms, wait)
        ms -= wait
    assert changes == [5427000, 5426999, 5426499, 5425999, 5425499]
    assert screen.until_blink(views(5425700)[0]) == -1  # waiting
    assert screen.until_blink(running_views(300700)[0]) == -1  # MM:SS
    left, right = running_views(3600200, counting_up=True)
    assert screen.until_blink(left) == 300
    left.time_ms = 3600700
    assert screen.until_blink(left) == 300


def test_in_a_pause_the_side_on_move_has_its_colon_dark_while_its_light_blinks():
    from app.lights import OFF, SLOW

    status = Status()
    status.paused = True
    for points in (False, True):
        screen = SegScreen(points=points)
        status.lights = Lights(OFF, SLOW)
        assert screen.clock(*views(300000, 5425000), status)
        assert screen.frame[1] & COLON and not any(b & COLON for b in screen.frame[4:8])
        assert screen.frame[4:8] == bytes((0, ONE, THREE, ZERO)) and screen.frame[8] == DIM
        status.lights.right_lit = False  # the light blinks; the modules stay as they are
        assert not screen.clock(*views(300000, 5425000), status)
        status.lights = Lights(SLOW, OFF)  # an undo: the left is on move
        assert screen.clock(*views(300000, 5425000), status)
        assert not any(b & COLON for b in screen.frame[:4]) and screen.frame[5] & COLON
