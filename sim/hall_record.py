# SPDX-License-Identifier: MIT
# A finished game as the hall's `game` topic carries it (firmware/app/hall_outbox.py), read back into
# the clock's own game record (GAME's form, docs/records.md): the record's entries replayed on the
# core, so every figure is the clock's own, exact to the millisecond.
import sim  # noqa: F401  (puts the firmware on the path)
from app import game_record
from clock import report
from clock.game import OVER, Game
from clock.record import PLY, UNDO, Record, RecordError, replay
from notation import registry
from notation.errors import PresetError


class GameError(ValueError):
    """A `game` message that is not a finished game the core replays: one line saying why."""


def _whole(value, low=0):
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


def check(message):
    """(board, game id, version) of a `game` message, or GameError."""
    if not isinstance(message, dict):
        raise GameError("not a JSON object")
    for key, low in (("board", 1), ("game", 0), ("version", 1)):
        if not _whole(message.get(key), low):
            raise GameError("%s: expected a whole number from %d" % (key, low))
    for key in ("spec", "record"):
        if not isinstance(message.get(key), str):
            raise GameError("%s: expected text" % key)
    return message["board"], message["game"], message["version"]


def entries_of(text):
    """[(kind, player, at, amount)] of the record's text, `code,at[,amount]` each."""
    entries = []
    for number, word in enumerate(text.split(), 1):
        parts = word.split(",")
        try:
            values = [int(part) for part in parts]
        except ValueError:
            values = []
        if len(values) not in (2, 3) or values[0] < 0 or values[1] < 0:
            raise GameError("record: entry %d (%s) is not code,at[,amount]" % (number, word[:20]))
        code, at = values[0], values[1]
        entries.append((code >> 1, code & 1, at, values[2] if len(values) == 3 else 0))
    return entries


def finished_record(message):
    """The finished game's record as GAME gives it: {"plies": [...], "clock": {...}} with the
    log's figures from a replay on the core; GameError when it does not replay."""
    check(message)
    try:
        setup = registry.parse(message["spec"])
    except PresetError as error:
        raise GameError("spec: %s" % error)
    entries = entries_of(message["record"])
    record = Record(max(len(entries), 1))
    game = Game(setup, record)
    try:
        replay(game, entries)
    except (RecordError, ValueError) as error:
        raise GameError("record: %s" % error)
    log = []
    plies = number = 0
    for index in range(record.length):
        kind = record.kind(index)
        if kind == PLY:
            plies += 1
            number = plies
        elif kind == UNDO:
            number = plies
            plies -= 1
        log.append(game_record.entry(setup, record, index, number))
    standing = [{"elapsed_ms": log[index]["elapsed_ms"]} for index in record.plies()]
    result = message.get("result")
    if report.result(game) != result:
        raise GameError(
            "record: it replays to the result %s, the clock says %s"
            % (report.result(game), result)
        )
    return {
        "plies": standing,
        "clock": {
            "record": 1,
            "preset": message["spec"],
            "name": message.get("preset") if isinstance(message.get("preset"), str) else None,
            "state": "over" if game.state() == OVER or result else "running",
            "result": result if isinstance(result, dict) else None,
            "complete": message.get("complete") is not False,
            "log": log,
        },
    }
