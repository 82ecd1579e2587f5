# SPDX-License-Identifier: MIT
# The whole app on the virtual HAL: presses at their instants, frames, tones, menus, power cuts.
import sys

from app import clock_app
from app.sounds import BEEP_HZ, FLAG_HZ
from clock.game import TIME
from hal import buttons as b
from harness import FULL, MINIMAL, Clock

MIN = 60000


def test_a_lever_starts_the_other_side_and_each_press_is_charged_exactly():
    clock = Clock(preset="Blitz 5+3")
    clock.press(b.RIGHT, 2000)  # the right player starts the left clock: left moves first
    clock.press(b.LEFT, 2000 + 7345)
    clock.press(b.RIGHT, 2000 + 7345 + 12001)
    clock.run_until(30000)
    assert clock.state() == "running"
    # Fischer (before): 5:03 at the start of each move.
    assert clock.view(0).time_ms == 5 * MIN + 3000 - 7345 + 3000 - (30000 - 21346)
    assert clock.view(1).time_ms == 5 * MIN + 3000 - 12001
    assert clock.view(0).running and not clock.view(1).running


def test_the_display_changes_within_one_tick_of_a_press():
    clock = Clock(preset="Blitz 5+3")
    clock.press(b.RIGHT, 2000)
    clock.run_until(2000)
    clock.press(b.LEFT, 4321)
    clock.run_until(4321)
    assert clock.hal.display.stamp == 4321  # the frame after the press, at its millisecond
    # The right clock shows 05:03 at the press, 05:02 from 4322, then a new second every
    # 1000 ms: from 4322 to 14321 nine more texts, so nine writes and no others.
    clock.run_until(4322)
    writes = clock.hal.display.writes
    clock.run_until(14321)
    assert clock.hal.display.writes - writes == 9


def test_pause_charges_nothing_and_levers_do_nothing_in_pause():
    clock = Clock(preset="Blitz 5+3")
    clock.press(b.RIGHT, 1000)
    clock.press(b.PLAY, 11000)
    clock.press(b.LEFT, 20000)  # ignored in pause
    clock.press(b.PLAY, 600000)
    clock.run_until(601000)
    assert clock.state() == "running"
    assert clock.view(0).time_ms == 5 * MIN + 3000 - 10000 - 1000


def test_arbiter_adds_two_minutes_in_four_presses():
    clock = Clock(preset="Rapid 15+10")
    clock.press(b.RIGHT, 1000)
    clock.press(b.LEFT, 6000)
    clock.press(b.PLAY, 9000)
    clock.press(b.SET, 10000)  # arbiter mode: the first field is the left time in minutes
    clock.press(b.PLUS, 11000)
    clock.press(b.PLUS, 12000)
    clock.press(b.PLAY, 13000)  # done: back to the paused game
    clock.run_until(14000)
    assert clock.state() == "paused"
    assert clock.view(0).time_ms == 15 * MIN + 10000 - 5000 + 2 * MIN


def test_undo_in_pause_puts_the_right_clock_back():
    clock = Clock(preset="Blitz 5+3")
    clock.press(b.RIGHT, 1000)
    clock.press(b.LEFT, 5000)
    clock.press(b.PLAY, 6000)
    clock.press(b.MINUS, 7000)  # asks "Undo ply 1?"
    clock.press(b.MINUS, 7500)  # yes
    clock.press(b.PLAY, 8000)
    clock.run_until(9000)
    left = clock.view(0)
    assert left.running and left.time_ms == 5 * MIN + 3000 - 4000 - 1000
    assert clock.view(1).time_ms == 5 * MIN


def test_a_flag_ends_the_game_at_its_millisecond_with_a_long_tone():
    clock = Clock(preset="Bullet 1+0")
    clock.press(b.RIGHT, 1000)
    clock.run_until(1000 + MIN + 500)
    assert clock.state() == "over"
    assert clock.app.game.reason() == TIME and clock.app.game.end_stamp() == 1000 + MIN + 1
    tones = clock.hal.buzzer.tones
    assert tones[-1][0] == 1000 + MIN + 1 and tones[-1][1] == FLAG_HZ
    # Beeps 10 s before the end and on each of the last 5 seconds.
    beeps = [stamp - 1000 for stamp, hz, ms in tones if hz == BEEP_HZ]
    assert beeps == [50000, 55000, 56000, 57000, 58000, 59000]


def test_mute_silences_everything():
    clock = Clock(preset="Bullet 1+0")
    clock.app.sounds.muted = True
    clock.press(b.RIGHT, 1000)
    clock.run_until(1000 + MIN + 500)
    assert clock.hal.buzzer.tones == []


