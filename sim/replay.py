# Replays a game from each ply's elapsed time and reports the clock after every ply as JSON Lines.
import json

from clock import ticks
from clock import report
from clock.game import Game
from clock.model import MAX_MS, ClockError

SIDES = report.SIDES


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


def replay(setup, elapsed, t0=0):
    """Yield one dict before the first ply and one after each, up to the one with a result."""
    game = Game(setup)
    game.start(t0, 0)
    now = t0
    yield line(game, 0, None, None, now)
    for ply, e in enumerate(elapsed, 1):
        player = game.turn()
        now = ticks.add(now, e)
        game.press(player, now)  # a press after the flag ends the game at the flag instead
        record = line(game, ply, SIDES[player], e, now)
        yield record
        if record["result"] is not None:
            return


def line(game, ply, player, e, now):
    return {
        "ply": ply,
        "player": player,
        "elapsed_ms": e,
        "first": report.side(game, 0, now)[1],
        "second": report.side(game, 1, now)[1],
        "result": report.result(game),
    }


def write(records, out):
    for record in records:
        out.write(json.dumps(record) + "\n")


__all__ = ["ClockError", "ReplayError", "parse_moves", "replay", "write"]
