# SPDX-License-Identifier: MIT
# Starting, pausing, undo, arbiter functions, options and limits of a two-player game.
from clock.game import (
    ABORTED,
    FLAG_FELL,
    GAME_OVER,
    HALTED,
    OVER,
    PAUSED,
    READY,
    RUNNING,
    SECOND,
    TIME,
)
from clock.model import DELAY, ClockError, Control, Setup, Stage
from play import moves, shown, start, view
from support import raises

from clock.game import Game

MIN = 60000


def test_either_lever_starts_the_other_sides_clock():
    game = Game(Setup(Control([Stage(5 * MIN)])))
    assert game.state() == READY
    assert game.press(1, 100)  # the second player's lever: the first player's clock runs
    assert game.state() == RUNNING and game.turn() == 0
    assert not game.press(1, 200)  # the waiting player's lever does nothing
    assert shown(game, 0, 1100) == 5 * MIN - 1000


def test_nothing_is_charged_in_a_pause_and_levers_are_ignored():
    game = start(Setup(Control([Stage(5 * MIN)])))
    assert game.pause(2000) and game.state() == PAUSED
    assert not game.press(0, 3000)
    assert shown(game, 0, 900000) == 5 * MIN - 2000
    assert game.resume(900000)
    assert shown(game, 0, 901000) == 5 * MIN - 3000
    assert game.flag_at() == 900000 + 5 * MIN - 2000 + 1


def test_a_pause_in_the_middle_of_a_delay_keeps_what_is_left_of_it():
    game = start(Setup(Control([Stage(MIN, increment_ms=5000, mode=DELAY)])))
    game.pause(3000)
    paused = view(game, 0, 50000)
    assert paused.delay_ms == 2000 and paused.time_ms == MIN
    game.resume(50000)
    assert view(game, 0, 51500).delay_ms == 500
    now = moves(game, [0], 54000)  # 3 + 4 = 7 s of the move: 2 s past the delay
    assert shown(game, 0, now) == MIN - 2000


def test_undo_restores_the_exact_state_and_the_right_clock_runs():
    game = start(Setup(Control([Stage(5 * MIN, increment_ms=2000)])))
    now = moves(game, [7000], 0)
    assert game.turn() == 1
    assert game.undo(now + 3000)  # 3 s of the second player's time are given back
    assert game.turn() == 0 and game.state() == RUNNING
    assert shown(game, 1, now + 3000) == 5 * MIN
    # The first player's move goes on from its 7 s, without the increment.
    assert shown(game, 0, now + 4000) == 5 * MIN - 8000
    assert not game.undo(now + 5000)  # one press back only
    game.press(0, now + 5000)
    assert shown(game, 0, now + 5000) == 5 * MIN - 9000 + 2000


def test_the_arbiter_adds_sets_and_corrects_in_a_pause():
    game = start(Setup(Control([Stage(5 * MIN, moves=40), Stage(MIN)])))
    now = moves(game, [10000, 10000], 0)
    assert raises(ClockError, game.adjust_time, 0, 1000)  # only in a pause
    game.pause(now + 4000)
    game.adjust_time(0, 60000)
    assert shown(game, 0, now + 4000) == 5 * MIN - 14000 + 60000
    game.adjust_time(1, -10000)
    assert shown(game, 1, now) == 5 * MIN - 20000
    game.set_time(1, 123000)
    assert shown(game, 1, now) == 123000
    game.set_moves(0, 39)
    assert view(game, 0, now).moves_left == 1 and view(game, 0, now).moves == 39
    game.resume(now + 10000)
    after = moves(game, [1000], now + 10000)
    assert view(game, 0, after).stage == 1
    assert shown(game, 0, after) == 5 * MIN - 14000 + 60000 - 1000 + MIN


def test_different_controls_per_player_armageddon():
    game = start(Setup(Control([Stage(5 * MIN)]), Control([Stage(4 * MIN)])))
    assert shown(game, 0, 0) == 5 * MIN and shown(game, 1, 0) == 4 * MIN


