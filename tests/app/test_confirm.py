# SPDX-License-Identifier: MIT
# Nothing is lost by one press: undo, the arbiter's end, dropping a game, a finished game's result.
from app import menus
from hal import buttons as b
from harness import FULL, MINIMAL, Clock

MIN = 60000


def _paused_after_two_plies():
    clock = Clock(preset="Blitz 5+3")
    clock.press(b.RIGHT, 1000)  # left moves first
    clock.press(b.LEFT, 5000)  # ply 1: 4 s
    clock.press(b.RIGHT, 8000)  # ply 2: 3 s
    clock.press(b.PLAY, 9000)
    clock.run_until(9500)
    assert clock.state() == "paused" and clock.app.game.plies() == 2
    return clock


def test_undo_in_pause_asks_and_names_the_ply_and_a_second_minus_does_it():
    clock = _paused_after_two_plies()
    clock.press(b.MINUS, 10000)
    clock.run_until(10500)
    assert clock.state() == "confirm" and clock.app.game.plies() == 2
    menu = clock.app.open_menu()
    assert menu.title == "Undo ply 2?" and menu.lines()[0] == "MINUS again: yes"
    assert "(the right press)" in menu.lines()
    clock.press(b.MINUS, 11000)
    clock.run_until(11500)
    assert clock.state() == "paused" and clock.app.game.plies() == 1
    # The right clock runs its move again: 5:03 at its start, 3 s of it used.
    assert clock.view(1).time_ms == 5 * MIN + 3000 - 3000 and clock.app.game.turn() == 1


def test_any_other_button_or_ten_seconds_is_a_no():
    for answer in (b.PLAY, b.PLUS, b.SET, None):
        clock = _paused_after_two_plies()
        clock.press(b.MINUS, 10000)
        if answer is not None:
            clock.press(answer, 11000)
            clock.run_until(11500)
        else:
            clock.run_until(10000 + menus.QUESTION_MS - 1)
            assert clock.state() == "confirm"
            clock.run_until(10000 + menus.QUESTION_MS)
        assert clock.state() == "paused", answer
        assert clock.app.game.plies() == 2 and clock.app.game.can_undo()


def test_nothing_to_undo_is_said_and_goes_by_itself():
    clock = _paused_after_two_plies()
    clock.press(b.MINUS, 10000)
    clock.press(b.MINUS, 10500)
    clock.press(b.MINUS, 11000)  # the one undo is spent: nothing more to take back
    clock.run_until(11200)
    assert clock.state() == "confirm" and clock.app.open_menu().title == "Nothing to undo"
    clock.press(b.MINUS, 12000)  # a MINUS does not undo through the note
    clock.run_until(12100)
    assert clock.state() == "paused" and clock.app.game.plies() == 1
    clock.press(b.MINUS, 13000)
    clock.run_until(13000 + menus.NOTE_MS - 1)
    assert clock.state() == "confirm"
    clock.run_until(13000 + menus.NOTE_MS)
    assert clock.state() == "paused"


def test_dropping_a_game_in_progress_asks_first():
    for present in (FULL, MINIMAL):
        clock = _paused_after_two_plies() if present is FULL else Clock(present=MINIMAL)
        if present is MINIMAL:
            clock.press(b.RIGHT, 1000)
            clock.press(b.LEFT, 4000)
            clock.press(b.PLAY, 6000)  # pauses at once
            clock.run_until(7000)
            hold = (b.PLAY, 2600)
        else:
            hold = (b.SET, 2600)
        clock.press(hold[0], 20000, hold_ms=hold[1])  # the reset gesture
        clock.run_until(23000)
        assert clock.state() == "confirm" and clock.app.open_menu().title == "New game?"
        assert "this game is dropped" in clock.app.open_menu().lines()
        clock.press(b.PLAY, 24000)  # no
        clock.run_until(25000)
        assert clock.state() == "paused" and clock.app.game.plies() >= 1
        assert clock.app.in_progress()


def test_a_yes_to_new_game_starts_one():
    clock = _paused_after_two_plies()
    clock.press(b.SET, 20000, hold_ms=2600)
    clock.press(b.SET, 24000)  # yes
    clock.run_until(25000)
    assert clock.state() == "ready" and clock.app.game.plies() == 0


def _flagged():
    clock = Clock(preset="Bullet 1+0")
    clock.press(b.RIGHT, 1000)
    clock.run_until(1000 + MIN + 100)
    assert clock.state() == "over"
    return clock


def test_a_flagged_game_survives_a_stray_set_then_play():
    clock = _flagged()
    frame = bytes(clock.hal.display.frame)
    plies, rows = clock.app.game.plies(), clock.app.record.rows()
    clock.press(b.SET, 70000)  # the preset menu ...
    clock.press(b.PLAY, 71000)  # ... and out of it
    clock.run_until(72000)
    assert clock.state() == "over"
    assert bytes(clock.hal.display.frame) == frame
    assert clock.app.game.plies() == plies and clock.app.record.rows() == rows
    for button in (b.LEFT, b.RIGHT, b.PLAY, b.PLUS, b.MINUS):  # any single press
        clock.press(button, 73000)
        clock.run_until(74000)
        assert clock.state() == "over" and bytes(clock.hal.display.frame) == frame


