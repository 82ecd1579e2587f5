# SPDX-License-Identifier: MIT
# What the core says changed: the bits press, update, pause and the arbiter's functions return.
from clock.game import (
    BLOCK_RENEWED,
    DONE,
    FLAG_FELL,
    GAME_OVER,
    HALTED,
    PERIOD_USED,
    SECOND,
    SOFT_TIMEOUT,
    STAGE_BEGAN,
    TIME,
)
from clock.model import FLAG, NEXT, SET, SOFT, Control, Setup, Stage
from play import moves, start

MIN = 60000


def overtime(main, block, stones=1, periods=1):
    """Main time, then a block of `stones` moves (byo-yomi: 1 stone, several periods)."""
    return Setup(
        Control(
            [
                Stage(main, on_expire=NEXT),
                Stage(block, moves=stones, periods=periods, on_enter=SET, on_repeat=SET),
            ]
        )
    )


def test_a_press_that_meets_a_quota_says_the_next_stage_began():
    # Fischer 2 moves in 1 min + 5 s, then 30 s + 5 s: the first player's second move.
    fischer = Control([Stage(MIN, moves=2, increment_ms=5000), Stage(30000, increment_ms=5000)])
    game = start(Setup(fischer))
    assert game.press(0, 1000) == DONE
    assert game.press(1, 2000) == DONE | SECOND
    assert game.press(0, 3000) == DONE | STAGE_BEGAN
    assert game.press(1, 4000) == DONE | STAGE_BEGAN | SECOND
    assert game.press(0, 5000) == DONE  # the last stage has no quota: nothing more


def test_a_byoyomi_period_used_is_told_once_by_update():
    game = start(overtime(10000, 30000, periods=3))
    assert game.update(5000) == 0
    assert game.update(10001) == STAGE_BEGAN  # the main time is up: the periods begin
    assert game.update(20000) == 0
    assert game.update(40001) == PERIOD_USED  # the first period ran out
    assert game.update(41000) == 0  # told once
    assert game.update(70001) == PERIOD_USED
    assert game.press(0, 75000) == DONE | BLOCK_RENEWED  # the last period again, full
    assert game.update(75000) == 0  # the other player's move: nothing of theirs changed


def test_a_press_tells_what_update_had_not_yet():
    game = start(overtime(10000, 30000, periods=3))
    assert game.press(0, 45000) == DONE | STAGE_BEGAN | PERIOD_USED | BLOCK_RENEWED


def test_a_canadian_block_renewed_at_its_last_stone():
    game = start(overtime(0, MIN, stones=3))
    now = moves(game, [0, 0], 0)
    assert game.update(now + 1) == STAGE_BEGAN  # no main time: the first block begins
    now = moves(game, [10000, 0, 10000, 0], now)
    assert game.press(0, now + 10000) == DONE | BLOCK_RENEWED  # the third stone


def test_a_ggs_soft_timeout_then_the_flag():
    # 30:00,0//2:00,0: the 30 minutes run out softly, 2 minutes follow, then the flag.
    othello = Control(
        [Stage(30 * MIN, on_expire=SOFT), Stage(2 * MIN, on_enter=SET, on_expire=FLAG)]
    )
    game = start(Setup(othello))
    assert game.update(30 * MIN + 1) == SOFT_TIMEOUT | STAGE_BEGAN
    assert game.update(31 * MIN) == 0
    assert game.update(32 * MIN + 1) == GAME_OVER | FLAG_FELL
    assert game.reason() == TIME and game.loser() == 0


def test_an_interim_flag_is_told_with_the_stage_it_leads_to():
    # 40/90 with a flag at its end, then G/30: the second player runs out before move 40.
    control = Control([Stage(90 * MIN, moves=40, on_expire=FLAG), Stage(30 * MIN)])
    game = start(Setup(control))
    now = moves(game, [1000], 0)
    assert game.update(now + 90 * MIN + 1) == FLAG_FELL | STAGE_BEGAN | SECOND
    assert game.state() != 3 and game.first_flag() == -1  # noted when the move is charged
    assert game.press(1, now + 90 * MIN + 2000) == DONE | SECOND
    assert game.first_flag() == 1


def test_an_arimaa_game_limit_halts_the_game():
    # 0/2/100/0/10s... : a 10 s game limit (G), moves of 2 s.
    arimaa = Control([Stage(2 * MIN)], move_ms=0)
    game = start(Setup(arimaa, limit_ms=10000))
    now = moves(game, [4000, 4000], 0)
    assert game.update(now + 2001) == GAME_OVER  # the first player on move when it halted
    assert game.reason() == HALTED and game.loser() == -1


def test_pause_resume_undo_and_the_arbiter_say_done():
    game = start(overtime(10000, 30000, periods=3))
    assert game.pause(12000) == DONE | STAGE_BEGAN  # what update had not told yet
    assert game.pause(13000) == 0
    assert game.resume(14000) == DONE
    assert game.press(0, 15000) == DONE | BLOCK_RENEWED
    assert game.pause(16000) == DONE
    assert game.undo(16000) == DONE
    assert game.adjust_time(0, 5000) == DONE
    assert game.set_moves(0, 3) == DONE
    assert game.set_time(1, MIN) == DONE
    assert game.end_by_arbiter(17000) == DONE | GAME_OVER
    assert game.press(0, 18000) == 0 and game.pause(18000) == 0