def test_a_power_cut_resumes_paused_with_the_times_of_the_last_save():
    clock = Clock(preset="Rapid 15+10")
    clock.press(b.RIGHT, 1000)
    clock.press(b.LEFT, 8000)
    clock.press(b.RIGHT, 20000)
    clock.run_until(55000)  # 35 s into the left player's move when the power goes
    reboot = Clock(fs=clock.fs, start=777)
    assert reboot.state() == "resume"
    reboot.press(b.SET, 1000)
    reboot.run_until(2000)
    assert reboot.state() == "paused"
    # Fischer before: +10 s at the start of each of the left player's two moves; the move
    # was last saved 30 s in (saves every 10 s while it runs).
    assert reboot.view(0).time_ms == 15 * MIN + 10000 - 7000 + 10000 - 30000
    assert reboot.view(1).time_ms == 15 * MIN + 10000 - 12000
    reboot.press(b.PLAY, 3000)
    reboot.press(b.LEFT, 5000)
    reboot.run_until(5000)
    assert reboot.view(0).time_ms == 15 * MIN + 10000 - 7000 + 10000 - 32000


def test_a_new_game_forgets_the_saved_one():
    clock = Clock(preset="Rapid 15+10")
    clock.press(b.RIGHT, 1000)
    clock.press(b.PLAY, 2000)
    clock.press(b.SET, 3000, hold_ms=3000)  # held: reset asks "New game?"
    clock.press(b.SET, 6500)  # yes
    clock.run_until(7000)
    assert clock.state() == "ready"
    assert Clock(fs=clock.fs).state() == "ready"


def test_choosing_a_preset_in_the_menu():
    clock = Clock()
    names = [preset.name for preset in clock.app.presets.items]
    clock.press(b.SET, 1000)
    clock.press(b.PLUS, 2000)
    clock.press(b.PLUS, 3000)
    clock.press(b.SET, 4000)
    clock.run_until(5000)
    assert clock.state() == "ready"
    assert clock.app.preset().name == names[2]
    assert Clock(fs=clock.fs).app.preset().name == names[2]  # remembered


def test_a_custom_preset_made_on_the_clock():
    clock = Clock()
    count = len(clock.app.presets.items)
    clock.press(b.SET, 1000)
    for step in range(count + 1):  # down to "Custom..."
        clock.press(b.PLUS, 2000 + step * 200)
    clock.press(b.SET, 9000)
    clock.press(b.PLUS, 10000)  # 6 minutes
    clock.press(b.SET, 11000)
    clock.press(b.MINUS, 12000)  # 2 s
    clock.press(b.SET, 13000)
    clock.press(b.PLUS, 14000)  # fischer-after
    clock.press(b.SET, 15000)
    clock.run_until(16000)
    assert clock.state() == "ready"
    assert clock.app.preset().spec == "chessclock:G/6/2 fischer-after"
    assert clock.view(0).time_ms == 6 * MIN


def test_the_minimal_board_is_fully_usable():
    clock = Clock(present=MINIMAL)
    names = [preset.name for preset in clock.app.presets.items]
    clock.press(b.PLAY, 1000, hold_ms=1200)  # held 1 s: SET, the preset menu
    clock.press(b.RIGHT, 3000)  # levers are - and + in menus
    clock.press(b.PLAY, 4000, hold_ms=1200)  # SET: choose
    clock.press(b.RIGHT, 6000)  # starts the game
    clock.press(b.PLAY, 9000)  # a running clock pauses as the button is pressed
    clock.run_until(9050)
    assert clock.app.preset().name == names[1] and clock.state() == "paused"
    assert clock.view(0).time_ms == clock.app.game.setup.first.stages[0].duration_ms + 10000 - 3000
    clock.press(b.PLAY, 10000)  # short: resume
    clock.run_until(10500)
    assert clock.state() == "running"


def test_interim_flag_state_and_who_fell_first():
    clock = Clock(preset="FIDE classical")
    clock.press(b.RIGHT, 1000)
    clock.run_until(1000 + 90 * MIN + 30000 + 5)  # the left player ran out of period 1
    assert clock.state() == "interim"
    assert clock.app.status.first_flag_side == 0
    assert clock.view(0).flagged and clock.view(0).stage == 1


def test_the_arbiter_ends_the_game_at_the_instant_asked():
    clock = Clock(preset="Rapid 15+10")
    clock.press(b.RIGHT, 1000)
    clock.press(b.PLAY, 5000)
    clock.press(b.SET, 6000)
    for index in range(7):  # to the last field: end the game
        clock.press(b.SET, 7000 + index * 200)
    clock.press(b.PLUS, 8800)  # asks "End the game? +: yes"
    clock.press(b.PLUS, 9000)  # yes
    clock.run_until(10000)
    assert clock.state() == "over"
    assert clock.app.game.end_stamp() == 9000 and clock.app.status.message == "END"


