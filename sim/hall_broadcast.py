# SPDX-License-Identifier: MIT
# `python -m sim hall broadcast --out DIR`: the hall's recorder. Every game of the round in a PGN of
# its own with %clk and %emt, written live as it is played, and once finished from the clock's
# own record, acknowledged to the clock so it can let it go; the round's results.
#
# It reads the hall as the `broadcast` account (docs/hall.md): each board's state (retained) and
# the record's entries on `event` for the game in play; the finished games on `game` (QoS 1, in
# a persistent session: a game that ends while the recorder is away waits for it on the broker,
# and the clock sends it again every 30 s until it is acknowledged). A finished game is taken
# once by its id: its version is kept (a newer version of the same game, an amended result,
# replaces it; an older or the same one is acknowledged again and changes nothing), its record
# replayed on the core (sim/hall_record.py), its PGN written, the round's index and PGN
# rewritten, and only then the `ack` sent.
#
# Files, in DIR/round-R/ (R from --round): board-B-N.pgn, game N of board B in this round (in
# the order the board's games began; never another game's, never overwritten by the next one),
# results.json (every game: board, number, id, version, result, file) and round.pgn (every game
# of the round, by board, for a broadcast tool that reads one file). Each is replaced whole
# (sim/files.py). sim/annotate.py writes the times into the board's moves: `--moves
# DIR/board-B.pgn` where an e-scoresheet or a typist keeps them, else one null move (`--`) per
# ply. Times are exact to the millisecond (`%clk 0:04:31.2`), the move's own time as `%emt`.
import json
import os
import signal
import sys
import threading
import time

import paho.mqtt.client as mqtt

from sim import annotate, files, pgn_text
from sim.hall_record import GameError, check, finished_record
from sim.text_edits import AnnotateError
from sim.web import skeleton

INDEX = "results.json"
LIVE_EVERY_S = 1.0  # a game in play is rewritten at most this often (a hall of hundreds)
INDEX_EVERY_S = 2.0  # results.json and round.pgn, at most this often but for a finished game
RESEND_EVERY_S = 3.0  # entries missed (the recorder was away) asked for again this often


class Game:
    """One game of a board in this round: its number there, its id, and what is known of it."""

    def __init__(self, board, number, tag):
        self.board = board
        self.number = number
        self.tag = tag
        self.version = 0  # of the finished game taken; 0 while it is being played
        self.result = None
        self.state = None  # the last state of it (live)
        self.log = []  # its record's entries (live), at their index
        self.record = None  # the finished record (GAME's form)
        self.written = None  # the PGN text last written
        self.owed = 0  # the version to acknowledge once its file is written
        self.written_at = 0.0  # when its file was last written (monotonic)
        self.asked_at = 0.0  # when the entries it missed were last asked for

    @property
    def name(self):
        return "board-%d-%d.pgn" % (self.board, self.number)

    def live_record(self):
        """The game as GAME would give it, from the state and the entries that came."""
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

    def summary(self):
        record = self.record if self.record is not None else self.live_record()
        return {
            "board": self.board,
            "number": self.number,
            "game": self.tag,
            "version": self.version,
            "result": self.result,
            "plies": len(record["plies"]),
            "entries": len(record["clock"]["log"]),
            "file": self.name,
        }


