# SPDX-License-Identifier: MIT
# The files of one followed clock: its game record kept press by press, and its live state.
import json
import os
import re

from sim import files, records

REFETCH = ("new", "start", "over", "arbiter")  # events after which the record is asked again


def write_atomic(path, text):
    """`text` and a line end into `path`, whole or not at all (sim/files.py)."""
    files.replace(path, (text + "\n").encode("utf-8"))


def same_game(old, new):
    """Whether record `new` is `old` played on: the same preset, and `old`'s log its start (a
    clock's log only grows until the next game)."""
    old_clock, new_clock = old.get("clock"), new.get("clock")
    if not isinstance(old_clock, dict) or not isinstance(new_clock, dict):
        return False
    log = old_clock["log"]
    return (
        old_clock.get("preset") == new_clock.get("preset") and new_clock["log"][: len(log)] == log
    )


class ClockFiles:
    """`<name>.json`, the record (GAME's JSON), and `<name>.state.json`, the latest STATE or EV
    JSON, in `folder`. A record that is not the clock's game any more is kept as
    `<name>-<n>.json`, n one more than the highest there."""

    def __init__(self, name, folder, note):
        self.name = name
        self.folder = folder
        self.note = note
        self.record_path = os.path.join(folder, name + ".json")
        self.state_path = os.path.join(folder, name + ".state.json")
        self.held = self._saved()  # the record as the file has it: a dict, None, or False
        self.current = False  # self.held is GAME's answer since the port was opened
        self.no_game = None

    def _saved(self):
        """The record file's record, None when there is no file, False when it is not one."""
        if not os.path.exists(self.record_path):
            return None
        try:
            return records.load(self.record_path)
        except records.RecordError:
            return False

    def state(self, text):
        self.write(self.state_path, text)

    def event(self, event):
        """Follow an event in the record: a press adds its ply, a pause or a resume sets the
        state. True when GAME must be asked instead (the event does not follow on what is held:
        a line missed, an undo or a correction, another game)."""
        held = self.held if self.current else None
        if not held:
            return True
        clock = held["clock"]
        entry = event.get("entry")
        kind = event.get("event")
        before = (clock["state"], clock["result"], len(clock["log"]))
        if (
            kind == "press"
            and event.get("entries") == len(clock["log"]) + 1
            and isinstance(entry, dict)
            and entry.get("entry") == "ply"
            and isinstance(entry.get("elapsed_ms"), int)
        ):
            clock["log"].append(entry)
            held["plies"].append({"elapsed_ms": entry["elapsed_ms"]})
        elif kind in REFETCH or event.get("entries") != len(clock["log"]):
            return True
        elif kind not in ("pause", "resume"):
            return False
        clock["result"] = event.get("result")
        if kind == "pause":
            clock["state"] = "paused"
        else:
            clock["state"] = "running" if clock["result"] is None else "over"
        if (clock["state"], clock["result"], len(clock["log"])) != before:
            self.write(self.record_path, json.dumps(held))
        return False

    def game(self, text):
        if not text.startswith("OK "):
            if text != self.no_game:
                self.note("no record yet: %s" % text)
                self.no_game = text
            return
        self.no_game = None
        try:
            record = records.decode(text[3:], "GAME's answer")
            if record.get("clock") is None or not isinstance(record.get("plies"), list):
                raise records.RecordError("GAME's answer has no clock field or no plies")
        except records.RecordError as error:
            self.note("ignored: %s" % error)
            return
        if self.held is not None and not (self.held and same_game(self.held, record)):
            self.archive()
        self.held = record
        self.current = True
        self.write(self.record_path, text[3:])

    def archive(self):
        """Keep the record file of a game that is over for this clock as <name>-<n>.json."""
        pattern = re.compile(re.escape(self.name) + r"-(\d+)\.json$")
        numbers = [int(m.group(1)) for m in map(pattern.match, os.listdir(self.folder)) if m]
        kept = os.path.join(self.folder, "%s-%d.json" % (self.name, max(numbers, default=0) + 1))
        try:
            os.replace(self.record_path, kept)
        except OSError as error:
            self.note("cannot keep the last game as %s: %s" % (kept, error))
            return
        self.note("a new game; the last one is kept as %s" % kept)

    def write(self, path, text):
        try:
            write_atomic(path, text)
        except OSError as error:
            self.note("cannot write %s: %s" % (path, error))
