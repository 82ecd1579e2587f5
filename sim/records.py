# SPDX-License-Identifier: MIT
# The clock's game records (GAME's JSON, docs/records.md) read on the desktop: the plies that stand.
import json

SIDES = ("first", "second")


class RecordError(ValueError):
    """A record file that is not a clock game record, saying what and where."""


def load(path):
    """The decoded record of a file: a PCN game record, the clock's `clock` field optional."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as error:
        raise RecordError("cannot read %s: %s" % (path, error.strerror))
    except UnicodeError:
        raise RecordError("%s is not UTF-8 text" % path)
    return decode(text, path)


def decode(text, name="the record"):
    if text.startswith("OK "):  # GAME's answer as the serial line gives it
        text = text[3:]
    try:
        doc = json.loads(text)
    except ValueError as error:
        raise RecordError("%s is not JSON: %s" % (name, error))
    if not isinstance(doc, dict) or not isinstance(doc.get("plies", []), list):
        raise RecordError("%s is not a PCN game record (an object with a plies list)" % name)
    clock = doc.get("clock")
    if clock is not None and (
        not isinstance(clock, dict) or not isinstance(clock.get("log"), list)
    ):
        raise RecordError("%s: clock: expected an object with a log list" % name)
    return doc


def standing(doc, name="the record"):
    """Each ply that stands, in order, as the log has it (its entry: "side", "elapsed_ms" and
    both sides' figures, "first" and "second"); from `plies` alone (no figures) for a PCN
    record without the clock's log."""
    clock = doc.get("clock")
    if clock is None:
        plies = []
        for index, ply in enumerate(doc.get("plies", [])):
            if not isinstance(ply, dict) or not isinstance(ply.get("elapsed_ms"), int):
                raise RecordError("%s: plies[%d] has no elapsed_ms" % (name, index))
            plies.append(
                {
                    "entry": "ply",
                    "ply": index + 1,
                    "side": SIDES[index % 2],
                    "elapsed_ms": ply["elapsed_ms"],
                }
            )
        return plies
    stack = []
    for index, entry in enumerate(clock["log"]):
        kind = entry.get("entry") if isinstance(entry, dict) else None
        if kind == "ply":
            stack.append(entry)
        elif kind == "undo":
            if not stack:
                raise RecordError(
                    "%s: clock.log[%d] undoes a ply that is not there" % (name, index)
                )
            stack.pop()
        elif kind not in ("adjust", "set_time", "set_moves", "end"):
            raise RecordError("%s: clock.log[%d]: unknown entry %r" % (name, index, kind))
    return stack
