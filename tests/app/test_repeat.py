# SPDX-License-Identifier: MIT
# PLUS or MINUS held down steps on, as on a DGT 3000: a 30-minute correction is one press held
# 3.4 s, not 30 presses. Never where a second press is a yes: questions, undo, the end.
from app import gestures as g
from hal import buttons as b
from harness import MINIMAL, Clock

MIN = 60000


def _arbiter_menu(present=None):
    clock = Clock(preset="Blitz 5+3") if present is None else Clock(present, preset="Blitz 5+3")
    clock.press(b.RIGHT, 1000)  # the left clock runs
    clock.press(b.LEFT, 5000)  # ply 1: 4 s; the right clock runs
    clock.press(b.PLAY, 6000)
    clock.run_until(6500)
    if present is None:
        clock.press(b.SET, 7000)
    else:
        clock.press(b.PLAY, 7000, 1200)  # the minimal board's SET: PLAY held 1 s
    clock.run_until(8500)
    assert clock.state() == "arbiter"
    return clock


def test_a_held_plus_adds_thirty_minutes_in_three_and_a_half_seconds():
    clock = _arbiter_menu()
    before = clock.view(0).time_ms  # the left time: 5:03 - 4 s + 3 s
    clock.press(b.PLUS, 10000, 3400)  # acts at 10000, again at 10500 and each 100 ms to 13300
    clock.run_until(14000)
    assert clock.view(0).time_ms == before + 30 * MIN
    assert clock.state() == "arbiter" and clock.app.game.plies() == 1
    clock.press(b.MINUS, 15000, 1000)  # 1 + 5 steps: 15000, 15500 ... 15900
    clock.run_until(16500)
    assert clock.view(0).time_ms == before + 24 * MIN


def test_the_loop_wakes_for_the_repeat_itself():
    clock = _arbiter_menu()
    clock.press(b.PLUS, 10000, 2000)
    clock.run_until(10000)
    app = clock.app
    assert app.next_wake(10000) == 10000 + g.REPEAT_AFTER_MS
    clock.run_until(10000 + g.REPEAT_AFTER_MS)
    assert app.next_wake(clock.hal.now) == 10000 + g.REPEAT_AFTER_MS + g.REPEAT_MS
    before = clock.view(0).time_ms
    clock.run_until(10000 + g.REPEAT_AFTER_MS + g.REPEAT_MS)
    assert clock.view(0).time_ms == before + MIN


def test_a_held_key_never_answers_its_own_question():
    clock = _arbiter_menu()
    for _ in range(6):  # SET to the undo field
        clock.press(b.SET, 9000 + _ * 200)
    clock.run_until(10500)
    clock.press(b.PLUS, 11000, 3000)
    clock.run_until(15000)
    assert clock.app.game.plies() == 1 and clock.app.game.can_undo()
    clock.press(b.SET, 16000)  # the end of the game: asked, never done by holding
    clock.run_until(16500)
    clock.press(b.PLUS, 17000, 3000)
    clock.run_until(21000)
    assert clock.state() == "arbiter" and clock.app.game.state() != 3


def test_over_the_clocks_a_held_key_acts_once():
    clock = Clock(preset="Blitz 5+3")
    clock.press(b.RIGHT, 1000)
    clock.press(b.LEFT, 5000)
    clock.press(b.PLAY, 6000)
    clock.press(b.MINUS, 7000, 3000)  # asks "Undo ply 1?" once; holding it is no second press
    clock.run_until(11000)
    assert clock.state() == "confirm" and clock.app.game.plies() == 1
    armageddon = Clock(preset="Armageddon 5/4")
    armageddon.press(b.PLUS, 2000, 3000)  # swaps the sides once
    armageddon.run_until(6000)
    assert armageddon.app.left_player == 1
    armageddon.press(b.LEFT, 7000, 2000)  # a lever held starts the game and nothing more
    armageddon.run_until(10000)
    assert armageddon.state() == "running" and armageddon.app.game.plies() == 0


def test_the_minimal_board_s_levers_step_on_in_its_menus():
    clock = _arbiter_menu(MINIMAL)
    before = clock.view(0).time_ms
    clock.press(b.RIGHT, 10000, 1000)  # the right lever is PLUS in menus: 1 + 5 steps
    clock.run_until(11500)
    assert clock.view(0).time_ms == before + 6 * MIN
    assert clock.state() == "arbiter" and clock.app.game.plies() == 1


def test_the_preset_menu_scrolls_and_the_editor_counts_while_held():
    clock = Clock()
    clock.press(b.SET, 1000)
    clock.press(b.PLUS, 2000, 800)  # 1 + 3 steps
    clock.run_until(3000)
    assert clock.app.open_menu().index == 4
    clock.press(b.PLAY, 3200)  # closed, opened again at the chosen preset
    clock.press(b.SET, 3400)
    for at in (4000, 4200):  # MINUS round to "Custom...", then SET
        clock.press(b.MINUS, at)
    clock.run_until(4600)
    assert clock.app.open_menu().lines()[clock.app.open_menu().selected] == "Custom..."
    clock.press(b.SET, 5000)
    clock.press(b.PLUS, 6000, 2000)  # minutes 5 -> 5 + 1 + 15
    clock.run_until(8500)
    assert clock.app.open_menu().values[0] == 21
