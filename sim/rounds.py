# SPDX-License-Identifier: MIT
# The arbiter's rounds: each round's boards (players, colours, time control) and byes, its results
# with who entered them and when, every change with the old and the new value. Kept in a folder,
# a file per round rewritten whole at each change (a crash leaves the old file or the new one,
# never half of either), so loading round 5 leaves round 4 as it stands.
import datetime
import fcntl
import json
import os
import re
import shutil

import sim  # noqa: F401  (puts the firmware on the path)
from sim import files, pairings, trf
from sim.trf import Cell
from ui.names import short_name

FORMAT = 1
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
_FILE = "round-%d.json"
_FOLDER = "round-%d"


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


def _trf_player(player):
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


class Rounds:
    """The rounds kept in `folder`: round-N.json each, and round-N/ with the files the round
    was loaded from and the clocks' records."""

    def __init__(self, folder):
        self.folder = folder

    def path(self, number):
        return os.path.join(self.folder, _FILE % number)

    def files(self, number):
        return os.path.join(self.folder, _FOLDER % number)

    def numbers(self):
        found = []
        if os.path.isdir(self.folder):
            for name in os.listdir(self.folder):
                middle = name[len("round-") : -len(".json")]
                if name.startswith("round-") and name.endswith(".json") and middle.isdigit():
                    found.append(int(middle))
        return sorted(found)

    def get(self, number):
        try:
            with open(self.path(number), encoding="utf-8") as handle:
                doc = json.load(handle)
        except FileNotFoundError:
            known = self.numbers()
            raise RoundError(
                "no round %d in %s (%s)"
                % (
                    number,
                    self.folder,
                    "rounds " + ", ".join(map(str, known)) if known else "no round loaded",
                )
            )
        except (OSError, ValueError) as error:
            raise RoundError("cannot read %s: %s" % (self.path(number), error))
        if doc.get("format") != FORMAT:
            raise RoundError("%s is not a round this version keeps" % self.path(number))
        return Round(doc)

    def _lock(self):
        os.makedirs(self.folder, exist_ok=True)
        handle = open(os.path.join(self.folder, ".lock"), "a")
        fcntl.flock(handle, fcntl.LOCK_EX)
        return handle

    def _save(self, round_):
        data = json.dumps(round_.doc, ensure_ascii=False, indent=1).encode("utf-8") + b"\n"
        files.replace(self.path(round_.number), data)
        _sync_folder(self.folder)

    def update(self, number, change):
        """change(round) under the folder's lock, on the round as its file has it now, then
        saved whole; returns what change returned. Nothing is saved if it raises."""
        with self._lock():
            round_ = self.get(number)
            said = change(round_)
            self._save(round_)
            return said

    def enter(self, number, board, text, by, at=None, change=False):
        return self.update(number, lambda r: r.enter(board, text, by, at, change))

    def unfinished(self, before=None):
        """[(round, board)] of the boards of earlier rounds still without a result."""
        found = []
        for number in self.numbers():
            if before is None or number < before:
                found += [(number, board) for board in self.get(number).pending()]
        return found

    # --- loading a round ---------------------------------------------------------------------

    def load_trf(self, number, trf_path, pairings_path, time_control=None, date=None, **how):
        """Round `number` from the TRF it was paired from and the engine's pairings. Returns
        (Round, notes): what the arbiter should know (earlier boards still playing, the TRF's
        last round against the one kept here, a time control the file gives in words)."""
        if time_control is not None and _time_control_problem(time_control):
            raise RoundError("--tc: %s" % _time_control_problem(time_control))
        data = _read(trf_path)
        try:
            tournament = trf.read(data, trf_path)
        except trf.TrfError as error:
            raise RoundError(str(error))
        played = tournament.rounds_played()
        if played >= number:
            raise RoundError(
                "%s has round %d paired already: round %d is paired from the file of the rounds"
                " before it" % (trf_path, played, number)
            )
        if played < number - 1:
            raise RoundError(
                "%s has results up to round %d: round %d is paired after round %d's"
                % (trf_path, played, number, number - 1)
            )
        text = _text(_read(pairings_path), pairings_path)
        try:
            pairs, pab = pairings.engine_pairs(text, pairings_path, tournament, number)
        except pairings.PairingsError as error:
            raise RoundError(str(error))
        notes = []
        if time_control is None:
            time_control = tournament.time_control()
            if time_control is not None and _time_control_problem(time_control):
                notes.append(
                    "the file's time control %r is not one the clock reads: give --tc"
                    % time_control
                )
                time_control = None
        players = tournament.players
        boards = [
            {
                "board": index + 1,
                "white": _trf_player(players[white]),
                "black": _trf_player(players[black]),
                "time_control": time_control,
            }
            for index, (white, black) in enumerate(pairs)
        ]
        asked = tournament.byes_asked(number)
        paired = {n for pair in pairs for n in pair}
        byes = []
        for player in players.values():
            if player.number == pab:
                kind, why = "U", "the pairing engine's"
            elif player.number in asked:
                kind, why = asked[player.number], "asked before the pairing"
            elif player.number not in paired:
                kind, why = "Z", "not paired"
            else:
                continue
            byes.append({"player": _trf_player(player), "kind": kind, "why": why})
        event = {
            "name": tournament.event,
            "site": tournament.site,
            "dialect": tournament.dialect,
        }
        source = {"kind": "trf", "trf": "tournament.trf", "pairings": "pairings.txt"}
        sources = {"tournament.trf": data, "pairings.txt": text.encode("utf-8")}
        notes += self._previous(number, tournament)
        round_ = self._load(number, source, sources, event, boards, byes, time_control, date, how)
        return round_, notes + self._unfinished_notes(number)

    def load_csv(
        self, number, csv_path, time_control=None, date=None, event=None, site=None, **how
    ):
        """Round `number` from a club's CSV (board, White, Black, time control). Returns (Round,
        notes)."""
        data = _read(csv_path)
        text = _text(data, csv_path)
        if time_control is not None and _time_control_problem(time_control):
            raise RoundError("--tc: %s" % _time_control_problem(time_control))
        try:
            rows = pairings.csv_rows(text, csv_path, _time_control_problem)
        except pairings.PairingsError as error:
            raise RoundError(str(error))
        boards = []
        byes = []
        for row in rows:
            white = player_doc(row.white, row.ratings[0])
            if row.black is None:
                byes.append({"player": white, "kind": "U", "why": "the pairing list's"})
                continue
            boards.append(
                {
                    "board": row.board,
                    "white": white,
                    "black": player_doc(row.black, row.ratings[1]),
                    "time_control": row.time_control or time_control,
                }
            )
        source = {"kind": "csv", "csv": "pairings.csv"}
        about = {"name": event or "", "site": site or "", "dialect": None}
        sources = {"pairings.csv": data}
        round_ = self._load(number, source, sources, about, boards, byes, time_control, date, how)
        return round_, self._unfinished_notes(number)

    def _load(self, number, source, sources, event, boards, byes, time_control, date, how):
        unknown = set(how) - {"by", "replace"}
        if unknown:
            raise TypeError("unknown: %s" % ", ".join(sorted(unknown)))
        by = check_by(how.get("by", "command line"))
        replace = how.get("replace", False)
        if not 1 <= number <= trf.MAX_ROUNDS:
            raise RoundError("round: expected 1 to %d" % trf.MAX_ROUNDS)
        at = now()
        doc = {
            "format": FORMAT,
            "round": number,
            "loaded": {"by": by, "at": at},
            "date": (date or datetime.date.today()).isoformat(),
            "event": event,
            "time_control": time_control,
            "source": source,
            "boards": boards,
            "byes": byes,
            "results": {},
            "history": [],
        }
        with self._lock():
            if os.path.exists(self.path(number)):
                if not replace:
                    held = self.get(number)
                    done, total = held.progress()
                    raise RoundError(
                        "round %d is loaded already (%d of %d boards finished): it is replaced"
                        " only when asked (--replace), and kept then as round-%d.replaced-N"
                        % (number, done, total, number)
                    )
                self._set_aside(number)
            folder = self.files(number)
            if os.path.exists(folder):
                shutil.rmtree(folder)  # a load that stopped before its round file
            os.makedirs(folder)
            for name, data in sources.items():
                files.replace(os.path.join(folder, name), data)
            round_ = Round(doc)
            self._save(round_)
        return round_

    def _set_aside(self, number):
        """The loaded round number's files renamed round-N.replaced-K, K the first free."""
        count = 1
        while os.path.exists(
            os.path.join(self.folder, "round-%d.replaced-%d.json" % (number, count))
        ):
            count += 1
        base = os.path.join(self.folder, "round-%d.replaced-%d" % (number, count))
        if os.path.exists(self.files(number)):
            os.replace(self.files(number), base)
        os.replace(self.path(number), base + ".json")
        _sync_folder(self.folder)

    def _previous(self, number, tournament):
        """Where the TRF's results of the round before disagree with the round kept here."""
        if number - 1 not in self.numbers():
            return []
        before = self.get(number - 1)
        if before.doc["source"]["kind"] != "trf":
            return []
        notes = []
        for board in before.boards:
            held = before.doc["results"].get(str(board["board"]))
            kept = held["result"] if held else None
            said = _trf_result(tournament, board, number - 1)
            if said != kept:
                notes.append(
                    "round %d board %d: the tournament file has %s, the round kept here %s"
                    % (number - 1, board["board"], said or "no such game", kept or "no result")
                )
        return notes

    def _unfinished_notes(self, number):
        return [
            "round %d board %d has no result yet: it is kept, and shown" % found
            for found in self.unfinished(before=number)
        ]

    # --- the clocks' records --------------------------------------------------------------------

    def attach(self, number, board, record):
        """Keep a board's clock record (GAME's JSON, docs/records.md) with the round."""
        self.get(number).board(board)
        if not isinstance(record, dict):
            raise RoundError("board %d: a clock record is a JSON object" % board)
        folder = os.path.join(self.files(number), "records")
        with self._lock():
            os.makedirs(folder, exist_ok=True)
            data = json.dumps(record, ensure_ascii=False).encode("utf-8")
            files.replace(os.path.join(folder, "board-%d.json" % board), data)
            _sync_folder(folder)

    def records(self, number):
        """{board: record} of the records kept for round `number`."""
        folder = os.path.join(self.files(number), "records")
        found = {}
        if os.path.isdir(folder):
            for name in os.listdir(folder):
                middle = name[len("board-") : -len(".json")]
                if name.startswith("board-") and name.endswith(".json") and middle.isdigit():
                    with open(os.path.join(folder, name), encoding="utf-8") as handle:
                        found[int(middle)] = json.load(handle)
        return found

    def tournament(self, number):
        """The trf.Tournament round `number` was paired from."""
        round_ = self.get(number)
        if round_.doc["source"]["kind"] != "trf":
            raise RoundError("round %d came from a CSV: there is no tournament file" % number)
        path = os.path.join(self.files(number), round_.doc["source"]["trf"])
        with open(path, "rb") as handle:
            return trf.read(handle.read(), path)


def _trf_result(tournament, board, number):
    """The result the tournament file gives a board of round `number`, or None."""
    white = tournament.players.get(board["white"]["number"])
    black = tournament.players.get(board["black"]["number"])
    if white is None or black is None:
        return None
    cells = (white.cell(number), black.cell(number))
    if None in cells or cells[0].opponent != black.number or cells[0].colour != "w":
        return None
    for text, codes in RESULTS.items():
        if (cells[0].code, cells[1].code) == codes:
            return text
    return None


def _read(path):
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as error:
        raise RoundError("cannot read %s: %s" % (path, error.strerror))


def _text(data, name):
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise RoundError("%s line %d: not UTF-8 text" % (name, line))


def _time_control_problem(text):
    """What the clock finds wrong with a time control's text, or None."""
    from notation import registry
    from notation.errors import PresetError

    try:
        registry.parse(text)
    except PresetError as error:
        return str(error)
    return None


def _sync_folder(folder):
    """A rename made durable: the folder's entry flushed to the disk (POSIX)."""
    handle = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)