def test_a_press_after_the_flag_in_the_same_pass_still_ends_the_game():
    # The loop wakes at the flag's instant; a lever pressed at that very millisecond is taken
    # first, finds the flag fallen and is refused; the app must still show the game over.
    clock = Clock(preset="Bullet 1+0")
    clock.press(b.RIGHT, 1000)
    clock.press(b.LEFT, 1000 + MIN + 1)
    clock.run_until(1000 + MIN + 500)
    assert clock.state() == "over"
    assert clock.app.game.end_stamp() == 1000 + MIN + 1
    assert clock.hal.buzzer.tones[-1][1] == FLAG_HZ


def test_a_pause_after_the_flag_in_the_same_pass_still_ends_the_game():
    clock = Clock(preset="Bullet 1+0")
    clock.press(b.RIGHT, 1000)
    clock.press(b.PLAY, 1000 + MIN + 1)
    clock.run_until(1000 + MIN + 500)
    assert clock.state() == "over"


def _parsers_in_memory():
    return sorted(
        [
            name
            for name in sys.modules
            if name.startswith("notation.") and name != "notation.errors"
        ]
    )


def test_the_parsers_leave_memory_once_a_game_is_set_up_or_resumed():
    clock = Clock(preset="Go 30m 5x30s byoyomi")
    assert _parsers_in_memory() == []
    clock.press(b.RIGHT, 1000)
    clock.press(b.LEFT, 2000)
    clock.run_until(3000)
    reboot = Clock(fs=clock.fs, start=777)  # reads the saved game's preset again
    assert reboot.state() == "resume"
    assert _parsers_in_memory() == []
    assert clock.app.presets.items[0].summary() == "5 min + 3 s/move"
    assert _parsers_in_memory() == []


def test_a_stored_preset_that_no_longer_reads_gives_way_to_the_first_one():
    clock = Clock()
    clock.fs.files["/presets.txt"] = bytearray(b"Good = chessclock:G/5\nBad = chessclock:G/x\n")
    clock.fs.files["/settings.txt"] = bytearray(b"muted = off\npreset = 1\n")
    reboot = Clock(fs=clock.fs)  # the refusal raised after the parser left is still caught
    assert reboot.app.preset().name == "Good"
    assert reboot.view(0).time_ms == 5 * MIN
    assert _parsers_in_memory() == []


def _seg_clock(**kwargs):
    from ui.seg7 import SegScreen

    return Clock(screen=SegScreen(), **kwargs)


def _set_on(clock):
    """SET as the board has it: its button, or PLAY held 1 s on the minimal board."""
    if clock.app.plus_minus:
        return lambda at: clock.press(b.SET, at)
    return lambda at: clock.press(b.PLAY, at, hold_ms=1200)


def _erase_list_asked(clock):
    """Two club presets, then the menu up to "Factory presets" and SET pressed there once."""
    clock.app.presets.add("Club 45+15", "chessclock:G/45/15")
    clock.app.presets.add("Club 25+5", "chessclock:G/25/5")
    count = len(clock.app.presets.items)
    set_at = _set_on(clock)
    set_at(1000)  # the preset menu
    clock.press(b.MINUS if clock.app.plus_minus else b.LEFT, 3000)  # up: round to the last item
    set_at(4000)
    clock.run_until(6000)
    return count


def test_factory_presets_asks_before_it_erases_the_list():
    for present in (FULL, MINIMAL):
        clock = Clock(present=present)
        count = _erase_list_asked(clock)
        assert clock.state() == "menu" and len(clock.app.presets.items) == count
        assert "Erase list? SET: yes" in clock.app.open_menu().lines()
        _set_on(clock)(7000)  # asked again: yes
        clock.run_until(9000)
        assert clock.state() == "ready" and clock.app.preset().name == "Blitz 5+3"
        assert len(clock.app.presets.items) == count - 2


def test_the_question_goes_away_with_any_other_button():
    clock = Clock()
    count = _erase_list_asked(clock)
    clock.press(b.PLAY, 7000)  # no: the question goes, the menu stays
    clock.press(b.SET, 8000)  # and SET asks again rather than erasing
    clock.run_until(9000)
    assert clock.state() == "menu" and len(clock.app.presets.items) == count
    clock.press(b.PLUS, 10000)  # moving on drops it too
    clock.press(b.MINUS, 11000)
    clock.press(b.SET, 12000)
    clock.run_until(13000)
    assert clock.state() == "menu" and len(clock.app.presets.items) == count
    assert "Factory presets" not in clock.app.open_menu().lines()


def _saved_game(name):
    clock = Clock(preset=name)
    clock.press(b.RIGHT, 1000)
    clock.press(b.LEFT, 3000)
    clock.run_until(4000)
    return clock.fs


def test_the_resume_screen_names_the_preset():
    reboot = Clock(fs=_saved_game("Rapid 15+10"), start=777)
    assert reboot.state() == "resume"
    assert reboot.app.open_menu().lines()[0] == "Rapid 15+10"


