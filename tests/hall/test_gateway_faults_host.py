# SPDX-License-Identifier: MIT
# The USB gateway on its bad day, with clocks behind pseudo-terminals on a real Mosquitto: killed
# (SIGKILL) and started again, the broker killed and started again and again, a clock unplugged and
# plugged back. Each time every board is back on the page within 10 s, the gateway keeps one
# thread and its memory, no record entry is lost or doubled, a command sent while a board was away
# is carried out when it is back, and a game that ended during an outage reaches the recorder.
import json
import os
import signal
import subprocess
import sys
import threading
import time

import notation
from broker_support import Watcher, broker, marker, wait_for
from sim import serial_cli
from test_broadcast_host import Recorder

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "sim"))
from test_record_follow_host import ROOT, Served  # noqa: E402  (the pty clocks of sim record)

BACK_S = 10  # the goal: every board back on the page within this long


class Gateway:
    """`python -m sim hall gateway` in a process of its own, what it says collected."""

    def __init__(self, brokered, ports):
        self.said = []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "sim", "hall", "gateway", "--hall", "club"]
            + ["--broker", "127.0.0.1:%d" % brokered.port, "--accounts", brokered.accounts]
            + [arg for port in ports for arg in ("--port", port)],
            cwd=ROOT,
            env=dict(os.environ, HALL_PASSWORD=brokered.passwords["gateway"]),
            stderr=subprocess.PIPE,
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stderr:
            self.said.append(line.rstrip())

    def threads(self):
        with open("/proc/%d/status" % self.process.pid) as handle:
            fields = dict(line.split(":", 1) for line in handle if ":" in line)
        return int(fields["Threads"]), int(fields["VmRSS"].split()[0])

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(5)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


class Player(threading.Thread):
    """Presses a clock's levers in turn, one every `every_s`, till stopped."""

    def __init__(self, served, every_s):
        threading.Thread.__init__(self, daemon=True)
        self.served = served
        self.every_s = every_s
        self.halt = threading.Event()

    def run(self):
        keys = ["r", "l"]
        turn = 0
        while not self.halt.wait(self.every_s):
            try:
                self.served.key(keys[turn % 2])
            except (BrokenPipeError, ValueError):
                return
            turn += 1


def gone(said, board):
    """Whether the gateway said board `board`'s connection was lost, or could not be made."""
    start = "board %d: " % board
    return any(
        line.startswith(start) and ("was lost" in line or "trying again" in line) for line in said
    )


def log_of(watcher, board):
    """The record's entries as the `event` messages carried them for the board's current game
    (each at its index: a doubled one would stand twice, a lost one leave a gap)."""
    log = []
    game = None
    for payload in watcher.on("clock/club/%d/event" % board):
        event = json.loads(payload)
        if event.get("game") != game:
            game, log = event.get("game"), []
        start = event["from"]
        if start > len(log):
            continue  # missed while away (the recorder asks for it again; a watcher does not)
        del log[start:]
        log.extend(event["log"])
    return log


def clock_log(path):
    """(the game's tag, its record's entries) as the clock has them (over its serial port)."""
    link = serial_cli.Link(path, timeout=5)
    try:
        tag = json.loads(link.command("STATE")[1][3:])["game"]
        return tag, json.loads(link.command("GAME")[1][3:])["clock"]["log"]
    finally:
        link.close()


def state(watcher, board):
    return watcher.last("clock/club/%d/state" % board)


def recorded_log(recorder, board, tag):
    """The game's entries as the recorder holds them (it asks for what it missed)."""
    broadcast = recorder.broadcast
    with broadcast.lock:
        game = broadcast.games.get((board, tag))
        return list(game.log) if game is not None else None


def back(watcher, boards, since):
    """Seconds from `since` till every board's heartbeat says online after it."""

    def all_back():
        for board in boards:
            found = [
                at
                for topic, payload, _retained, at in watcher.stamped
                if topic == "clock/club/%d/alive" % board and json.loads(payload)["online"]
            ]
            if not found or found[-1] < since:
                return False
        return True

    wait_for(all_back, BACK_S + 5)
    return time.monotonic() - since


class StampedWatcher(Watcher):
    """A Watcher that notes when each message came."""

    def __init__(self, *args, **kwargs):
        self.stamped = []
        Watcher.__init__(self, *args, **kwargs)

    def _on_message(self, client, userdata, message):
        Watcher._on_message(self, client, userdata, message)
        with self.lock:
            self.stamped.append(
                (message.topic, bytes(message.payload), message.retain, time.monotonic())
            )