class Broadcast:
    def __init__(self, host, port, user, password, hall, out, moves=None, say=print, round=1):
        self.hall = hall
        self.folder = os.path.join(out, "round-%d" % round)
        self.round = round
        self.moves = moves
        self.say = say
        self.games = {}  # (board, tag) -> Game
        self.boards = {}  # board -> [Game], in order
        self.current = {}  # board -> the tag of the game being played
        self.lock = threading.Lock()
        self.dirty = set()  # (board, tag) of games to write
        self.acks = []  # (board, tag, version) to acknowledge once written
        self.refused = set()  # (board, tag, version) of games that do not replay, said once
        self.taken = 0  # finished games taken (first versions and newer ones)
        self.indexed_at = 0.0
        self.index_owed = False  # a game's file changed since the index was written
        self.client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2,
            client_id=user,
            clean_session=False,  # finished games wait on the broker while the recorder is away
            protocol=mqtt.MQTTv311,
        )
        self.client.username_pw_set(user, password)
        self.client.reconnect_delay_set(1, 5)  # back soon after the broker is
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.host, self.port = host, port
        self._load()

    def _load(self):
        """What an earlier run of the recorder wrote for this round: its games keep their
        numbers, and a finished game is not taken twice."""
        try:
            with open(os.path.join(self.folder, INDEX)) as handle:
                index = json.load(handle)
        except (OSError, ValueError):
            return
        for item in index.get("games", []) if isinstance(index, dict) else []:
            try:
                game = Game(item["board"], item["number"], item["game"])
                game.version = item["version"]
                game.result = item["result"]
            except (KeyError, TypeError):
                continue
            self.games[(game.board, game.tag)] = game
            self.boards.setdefault(game.board, []).append(game)

    def _on_connect(self, client, userdata, flags, reason, properties):
        if reason.is_failure:
            self.say("broker: %s" % reason)
            return
        base = "clock/%s/+/" % self.hall
        client.subscribe([(base + "state", 0), (base + "event", 0), (base + "game", 1)])

    def _game(self, board, tag):
        """Board `board`'s game `tag`, numbered in the round at its first sight."""
        game = self.games.get((board, tag))
        if game is None:
            played = self.boards.setdefault(board, [])
            game = Game(board, len(played) + 1, tag)
            played.append(game)
            self.games[(board, tag)] = game
        return game

    def _on_message(self, client, userdata, message):
        parts = message.topic.split("/")
        try:
            doc = json.loads(message.payload)
            number = int(parts[2])
        except (ValueError, RecursionError, IndexError):
            self.say("ignored a message on %s: not JSON" % message.topic)
            return
        if not isinstance(doc, dict) or number <= 0:
            return
        with self.lock:
            try:
                if parts[3] == "game":
                    self._finished(number, doc)
                elif parts[3] == "state":
                    self._state(number, doc)
                else:
                    self._event(number, doc)
            except (KeyError, TypeError, ValueError, AttributeError) as error:
                self.say("board %d: ignored a %s message (%s)" % (number, parts[3], error))

    def _state(self, number, doc):
        tag = doc.get("game")
        if not isinstance(tag, int) or not doc.get("spec"):
            return
        if doc.get("state") == "ready" and not doc.get("plies"):
            return  # no game yet: nothing of it to keep
        game = self._game(number, tag)
        self.current[number] = tag
        if game.version:
            return  # finished and taken: the record is the clock's own
        game.state = doc
        self.dirty.add((number, tag))
        entries = doc.get("entries")
        if isinstance(entries, int) and entries > len(game.log):
            self._missed(game)

    def _event(self, number, doc):
        start, log, tag = doc.get("from"), doc.get("log"), doc.get("game")
        if not isinstance(start, int) or not isinstance(log, list) or start < 0:
            return
        if not isinstance(tag, int):
            tag = self.current.get(number)
            if tag is None:
                return
        game = self._game(number, tag)
        if game.version:
            return
        if start <= len(game.log):
            game.log[start:] = [entry for entry in log if isinstance(entry, dict)]
        else:  # entries that went while the recorder was away: asked for again
            self._missed(game)
        self.dirty.add((number, tag))

    def _missed(self, game):
        """The game in play's entries from the first one missing, asked of its clock again (on
        `ack`, the recorder's way to its clocks), every 3 s at most."""
        now = time.monotonic()
        if now - game.asked_at < RESEND_EVERY_S:
            return
        game.asked_at = now
        payload = json.dumps({"resend": game.tag, "from": len(game.log)}).encode()
        self.client.publish("clock/%s/%d/ack" % (self.hall, game.board), payload, 1)

    def _finished(self, number, doc):
        try:
            board, tag, version = check(doc)
            if board != number:
                raise GameError("board %d on board %d's topic" % (board, number))
        except GameError as error:
            self.say("board %d: a game message refused: %s" % (number, error))
            return
        game = self._game(board, tag)
        if game.version >= version:
            self.acks.append((board, tag, version))  # had it: the clock missed the ack
            return
        try:
            record = finished_record(doc)
        except GameError as error:
            if (board, tag, version) not in self.refused:
                self.refused.add((board, tag, version))
                self.say("board %d: game %d does not replay: %s" % (board, tag, error))
            return
        game.version = version
        game.result = doc.get("result")
        game.record = record
        game.written = None
        game.owed = version
        self.taken += 1
        self.dirty.add((board, tag))

    # --- files ----------------------------------------------------------------------------

    def write(self, final=False):
        """The games that changed (a game in play once a second at most, every one when
        `final`), then the index and the round's PGN (every 2 s at most, at once for a finished
        game); then the acknowledgements of the finished games now on disk."""
        now = time.monotonic()
        with self.lock:
            acks, self.acks = self.acks, []
            jobs = []
            for key in sorted(self.dirty):
                game = self.games[key]
                if not final and not game.owed and now - game.written_at < LIVE_EVERY_S:
                    continue  # in play, written a moment ago: at a later pass
                self.dirty.discard(key)
                record = game.record if game.record is not None else game.live_record()
                jobs.append((game, json.loads(json.dumps(record)), game.owed))
        done = []
        changed = False
        for game, record, owed in jobs:
            if not record["clock"]["preset"]:
                continue
            try:
                text = self.pgn(game, record)
            except AnnotateError as error:
                self.say("board %d: %s" % (game.board, error))
                continue
            game.written_at = now
            if text != game.written:
                files.replace(os.path.join(self.folder, game.name), text.encode())
                game.written = text
                changed = True
            if owed:
                done.append((game, owed))
        self.index_owed = self.index_owed or changed
        if done or self.index_owed and now - self.indexed_at >= INDEX_EVERY_S:
            self._index()
            self.indexed_at = now
            self.index_owed = False
        for game, owed in done:
            acks.append((game.board, game.tag, owed))
            with self.lock:
                if game.owed == owed:
                    game.owed = 0
        for board, tag, version in acks:
            payload = json.dumps({"game": tag, "version": version}).encode()
            self.client.publish("clock/%s/%d/ack" % (self.hall, board), payload, 1)

    def _index(self):
        with self.lock:
            played = [game for board in sorted(self.boards) for game in self.boards[board]]
            index = {
                "hall": self.hall,
                "round": self.round,
                "games": [game.summary() for game in played if game.written or game.version],
            }
            texts = [game.written for game in played if game.written]
        files.replace(os.path.join(self.folder, INDEX), json.dumps(index, indent=1).encode())
        files.replace(os.path.join(self.folder, "round.pgn"), "\n".join(texts).encode())

    def pgn(self, game, record):
        moves = None
        if self.moves:
            path = os.path.join(self.moves, "board-%d.pgn" % game.board)
            if os.path.exists(path):
                moves = annotate.read_text(path)
        name = "board %d game %d" % (game.board, game.number)
        timed = annotate.record_of(record, name)
        if moves is not None:
            try:
                return pgn_text.annotate_pgn(moves, timed, None, True, True, name, _quiet)
            except AnnotateError as error:  # the scoresheet is behind: null moves meanwhile
                self.say("board %d: %s; written with null moves" % (game.board, error))
        moves = skeleton("pgn", len(record["plies"]), record["clock"]["result"])
        moves = moves.replace(
            '[Event "Game clock"]',
            '[Event "%s"]\n[Round "%d.%d"]\n[Board "%d"]\n[GameId "%d"]'
            % (self.hall, self.round, game.number, game.board, game.tag),
        )
        return pgn_text.annotate_pgn(moves, timed, None, True, True, name, _quiet)

    def run(self, seconds=None, stop=None):
        os.makedirs(self.folder, exist_ok=True)
        self.client.connect_async(self.host, self.port, 30)
        self.client.loop_start()
        end = None if seconds is None else time.monotonic() + seconds
        try:
            while (end is None or time.monotonic() < end) and not (stop and stop.is_set()):
                time.sleep(0.05)
                self.write()
        finally:  # stopped (SIGTERM, Ctrl-C too): what came is on disk, the index with it
            self.indexed_at = 0.0
            self.write(final=True)
            if self.index_owed:
                self._index()
            self.client.disconnect()
            self.client.loop_stop()


def _quiet(text):
    pass


def run(args):
    from sim.hall_account import AccountError, broker_address, check

    def say(text):
        print(text, file=sys.stderr, flush=True)

    try:
        host, port, user, password = broker_address(args)
        os.makedirs(args.out, exist_ok=True)
        check(host, port, user, password)
    except AccountError as error:
        print("error: %s" % error, file=sys.stderr)
        return 2
    except OSError as error:
        print("error: --out %s: %s" % (args.out, error.strerror), file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    broadcast = Broadcast(
        host, port, user, password, args.hall, args.out, args.moves, say, args.round
    )
    try:
        broadcast.run(args.seconds)
    except KeyboardInterrupt:
        pass
    return 0