def test_the_resume_screen_shows_the_text_of_a_preset_no_longer_listed():
    fs = _saved_game("Rapid 15+10")
    Clock(fs=fs).app.presets.remove(1)
    reboot = Clock(fs=fs, start=777)
    assert reboot.state() == "resume"
    assert reboot.app.open_menu().lines()[0] == "chessclock:G/15/10"


def test_the_seven_segment_resume_screen_scrolls_the_question_and_the_name():
    from ui.seg7 import encode

    reboot = _seg_clock(fs=_saved_game("Othello 5 min + 1"), start=0)
    wanted = bytearray(40)
    wanted = bytes(wanted[: encode("Resume game? Othello 5 min + 1", wanted, 0)])
    frames = set()
    for stamp in range(100, 20000, 100):
        reboot.run_until(stamp)
        frames.add(reboot.hal.display.frame[:8])
    assert frames == set(wanted[k : k + 8] for k in range(len(wanted) - 7))


def test_a_menu_scrolls_on_the_seven_segment_board_without_a_press():
    clock = _seg_clock(preset="Go 30m 5x30s byoyomi")
    clock.press(b.SET, 1000)
    clock.run_until(1100)
    writes = clock.hal.display.writes
    clock.run_until(1100 + 1200 + 12 * 350)  # its 20 characters: 12 steps, then the hold
    assert clock.hal.display.writes - writes == 12


def test_set_while_running_shows_the_counters_on_the_modules_for_three_seconds():
    clock = _seg_clock(preset="FIDE classical")
    clock.press(b.RIGHT, 1000)
    for at in range(2000, 12000, 1000):  # ten moves each: the left player has 30 left
        clock.press(b.LEFT, at)
        clock.press(b.RIGHT, at + 500)
    clock.press(b.SET, 20000)  # released at 20080
    clock.run_until(20080)
    M, THREE, ZERO = 0x37, 0x4F, 0x3F
    assert clock.hal.display.frame[:8] == bytes([M, 0, THREE, ZERO, M, 0, THREE, ZERO])
    clock.run_until(23079)
    assert clock.hal.display.frame[0] == M
    clock.run_until(23080)
    assert clock.hal.display.frame[0] != M and clock.hal.display.stamp == 23080
    clock.press(b.SET, 25000)
    clock.press(b.SET, 26000)  # again: hidden at once
    clock.run_until(26080)
    assert clock.hal.display.frame[0] != M
    assert clock.state() == "running"
    clock.press(b.PLAY, 27000)  # the other buttons do what they did
    clock.press(b.SET, 28000)
    clock.run_until(28100)
    assert clock.state() == "arbiter"


def test_a_paused_clock_dims_the_modules_darkens_the_colon_on_move_and_writes_nothing_more():
    from ui.seg7 import BRIGHT, DIM

    clock = _seg_clock(preset="Blitz 5+3")
    clock.press(b.RIGHT, 1000)
    clock.run_until(4999)
    running = clock.hal.display.frame
    assert running[8] == BRIGHT
    clock.press(b.PLAY, 5000)
    clock.run_until(5000)
    paused = clock.hal.display.frame
    # the left side is on move: its colon goes dark, the right's stays (05:03 | 05:00)
    assert clock.state() == "paused" and paused[1] == running[1] & 0x7F and paused[5] & 0x80
    assert paused[:1] + paused[2:8] == running[:1] + running[2:8]
    assert paused[8] == DIM and clock.hal.display.stamp == 5000
    writes = clock.hal.display.writes
    clock.run_until(65000)
    assert clock.hal.display.writes == writes  # a minute's pause: nothing to draw
    clock.press(b.PLAY, 65100)
    clock.run_until(65100)
    assert clock.hal.display.frame[8] == BRIGHT and clock.hal.display.stamp == 65100


def test_a_running_clock_over_an_hour_blinks_its_colon_on_the_modules_twice_a_second():
    clock = _seg_clock(preset="FIDE classical")
    clock.press(b.RIGHT, 1000)  # the left clock runs, above an hour
    clock.run_until(1100)
    assert clock.app.views(1100)[0].time_ms > 3600000
    display = clock.hal.display
    seen = []
    for stamp in range(1100, 4100, 100):
        clock.run_until(stamp)
        seen.append((display.frame[1] & 0x80, display.frame[5] & 0x80))
    # 1:30:30 at 1000: lit the first half of each second shown, 1001 to 1500, 2001 to 2500...
    assert [left for left, _ in seen] == ([0x80] * 5 + [0] * 5) * 3
    assert all(right for _, right in seen)  # the waiting side's colon stays lit
    assert clock.app.next_wake(4000) == 4001  # the next half second: 1:30:57.000 -> .999