def test_the_gateway_survives_its_own_death_and_the_broker_restarting(tmp_path, monkeypatch):
    monkeypatch.setattr(notation, "forget", lambda: None)  # the recorder in this process
    served = [Served("--storage", str(tmp_path / "seven")), Served("--preset", "Rapid 15+10")]
    players = []
    gateway = recorder = None
    try:
        link = serial_cli.Link(served[0].path, timeout=5)
        assert link.command("SET BOARD 7")[1] == "OK board 7"
        link.close()
        with broker(tmp_path, (7, 8)) as brokered:
            arbiter = StampedWatcher(brokered)
            recorder = Recorder(brokered, tmp_path / "out")
            gateway = Gateway(brokered, [served[0].path, "8=" + served[1].path])
            back(arbiter, (7, 8), 0)
            players = [Player(one, 0.4) for one in served]
            for player in players:
                player.start()
            wait_for(lambda: len(log_of(arbiter, 8)) >= 3, 20)
            # killed (SIGKILL): the broker says offline for it; a command for board 8 waits in
            # the board's session meanwhile; started again, every board back within 10 s
            gateway.kill()
            wait_for(lambda: arbiter.seen("clock/club/8/alive", lambda a: not a["online"]), 20)
            arbiter.publish("clock/club/8/cmd", json.dumps({"seq": 1, "do": "pause", "by": "A"}))
            restarted = time.monotonic()
            gateway = Gateway(brokered, [served[0].path, "8=" + served[1].path])
            took = back(arbiter, (7, 8), restarted)
            assert took < BACK_S, took
            answer = wait_for(lambda: arbiter.seen("clock/club/8/answer", lambda a: a["seq"] == 1))
            assert answer["ok"] and answer["said"] == "paused", answer
            players[1].halt.set()  # board 8 paused: its record stands still from here
            # the broker killed and started again, four times: one thread, memory kept
            threads, memory = gateway.threads()
            for _ in range(4):
                brokered.kill()
                restarted = time.monotonic()
                brokered.start()
                took = back(arbiter, (7, 8), restarted)
                assert took < BACK_S, took
            now_threads, now_memory = gateway.threads()
            assert threads == now_threads == 1, (threads, now_threads)
            assert now_memory < memory + 8000, (memory, now_memory)  # KB
            assert gateway.process.poll() is None
            # no entry lost or doubled: what the page has is the clock's own record
            players[0].halt.set()
            marker(arbiter, arbiter, "clock/club/8/cmd")
            for board in (7, 8):  # the recorder has as many entries as the clock says it has
                wait_for(
                    lambda: len(recorded_log(recorder, board, state(arbiter, board)["game"]) or [])
                    == state(arbiter, board)["entries"],
                    20,
                )
            gateway.stop()
            for board, one in ((7, served[0]), (8, served[1])):
                tag, mine = clock_log(one.path)
                wait_for(lambda: recorded_log(recorder, board, tag) == mine, 20)
            refused = [line for line in gateway.said if "Traceback" in line]
            assert not refused, gateway.said
            arbiter.close()
    finally:
        if recorder is not None:
            recorder.close()
        for player in players:
            player.halt.set()
        if gateway is not None:
            gateway.stop()
        for one in served:
            if one.process.poll() is None:
                one.stop()


def test_a_game_that_ends_while_the_broker_is_down_reaches_the_recorder_once(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(notation, "forget", lambda: None)  # the recorder in this process
    clock = Served("--preset", "pgn:3")  # 3 s a side: a flag soon
    gateway = recorder = None
    out = tmp_path / "out"
    try:
        with broker(tmp_path, (9,)) as brokered:
            arbiter = StampedWatcher(brokered)
            recorder = Recorder(brokered, out)
            gateway = Gateway(brokered, ["9=" + clock.path])
            back(arbiter, (9,), 0)
            clock.key("r")  # the left clock starts
            clock.key("l")  # ply 1: the right side's 3 s run
            wait_for(lambda: arbiter.seen("clock/club/9/state", lambda s: s["plies"] == 1), 20)
            brokered.kill()
            # its flag falls while the broker is down: the gateway sees it over the cable
            over = "a game over (time), kept on the clock till the recorder has it"
            wait_for(lambda: any(line.endswith(over) for line in gateway.said), 15)
            brokered.start()
            games = lambda: [  # noqa: E731
                (g["board"], g["version"], g["result"])
                for g in json.loads((out / "round-1" / "results.json").read_text())["games"]
                if g["version"]
            ]
            wait_for(lambda: (out / "round-1" / "results.json").exists() and games(), 30)
            assert games() == [(9, 1, {"reason": "time", "loser": "second"})]
            # the clock lets it go once the recorder has it (its state says so), and only then
            wait_for(lambda: arbiter.last("clock/club/9/state")["outbox"] == 0, 20)
            gateway.stop()
            link = serial_cli.Link(clock.path, timeout=5)
            try:
                assert link.command("OUTBOX")[1] == "OK []"
            finally:
                link.close()
            assert games() == [(9, 1, {"reason": "time", "loser": "second"})]
            assert recorder.broadcast.taken == 1
            arbiter.close()
    finally:
        if recorder is not None:
            recorder.close()
        if gateway is not None:
            gateway.stop()
        clock.stop()
