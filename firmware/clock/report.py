# SPDX-License-Identifier: MIT
# A game's state as JSON-ready values: the shape the replay command and the serial stream share.
from clock.game import HALTED, PLAYING, REASON_NAMES, TIME, View

SIDES = ("first", "second")


def side(game, player, now):
    """What `player`'s display shows at `now`, as the replay command prints it."""
    view = game.view(player, now, View())
    return view, {
        "remaining_ms": view.time_ms,
        "stage": view.stage,
        "periods_left": view.periods_left if view.periods_left >= 0 else None,
        "moves_left": view.moves_left if view.moves_left >= 0 else None,
        "reserve_ms": view.reserve_ms if view.reserve_ms >= 0 else None,
        "penalty_ms": view.penalty_ms,
        "soft_timeout": view.soft_timeout,
        "flagged": view.flagged,
    }


def result(game):
    """None while the game goes on, else its outcome: {"reason": "time", "loser": "first"}..."""
    reason = game.reason()
    if reason == PLAYING:
        return None
    if reason == TIME:
        return {"reason": "time", "loser": SIDES[game.loser()]}
    if reason == HALTED:
        return {"reason": "halted"}
    return {"reason": REASON_NAMES[reason]}
