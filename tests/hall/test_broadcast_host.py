# SPDX-License-Identifier: MIT
# `hall broadcast`, the hall's recorder, on a real Mosquitto: every game of the round in a PGN of its
# own whose %clk and %emt python-chess reads back equal to the clock's record (a correction and
# an undo included), never overwritten by the board's next game; a finished game taken once by
# its id, a newer version replacing it, acknowledged so the clock lets it go; a game that ends
# while the recorder is away taken when it is back; a wrong password an exit with one line.
import io
import json
import os
import subprocess
import sys
import threading

import chess.pgn

import notation
from app import game_record
from broker_support import HALL, Watcher, broker, wait_for
from hal import buttons as b
from sim import records
from sim.hall_broadcast import Broadcast
from test_broker_host import on_broker, step

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def clock_record(clock):
    parts = []
    game_record.write(clock.app, parts.append)
    return json.loads("".join(parts))


def pgn_times(path):
    """(the Board header, each move's (%clk, %emt) in ms) of the PGN at `path`, or None."""
    try:
        game = chess.pgn.read_game(io.StringIO(path.read_text()))
    except OSError:
        return None
    if game is None:
        return None
    times = [(round(n.clock() * 1000), round(n.emt() * 1000)) for n in game.mainline()]
    return game.headers.get("Board"), times


def want(clock, board):
    return (
        str(board),
        [
            (entry[entry["side"]]["remaining_ms"], entry["elapsed_ms"])
            for entry in records.standing(clock_record(clock))
        ],
    )


class Recorder:
    """The recorder in a thread of this process, on `out`."""

    def __init__(self, brokered, out):
        self.broadcast = Broadcast(
            brokered.host,
            brokered.port,
            "broadcast",
            brokered.passwords["broadcast"],
            HALL,
            str(out),
            say=print,
        )
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.broadcast.run, kwargs={"stop": self.stop})
        self.thread.start()

    def close(self):
        self.stop.set()
        self.thread.join(10)


def settled(clocks):
    """Whether every clock's link has sent what it had (its wake is not `now`)."""
    return all(c.app.hall.link.wake_by(c.hal.now + 9, c.hal.now) != c.hal.now for c in clocks)


def results(out):
    try:
        return json.loads((out / "round-1" / "results.json").read_text())["games"]
    except (OSError, ValueError):
        return []


def test_every_game_a_pgn_of_its_own_whose_clock_times_are_the_record(tmp_path, monkeypatch):
    # The clocks' firmware unloads the notation modules after each use (notation.forget: the
    # board's RAM is small) while the recorder's thread imports them for sim/annotate.py in
    # this same process: an unload in the middle of that import is a KeyError that ends the
    # thread. In a hall they are processes apart; here the modules stay loaded.
    monkeypatch.setattr(notation, "forget", lambda: None)
    with broker(tmp_path, (1, 2)) as brokered:
        clocks = [on_broker(brokered, 1), on_broker(brokered, 2, preset="Rapid 15+10")]
        watcher = Watcher(brokered)
        wait_for(  # both on the broker: the recorder then gets every event from the start
            lambda: all(watcher.last("clock/club/%d/state" % n) for n in (1, 2)),
            30,
            step=lambda: [step(c, 10) for c in clocks],
        )
        out = tmp_path / "broadcast"
        recorder = Recorder(brokered, out)
        try:
            wait_for(lambda: recorder.broadcast.client.is_connected(), 20)
            start = clocks[0].hal.now
            for number, clock in enumerate(clocks):
                stamp = start + 500
                clock.press(b.RIGHT, stamp)
                for ply in range(9 + number):
                    stamp += 1234 + 777 * ply + 50 * number
                    clock.press(b.LEFT if ply % 2 == 0 else b.RIGHT, stamp)
            first = clocks[0]
            first.press(b.PLAY, stamp + 1000)  # a pause, an undo, a minute for the left
            first.press(b.MINUS, stamp + 1500)
            first.press(b.MINUS, stamp + 2000)
            first.press(b.SET, stamp + 2500)
            first.press(b.PLUS, stamp + 3000)
            first.press(b.PLAY, stamp + 3500)
            first.press(b.PLAY, stamp + 4000)
            first.press(b.LEFT, stamp + 5000)  # ply 9 again, the minute in its %clk
            for clock in clocks:
                clock.run_until(stamp + 6000)
            wait_for(lambda: settled(clocks), 60, step=lambda: [step(c, 10) for c in clocks])
            # Each game's file is written at every event it has: it comes to hold the whole
            # record once the recorder has every event, however loaded the machine.
            for number, clock in enumerate(clocks, 1):
                path = out / "round-1" / ("board-%d-1.pgn" % number)
                expected = want(clock, number)
                try:
                    wait_for(lambda: pgn_times(path) == expected, 60)
                except AssertionError:
                    assert pgn_times(path) == expected
            kinds = [e["entry"] for e in clock_record(first)["clock"]["log"]]
            assert "undo" in kinds and "adjust" in kinds, kinds
            # Board 1's game ends (the arbiter, in a pause); the finished record is the clock's,
            # acknowledged: the clock lets it go. The next game is a file of its own.
            first.press(b.PLAY, first.hal.now + 100)
            first.run_until(first.hal.now + 500)
            first.app.end_by_arbiter(first.hal.now)
            first.run_until(first.hal.now + 100)
            finished = want(first, 1)
            tag = first.app.record.tag
            wait_for(lambda: len(first.app.hall.outbox) == 0, 30, step=lambda: step(first, 10))
            done = results(out)
            assert [(g["board"], g["number"], g["game"], g["version"]) for g in done] == [
                (1, 1, tag, 1),
                (2, 1, clocks[1].app.record.tag, 0),
            ], done
            assert done[0]["result"] == {"reason": "arbiter"}
            assert pgn_times(out / "round-1" / "board-1-1.pgn") == finished
            first.app.new_game(first.hal.now)
            first.press(b.RIGHT, first.hal.now + 200)
            first.press(b.LEFT, first.hal.now + 2200)
            first.run_until(first.hal.now + 2500)
            second = out / "round-1" / "board-1-2.pgn"
            wait_for(lambda: pgn_times(second) == want(first, 1), 30, step=lambda: step(first, 10))
            assert pgn_times(out / "round-1" / "board-1-1.pgn") == finished  # never overwritten
            round_pgn = out / "round-1" / "round.pgn"
            wait_for(lambda: round_pgn.read_text().count("[Board ") == 3, 20)
        finally:
            recorder.close()
            watcher.close()


