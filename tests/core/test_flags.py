# SPDX-License-Identifier: MIT
# The flag rule: a flag falls only below zero, at its exact millisecond (docs/time-controls.md "The flag").
from clock.game import ARBITER, DONE, FLAG_FELL, GAME_OVER, OVER, TIME
from clock.model import FLAG, Control, Setup, Stage
from play import moves, shown, start, view


def sudden_death(ms):
    return Setup(Control([Stage(ms)]))


def test_a_move_at_exactly_zero_is_legal_and_flags_nobody():
    game = start(sudden_death(10000))
    now = moves(game, [10000], 0)
    assert game.state() != OVER
    assert shown(game, 0, now) == 0
    first = view(game, 0, now)
    assert not first.flagged and not view(game, 1, now).flagged


def test_the_flag_falls_at_its_exact_millisecond_even_when_noticed_late():
    game = start(sudden_death(10000), t0=500)
    assert game.flag_at() == 10501
    assert game.next_event(500) == 10501
    assert game.update(10500) == 0
    assert game.update(12345) == GAME_OVER | FLAG_FELL  # the loop was late; the flag is not
    assert game.reason() == TIME and game.end_stamp() == 10501 and game.loser() == 0
    assert shown(game, 0, 99999) == 0
    assert not game.press(0, 12345)  # no more moves after the final flag


def test_after_the_final_flag_both_clocks_freeze():
    game = start(sudden_death(10000))
    now = moves(game, [4000], 0)
    game.update(now + 20000)
    assert game.state() == OVER and game.loser() == 1
    assert shown(game, 0, now + 50000) == 6000
    assert shown(game, 1, now + 50000) == 0
    assert view(game, 1, now).flagged and view(game, 1, now).flagged_first


def test_an_interim_flag_is_shown_and_remembered_while_play_goes_on():
    # 40/90, G/30 (both players): the first runs out before move 40.
    control = Control([Stage(90 * 60000, moves=40, on_expire=FLAG), Stage(30 * 60000)])
    game = start(Setup(control))
    now = moves(game, [90 * 60000 + 1], 0)  # 1 ms past the first period
    assert game.state() != OVER
    first = view(game, 0, now)
    assert first.flagged and first.flagged_first and first.stage == 1
    assert first.time_ms == 30 * 60000 - 1
    # The second runs out later: flagged, but not first.
    now = moves(game, [90 * 60000 + 5], now)
    second = view(game, 1, now)
    assert second.flagged and not second.flagged_first and game.first_flag() == 0
    # The first now flags in the final stage: game over, frozen.
    game.update(now + 30 * 60000)
    assert game.state() == OVER and game.loser() == 0 and game.first_flag() == 0


def test_word_counts_a_penalty_instead_of_flagging():
    setup = Setup(Control([Stage(10000, increment_ms=2000)]), word=True)
    game = start(setup)
    assert game.flag_at() is None
    game.update(15000)
    assert game.state() != OVER
    now = moves(game, [15000], 0)
    first = view(game, 0, now)
    assert first.penalty_ms == 5000 and first.time_ms == 2000 and not first.flagged


def test_the_arbiter_can_end_the_game():
    game = start(sudden_death(10000))
    assert game.end_by_arbiter(20000) == GAME_OVER | FLAG_FELL  # the flag fell first, at 10001
    assert game.reason() == TIME
    game = start(sudden_death(10000))
    assert game.end_by_arbiter(3000) == DONE | GAME_OVER
    assert game.reason() == ARBITER and shown(game, 0, 3000) == 7000
