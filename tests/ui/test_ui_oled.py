# SPDX-License-Identifier: MIT
# The OLED clock screen: what each half shows, where, and that a frame is built only on change.
from clock.game import View
from ui import canvas
from ui.oled import OledScreen
from ui.status import Status
from uiread import find_text, lit_count, text_at


def windows(screen):
    dirty = screen.dirty
    return [tuple(dirty.boxes[4 * i : 4 * i + 4]) for i in range(dirty.count)]


def views(left_ms=300000, right_ms=300000):
    left, right = View(), View()
    left.time_ms = left_ms
    right.time_ms = right_ms
    return left, right


def test_first_frame_then_only_on_change():
    screen = OledScreen()
    left, right = views(299999, 300000)  # 04:59 | 05:00
    status = Status()
    assert screen.clock(left, right, status)
    before = bytes(screen.frame)
    left.time_ms = 299001  # still 04:59
    assert not screen.clock(left, right, status)
    assert bytes(screen.frame) == before
    left.time_ms = 298999  # 04:58
    assert screen.clock(left, right, status)
    assert bytes(screen.frame) != before


def test_a_side_whose_view_stayed_fixed_is_not_rebuilt():
    screen = OledScreen()
    left, right = views(299999, 300000)
    right.fixed = 42  # the game says nothing of this side changed while it keeps 42
    status = Status()
    assert screen.clock(left, right, status)
    before = bytes(screen.frame)
    right.time_ms = 200000  # the number stayed: the side is as it was built
    assert not screen.clock(left, right, status)
    assert bytes(screen.frame) == before
    status.first_flag_side = 1  # what the status says of it is not the view's
    right.flagged = right.flagged_first = True
    assert screen.clock(left, right, status)
    assert text_at(screen.frame, 67, 48, "1ST FLAG")
    right.time_ms = 100000
    assert not screen.clock(left, right, status)
    right.fixed = 43  # a new number: the side is built again
    assert screen.clock(left, right, status)
    right.fixed = -1  # running: built every time
    right.time_ms = 199000
    assert screen.clock(left, right, status)
    assert not screen.clock(left, right, status)


def test_draws_into_a_given_frame():
    frame = bytearray(canvas.SIZE)
    screen = OledScreen(frame)
    assert screen.frame is frame
    screen.clock(*views(), Status())
    assert lit_count(frame, 0, 0, 128, 64) > 0


def test_mm_ss_in_large_digits_on_each_half():
    screen = OledScreen()
    screen.clock(*views(300000, 0), Status())  # 05:00 | 0.0
    f = screen.frame
    # "05:00": digits 12 wide, 30 high, bars 3 thick, 2 apart: 59 px centred at x 1, y 9
    assert canvas.pixel(f, 7, 9) and canvas.pixel(f, 1, 19)  # "0": top bar, left bar
    assert not canvas.pixel(f, 7, 23)  # "0" has no middle bar
    assert canvas.pixel(f, 21, 9) and canvas.pixel(f, 15, 15) and not canvas.pixel(f, 26, 15)
    assert canvas.pixel(f, 21, 23) and canvas.pixel(f, 26, 29) and not canvas.pixel(f, 15, 29)
    assert lit_count(f, 29, 15, 3, 3) == 9 and lit_count(f, 29, 29, 3, 3) == 9  # the colon
    assert lit_count(f, 29, 19, 3, 8) == 0
    # nothing of the left time spills past its half (x 0..61); the divider is at 63..64
    assert lit_count(f, 62, 8, 1, 32) == 0 and lit_count(f, 65, 8, 1, 32) == 0


def test_hours_and_tenths_fit_their_half():
    screen = OledScreen()
    screen.clock(*views(12 * 3600000 + 30 * 60000 + 25000, 19950), Status())  # 12:30:25 | 19.9
    f = screen.frame
    assert lit_count(f, 0, 8, 62, 32) > 0 and lit_count(f, 62, 8, 1, 32) == 0
    assert lit_count(f, 66, 8, 62, 32) > 0 and lit_count(f, 65, 8, 1, 32) == 0
    # "19.9": 13 wide, 32 high; width 3 * 13 + 3 + 3 * 2 = 48, from x = 66 + 7 = 73
    assert lit_count(f, 73 + 10, 8, 3, 32) == 96  # the "1": its right bars, full height
    assert lit_count(f, 73 + 30, 8 + 29, 3, 3) == 9  # the point, on the baseline


