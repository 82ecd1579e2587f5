# SPDX-License-Identifier: MIT
# Byo-yomi, Canadian, PCN periods and GGS overtime (docs/time-controls.md).
from clock.game import FLAG_FELL, GAME_OVER, OVER, PERIOD_USED, STAGE_BEGAN, TIME
from clock.model import BRONSTEIN, FISCHER_AFTER, FLAG, NEXT, SET, SOFT, Control, Setup, Stage
from play import moves, shown, start, view

MIN = 60000


def byoyomi(main, periods, period):
    return Setup(
        Control(
            [
                Stage(main, on_expire=NEXT),
                Stage(period, moves=1, periods=periods, on_enter=SET, on_repeat=SET),
            ]
        )
    )


def canadian(main, stones, block):
    return Setup(
        Control(
            [
                Stage(main, on_expire=NEXT),
                Stage(block, moves=stones, on_enter=SET, on_repeat=SET),
            ]
        )
    )


def test_byoyomi_period_starts_full_again_after_a_move_inside_it():
    game = start(byoyomi(10000, 3, 30000))
    now = moves(game, [10000 + 20000, 0], 0)  # into overtime, 20 s of the first period used
    first = view(game, 0, now)
    assert first.stage == 1 and first.time_ms == 30000 and first.periods_left == 3
    assert first.moves_left == 1


def test_one_long_move_rolls_over_several_periods():
    # 3 periods of 30 s: 90 s in overtime leaves 1; 90.001 s flags.
    game = start(byoyomi(0, 3, 30000))
    now = moves(game, [90000], 0)
    assert view(game, 0, now).periods_left == 1 and shown(game, 0, now) == 30000
    game = start(byoyomi(0, 3, 30000))
    assert game.flag_at() == 90001
    # On the way: the main time (0) ended, the periods began and ran out; then the flag.
    assert game.update(90001) == STAGE_BEGAN | PERIOD_USED | GAME_OVER | FLAG_FELL
    assert game.reason() == TIME


def test_main_time_overflow_runs_into_the_periods():
    game = start(byoyomi(10000, 3, 30000))
    # 10 s main + 25 s: the move that crosses is a move of the first period, which resets.
    now = moves(game, [35000], 0)
    assert view(game, 0, now).periods_left == 3
    # 10 s main + 45 s: one period used up, the second resets.
    game = start(byoyomi(10000, 3, 30000))
    now = moves(game, [55000], 0)
    assert view(game, 0, now).periods_left == 2


def test_period_changes_are_events_of_the_tick_loop():
    game = start(byoyomi(10000, 3, 30000), t0=1000)
    assert game.next_event(1000) == 11001  # main time runs out
    assert game.next_event(11001) == 41001  # the first period runs out
    running = view(game, 0, 41001)
    assert running.periods_left == 2 and running.time_ms == 29999


def test_canadian_block_counts_stones_and_starts_again_full():
    game = start(canadian(0, 3, 60000))
    now = moves(game, [10000, 0, 10000, 0], 0)
    first = view(game, 0, now)
    assert first.time_ms == 40000 and first.moves_left == 1
    now = moves(game, [10000, 0], now)  # third stone: the block starts again; 30 s unused lost
    first = view(game, 0, now)
    assert first.time_ms == 60000 and first.moves_left == 3


def test_canadian_block_below_zero_is_a_flag():
    game = start(canadian(0, 3, 60000))
    now = moves(game, [30000, 0], 0)
    assert game.flag_at() == now + 30001


def test_a_pause_in_canadian_overtime_charges_nothing():
    game = start(canadian(5000, 2, 60000))
    now = moves(game, [15000, 0], 0)  # 10 s of the block used
    assert view(game, 0, now).time_ms == 50000
    now += 20000  # 20 s into the move
    assert game.pause(now)
    assert view(game, 0, now + 500000).time_ms == 30000
    assert game.resume(now + 500000)
    assert view(game, 0, now + 510000).time_ms == 20000
    assert view(game, 0, now + 510000).moves_left == 1


def test_pcn_bank_into_next_period_and_last_quota_resets():
    # PCN 7: 40 plies in 2 h, then 30 min; PCN 6: 1 h then 25 moves in 5 min.
    classical = Control(
        [Stage(7200000, moves=40, on_repeat=SET, on_expire=NEXT), Stage(1800000, on_repeat=SET)]
    )
    game = start(Setup(classical))
    now = moves(game, [50000, 35000, 42200], 0)
    assert shown(game, 0, now) == 7200000 - 50000 - 42200
    assert shown(game, 1, now) == 7200000 - 35000
    quota = Control([Stage(300000, moves=25, on_repeat=SET)])
    game = start(Setup(quota))
    now = moves(game, [1000] * 49, 0)
    assert shown(game, 0, now) == 300000  # 25 plies made: reset, not added


def test_pcn_bank_exhausted_moves_to_the_next_period():
    setup = Setup(
        Control(
            [Stage(600000, on_expire=NEXT, on_repeat=SET), Stage(30000, moves=1, on_repeat=SET)]
        )
    )
    game = start(setup)
    now = moves(game, [600000 + 28400], 0)
    first = view(game, 0, now)
    assert first.stage == 1 and first.time_ms == 30000 and first.periods_left == 1


def ggs(ini, m1, soft, inc, m2, bronstein, ext, m3, replace):
    mode = BRONSTEIN if bronstein else FISCHER_AFTER
    return Setup(
        Control(
            [
                Stage(
                    ini,
                    moves=m1,
                    increment_ms=inc,
                    mode=mode,
                    increment_every=m2,
                    on_expire=SOFT if soft else NEXT,
                ),
                Stage(
                    ext,
                    moves=m3,
                    increment_ms=inc,
                    mode=mode,
                    increment_every=m2,
                    on_enter=SET if replace else 0,
                    on_repeat=SET if replace else 0,
                    on_expire=FLAG,
                ),
            ]
        )
    )


def test_ggs_soft_timeout_then_overtime():
    # Othello 30:00,0//2:00,0: running out of the 30 minutes is a soft time-out, 2 min follow.
    game = start(ggs(30 * MIN, 0, True, 0, 1, False, 2 * MIN, 0, False))
    now = moves(game, [30 * MIN + 1000], 0)
    first = view(game, 0, now)
    assert first.soft_timeout and not first.flagged and first.stage == 1
    assert first.time_ms == 2 * MIN - 1000
    assert game.state() != OVER


def test_ggs_replacing_overtime_every_m3_moves():
    # Go 30:00,N0//5:00,N10: no soft loss; 5 minutes for each 10 moves, unused time lost.
    game = start(ggs(30 * MIN, 0, False, 0, 1, False, 5 * MIN, 10, True))
    now = moves(game, [30 * MIN + 10000, 0], 0)
    first = view(game, 0, now)
    assert not first.soft_timeout and first.time_ms == 5 * MIN - 10000 and first.moves_left == 9
    now = moves(game, [1000, 0] * 9, now)
    assert view(game, 0, now).time_ms == 5 * MIN and view(game, 0, now).moves_left == 10


def test_ggs_chess_quota_adds_overtime():
    # 2:00:00,40//30:00,0: after 40 moves, 30 minutes added to what is left.
    game = start(ggs(2 * 60 * MIN, 40, True, 0, 1, False, 30 * MIN, 0, False))
    now = moves(game, [60000] * 79, 0)
    assert shown(game, 0, now) == 120 * MIN - 40 * MIN + 30 * MIN
