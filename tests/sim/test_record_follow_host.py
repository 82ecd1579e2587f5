# SPDX-License-Identifier: MIT
# `python -m sim record` following clocks served on pseudo-terminals (`serve --pty` in
# subprocesses): both files after every press, an undo, a new game, a clock unplugged and back.
import json
import os
import select
import signal
import subprocess
import sys
import threading
import tty
import time

import pytest

from sim import follow, follow_files, serial_cli
from sim.__main__ import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WAIT_S = 8


def until(check, what, timeout=WAIT_S):
    """Poll `check()` until it returns something true; that value."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, "timed out waiting for " + what
        time.sleep(0.02)


class Served:
    """A clock: the app behind a new pty, its buttons pressed through serve's --keys."""

    def __init__(self, *options):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "sim.serial_cli", "serve", "--pty", "--keys", *options],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        out = self.process.stdout.fileno()
        assert select.select([out], [], [], WAIT_S)[0], "serve printed nothing"
        line = self.process.stdout.readline().decode()
        assert line.startswith("serial: "), line
        self.path = line[8:].strip()

    def key(self, name):
        """Press `name`: serve presses each key line on its own, after the one before."""
        self.process.stdin.write(name.encode() + b"\n")
        self.process.stdin.flush()

    def stop(self):
        self.process.terminate()
        self.process.wait(5)