def test_counters_in_the_top_line():
    screen = OledScreen()
    left, right = views()
    left.moves = 23
    left.periods_left = 3
    left.moves_left = 1  # a byo-yomi period is one move: nothing to count
    right.moves = 17
    right.moves_left = 12
    screen.clock(left, right, Status())
    f = screen.frame
    assert text_at(f, 1, 0, "#23") and text_at(f, 1 + 6 * 6, 0, "BY 3")
    assert find_text(f, "M1", 0, 0, 62) == -1
    assert text_at(f, 67, 0, "#17") and text_at(f, 67 + 7 * 6, 0, "M12")
    assert find_text(f, "S", 0, 0, 62) == -1  # no stage shown in the first stage


def test_the_stage_shows_where_no_count_says_where_the_player_is():
    screen = OledScreen()
    left, right = views()
    left.moves = 45
    left.stage = 1  # FIDE classical after move 40: the rest of the game
    right.moves = 44
    right.stage = 1  # Canadian overtime: 25 stones in the block, no "S2" beside them
    right.moves_left = 25
    screen.clock(left, right, Status())
    f = screen.frame
    assert text_at(f, 1, 0, "#45 S2")
    assert text_at(f, 67, 0, "#44") and text_at(f, 67 + 7 * 6, 0, "M25")
    assert find_text(f, "S2", 0, 66, 128) == -1


def test_periods_win_the_space_over_the_moves_made():
    screen = OledScreen()
    left, right = views()
    left.moves = 123
    left.stage = 2
    left.periods_left = 5
    left.moves_left = 1
    screen.clock(left, right, Status())
    assert text_at(screen.frame, 1, 0, "#123  BY 5")
    left.moves = 1234
    left.periods_left = 10
    screen.clock(left, right, Status())
    assert text_at(screen.frame, 1, 0, "     BY 10")


def test_aux_line_reserve_delay_start_penalty():
    screen = OledScreen()
    left, right = views()
    left.reserve_ms = 272000
    right.delay_ms = 4200
    screen.clock(left, right, Status())
    assert text_at(screen.frame, 1, 48, "R 4:32") and text_at(screen.frame, 67, 48, "D 4.2")
    left.reserve_ms = -1
    left.start_ms = 30000
    right.delay_ms = 0
    right.penalty_ms = 65000
    assert screen.clock(left, right, Status())
    assert text_at(screen.frame, 1, 48, "ST 0:30") and text_at(screen.frame, 67, 48, "+1:05")


def test_a_band_across_the_half_under_the_running_side():
    screen = OledScreen()
    left, right = views()
    left.running = True
    screen.clock(left, right, Status())
    assert lit_count(screen.frame, 0, 41, 62, 6) == 62 * 6  # rows 41-46, the half's width
    assert lit_count(screen.frame, 0, 40, 62, 1) == lit_count(screen.frame, 0, 47, 62, 1) == 0
    assert lit_count(screen.frame, 66, 40, 62, 8) == 0
    left.running = False
    right.running = True
    assert screen.clock(left, right, Status())
    assert lit_count(screen.frame, 0, 40, 62, 8) == 0
    assert lit_count(screen.frame, 66, 41, 62, 6) == 62 * 6


class PausedLights:
    """What the app's Lights tell a screen: the modes, and the levels as last written."""

    def __init__(self, left, right, lit=True):
        self.left = left
        self.right = right
        self.left_lit = self.right_lit = lit


