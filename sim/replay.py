# Replays a game from each ply's elapsed time and reports the clock after every ply as JSON Lines.
import json

from clock import ticks
from clock.game import HALTED, PLAYING, REASON_NAMES, TIME, Game, View
from clock.model import MAX_MS, ClockError

SIDES = ("first", "second")


class ReplayError(ValueError):
    """Bad replay input other than the preset: the moves list or the record."""


def parse_moves(text):
    """'8000,12000' -> [8000, 12000], each a whole number of milliseconds."""
    elapsed = []
    for index, item in enumerate(text.split(",")):
        item = item.strip()
        if not item.isdigit():
            raise ReplayError(
                "--moves item %d is %r: expected whole milliseconds" % (index + 1, item)
            )
        value = int(item)
        if value > MAX_MS:
            raise ReplayError(
                "--moves item %d: %d ms is longer than the clock can time" % (index + 1, value)
            )
        elapsed.append(value)
    return elapsed


def side(game, player, now):
    view = game.view(player, now, View())
    return {
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
    reason = game.reason()
    if reason == PLAYING:
        return None
    if reason == TIME:
        return {"reason": "time", "loser": SIDES[game.loser()]}
    if reason == HALTED:
        return {"reason": "halted"}
    return {"reason": REASON_NAMES[reason]}


def replay(setup, elapsed, t0=0):
    """Yield one dict before the first ply and one after each, up to the one with a result."""
    game = Game(setup)
    game.start(t0, 0)
    now = t0
    yield line(game, 0, None, None, now)
    for ply, e in enumerate(elapsed, 1):
        player = game.turn()
        now = ticks.add(now, e)
        if not game.update(now):
            game.press(player, now)
        record = line(game, ply, SIDES[player], e, now)
        yield record
        if record["result"] is not None:
            return


def line(game, ply, player, e, now):
    return {
        "ply": ply,
        "player": player,
        "elapsed_ms": e,
        "first": side(game, 0, now),
        "second": side(game, 1, now),
        "result": result(game),
    }


def write(records, out):
    for record in records:
        out.write(json.dumps(record) + "\n")


__all__ = ["ClockError", "ReplayError", "parse_moves", "replay", "write"]
