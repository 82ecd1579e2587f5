# SPDX-License-Identifier: MIT
# Exporting a running game as an OGS clock: the seed's display algorithm shows what we show.
from clock.game import View
from notation import ogs, ogs_clock
from notation.ogs_export import export
from play import moves, start

EPOCH = 1700000000000


def check(time_control_text, elapsed, into_move, paused=False):
    game = start(ogs.parse(time_control_text), t0=500)
    now = moves(game, elapsed, 500)
    if paused:
        game.pause(now + into_move)
        into_move += 60000  # the pause lasts a minute: nothing is charged
    at = now + into_move
    time_control, clock, pause = export(game, at, EPOCH)
    shown = ogs_clock.display(time_control, clock, pause, EPOCH)
    for player, side in ((0, "black"), (1, "white")):
        ours = game.view(player, at, View())
        theirs = shown[side]
        if time_control["time_control"] == "simple" and player != game.turn():
            continue  # OGS stores nothing for the waiting side of simple time
        assert theirs["ms"] == ours.time_ms, (time_control_text, side, theirs, ours.time_ms)
        if theirs.get("overtime") and "periods_left" in theirs:  # OGS shows them in main time too
            assert theirs["periods_left"] == ours.periods_left, (side, theirs)
        if theirs.get("overtime") and "moves_left" in theirs:
            assert theirs["moves_left"] == ours.moves_left, (side, theirs)
    return shown


def test_fischer_and_absolute():
    fischer = (
        '{"time_control": "fischer", "initial_time": 300, "time_increment": 5, "max_time": 600}'
    )
    check(fischer, [8000, 12000, 15000], 4321)
    check('{"time_control": "absolute", "total_time": 600}', [8000, 12000], 2500)


def test_byoyomi_in_main_time_and_in_the_periods():
    byoyomi = '{"time_control": "byoyomi", "main_time": 60, "period_time": 30, "periods": 5}'
    check(byoyomi, [8000], 1000)
    shown = check(byoyomi, [70000, 1000], 45000)  # black: 2nd period of this move
    assert shown["black"]["periods_left"] == 4


def test_canadian_in_main_time_and_in_a_block():
    canadian = (
        '{"time_control": "canadian", "main_time": 60, "period_time": 120, "stones_per_period": 5}'
    )
    check(canadian, [8000], 1000)
    check(canadian, [70000, 1000, 10000, 1000], 7000)


def test_simple_and_a_paused_game():
    check('{"time_control": "simple", "per_move": 30}', [8000, 12000], 5000)
    fischer = (
        '{"time_control": "fischer", "initial_time": 300, "time_increment": 5, "max_time": 600}'
    )
    shown = check(fischer, [8000], 3000, paused=True)
    assert shown["white"]["mode"] == "paused"