def test_hourglass_moves_time_to_the_opponent():
    game = start(Setup(Control([Stage(MIN)]), hourglass=True))
    running = view(game, 1, 5000)
    assert running.time_ms == MIN + 5000 and running.counting_up
    now = moves(game, [5000], 0)
    assert shown(game, 0, now) == MIN - 5000 and shown(game, 1, now) == MIN + 5000


def test_start_clock_charges_nothing_and_aborts_when_it_runs_out():
    setup = Setup(Control([Stage(MIN)]), start_ms=30000)
    game = start(setup)
    assert view(game, 0, 10000).start_ms == 20000
    now = moves(game, [25000], 0)
    assert shown(game, 0, now) == MIN and view(game, 0, now).start_ms == -1
    assert game.flag_at() == now + 30001  # the second player's own start clock
    assert game.update(now + 30001) == GAME_OVER | SECOND  # the second player was on move
    assert game.reason() == ABORTED and game.loser() == -1


def test_game_limits_halt_the_game():
    game = start(Setup(Control([Stage(MIN)]), limit_ms=10000))
    now = moves(game, [4000], 0)
    assert game.flag_at() == now + 6001
    assert game.update(now + 6001) & GAME_OVER
    assert game.reason() == HALTED and game.loser() == -1
    game = start(Setup(Control([Stage(MIN)]), limit_turns=2))
    moves(game, [1000, 1000, 1000], 0)
    assert game.state() == RUNNING
    moves(game, [1000], 3000)
    assert game.state() == OVER and game.reason() == HALTED


def test_untimed_players_count_up():
    game = start(Setup(Control([])))
    assert game.flag_at() is None and game.next_event(0) is None
    now = moves(game, [7000, 3000], 0)
    first = view(game, 0, now + 500)
    assert first.time_ms == 7500 and first.counting_up  # on move again, 500 ms in
    assert view(game, 1, now + 500).time_ms == 3000


def test_arimaa_move_time_then_reserve():
    # 1/5/50: 1 min per move, 5 min reserve, 50 % of unused move time to the reserve.
    control = Control([Stage(5 * MIN)], move_ms=MIN, reserve_percent=50)
    game = start(Setup(control))
    running = view(game, 0, 20000)
    assert running.time_ms == 40000 and running.reserve_ms == 5 * MIN
    now = moves(game, [20000], 0)
    assert view(game, 0, now).reserve_ms == 5 * MIN + 20000
    assert view(game, 0, now).time_ms == MIN
    now = moves(game, [0, 90000], now)  # 30 s of the reserve used
    assert view(game, 0, now).reserve_ms == 5 * MIN + 20000 - 30000


def test_arimaa_reserve_limit_and_move_limit():
    # 2/10/100/5/0/3: the reserve is cut to 5 min after every move; no move may last over 3 min.
    control = Control(
        [Stage(10 * MIN)], move_ms=2 * MIN, reserve_limit_ms=5 * MIN, move_limit_ms=3 * MIN
    )
    game = start(Setup(control))
    assert view(game, 0, 1000).reserve_ms == 10 * MIN  # cut only when the move ends
    now = moves(game, [0], 0)
    assert view(game, 0, now).reserve_ms == 5 * MIN  # the starting reserve, cut
    assert view(game, 1, now).reserve_ms == 10 * MIN  # not yet for the side still to move
    assert game.flag_at() == now + 3 * MIN + 1  # the move limit, before the 12 min
    assert game.update(now + 3 * MIN + 1) == GAME_OVER | FLAG_FELL | SECOND
    assert game.reason() == TIME and game.loser() == 1


def test_arimaa_reserve_limit_after_every_move():
    # 1/10/100/5: as AEI and arimaa-server do, unused move time is added, then the reserve cut.
    control = Control([Stage(10 * MIN)], move_ms=MIN, reserve_limit_ms=5 * MIN)
    game = start(Setup(control))
    now = moves(game, [4 * MIN, 0], 0)  # 3 min of the reserve used: 7 min, cut to 5
    assert view(game, 0, now).reserve_ms == 5 * MIN
    now = moves(game, [MIN + 30000, 0], now)  # 30 s of the reserve used: 4:30, below the limit
    assert view(game, 0, now).reserve_ms == 4 * MIN + 30000
    now = moves(game, [0], now)  # a whole unused minute: 5:30, cut to 5
    assert view(game, 0, now).reserve_ms == 5 * MIN
    assert game.undo(now)  # undo gives back the reserve before the cut
    assert view(game, 0, now).reserve_ms == 4 * MIN + 30000