def test_a_preset_chosen_after_a_flag_asks_before_the_result_is_cleared():
    clock = _flagged()
    clock.press(b.SET, 70000)  # the preset menu, on the game's preset
    clock.press(b.SET, 71000)  # chosen
    clock.run_until(72000)
    assert clock.state() == "confirm" and "the result is cleared" in clock.app.open_menu().lines()
    clock.press(b.PLAY, 73000)  # no: the result stays
    clock.run_until(74000)
    assert clock.state() == "over" and clock.app.game.reason() != 0
    clock.press(b.SET, 75000, hold_ms=2600)  # the reset gesture asks too
    clock.press(b.SET, 79000)
    clock.run_until(80000)
    assert clock.state() == "ready"


def test_the_arbiter_menu_asks_before_undo_and_before_the_end():
    clock = _paused_after_two_plies()
    clock.press(b.SET, 10000)  # the arbiter menu
    for index in range(6):  # to "Undo last press"
        clock.press(b.SET, 10200 + index * 200)
    clock.press(b.PLUS, 12000)
    clock.run_until(12100)
    lines = clock.app.open_menu().lines()
    assert lines[2:] == ["Undo ply 2?", "PLUS again: yes"]  # as the pause's undo asks
    assert clock.app.game.plies() == 2
    clock.press(b.MINUS, 12200)  # no
    clock.press(b.PLUS, 12400)
    clock.press(b.PLUS, 12600)  # yes
    clock.run_until(12700)
    assert clock.app.game.plies() == 1
    assert "Nothing to undo" in clock.app.open_menu().lines()
    clock.press(b.SET, 13000)  # "End the game"
    clock.press(b.PLUS, 13200)
    clock.press(b.PLAY, 13400)  # drops the question, the menu stays
    clock.run_until(13500)
    assert clock.state() == "arbiter" and clock.app.game.reason() == 0
    assert "End the game" in clock.app.open_menu().lines()


def test_the_resume_offer_is_dropped_only_by_a_second_minus():
    first = _paused_after_two_plies()
    for answer, state in ((b.SET, "resume"), (b.MINUS, "ready")):
        reboot = Clock(fs=first.fs, start=500)
        assert reboot.state() == "resume"
        reboot.press(b.MINUS, 1000)
        reboot.run_until(1100)
        assert reboot.state() == "confirm"
        reboot.press(answer, 2000)
        reboot.run_until(2100)
        assert reboot.state() == state
    assert reboot.app.game.plies() == 0


def test_armageddon_shows_each_side_its_own_time_before_and_after_the_start():
    for lever in (b.LEFT, b.RIGHT):
        clock = Clock(preset="Armageddon 5/4")
        clock.run_until(900)
        assert clock.view(0).time_ms == 5 * MIN and clock.view(1).time_ms == 4 * MIN
        clock.press(lever, 1000)  # either lever: White's clock, shown on the left, starts
        clock.run_until(3000)
        assert clock.view(0).running and clock.view(0).time_ms == 5 * MIN - 2000
        assert clock.view(1).time_ms == 4 * MIN


def test_plus_or_minus_before_an_armageddon_puts_white_on_the_right():
    clock = Clock(preset="Armageddon 5/4")
    clock.press(b.PLUS, 500)
    clock.run_until(900)
    assert clock.view(0).time_ms == 4 * MIN and clock.view(1).time_ms == 5 * MIN
    clock.press(b.LEFT, 1000)
    clock.run_until(2000)
    assert clock.view(1).running and clock.view(1).time_ms == 5 * MIN - 1000


def test_a_symmetric_control_keeps_the_lever_rule():
    clock = Clock(preset="Blitz 5+3")
    clock.press(b.PLUS, 500)  # nothing to swap
    clock.press(b.LEFT, 1000)  # the left lever starts the right clock
    clock.run_until(2000)
    assert clock.view(1).running and not clock.view(0).running


def test_in_the_arbiter_menu_the_button_that_asked_is_the_yes():
    clock = _paused_after_two_plies()
    clock.press(b.SET, 10000)
    for index in range(6):  # to "Undo last press"
        clock.press(b.SET, 10200 + index * 200)
    clock.press(b.MINUS, 12000)  # asks, as MINUS does in the pause
    clock.run_until(12100)
    assert clock.app.open_menu().lines()[2:] == ["Undo ply 2?", "MINUS again: yes"]
    clock.press(b.PLUS, 12200)  # the other button: no
    clock.run_until(12300)
    assert clock.app.game.plies() == 2 and "Undo last press" in clock.app.open_menu().lines()
    clock.press(b.MINUS, 12400)
    clock.press(b.MINUS, 12600)  # yes
    clock.run_until(12700)
    assert clock.app.game.plies() == 1


def test_new_game_says_any_other_key_or_a_lever_is_a_no():
    for answer in (b.PLAY, b.PLUS, b.MINUS, b.LEFT, b.RIGHT):
        clock = _flagged()
        clock.press(b.SET, 70000, hold_ms=2600)  # asks "New game?"
        clock.run_until(73000)
        menu = clock.app.open_menu()
        assert menu.title == "New game?" and menu.lines()[:2] == ["SET: yes", "other key: no"]
        clock.press(answer, 74000)
        clock.run_until(75000)
        assert clock.state() == "over" and clock.app.game.reason() != 0, answer
