# SPDX-License-Identifier: MIT
# `python -m sim hall broadcast --out DIR`: one PGN per board with %clk and %emt, rewritten at every
# event, for a broadcast tool that watches the folder.
#
# It reads the hall as any read-only account can: each board's state (retained) and the record's
# entries on `event` (`from`, `log`: entries at their index; the clock sends them again from the
# first when it reconnects). The record is the clock's own (GAME's form, docs/records.md), and
# sim/annotate.py writes its times into the board's moves: `--moves DIR/board-N.pgn` when an
# e-scoresheet or a typist keeps one, else a move per ply written as a null move (`--`). Times
# are exact to the millisecond (`%clk 0:04:31.2`), the move's own time as `%emt`.
import json
import os
import signal
import sys
import tempfile
import threading
import time
from argparse import Namespace

import paho.mqtt.client as mqtt

from sim import annotate, files
from sim.text_edits import AnnotateError
from sim.web import skeleton


class Board:
    def __init__(self, number):
        self.number = number
        self.state = None
        self.log = []
        self.written = None  # the text last written

    def record(self):
        """The board's game as GAME gives it (what annotate reads)."""
        state = self.state or {}
        standing = []
        for entry in self.log:
            if entry.get("entry") == "ply":
                standing.append(entry)
            elif entry.get("entry") == "undo" and standing:
                standing.pop()
        result = state.get("result")
        return {
            "plies": [{"elapsed_ms": entry["elapsed_ms"]} for entry in standing],
            "clock": {
                "record": 1,
                "preset": state.get("spec"),
                "name": state.get("preset"),
                "state": "over" if result else "running",
                "result": result,
                "complete": True,
                "log": self.log,
            },
        }


class Broadcast:
    def __init__(self, host, port, user, password, hall, out, moves=None, say=print):
        self.hall = hall
        self.out = out
        self.moves = moves
        self.say = say
        self.boards = {}
        self.lock = threading.Lock()
        self.dirty = set()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
        self.client.username_pw_set(user, password)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.connect_async(host, port, 30)

    def _on_connect(self, client, userdata, flags, reason, properties):
        if reason.is_failure:
            self.say("broker: %s" % reason)
            return
        base = "clock/%s/+/" % self.hall
        client.subscribe([(base + "state", 0), (base + "event", 0)])

    def _on_message(self, client, userdata, message):
        parts = message.topic.split("/")
        try:
            doc = json.loads(message.payload)
            number = int(parts[2])
        except ValueError:
            self.say("ignored a message on %s: not JSON" % message.topic)
            return
        if not isinstance(doc, dict):
            return
        with self.lock:
            board = self.boards.get(number)
            if board is None:
                board = self.boards[number] = Board(number)
            if parts[3] == "state":
                board.state = doc
            else:
                start, log = doc.get("from"), doc.get("log")
                if not isinstance(start, int) or not isinstance(log, list) or start < 0:
                    return
                if doc.get("event") in ("start", "new") and start == 0 and not log:
                    board.log = []
                if start <= len(board.log):
                    board.log[start:] = log
                else:
                    self.say(
                        "board %d: entries from %d, %d held" % (number, start, len(board.log))
                    )
            self.dirty.add(number)

    def write(self):
        with self.lock:
            numbers, self.dirty = sorted(self.dirty), set()
            boards = [(n, self.boards[n].record(), self.boards[n]) for n in numbers]
        for number, record, board in boards:
            if not record["clock"]["preset"]:
                continue
            try:
                text = self.pgn(number, record)
            except AnnotateError as error:
                self.say("board %d: %s" % (number, error))
                continue
            if text != board.written:
                files.replace(os.path.join(self.out, "board-%d.pgn" % number), text.encode())
                board.written = text

    def pgn(self, number, record):
        moves = None
        if self.moves:
            path = os.path.join(self.moves, "board-%d.pgn" % number)
            if os.path.exists(path):
                moves = annotate.read_text(path)
        if moves is None:
            moves = skeleton("pgn", len(record["plies"]), record["clock"]["result"])
            moves = moves.replace(
                '[Event "Game clock"]', '[Event "%s"]\n[Board "%d"]' % (self.hall, number)
            )
        with tempfile.TemporaryDirectory(prefix="clock-broadcast-") as folder:
            record_path = os.path.join(folder, "game.json")
            moves_path = os.path.join(folder, "moves.pgn")
            out = os.path.join(folder, "out.pgn")
            with open(record_path, "w") as handle:
                json.dump(record, handle)
            with open(moves_path, "w", encoding="utf-8", errors="surrogateescape") as handle:
                handle.write(moves)
            args = Namespace(
                record=record_path,
                pgn=moves_path,
                sgf=None,
                game=None,
                emt=True,
                exact=True,
                out=out,
            )
            annotate.run(args, lambda text: None)
            with open(out, encoding="utf-8", errors="surrogateescape") as handle:
                return handle.read()

    def run(self, seconds=None, stop=None):
        os.makedirs(self.out, exist_ok=True)
        self.client.loop_start()
        end = None if seconds is None else time.monotonic() + seconds
        try:
            while (end is None or time.monotonic() < end) and not (stop and stop.is_set()):
                time.sleep(0.05)
                self.write()
            self.write()
        finally:
            self.client.disconnect()
            self.client.loop_stop()


def run(args):
    from sim.hall import broker_address

    def say(text):
        print(text, file=sys.stderr, flush=True)

    try:
        host, port, user, password = broker_address(args)
        os.makedirs(args.out, exist_ok=True)
    except ValueError as error:
        print("error: %s" % error, file=sys.stderr)
        return 2
    except OSError as error:
        print("error: --out %s: %s" % (args.out, error.strerror), file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    broadcast = Broadcast(host, port, user, password, args.hall, args.out, args.moves, say)
    try:
        broadcast.run(args.seconds)
    except KeyboardInterrupt:
        pass
    return 0
