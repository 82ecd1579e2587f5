# SPDX-License-Identifier: MIT
# The arbiter's rounds kept in a folder: a file per round rewritten whole at each change under the
# folder's lock (a crash leaves the old file or the new one, never half of either), the files each
# round was loaded from, the clocks' records; loading round 5 leaves round 4 as it stands.
import datetime
import fcntl
import json
import os
import shutil

from sim import files, round_load, trf
from sim.rounds import Round, RoundError, check_by, now

FORMAT = 1  # of a round's file
_FILE = "round-%d.json"
_FOLDER = "round-%d"


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
        """Round `number` from the TRF it was paired from and the engine's pairings (`how`: by,
        replace). Returns (Round, notes): what the arbiter should know (a time control the file
        gives in words, the file's last round against the one kept here, earlier boards still
        playing)."""
        made = round_load.from_trf(number, trf_path, pairings_path, time_control)
        notes = list(made.notes)
        if number - 1 in self.numbers():
            notes += round_load.disagreements(self.get(number - 1), made.tournament)
        return self._load(number, made, date, **how), notes + self._unfinished_notes(number)

    def load_csv(
        self, number, csv_path, time_control=None, date=None, event=None, site=None, **how
    ):
        """Round `number` from a club's CSV (board, White, Black, time control). Returns (Round,
        notes)."""
        made = round_load.from_csv(csv_path, time_control, event, site)
        return self._load(number, made, date, **how), self._unfinished_notes(number)

    def _load(self, number, made, date, by="command line", replace=False):
        by = check_by(by)
        if not 1 <= number <= trf.MAX_ROUNDS:
            raise RoundError("round: expected 1 to %d" % trf.MAX_ROUNDS)
        at = now()
        doc = {
            "format": FORMAT,
            "round": number,
            "loaded": {"by": by, "at": at},
            "date": (date or datetime.date.today()).isoformat(),
            "event": made.event,
            "time_control": made.time_control,
            "source": made.source,
            "boards": made.boards,
            "byes": made.byes,
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
            for name, data in made.sources.items():
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


def _sync_folder(folder):
    """A rename made durable: the folder's entry flushed to the disk (POSIX)."""
    handle = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)