def test_in_a_pause_the_side_on_move_has_an_outlined_band_that_stays_while_its_light_blinks():
    from app.lights import OFF, SLOW

    screen = OledScreen()
    left, right = views()
    status = Status()
    status.paused = True
    status.lights = PausedLights(OFF, SLOW)
    screen.clock(left, right, status)
    assert lit_count(screen.frame, 66, 41, 62, 6) == 2 * 62 + 2 * 4  # the outline alone
    assert lit_count(screen.frame, 67, 42, 60, 4) == 0
    assert lit_count(screen.frame, 0, 40, 62, 8) == 0
    screen.dirty.clear()
    status.lights.right_lit = False  # the light blinks; the band stays as it is
    assert not screen.clock(left, right, status)
    status.lights = PausedLights(SLOW, OFF)  # an undo: the left is on move
    assert screen.clock(left, right, status)
    assert lit_count(screen.frame, 0, 41, 62, 6) == 2 * 62 + 2 * 4
    assert lit_count(screen.frame, 66, 40, 62, 8) == 0
    assert windows(screen) == [(0, 127, 5, 5)]  # both bands, one window


def test_pause_changes_the_frame_and_says_so():
    screen = OledScreen()
    left, right = views()
    status = Status()
    screen.clock(left, right, status)
    assert find_text(screen.frame, "PAUSE", 57) == -1
    status.paused = True
    assert screen.clock(left, right, status)
    assert text_at(screen.frame, 49, 57, "PAUSE", on=0)  # centred, inverted
    assert not screen.clock(left, right, status)


def test_flags_and_who_fell_first():
    screen = OledScreen()
    left, right = views(0, 0)
    left.flagged = right.flagged = True
    status = Status()
    status.first_flag_side = 1
    screen.clock(left, right, status)
    f = screen.frame
    assert text_at(f, 1, 48, "FLAG") and not text_at(f, 1, 48, "1ST FLAG")
    assert text_at(f, 67, 48, "1ST FLAG")
    # a flagged side's time is dark on a lit block
    assert canvas.pixel(f, 0, 8) and canvas.pixel(f, 61, 39) and canvas.pixel(f, 66, 8)
    status.first_flag_side = 0
    assert screen.clock(left, right, status)
    assert text_at(screen.frame, 1, 48, "1ST FLAG") and text_at(screen.frame, 67, 48, "FLAG ")


def test_a_lone_flag_uses_the_view_when_status_has_none():
    screen = OledScreen()
    left, right = views(0, 5000)
    left.flagged = left.flagged_first = True
    screen.clock(left, right, Status())
    assert text_at(screen.frame, 1, 48, "1ST FLAG")
    assert not canvas.pixel(screen.frame, 66, 8)


def test_status_line_message_battery_mute():
    screen = OledScreen()
    status = Status()
    status.message = "HALT"
    status.battery_percent = 87
    status.muted = True
    screen.clock(*views(), status)
    f = screen.frame
    assert text_at(f, 0, 57, "MUTE") and text_at(f, 52, 57, "HALT") and text_at(f, 111, 57, "87%")
    status.battery_low = True
    status.battery_percent = 9
    assert screen.clock(*views(), status)
    assert text_at(screen.frame, 117, 57, "9%", on=0)
    status.battery_percent = -1
    assert screen.clock(*views(), status)
    assert text_at(screen.frame, 111, 57, "BAT", on=0)


def test_message_as_bytes_truncated_and_over():
    screen = OledScreen()
    status = Status()
    status.message = b"ARBITER CALLED"
    screen.clock(*views(), status)
    assert text_at(screen.frame, 31, 57, "ARBITER CAL")
    status.message = ""
    status.over = True
    assert screen.clock(*views(), status)
    assert text_at(screen.frame, 52, 57, "OVER")


def test_a_new_message_object_with_the_same_text_changes_nothing():
    screen = OledScreen()
    status = Status()
    status.message = "END"
    screen.clock(*views(), status)
    status.message = "".join(("E", "ND"))
    assert not screen.clock(*views(), status)