class Follower:
    """`python -m sim record`, its stderr collected line by line."""

    def __init__(self, out, *ports):
        argv = [sys.executable, "-m", "sim", "record", "--out", str(out)]
        for port in ports:
            argv += ["--port", port]
        self.out = out
        self.process = subprocess.Popen(
            argv, cwd=ROOT, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.said = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.process.stderr:
            self.said.append(line.rstrip("\n"))
            sys.stderr.write(line)  # shown with a failing test

    def says(self, line):
        until(lambda: line in self.said, repr(line) + " on stderr, got %s" % self.said)

    def files(self, name):
        """(record, state) as the files hold them now; None for a file not there."""
        return load(self.out / (name + ".json")), load(self.out / (name + ".state.json"))

    def ask(self, served, command):
        """The clock's answer to `command` (GAME, STATE), asked with the follower stopped so
        that the answer is ours."""
        os.kill(self.process.pid, signal.SIGSTOP)
        try:
            link = serial_cli.Link(served.path, timeout=5)
            try:
                final = link.command(command)[1]
            finally:
                link.close()
        finally:
            os.kill(self.process.pid, signal.SIGCONT)
        assert final.startswith("OK {"), final
        return json.loads(final[3:])

    def clock_game(self, served):
        return self.ask(served, "GAME")

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        status = self.process.wait(5)
        self.reader.join(5)
        return status


def load(path):
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except FileNotFoundError:
        return None


def settled(follower, name, entries, plies, state=None):
    """Wait until both files show a log of `entries` entries and `plies` plies; the record."""

    def check():
        record, live = follower.files(name)
        if record is None or live is None or len(record["clock"]["log"]) != entries:
            return None
        if live.get("entries") != entries or live["plies"] != plies:
            return None
        if state is not None and (live["state"] != state or record["clock"]["state"] != state):
            return None  # the state file is written first, the record right after
        return record

    record = until(check, "%s: %d entries, %d plies" % (name, entries, plies))
    assert len(record["plies"]) == plies
    return record


def pressed(follower, served, name, key, entries, plies):
    """Press `key`; both files follow, and the record is the clock's own GAME."""
    served.key(key)
    record = settled(follower, name, entries, plies)
    assert record == follower.clock_game(served)
    live = follower.files(name)[1]
    if live["event"] == "press":
        assert live["entry"] == record["clock"]["log"][-1]
    return record


@pytest.fixture
def clocks():
    started = []

    def start(*options):
        started.append(Served(*options))
        return started[-1]

    yield start
    for served in started:
        if served.process.poll() is None:
            served.stop()


def test_two_clocks_press_by_press_an_undo_and_a_new_game(clocks, tmp_path):
    first = clocks()  # Blitz 5+3
    second = clocks("--preset", "pgn:4")  # 4 s a side: it flags soon
    first_name = os.path.basename(first.path)  # named by its path's basename
    out = tmp_path / "out"
    ghost = str(tmp_path / "ttyACM9")
    follower = Follower(out, first.path, "board-2=" + second.path, "ghost=" + ghost)
    try:
        follower.says("clock ghost: %s is not there; waiting for it" % ghost)
        follower.says("clock %s: following %s" % (first_name, first.path))
        follower.says("clock board-2: following %s" % second.path)
        until(lambda: follower.files("board-2")[1], "the state file")
        assert follower.files("board-2")[0] is None  # no game on the clock yet

        first.key("l")  # the left lever starts the right clock
        settled(follower, first_name, 0, 0, "running")
        second.key("r")
        settled(follower, "board-2", 0, 0, "running")
        pressed(follower, first, first_name, "r", 1, 1)
        pressed(follower, second, "board-2", "l", 1, 1)
        pressed(follower, first, first_name, "l", 2, 2)
        record = pressed(follower, second, "board-2", "r", 2, 2)
        assert [ply["elapsed_ms"] for ply in record["plies"]] == [
            entry["elapsed_ms"] for entry in record["clock"]["log"]
        ]

        # An undo: pause, then MINUS twice (asked, then yes) takes the last press back; the
        # record is asked again.
        second.key("p")
        paused = settled(follower, "board-2", 2, 2, "paused")
        assert paused["clock"]["state"] == "paused"
        second.key("-")
        second.key("-")
        record = settled(follower, "board-2", 3, 1)
        assert record == follower.clock_game(second)
        assert record["clock"]["log"][-1]["entry"] == "undo"
        assert follower.files("board-2")[1]["event"] == "arbiter"
        second.key("p")
        settled(follower, "board-2", 3, 1, "running")
        record = pressed(follower, second, "board-2", "r", 4, 2)  # the undone side again
        assert record["plies"][1]["elapsed_ms"] == record["clock"]["log"][3]["elapsed_ms"]

        # The flag ends the game; SET, SET (the preset menu, its choice), then SET again to the
        # question "New game?" sets up a new one and a lever starts it: the finished game's
        # record moves to board-2-1.json.
        over = until(
            lambda: (follower.files("board-2")[0] or {}).get("clock", {}).get("result"), "a flag"
        )
        assert over["reason"] == "time"
        finished = follower.clock_game(second)
        assert follower.files("board-2")[0] == finished
        second.key("s")
        until(lambda: follower.ask(second, "STATE")["state"] == "menu", "the preset menu")
        second.key("s")
        until(lambda: follower.ask(second, "STATE")["state"] == "confirm", "the question")
        second.key("s")
        until(lambda: follower.files("board-2")[1].get("event") == "new", "a new game")
        second.key("l")
        record = settled(follower, "board-2", 0, 0, "running")
        follower.says(
            "clock board-2: a new game; the last one is kept as %s" % (out / "board-2-1.json")
        )
        assert record["plies"] == [] and record == follower.clock_game(second)
        assert load(out / "board-2-1.json") == finished
        pressed(follower, second, "board-2", "r", 1, 1)
        pressed(follower, first, first_name, "r", 3, 3)  # the other clock went on untouched
    finally:
        assert follower.stop() == 0
    assert follower.said.count("clock ghost: %s is not there; waiting for it" % ghost) == 1
    assert not [name for name in os.listdir(out) if name.endswith(".tmp")]
    assert sorted(os.listdir(out)) == sorted(
        [first_name + ".json", first_name + ".state.json"]
        + ["board-2.json", "board-2.state.json", "board-2-1.json"]
    )


def test_a_clock_unplugged_and_plugged_back(clocks, tmp_path):
    storage = tmp_path / "flash"  # the clock's files: the game survives the restart
    links = tmp_path / "by-id"
    links.mkdir()
    link = links / "hall-3"  # a fixed path, as udev gives a board

    def plug(served):
        os.symlink(served.path, str(link) + ".new")
        os.replace(str(link) + ".new", link)

    served = clocks("--storage", str(storage))
    plug(served)
    out = tmp_path / "out"
    follower = Follower(out, str(link))
    try:
        follower.says("clock hall-3: following %s" % link)
        # its first question is answered before the game starts (a loaded machine raced it)
        follower.says("clock hall-3: no record yet: ERR no game has started yet")
        served.key("r")
        settled(follower, "hall-3", 0, 0, "running")
        pressed(follower, served, "hall-3", "l", 1, 1)
        before = pressed(follower, served, "hall-3", "r", 2, 2)

        written = os.stat(out / "hall-3.json").st_ino
        served.stop()  # unplugged: the pty goes, the link points nowhere
        follower.says("clock hall-3: unplugged, waiting")
        assert follower.files("hall-3")[0] == before
        served = clocks("--storage", str(storage))
        plug(served)
        follower.says("clock hall-3: back")
        # The clock offers the saved game back; the record is the same game's, asked again.
        until(lambda: os.stat(out / "hall-3.json").st_ino != written, "the record asked again")
        assert follower.files("hall-3")[1]["state"] == "resume"
        game = follower.clock_game(served)
        assert follower.files("hall-3")[0] == game
        assert game["clock"]["log"] == before["clock"]["log"]
        served.key("p")  # resume the saved game: paused
        until(lambda: follower.ask(served, "STATE")["state"] == "paused", "the game back")
        served.key("p")  # and running
        settled(follower, "hall-3", 2, 2, "running")
        pressed(follower, served, "hall-3", "l", 3, 3)
    finally:
        assert follower.stop() == 0
    assert sorted(os.listdir(out)) == ["hall-3.json", "hall-3.state.json"]  # nothing archived
    said = [line for line in follower.said if line.startswith("clock hall-3: ")]
    assert said == [
        "clock hall-3: following %s" % link,
        "clock hall-3: no record yet: ERR no game has started yet",
        "clock hall-3: unplugged, waiting",
        "clock hall-3: back",
    ]


def test_port_names(tmp_path, capsys):
    assert follow.parse_ports(["/dev/ttyACM0", "hall-3=/dev/serial/by-id/x"]) == [
        ("ttyACM0", "/dev/ttyACM0"),
        ("hall-3", "/dev/serial/by-id/x"),
    ]
    for ports, problem in [
        (["/dev/ttyACM0", "/other/ttyACM0"], "two ports are named ttyACM0"),
        (["x=/a", "x-2=/b"], "the name x-2 is that of x's earlier games"),
        (["a b=/dev/x"], "cannot name its files"),
    ]:
        argv = ["record", "--out", str(tmp_path)]
        for port in ports:
            argv += ["--port", port]
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and problem in err, err


class FakeClock:
    """The clock's end of a pty, driven by the test: what the follower sends, lines back."""

    def __init__(self):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.typed = b""
        self.heard = []  # every line the follower sent, in order

    def expect(self, command):
        """Read the follower's lines up to `command`; the lines before it."""
        before = []
        deadline = time.monotonic() + WAIT_S
        while True:
            while b"\n" in self.typed:
                line, self.typed = self.typed.split(b"\n", 1)
                line = line.decode().strip()
                if line:
                    self.heard.append(line)
                if line == command:
                    return before
                if line:
                    before.append(line)
            left = deadline - time.monotonic()
            assert left > 0 and select.select([self.master], [], [], left)[0], command
            self.typed += os.read(self.master, 4096)

    def everything(self):
        """Every line the follower sent, once it has stopped: those read and the rest."""
        while select.select([self.master], [], [], 0)[0]:
            self.typed += os.read(self.master, 4096)
        rest = [line.decode().strip() for line in self.typed.split(b"\n")]
        return self.heard + [line for line in rest if line]

    def send(self, *lines):
        for line in lines:
            os.write(self.master, (line if isinstance(line, bytes) else line.encode()) + b"\r\n")

    def close(self):
        os.close(self.master)
        os.close(self.slave)


def ply(number, elapsed):
    side = ("first", "second")[(number - 1) % 2]
    figures = {"remaining_ms": 300000, "stage": 0}
    return {
        "entry": "ply",
        "side": side,
        "ply": number,
        "elapsed_ms": elapsed,
        "first": figures,
        "second": figures,
    }


def game(log):
    clock = {
        "record": 1,
        "preset": "chessclock:G/5",
        "reads": "5 min",
        "name": None,
        "state": "running",
        "result": None,
        "complete": True,
        "log": log,
    }
    stack = []
    for entry in log:
        if entry["entry"] == "ply":
            stack.append(entry)
        elif entry["entry"] == "undo":
            stack.pop()
    return {"plies": [{"elapsed_ms": e["elapsed_ms"]} for e in stack], "clock": clock}


def event(kind, log, plies):
    """An EV line as the clock streams it (a few of STATE's fields)."""
    sent = {"state": "running", "plies": plies, "result": None, "event": kind}
    sent["entries"] = len(log)
    if kind == "press":
        sent["entry"] = log[-1]
    return "EV " + json.dumps(sent)


def test_garbage_is_noted_and_a_missed_line_asks_for_the_record_again(tmp_path):
    earlier = game([ply(1, 999)])  # from an earlier run, another game: kept, not overwritten
    follow_files.write_atomic(str(tmp_path / "desk.json"), json.dumps(earlier))
    follow_files.write_atomic(str(tmp_path / "desk-3.json"), "{}")
    clock = FakeClock()
    follower = Follower(tmp_path, "desk=" + clock.path)
    try:
        clock.send("OK left over from someone else")  # before PING's answer: not ours
        clock.expect("PING")
        clock.send("OK pong")
        clock.expect("GAME")
        clock.send("OK stream on", 'OK {"state": "running", "plies": 2}')
        log = [ply(1, 4000), ply(2, 5000)]
        clock.send("OK " + json.dumps(game(log)))
        until(lambda: follower.files("desk")[0] == game(log), "the record")
        assert load(tmp_path / "desk-4.json") == earlier
        clock.send("hello", "EV {not json", "EV [1]", b"\xff\xfe", "OK stray answer")
        log.append(ply(3, 6000))
        clock.send(event("press", log, 3))
        until(lambda: follower.files("desk")[0] == game(log), "the press")
        assert follower.files("desk")[1]["plies"] == 3
        log += [ply(4, 7000), ply(5, 8000)]
        clock.send(event("press", log, 5))  # the press of ply 4 was lost on the way
        assert clock.expect("GAME") == []  # asked again
        clock.send("OK " + json.dumps(game(log)))
        until(lambda: follower.files("desk")[0] == game(log), "the record asked again")
        log += [{"entry": "undo", "side": "first", "ply": 5}]
        clock.send(event("arbiter", log, 4))  # an undo: asked again too
        clock.expect("GAME")
        clock.send("OK " + json.dumps(game(log)))
        until(lambda: len(follower.files("desk")[0]["plies"]) == 4, "the undo")
    finally:
        assert follower.stop() == 0
        sent = clock.everything()
        clock.close()
    # GAME at the start, for the lost press and for the undo: none for the press in order.
    assert sent == ["PING", "STREAM ON", "STATE", "GAME", "GAME", "GAME"], sent
    assert [line for line in follower.said if "ignored" in line] == [
        "clock desk: ignored a line: hello",
        "clock desk: ignored a line: EV {not json",
        "clock desk: ignored a line: EV [1]",
        "clock desk: ignored a line: \ufffd\ufffd",
        "clock desk: ignored a line: OK stray answer",
    ]