def test_a_finished_game_is_taken_once_a_newer_version_replaces_it(tmp_path, monkeypatch):
    monkeypatch.setattr(notation, "forget", lambda: None)
    with broker(tmp_path, (3,)) as brokered:
        out = tmp_path / "broadcast"
        clock = on_broker(brokered, 3, preset="Bullet 1+0")
        arbiter = Watcher(brokered)
        recorder = Recorder(brokered, out)
        try:
            wait_for(lambda: recorder.broadcast.client.is_connected(), 20)
            clock.press(b.RIGHT, clock.hal.now + 100)
            clock.press(b.LEFT, clock.hal.now + 1500)
            clock.run_until(clock.hal.now + 65000)  # the second player's flag
            tag = clock.app.record.tag
            wait_for(lambda: len(clock.app.hall.outbox) == 0, 30, step=lambda: step(clock, 10))
            message = json.loads(arbiter.on("clock/club/3/game")[-1])
            acks = lambda: [  # noqa: E731  (the acknowledgements, not the asks for entries)
                json.loads(p) for p in arbiter.on("clock/club/3/ack") if b'"game"' in p
            ]
            # the clock took the ack; the arbiter's own subscription may see it a moment later
            wait_for(lambda: acks() == [{"game": tag, "version": 1}], 20)
            # the same game again (the clock missed the ack): acknowledged again, taken once
            sender = Watcher(brokered, "clock-3", topic=None)
            sender.publish("clock/club/3/game", json.dumps(message))
            wait_for(lambda: len(acks()) == 2, 20)
            assert recorder.broadcast.taken == 1 and len(results(out)) == 1
            # an amended result, version 2: replaces the first; version 1 again changes nothing
            amended = dict(message, version=2, result={"reason": "arbiter"})
            amended["record"] = " ".join(message["record"].split()[:-1] + ["11,30000,3"])
            sender.publish("clock/club/3/game", json.dumps(amended))
            wait_for(lambda: {"game": tag, "version": 2} in acks(), 20)
            sender.publish("clock/club/3/game", json.dumps(message))
            wait_for(lambda: len(acks()) == 4, 20)
            done = results(out)
            assert [(g["game"], g["version"], g["result"]) for g in done] == [
                (tag, 2, {"reason": "arbiter"})
            ], done
            assert recorder.broadcast.taken == 2
            text = (out / "round-1" / "board-3-1.pgn").read_text()
            assert '[Result "*"]' in text or "arbiter" not in text
            sender.close()
        finally:
            recorder.close()
            arbiter.close()


def test_a_game_that_ends_while_the_recorder_is_away_is_taken_when_it_is_back(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(notation, "forget", lambda: None)
    with broker(tmp_path, (4,)) as brokered:
        out = tmp_path / "broadcast"
        clock = on_broker(brokered, 4, preset="Bullet 1+0")
        recorder = Recorder(brokered, out)
        wait_for(lambda: recorder.broadcast.client.is_connected(), 20)
        recorder.close()  # away: its session (and the games for it) wait on the broker
        clock.press(b.RIGHT, clock.hal.now + 100)
        clock.press(b.LEFT, clock.hal.now + 1500)
        clock.run_until(clock.hal.now + 65000)
        tag = clock.app.record.tag
        wait_for(lambda: clock.app.hall.link.sent > 3, 20, step=lambda: step(clock, 10))
        assert len(clock.app.hall.outbox) == 1
        recorder = Recorder(brokered, out)
        try:
            wait_for(lambda: len(clock.app.hall.outbox) == 0, 40, step=lambda: step(clock, 50))
            assert [(g["game"], g["version"]) for g in results(out)] == [(tag, 1)]
            assert pgn_times(out / "round-1" / "board-4-1.pgn") == want(clock, 4)
        finally:
            recorder.close()


def test_a_wrong_password_ends_the_recorder_and_the_gateway_with_one_line(tmp_path):
    with broker(tmp_path, (5,)) as brokered:
        for tool, extra in (
            ("broadcast", ["--out", str(tmp_path / "out")]),
            ("gateway", ["--accounts", brokered.accounts, "--port", "/nonexistent"]),
        ):
            done = subprocess.run(
                [sys.executable, "-m", "sim", "hall", tool, "--hall", HALL]
                + ["--broker", "127.0.0.1:%d" % brokered.port]
                + extra,
                cwd=ROOT,
                env=dict(os.environ, HALL_PASSWORD="wrong"),
                capture_output=True,
                text=True,
                timeout=30,
            )
            assert done.returncode == 2, (tool, done.returncode, done.stderr)
            lines = done.stderr.strip().splitlines()
            assert lines == [
                "error: the broker at 127.0.0.1:%d refused the account %s: Not authorized"
                % (brokered.port, tool)
            ], lines