def test_menu_and_back_to_the_clock():
    screen = OledScreen()
    left, right = views()
    status = Status()
    screen.clock(left, right, status)
    lines = ["Fischer 5+3", "Byo-yomi 30s x5", "Delay"]
    assert screen.menu("PRESETS", lines, 1)
    f = screen.frame
    assert text_at(f, 1, 0, "PRESETS") and lit_count(f, 0, 9, 128, 1) == 128
    assert text_at(f, 1, 12, "Fischer 5+3") and text_at(f, 1, 23, "Byo-yomi 30s x5", on=0)
    assert not screen.menu("PRESETS", lines, 1)
    assert screen.menu("PRESETS", lines, 2)
    assert text_at(screen.frame, 1, 23, "Byo-yomi") and text_at(screen.frame, 1, 34, "Delay", 0)
    assert screen.clock(left, right, status)  # the same views: the clock must come back
    assert not screen.clock(left, right, status)


def test_a_long_menu_scrolls_to_the_selection():
    screen = OledScreen()
    lines = ["line %d" % i for i in range(8)]
    screen.menu("SET", lines, 6)
    f = screen.frame
    assert text_at(f, 1, 12, "line 2") and text_at(f, 1, 56, "line 6", on=0)
    assert find_text(f, "7/8", 0) == 128 - 17


def test_invalidate_forces_a_redraw():
    screen = OledScreen()
    screen.clock(*views(), Status())
    assert not screen.clock(*views(), Status())
    screen.invalidate()
    assert screen.clock(*views(), Status())


def test_a_press_on_i2c_draws_its_digits_and_leaves_the_counters_and_aux_to_the_next_clock():
    """A press's digits and band go on the glass first; on I2C the move counter, the aux line
    (16 bytes and a text's Python each) and the status line follow with the next clock(), after
    the save."""
    status = Status()
    for bus, spread in (("i2c", True), ("spi", False)):
        screen = OledScreen(bus=bus)
        left, right = views(300000, 300000)  # 05:00 | 05:00
        right.running = True
        screen.clock(left, right, status)
        screen.dirty.clear()
        right.time_ms = 297000  # 04:57, then +3 s: 05:00 stands, the counter is #1, ...
        right.moves = 1
        right.delay_ms = 3000  # ... and the aux line says D 3.0
        right.running = False
        left.running = True
        status.message = "GO" if spread else "ON"  # and the status line changes
        assert screen.clock(left, right, status, True)
        fresh = OledScreen()
        fresh.clock(left, right, status)
        assert (find_text(screen.frame, "#1", 0, 66) >= 0) == (not spread), bus
        assert (find_text(screen.frame, status.message, 57) >= 0) == (not spread), bus
        assert screen.deferred == spread
        sent = windows(screen)  # I2C: the digits (pages 1-4) and the bands (page 5) alone
        assert all(p1 < 6 and p0 > 0 for _x0, _x1, p0, p1 in sent) == spread, sent
        screen.dirty.clear()
        assert screen.clock(left, right, status) == spread and not screen.deferred
        assert bytes(screen.frame) == bytes(fresh.frame), bus


def test_a_press_on_i2c_leaves_a_change_of_shape_to_the_next_clock():
    """59:45 + 30 s after a press is 1:00:15: five smaller digits, the whole half redrawn (258
    bytes on I2C). The press's clock() leaves that half, and the move counter, to the next one,
    which draws them as a fresh screen does. On SPI they go at once."""
    status = Status()
    for bus, spread in (("i2c", True), ("spi", False)):
        screen = OledScreen(bus=bus)
        left, right = views(3585000, 300000)  # 59:45 | 05:00
        screen.clock(left, right, status)
        screen.dirty.clear()
        left.time_ms = 3615000  # 1:00:15
        left.moves = 1
        left.fixed = 7  # the pressed side's clock stands: its view stays fixed
        assert screen.clock(left, right, status, True) == (not spread)  # I2C: nothing yet
        assert screen.deferred == spread and not screen.dirty.whole
        fresh = OledScreen()
        fresh.clock(left, right, status)
        assert (bytes(screen.frame) == bytes(fresh.frame)) == (not spread), bus
        if spread:
            assert find_text(screen.frame, "#1", 0, 0, 61) < 0  # the counter follows too
            assert screen.clock(left, right, status) and not screen.deferred
            assert bytes(screen.frame) == bytes(fresh.frame)
        assert not screen.clock(left, right, status)
