# SPDX-License-Identifier: MIT
# Replays a game from each ply's elapsed time and reports the clock after every ply as JSON Lines.
import json

from clock import record as recording
import ticks
from clock import report
from clock.game import REASON_NAMES, Game
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


def entries_of(log, name="the record"):
    """The clock's log (GAME's clock.log, docs/records.md) as clock.record entries: (kind,
    player, at, amount) each. ReplayError says which entry is wrong."""
    entries = []
    stack = []
    for index, item in enumerate(log):
        where = "%s: clock.log[%d]" % (name, index)
        if not isinstance(item, dict) or item.get("entry") not in recording.KIND_NAMES:
            raise ReplayError(
                "%s: expected an entry of %s" % (where, "/".join(recording.KIND_NAMES))
            )
        kind = recording.KIND_NAMES.index(item["entry"])
        if item.get("side") not in SIDES:
            raise ReplayError('%s: side: expected "first" or "second"' % where)
        player = SIDES.index(item["side"])
        amount = 0
        if kind == recording.PLY:
            at = _whole(item, "elapsed_ms", where)
            stack.append(at)
        elif kind == recording.UNDO:
            if not stack:
                raise ReplayError("%s: an undo with no ply to take back" % where)
            at = stack.pop()  # the move goes on from where it stood at that press
        else:
            at = _whole(item, "at_ms", where)
            if kind == recording.END:
                result = item.get("result")
                reason = result.get("reason") if isinstance(result, dict) else None
                if reason not in REASON_NAMES[1:]:
                    raise ReplayError(
                        "%s: result: expected a reason of %s" % (where, REASON_NAMES[1:])
                    )
                amount = REASON_NAMES.index(reason)
            else:
                key = ("amount_ms", "time_ms", "moves")[kind - recording.ADJUST]
                amount = item.get(key)
                if not isinstance(amount, int) or isinstance(amount, bool):
                    raise ReplayError("%s: %s: expected whole number" % (where, key))
        entries.append((kind, player, at, amount))
    return entries


def _whole(item, key, where):
    value = item.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_MS:
        raise ReplayError("%s: %s: expected whole milliseconds" % (where, key))
    return value


def replay_log(setup, entries):
    """Like replay(), through the clock's log entries (entries_of): a line before the first and
    one after each, with the entry's kind; "ply" counts the plies that stand. Raises
    ReplayError at an entry the game does not take."""
    game = Game(setup, recording.Record(len(entries) + 1))
    game.start(0, 0)
    yield line(game, 0, None, None, 0)
    plies = 0
    stamps = recording.steps(game, entries)
    for kind, player, at, _amount in entries:
        try:
            now = next(stamps)
        except (recording.RecordError, ClockError) as error:
            raise ReplayError("the log does not replay: %s" % error)
        plies += 1 if kind == recording.PLY else -1 if kind == recording.UNDO else 0
        record = line(game, plies, SIDES[player], at if kind == recording.PLY else None, now)
        record["entry"] = recording.KIND_NAMES[kind]
        yield record


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
