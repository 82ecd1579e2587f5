# SPDX-License-Identifier: MIT
# Increment modes and multi-stage quotas (docs/time-controls.md "Increments and delay", "Stages and move quotas").
from clock.model import BRONSTEIN, DELAY, FISCHER, FISCHER_AFTER, Control, Setup, Stage
from play import moves, shown, start, view

MIN = 60000


def one_stage(duration, increment, mode, moves_quota=0):
    return Setup(Control([Stage(duration, moves=moves_quota, increment_ms=increment, mode=mode)]))


def test_fischer_before_shows_the_increment_from_the_start_of_the_move():
    # G/22/12 in Fischer mode: 22:12 for the first player once the clock starts.
    game = start(one_stage(22 * MIN, 12000, FISCHER))
    assert shown(game, 0, 0) == 22 * MIN + 12000
    assert shown(game, 1, 0) == 22 * MIN  # the second player's move has not started
    now = moves(game, [5000], 0)
    assert shown(game, 0, now) == 22 * MIN + 12000 - 5000
    assert shown(game, 1, now) == 22 * MIN + 12000


def test_the_four_modes_after_one_move():
    # R = 60 s, I = 10 s; moves of 4 s and of 25 s.
    table = (
        (FISCHER, 4000, 66000),  # R + I - e
        (FISCHER, 25000, 45000),
        (FISCHER_AFTER, 4000, 66000),  # R - e + I
        (FISCHER_AFTER, 25000, 45000),
        (BRONSTEIN, 4000, 60000),  # R - e + min(e, I)
        (BRONSTEIN, 25000, 45000),
        (DELAY, 4000, 60000),  # R - max(0, e - I)
        (DELAY, 25000, 45000),
    )
    for mode, e, after in table:
        game = start(one_stage(60000, 10000, mode))
        now = moves(game, [e], 0)
        assert shown(game, 0, now) == after, (mode, e, shown(game, 0, now))


def test_time_usable_during_the_move_depends_on_the_mode():
    # Usable: Fischer R + I, Fischer after R, Bronstein R, delay R + I (R = 60 s, I = 10 s).
    for mode, usable in (
        (FISCHER, 70000),
        (FISCHER_AFTER, 60000),
        (BRONSTEIN, 60000),
        (DELAY, 70000),
    ):
        game = start(one_stage(60000, 10000, mode))
        assert game.flag_at() == usable + 1, (mode, game.flag_at())
        assert game.update(usable) == 0
        assert game.update(usable + 1) != 0


def test_pcn_fischer_5_plus_3():
    game = start(one_stage(300000, 3000, FISCHER_AFTER))
    now = moves(game, [8000], 0)
    assert shown(game, 0, now) == 295000
    now = moves(game, [12000, 15000], now)
    assert shown(game, 0, now) == 283000
    assert shown(game, 1, now) == 300000 - 12000 + 3000


def test_chessclock_1_1_60_then_1_10s_30():
    # The app seed: +70 s after move 1 (60 I1 + 10 T2), +40 s after move 2 (30 I2 + 10 T2).
    setup = Setup(
        Control(
            [
                Stage(MIN, moves=1, increment_ms=60000, mode=FISCHER_AFTER),
                Stage(10000, moves=1, increment_ms=30000, mode=FISCHER_AFTER),
            ]
        )
    )
    game = start(setup)
    now = moves(game, [0], 0)
    assert shown(game, 0, now) == MIN + 70000
    now = moves(game, [0, 0], now)
    assert shown(game, 0, now) == MIN + 70000 + 40000
    now = moves(game, [0, 0], now)
    assert shown(game, 0, now) == MIN + 70000 + 40000 + 40000


def test_fide_classical_adds_30_minutes_after_move_40():
    # 40/90/30, G/30/30, Fischer: 90 min + 30 s per move; +30 min after the 40th move.
    fide = Control(
        [
            Stage(90 * MIN, moves=40, increment_ms=30000, mode=FISCHER),
            Stage(30 * MIN, increment_ms=30000, mode=FISCHER),
        ]
    )
    game = start(Setup(fide))
    now = moves(game, [60000] * 79, 0)  # 40 moves of the first player, 39 of the second
    first = view(game, 0, now)
    # Each move: +30 s at its start, 60 s used; then the 30 minutes of stage 2.
    assert first.time_ms == 90 * MIN + 40 * (30000 - 60000) + 30 * MIN
    assert first.stage == 1 and first.moves_left == -1 and first.moves == 40
    second = view(game, 1, now)  # on move 40, its increment already given
    assert second.stage == 0 and second.moves_left == 1
    assert second.time_ms == 90 * MIN + 39 * (30000 - 60000) + 30000


def test_quota_in_the_last_stage_repeats_adding_its_time():
    # 40/60, 20/10: after 40 moves +10 min, then +10 min after every 20 more.
    setup = Setup(Control([Stage(60 * MIN, moves=40), Stage(10 * MIN, moves=20)]))
    game = start(setup)
    now = moves(game, [1000] * (2 * 60 - 1), 0)
    assert shown(game, 0, now) == 60 * MIN - 60 * 1000 + 10 * MIN + 10 * MIN
    assert view(game, 0, now).moves_left == 20


def test_bronstein_and_fischer_every_several_moves():
    # GGS inc,m2: 10 s every 3 moves; with N, only min(time spent on those 3 moves, 10 s).
    for mode, gain in ((FISCHER_AFTER, 10000), (BRONSTEIN, 6000)):
        stage = Stage(MIN, increment_ms=10000, mode=mode, increment_every=3)
        game = start(Setup(Control([stage])))
        now = moves(game, [2000, 0, 2000, 0], 0)
        assert shown(game, 0, now) == MIN - 4000
        now = moves(game, [2000, 0], now)
        assert shown(game, 0, now) == MIN - 6000 + gain


def test_max_time_caps_after_the_increment():
    # OGS fischer initial 60 s, +30 s, max 75 s.
    game = start(Setup(Control([Stage(MIN, increment_ms=30000)], max_ms=75000)))
    now = moves(game, [5000], 0)
    assert shown(game, 0, now) == 75000