def test_arimaa_a_move_on_the_start_clock_leaves_the_reserve_alone():
    # A move charged to nobody changes no reserve (AEI's setup moves neither add nor cut).
    control = Control([Stage(10 * MIN)], move_ms=MIN, reserve_limit_ms=5 * MIN)
    game = start(Setup(control, start_ms=30000))
    now = moves(game, [20000, 20000], 0)
    assert view(game, 0, now).reserve_ms == 10 * MIN
    now = moves(game, [30000], now)
    assert view(game, 0, now).reserve_ms == 5 * MIN


def test_bad_calls_are_refused():
    game = start(Setup(Control([Stage(MIN)])))
    assert raises(ClockError, game.press, 0, -1)
    assert raises(ClockError, game.press, 0, 1 << 30)
    assert raises(ClockError, game.press, 2, 10)
    assert raises(ClockError, Game, "40/90")


def test_restore_refuses_a_snapshot_that_cannot_be_this_games():
    setup = Setup(Control([Stage(MIN, moves=40), Stage(MIN)]))
    game = start(setup)
    moves(game, [1000, 2000], 0)
    good = game.snapshot()
    again = Game(setup)
    again.restore(good)
    assert again.snapshot() == good
    for index, value in ((0, 7), (2, 0), (1, -5), (31, 9), (30, 2), (32, -1), (3, 1 << 40)):
        bad = list(good)
        bad[index] = value
        raises(ClockError, Game(setup).restore, bad)
    raises(ClockError, Game(setup).restore, good[:-1])


def test_a_game_saved_late_in_the_tick_cycle_restores():
    # The 30-bit tick counter spends half of each 12.4-day cycle above MAX_MS (2**29 - 1): a
    # game saved then must come back as one saved earlier does.
    setup = Setup(Control([Stage(MIN)]))
    late = (1 << 30) - 5000
    game = Game(setup)
    game.start(late, 0)
    game.press(0, late + 2000)
    saved = game.snapshot()
    again = Game(setup)
    again.restore(saved)
    assert again.snapshot() == saved
    assert view(again, 1, late + 3000).time_ms == MIN - 1000


def test_a_snapshot_as_of_now_carries_the_running_move_so_far():
    # With a delay, the move's time so far decides what is charged, so it must survive.
    setup = Setup(Control([Stage(MIN, increment_ms=5000, mode=DELAY)]))
    game = start(setup)
    moves(game, [1000], 0)
    saved = game.snapshot(8000)  # the second player's move has run 7 s of its 5 s delay
    assert game.snapshot() != saved and game.snapshot(8000) == saved
    again = Game(setup)
    again.restore(saved)
    again.freeze()  # a new boot: paused with the time run up to the save
    assert again.state() == PAUSED
    assert view(again, 1, 123).time_ms == MIN - 2000
    assert again.resume(500)
    assert view(again, 1, 1500).time_ms == MIN - 3000
    assert game.pause(9000) and game.snapshot(20000) == game.snapshot()  # only a running move


def test_a_restored_game_has_no_press_to_undo():
    # The state before the last press is not saved: an undo after a power cut once put back
    # a state of zeros, which the next restore refused (a lost game).
    setup = Setup(Control([Stage(MIN, increment_ms=2000)]))
    game = start(setup)
    moves(game, [1000, 1500], 0)
    assert game.pause(3000) and game.can_undo()
    again = Game(setup)
    again.restore(game.snapshot())
    again.freeze()
    assert not again.can_undo() and again.undo(4000) == 0
    assert view(again, 0, 4000).time_ms == view(game, 0, 4000).time_ms
    third = Game(setup)
    third.restore(again.snapshot())  # and it still saves and restores
    assert third.plies() == 2
