# SPDX-License-Identifier: MIT
# python -m sim annotate: the clock's times from its game record, into the PGN or SGF of the moves.
import json
import sys

import sim  # noqa: F401  (puts the firmware on the path)
from notation import pcn, registry
from notation.errors import PresetError
from notation.scan import seconds_text
from sim import files, pgn_text, records, sgf_text
from sim.text_edits import AnnotateError

SIDES = records.SIDES


class Record:
    """The plies that stand, each (number, side, elapsed_ms, the mover's figures after it)."""

    def __init__(self, preset, setup, untimed, plies, complete):
        self.preset = preset
        self.setup = setup
        self.untimed = untimed  # no time left to write: the clock counts up
        self.plies = plies
        self.complete = complete

    def formatted(self, module):
        """(the preset in that notation, None) or (None, why it cannot say it)."""
        try:
            return module.format(pcn.after_the_move(self.setup)), None
        except PresetError as error:
            return None, error.problem

    def check_count(self, units, kind, word, describe):
        """A mismatch between the file's moves and the record's plies, said where it starts.
        `word`: what the file counts, ("ply", "plies") or ("move", "moves")."""
        have, want = len(units), len(self.plies)
        if have == want:
            return
        said = "the %s has %d %s, the record %d %s: " % (
            kind,
            have,
            word[have != 1],
            want,
            "plies" if want != 1 else "ply",
        )
        if have < want:
            number, side, elapsed, _figures = self.plies[have]
            about = "%s, %s s" % (side, seconds_text(elapsed))
            if want - have == 1:
                said += "the record's ply %d (%s) has no move" % (number, about)
            else:
                said += "the record's plies %d to %d have no move (ply %d: %s)" % (
                    number,
                    want,
                    number,
                    about,
                )
        elif have - want == 1:
            said += "the %s's %s %d (%s) has no time in the record" % (
                kind,
                word[0],
                have,
                describe(units[want]),
            )
        else:
            said += "the %s's %s %d to %d have no time in the record (%s %d: %s)" % (
                kind,
                word[1],
                want + 1,
                have,
                word[0],
                want + 1,
                describe(units[want]),
            )
        if not self.complete:
            said += "; the record is incomplete (the clock's log stopped at its 640 entries)"
        raise AnnotateError(said)

    def untimed_refusal(self, what):
        return AnnotateError(
            "the record's preset %s has no time control: the clock counts time up and there is no"
            " time left to write as %s" % (self.preset, what)
        )


def add_arguments(parser):
    parser.add_argument(
        "--record", required=True, metavar="GAME.json", help="the clock's game record (GAME)"
    )
    moves = parser.add_mutually_exclusive_group(required=True)
    moves.add_argument("--pgn", metavar="MOVES.pgn", help="a PGN file with the moves (- stdin)")
    moves.add_argument("--sgf", metavar="MOVES.sgf", help="an SGF file with the moves (- stdin)")
    parser.add_argument(
        "--game", type=int, metavar="N", help="which game of a file with several (from 1)"
    )
    parser.add_argument("--emt", action="store_true", help="PGN: each move's time too, [%%emt]")
    parser.add_argument(
        "--exact", action="store_true", help="PGN: milliseconds, not whole seconds rounded down"
    )
    parser.add_argument("--out", metavar="FILE", help="write FILE (atomically), not stdout")


def run(args, note):
    """Annotate as the arguments say; `note(text)` tells what was left as it was."""
    if args.sgf is not None and (args.emt or args.exact):
        raise AnnotateError("--emt and --exact are for PGN: SGF has no move time, BL/WL are exact")
    record = read_record(args.record)
    path = args.pgn if args.sgf is None else args.sgf
    text = read_text(path)
    name = "stdin" if path == "-" else path
    if args.sgf is None:
        text = pgn_text.annotate_pgn(text, record, args.game, args.emt, args.exact, name, note)
    else:
        text = sgf_text.annotate_sgf(text, record, args.game, name, note)
    data = text.encode("utf-8", "surrogateescape")
    if args.out is None:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        write_atomically(args.out, data)


# --- the record ---------------------------------------------------------------------------


def read_record(path):
    try:
        doc = records.load(path)
    except records.RecordError as error:
        raise AnnotateError(str(error))
    return record_of(doc, path)


def record_of(doc, path):
    """The Record of a decoded game record (records.decode's); `path` names it in errors."""
    try:
        entries = records.standing(doc, path)
    except records.RecordError as error:
        raise AnnotateError(str(error))
    clock = doc.get("clock")
    try:
        if clock is not None and isinstance(clock.get("preset"), str):
            preset = clock["preset"]
            setup = registry.parse(preset)
        else:
            periods = {"periods": doc["periods"]} if "periods" in doc else {}
            preset = "pcn:" + (json.dumps(doc["periods"]) if periods else "{}")
            setup = pcn.setup_from(periods, preset)
    except PresetError as error:
        raise AnnotateError("%s: %s" % (path, error))
    untimed = setup.first.untimed() or setup.second.untimed()
    if clock is None and not untimed:
        entries = replayed(setup, entries, path)
    plies = []
    for number, entry in enumerate(entries, 1):
        side = entry.get("side")
        if side != SIDES[(number - 1) % 2]:
            raise AnnotateError(
                "%s: the record's ply %d is %s's, not %s's: the sides must alternate"
                % (path, number, side, SIDES[(number - 1) % 2])
            )
        elapsed = entry.get("elapsed_ms")
        if not whole(elapsed):
            raise AnnotateError("%s: the record's ply %d has no elapsed_ms" % (path, number))
        figures = None
        if not untimed:
            figures = entry.get(side)
            if not isinstance(figures, dict) or not whole(figures.get("remaining_ms")):
                raise AnnotateError(
                    "%s: the record's ply %d has no remaining_ms for %s" % (path, number, side)
                )
        plies.append((number, side, elapsed, figures))
    complete = clock is None or clock.get("complete", True) is not False
    return Record(preset, setup, untimed, plies, complete)


def whole(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def replayed(setup, entries, path):
    """A PCN record without the clock's log: each ply's figures as the clock core gives them."""
    from sim import replay

    lines = list(replay.replay(setup, [entry["elapsed_ms"] for entry in entries]))[1:]
    if len(lines) < len(entries):
        raise AnnotateError(
            "%s: the record's periods end the game at ply %d (%s); its plies past that have no"
            " time left" % (path, len(lines), lines[-1]["result"]["reason"])
        )
    for entry, line in zip(entries, lines):
        entry[entry["side"]] = line[entry["side"]]
    return entries


# --- files --------------------------------------------------------------------------------


def read_text(path):
    """A file's text, bytes that are not UTF-8 kept as they are (for an SGF's CA[GB2312], a
    Latin-1 PGN): annotate changes only ASCII."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                data = handle.read()
    except OSError as error:
        raise AnnotateError("cannot read %s: %s" % (path, error.strerror))
    return data.decode("utf-8", "surrogateescape")


def write_atomically(path, data):
    try:
        files.replace(path, data)
    except OSError as error:
        raise AnnotateError("cannot write %s: %s" % (path, error.strerror))
