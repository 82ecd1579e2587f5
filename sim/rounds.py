# SPDX-License-Identifier: MIT
# An arbiter's round: its boards (players, colours, time control) and byes, its results with who
# entered them and when, every change with the old and the new value (sim/round_store.py keeps
# it in a folder, sim/round_load.py makes it from the pairing program's files).
import datetime
import re

import sim  # noqa: F401  (puts the firmware on the path)
from sim import trf
from sim.trf import Cell
from ui.names import short_name

MAX_BY = 40  # who entered a result: as the hall's commands carry it
# Each result the round knows, as the arbiter says it, with the TRF's code for White and Black.
RESULTS = {
    "1-0": ("1", "0"),
    "0-1": ("0", "1"),
    "1/2-1/2": ("=", "="),
    "0-0": ("0", "0"),  # both lost (e.g. both broke a rule)
    "1-0 forfeit": ("+", "-"),
    "0-1 forfeit": ("-", "+"),
    "0-0 forfeit": ("-", "-"),  # neither came
    "1-0 unrated": ("W", "L"),  # a game of less than a move: counted, not rated
    "0-1 unrated": ("L", "W"),
    "1/2-1/2 unrated": ("D", "D"),
}
_SAID = {
    "+-": "1-0 forfeit",
    "-+": "0-1 forfeit",
    "--": "0-0 forfeit",
    "1-0f": "1-0 forfeit",
    "0-1f": "0-1 forfeit",
    "0-0f": "0-0 forfeit",
    "=-=": "1/2-1/2",
    "0.5-0.5": "1/2-1/2",
    "draw": "1/2-1/2",
    "1/2": "1/2-1/2",
    "=": "1/2-1/2",
}
BYES = {
    "U": "pairing-allocated bye",
    "H": "half-point bye",
    "F": "full-point bye",
    "Z": "zero-point bye",
}


class RoundError(ValueError):
    """What the round cannot do, and why."""


def result_of(text):
    """The result `text` says, as RESULTS names it; None for "*" (no result). RoundError for
    anything else."""
    if not isinstance(text, str) or len(text) > 40:
        raise RoundError("a result is a short text: 1-0, 0-1, 1/2-1/2, ...")
    said = text.strip().lower().replace("\u00bd", "1/2")
    for dash in "\u2010\u2011\u2012\u2013\u2014\u2212":
        said = said.replace(dash, "-")
    said = re.sub(r"\s*[-:]\s*", "-", " ".join(said.split()))  # "1 - 0", "1:0": 1-0
    if said == "*":
        return None
    said = _SAID.get(said, said)
    if said not in RESULTS:
        raise RoundError(
            "%r is not a result: write one of %s (forfeits also +- -+ --), or * for none"
            % (text, ", ".join(RESULTS))
        )
    return said


def now():
    """The local time with its offset, to the second: when a result came in."""
    return datetime.datetime.now().astimezone().isoformat(timespec="seconds")


def check_by(by):
    if not isinstance(by, str) or not by.strip() or len(by) > MAX_BY:
        raise RoundError("who enters it: a name of 1 to %d characters" % MAX_BY)
    for char in by:
        problem = trf.name_problem(char)
        if problem:
            raise RoundError("who enters it: %s" % problem)
    return by.strip()


def player_doc(name, rating=0, number=None, title="", federation="", fide_id=""):
    return {
        "number": number,
        "name": name,
        "rating": rating,
        "title": title,
        "federation": federation,
        "fide_id": fide_id,
        "short": short_name(name),
    }


def trf_player(player):
    doc = player.about()
    doc["short"] = short_name(player.name)
    return doc


def shown(player):
    """A player as the arbiter's lists show them: "Carlsen, Magnus (2830)"."""
    if player["rating"]:
        return "%s (%d)" % (player["name"], player["rating"])
    return player["name"]


class Round:
    """One round, as its file holds it (`doc`)."""

    def __init__(self, doc):
        self.doc = doc

    @property
    def number(self):
        return self.doc["round"]

    @property
    def boards(self):
        return self.doc["boards"]

    @property
    def byes(self):
        return self.doc["byes"]

    def board(self, number):
        for board in self.boards:
            if board["board"] == number:
                return board
        raise RoundError(
            "round %d has no board %s (boards %s)" % (self.number, number, _span(self.boards))
        )

    def result(self, board):
        """{"result", "by", "at"} of a board, or None."""
        self.board(board)
        return self.doc["results"].get(str(board))

    def enter(self, board, text, by, at=None, change=False):
        """Enter a board's result ("1-0", ..., "*" to take one back). A board that has another
        result keeps it unless `change` says the arbiter confirmed the change; the same result
        again changes nothing. Returns "entered", "changed" or "unchanged"; each change goes in
        the history with the old value and the new."""
        self.board(board)
        new = result_of(text)
        by = check_by(by)
        at = at or now()
        held = self.doc["results"].get(str(board))
        old = held["result"] if held else None
        if old == new:
            return "unchanged"
        if old is not None and not change:
            raise RoundError(
                "board %d already has %s (entered by %s at %s): a change must be confirmed"
                % (board, old, held["by"], held["at"])
            )
        if new is None:
            del self.doc["results"][str(board)]
        else:
            self.doc["results"][str(board)] = {"result": new, "by": by, "at": at}
        self.doc["history"].append({"board": board, "old": old, "new": new, "by": by, "at": at})
        return "entered" if old is None else "changed"

    def pending(self):
        """The boards without a result, in board order."""
        return [b["board"] for b in self.boards if str(b["board"]) not in self.doc["results"]]

    def progress(self):
        """(boards finished, boards)."""
        return len(self.boards) - len(self.pending()), len(self.boards)

    def cells(self):
        """{starting rank: trf.Cell} of every player of the tournament this round: its games,
        its byes, a zero-point bye for whoever was not paired."""
        if self.doc["source"]["kind"] != "trf":
            raise RoundError("round %d came from a CSV: there is no tournament file" % self.number)
        pending = self.pending()
        if pending:
            raise RoundError(
                "round %d is not finished: board%s %s ha%s no result"
                % (
                    self.number,
                    "s" if len(pending) > 1 else "",
                    ", ".join(map(str, pending)),
                    "ve" if len(pending) > 1 else "s",
                )
            )
        cells = {}
        for board in self.boards:
            white, black = board["white"]["number"], board["black"]["number"]
            codes = RESULTS[self.doc["results"][str(board["board"])]["result"]]
            cells[white] = Cell(black, "w", codes[0])
            cells[black] = Cell(white, "b", codes[1])
        for bye in self.byes:
            cells[bye["player"]["number"]] = Cell(0, "-", bye["kind"])
        return cells

    def rows(self):
        """What the arbiter's results view lists, the boards still without a result first:
        (board, White, Black, "pending" or the result, who entered it, when)."""
        rows = []
        for board in self.boards:
            held = self.doc["results"].get(str(board["board"]))
            rows.append(
                (
                    board["board"],
                    shown(board["white"]),
                    shown(board["black"]),
                    held["result"] if held else "pending",
                    held["by"] if held else "",
                    held["at"] if held else "",
                )
            )
        rows.sort(key=lambda row: (row[3] != "pending", row[0]))
        return rows


def _span(boards):
    numbers = [board["board"] for board in boards]
    if not numbers:
        return "none"
    return "%d to %d" % (min(numbers), max(numbers))
