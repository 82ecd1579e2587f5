# SPDX-License-Identifier: MIT
# The running-side lights: each side's mode per app state, the blinks' levels and edges, and the
# loop waking at each edge to write them (hal.leds keeps the levels and their changes).
from app import lights
from app.lights import FAST, OFF, ON, SLOW
from hal import buttons as b
from harness import Clock

MIN = 60000


def modes(clock):
    return (clock.app.lights.left, clock.app.lights.right)


def lit(clock):
    return (clock.hal.leds.left_on, clock.hal.leds.right_on)


def recording(clock):
    clock.hal.leds.changes = []
    return clock.hal.leds.changes


def test_levels_and_edges_of_each_mode():
    assert lights.level(ON, 0, 12345) and not lights.level(OFF, 0, 12345)
    assert lights.until_edge(ON, 0, 7) == -1 and lights.until_edge(OFF, 0, 7) == -1
    # a blink is lit first, from the stamp its mode began
    slow = [lights.level(SLOW, 1000, 1000 + t) for t in (0, 999, 1000, 1999, 2000)]
    assert slow == [True, True, False, False, True]
    fast = [lights.level(FAST, 1000, 1000 + t) for t in (0, 124, 125, 249, 250)]
    assert fast == [True, True, False, False, True]
    assert lights.until_edge(SLOW, 1000, 1000) == 1000
    assert lights.until_edge(SLOW, 1000, 1999) == 1 and lights.until_edge(SLOW, 1000, 2000) == 1000
    assert lights.until_edge(FAST, 1000, 1130) == 120


def test_blinks_keep_their_phase_across_the_wrap_of_the_stamps():
    since = 2**30 - 100
    assert lights.level(SLOW, since, 899) and not lights.level(SLOW, since, 900)
    assert lights.until_edge(SLOW, since, 899) == 1


def test_ready_and_the_preset_menu_leave_both_dark():
    clock = Clock(preset="Blitz 5+3")
    clock.run_until(1000)
    assert modes(clock) == (OFF, OFF) and lit(clock) == (False, False)
    clock.press(b.SET, 2000)
    clock.run_until(2500)
    assert clock.state() == "menu" and modes(clock) == (OFF, OFF) and lit(clock) == (False, False)


def test_the_running_side_is_lit_steadily_and_the_light_follows_each_press():
    clock = Clock(preset="Blitz 5+3")
    changes = recording(clock)
    clock.press(b.RIGHT, 1000)  # the left clock starts
    clock.run_until(3000)
    assert modes(clock) == (ON, OFF) and lit(clock) == (True, False)
    clock.press(b.LEFT, 3000)
    clock.run_until(9000)
    assert modes(clock) == (OFF, ON) and lit(clock) == (False, True)
    assert changes == [(1000, True, False), (3000, False, True)]
    assert clock.app.lights.until_edge(9000) == -1


def test_a_pause_blinks_the_side_on_move_slowly_and_each_edge_wakes_the_loop():
    clock = Clock(preset="Blitz 5+3")
    clock.press(b.RIGHT, 1000)
    clock.press(b.LEFT, 3000)
    clock.press(b.PLAY, 4000)  # the right player was on move
    clock.run_until(4000)
    changes = recording(clock)
    assert clock.state() == "paused" and modes(clock) == (OFF, SLOW)
    assert clock.app.next_wake(4000) == 5000  # the blink's edge: no wake more than before
    clock.run_until(8100)
    assert changes == [(5000, False, False), (6000, False, True), (7000, False, False)] + [
        (8000, False, True)
    ]
    clock.press(b.PLAY, 8200)
    clock.run_until(8300)
    assert clock.state() == "running" and modes(clock) == (OFF, ON)
    assert len(changes) == 4 and lit(clock) == (False, True)  # lit since 8000, steady from now


