# SPDX-License-Identifier: MIT
# Drives a Game from a list of move times, as a test (or a replay) needs it.
import ticks
from clock.game import Game, View


def start(setup, t0=0, first=0):
    game = Game(setup)
    game.start(t0, first)
    return game


def moves(game, elapsed, now):
    """Press for each move time in turn from stamp `now`; return the stamp after the last."""
    for e in elapsed:
        now = ticks.add(now, e)
        assert game.press(game.turn(), now), "press refused at %d" % now
    return now


def shown(game, player, now):
    return game.view(player, now, View()).time_ms


def view(game, player, now):
    return game.view(player, now, View())
