# SPDX-License-Identifier: MIT
# Invariants of the core, over generated games (CPython: hypothesis).
from hypothesis import given, settings
from hypothesis import strategies as st

import ticks
from clock.game import GAME_OVER, OVER, Game, View
from clock.model import FISCHER, FISCHER_AFTER, NEXT, SET, Control, Setup, Stage
from play import moves, shown, start

TOP = (1 << 30) - 1
move_times = st.lists(st.integers(0, 120000), min_size=1, max_size=60)


@settings(max_examples=300, deadline=None)
@given(
    initial=st.integers(0, 3600000),
    increment=st.integers(0, 30000),
    mode=st.sampled_from((FISCHER, FISCHER_AFTER)),
    elapsed=move_times,
)
def test_time_left_is_initial_plus_increments_minus_time_spent(initial, increment, mode, elapsed):
    game = start(Setup(Control([Stage(initial, increment_ms=increment, mode=mode)]), word=True))
    now = moves(game, elapsed, 0)
    for player in (0, 1):
        spent = sum(elapsed[player::2])
        count = len(elapsed[player::2])
        given_so_far = count + (1 if mode == FISCHER and game.turn() == player else 0)
        view = game.view(player, now, View())
        # Word keeps the arithmetic going past zero: what is left minus the penalty.
        assert view.time_ms - view.penalty_ms == initial + given_so_far * increment - spent


@settings(max_examples=300, deadline=None)
@given(initial=st.integers(1000, 600000), elapsed=move_times)
def test_an_hourglass_keeps_the_total_constant(initial, elapsed):
    game = start(Setup(Control([Stage(initial)]), hourglass=True))
    now = 0
    for e in elapsed:
        if game.state() == OVER:
            break
        now = ticks.add(now, e)
        half = game.view(0, now, View()).time_ms + game.view(1, now, View()).time_ms
        if not game.update(now) & GAME_OVER:
            assert half == 2 * initial
            game.press(game.turn(), now)
            assert shown(game, 0, now) + shown(game, 1, now) == 2 * initial


@settings(max_examples=300, deadline=None)
@given(
    elapsed=move_times,
    pauses=st.lists(st.integers(0, 10**7), min_size=1, max_size=60),
    byoyomi=st.booleans(),
)
def test_nothing_is_charged_during_a_pause(elapsed, pauses, byoyomi):
    if byoyomi:
        control = Control(
            [
                Stage(60000, on_expire=NEXT),
                Stage(20000, moves=1, periods=5, on_enter=SET, on_repeat=SET),
            ]
        )
    else:
        control = Control([Stage(600000, increment_ms=2000)])
    plain, paused = start(Setup(control)), start(Setup(control))
    now_plain = now_paused = 0
    for index, e in enumerate(elapsed):
        if plain.state() == OVER:
            break
        now_plain = ticks.add(now_plain, e)
        plain.update(now_plain)
        half = e // 2
        paused.pause(ticks.add(now_paused, half))
        now_paused = ticks.add(now_paused, half + pauses[index % len(pauses)])
        paused.resume(now_paused)
        now_paused = ticks.add(now_paused, e - half)
        paused.update(now_paused)
        assert plain.state() == paused.state()
        if plain.state() == OVER:
            break
        plain.press(plain.turn(), now_plain)
        paused.press(paused.turn(), now_paused)
        for player in (0, 1):
            assert shown(plain, player, now_plain) == shown(paused, player, now_paused)


@settings(max_examples=300, deadline=None)
@given(t0=st.integers(0, TOP), elapsed=move_times)
def test_results_do_not_depend_on_where_the_stamps_sit(t0, elapsed):
    setup = Setup(
        Control(
            [
                Stage(90000, moves=3, increment_ms=1000),
                Stage(20000, moves=1, periods=3, on_enter=SET, on_repeat=SET),
            ]
        )
    )
    reference, shifted = start(setup, 0), start(setup, t0)
    now_r, now_s = 0, t0
    for e in elapsed:
        now_r, now_s = now_r + e, ticks.add(now_s, e)
        assert reference.update(now_r) == shifted.update(now_s)
        if reference.state() == OVER:
            assert ticks.diff(shifted.end_stamp(), t0) == reference.end_stamp()
            break
        reference.press(reference.turn(), now_r)
        shifted.press(shifted.turn(), now_s)
        for player in (0, 1):
            assert shown(reference, player, now_r) == shown(shifted, player, now_s)


@settings(max_examples=300, deadline=None)
@given(elapsed=move_times, t0=st.integers(0, TOP))
def test_the_flag_falls_exactly_when_announced(elapsed, t0):
    setup = Setup(
        Control(
            [Stage(100000, on_expire=NEXT), Stage(15000, moves=2, on_enter=SET, on_repeat=SET)]
        )
    )
    game = start(setup, t0)
    now = t0
    for e in elapsed:
        flag = game.flag_at()
        before = ticks.add(flag, -1)
        if ticks.diff(flag, now) <= e:
            assert not game.update(before) & GAME_OVER
            assert game.update(flag) & GAME_OVER and game.end_stamp() == flag
            return
        now = ticks.add(now, e)
        game.press(game.turn(), now)