def test_the_arbiter_menu_keeps_the_pause_s_blink_and_an_undo_moves_it():
    clock = Clock(preset="Blitz 5+3")
    clock.press(b.RIGHT, 1000)
    clock.press(b.LEFT, 3000)
    clock.press(b.PLAY, 4000)
    clock.press(b.SET, 4200)
    clock.run_until(4700)
    assert clock.state() == "arbiter" and modes(clock) == (OFF, SLOW)
    assert clock.app.lights.since == 4000 and lit(clock) == (False, True)  # 4000..5000 lit
    clock.press(b.PLAY, 5000)  # back to the pause
    clock.press(b.MINUS, 5600)  # takes back the left player's move: the left is on move again
    clock.run_until(5650)
    undone = 5600
    if clock.state() == "confirm":  # a firmware that asks first: the question keeps the blink
        assert modes(clock) == (OFF, SLOW)
        clock.press(b.MINUS, 6100)  # yes
        undone = 6100
    clock.run_until(undone + 50)
    assert clock.state() == "paused" and modes(clock) == (SLOW, OFF)
    assert clock.app.lights.since == undone and lit(clock) == (True, False)


def test_an_interim_flag_keeps_the_running_side_lit():
    clock = Clock(preset="FIDE classical")
    clock.press(b.RIGHT, 1000)
    clock.run_until(1000 + 90 * MIN + 30000 + 5)  # the left player ran out of period 1
    assert clock.state() == "interim" and modes(clock) == (ON, OFF) and lit(clock) == (True, False)


def test_a_game_lost_on_time_blinks_the_flagged_side_fast_till_a_new_game():
    clock = Clock(preset="Bullet 1+0")
    clock.press(b.RIGHT, 1000)
    clock.press(b.LEFT, 2000)  # the right player runs out
    clock.run_until(2000 + MIN)
    changes = recording(clock)
    clock.run_until(2000 + MIN + 300)
    assert clock.state() == "over" and modes(clock) == (OFF, FAST)
    flag = clock.app.game.end_stamp()
    assert flag == 2000 + MIN + 1 and clock.app.lights.since == flag
    # lit as it ran, it stays lit at the flag and blinks from there
    assert [stamp - flag for stamp, _, _ in changes] == [125, 250]
    assert [right for _, _, right in changes] == [False, True]
    clock.app.new_game()  # as the arbiter starts one
    clock.run_until(3000 + MIN)
    assert clock.state() == "ready" and modes(clock) == (OFF, OFF) and lit(clock) == (False, False)


def test_a_game_ended_by_the_arbiter_leaves_both_dark():
    clock = Clock(preset="Rapid 15+10")
    clock.press(b.RIGHT, 1000)
    clock.press(b.PLAY, 5000)
    clock.press(b.SET, 6000)
    for index in range(7):  # to the last field: end the game
        clock.press(b.SET, 7000 + index * 200)
    clock.press(b.PLUS, 8800)  # ends the game, or asks first on a firmware that asks
    clock.press(b.PLUS, 9000)  # the yes (nothing once the game is over)
    clock.run_until(10000)
    assert clock.state() == "over" and clock.app.game.reason() != 1
    assert modes(clock) == (OFF, OFF) and lit(clock) == (False, False)
    assert clock.app.lights.until_edge(10000) == -1


def test_an_edge_that_went_by_during_a_long_pass_wakes_the_loop_at_once():
    # On battery a running light flashes 60 ms a second; a pass that saves to flash past the
    # flash's end must not leave it lit until the next second's flash.
    clock = Clock(preset="Blitz 5+3")
    clock.hal.leds.flash_ms = 60
    clock.app.lights.battery(True)
    clock.press(b.RIGHT, 1000)
    clock.run_until(1010)
    lights = clock.app.lights
    assert lit(clock) == (True, False)  # the left player's clock runs: its flash began at 1000
    assert lights.until_edge(1010) == 50
    assert lights.until_edge(1080) == 0  # its end went by unseen (no follow() since 1010)
    assert clock.app.next_wake(1080) <= 1080  # due: the loop does not sleep
    clock.run_until(1090)
    assert lit(clock) == (False, False) and lights.until_edge(1090) == 910
