# SPDX-License-Identifier: MIT
# Timestamps wrap at 2**30 as time.ticks_ms() does; games across the wrap are charged exactly.
import ticks
from clock.game import FLAG_FELL, GAME_OVER, TIME
from clock.model import Control, Setup, Stage
from play import moves, shown, start

TOP = (1 << 30) - 1


def test_diff_and_add_across_the_wrap():
    assert ticks.diff(5, TOP) == 6
    assert ticks.diff(TOP, 5) == -6
    assert ticks.add(TOP, 10) == 9
    assert ticks.add(3, -10) == TOP - 6
    assert ticks.diff(ticks.add(123, 1 << 28), 123) == 1 << 28
    assert ticks.is_stamp(0) and ticks.is_stamp(TOP)
    assert not ticks.is_stamp(TOP + 1) and not ticks.is_stamp(-1) and not ticks.is_stamp(1.0)


def test_a_game_across_the_wrap_is_charged_exactly():
    setup = Setup(Control([Stage(60000, increment_ms=1000)]))
    plain = start(setup, t0=1000)
    wrapped = start(setup, t0=TOP - 2500)
    a = moves(plain, [3001, 7000, 2999], 1000)
    b = moves(wrapped, [3001, 7000, 2999], TOP - 2500)
    assert b < 20000  # the stamps wrapped
    for player in (0, 1):
        assert shown(plain, player, a) == shown(wrapped, player, b)
    assert shown(wrapped, 1, b) == 60000 - 7000 + 1000


def test_a_flag_across_the_wrap_falls_at_the_right_stamp():
    game = start(Setup(Control([Stage(10000)])), t0=TOP - 4000)
    assert game.flag_at() == 6000
    assert game.update(5999) == 0
    assert game.update(6000) == GAME_OVER | FLAG_FELL
    assert game.reason() == TIME and game.end_stamp() == 6000
