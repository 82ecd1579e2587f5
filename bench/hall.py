# SPDX-License-Identifier: MIT
# `make bench-hall`: a hall of simulated clocks on one Mosquitto (docs/hall.md has the figures).
#
# Scale (the default): N clocks played in real time and the read-only page in headless Chromium:
# press -> tile latency, the page's frame time, the broker's and the simulator's CPU and memory,
# messages per second per clock in play.
#
# Faults (--faults): N clocks (a tenth on Wi-Fi), six USB clocks behind the gateway (served on
# pseudo-terminals), the recorder; the broker killed for 10 s and for 60 s, the gateway killed
# and started again, the Wi-Fi dropped, clocks' power cut mid-game, games ending during every
# outage, commands sent to boards that are away. Printed: the finished games the recorder has
# (all of them), record entries lost and doubled, the longest time for a board to be back on the
# broker after each fault, the commands' fates. --scale shortens every outage and stretch.
#
#   python bench/hall.py [--clocks 500] [--seconds 60]
#   python bench/hall.py --faults [--clocks 500] [--scale 1]
import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import sim  # noqa: E402,F401  (puts the firmware on the path)
from sim import web  # noqa: E402
from sim.broker import Broker  # noqa: E402
from sim.hall_sim import SimHall  # noqa: E402

TICKS_S = os.sysconf("SC_CLK_TCK")
HALL = "bench"
GATEWAY_CLOCKS = 6


def cpu_s(pid):
    """CPU seconds (user + system) a process has used, from /proc."""
    with open("/proc/%d/stat" % pid) as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS_S


def rss_mb(pid):
    with open("/proc/%d/status" % pid) as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def percentile(values, share):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def on_the_broker(hall, began, limit=120):
    """Run the hall until every clock's link is online; the seconds since `began`."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if all(clock.app.hall.link.online for clock in hall.clocks):
            break
        hall.run(0.2)
    return time.monotonic() - began


def table(rows):
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print("%-*s  %s" % (width, name, value))
    sys.stdout.flush()


# --- scale ------------------------------------------------------------------------------------


def scale(args):
    folder = tempfile.mkdtemp(prefix="bench-hall-")
    broker = Broker(folder, HALL, range(1, args.clocks + 1)).start()
    httpd = web.server("127.0.0.1", 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    presses = {}  # (board, plies after the press) -> wall clock ms

    def pressed(board, plies):
        presses[(board, plies)] = time.time() * 1000

    began = time.monotonic()
    hall = SimHall(broker, args.clocks, HALL, pace=args.pace or 1.0)
    hall.on_press = pressed
    made_s = on_the_broker(hall, began)
    url = (
        "http://127.0.0.1:%d/hall.html#broker=ws://127.0.0.1:%d&hall=%s&user=viewer&password=%s"
        % (httpd.server_address[1], broker.ws_port, HALL, broker.passwords["viewer"])
    )
    page = subprocess.Popen(
        ["node", os.path.join(ROOT, "bench", "hall_page.mjs"), url, str(args.clocks)]
        + [str(args.seconds)],
        stdout=subprocess.PIPE,
        text=True,
    )
    said = []  # the page's line: read as it comes (a full pipe would stop the page)
    reader = threading.Thread(target=lambda: said.append(page.stdout.read()), daemon=True)
    reader.start()
    hall.run(min(10, 2 + args.seconds))  # every clock on the broker, the page loaded, play begun
    sent_before = sum(clock.app.hall.link.sent for clock in hall.clocks)
    broker_cpu, own_cpu = cpu_s(broker.process.pid), cpu_s(os.getpid())
    start = time.monotonic()
    playing = []
    while page.poll() is None and time.monotonic() - start < args.seconds + 120:
        hall.run(1)
        playing.append(sum(1 for c in hall.clocks if c.app.game.state() in (1, 2)))
    elapsed = time.monotonic() - start
    broker_cpu = cpu_s(broker.process.pid) - broker_cpu
    own_cpu = cpu_s(os.getpid()) - own_cpu
    sent = sum(clock.app.hall.link.sent for clock in hall.clocks) - sent_before
    broker_mb, own_mb = rss_mb(broker.process.pid), rss_mb(os.getpid())
    reader.join(30)
    seen = json.loads(said[0] if said and said[0] else "{}")
    hall.close()
    broker.remove()
    httpd.shutdown()
    latencies = []
    for board, plies, epoch_ms, event in seen.get("updates", []):
        if event == "press" and (board, plies) in presses:
            latencies.append(epoch_ms - presses[(board, plies)])
    frames = seen.get("frames", [])[1:]
    in_play = sum(playing) / max(1, len(playing))
    table(
        [
            (
                "clocks",
                "%d (%d in play on average; made and on the broker in %.1f s)"
                % (args.clocks, in_play, made_s),
            ),
            (
                "measured",
                "%.0f s; page: all %s tiles %.1f s after it opened"
                % (elapsed, seen.get("tiles"), seen.get("allTilesMs", 0) / 1000),
            ),
            (
                "press -> tile, median",
                "%.0f ms (%d presses matched)" % (percentile(latencies, 0.5), len(latencies)),
            ),
            ("press -> tile, 99th percentile", "%.0f ms" % percentile(latencies, 0.99)),
            (
                "page frame interval, median / 99th / max",
                "%.1f / %.1f / %.1f ms (%d frames)"
                % (
                    percentile(frames, 0.5),
                    percentile(frames, 0.99),
                    max(frames or [0]),
                    len(frames),
                ),
            ),
            (
                "broker CPU, memory",
                "%.0f %% of a core, %.0f MB" % (100 * broker_cpu / elapsed, broker_mb),
            ),
            (
                "simulator CPU, memory",
                "%.0f %% of a core, %.0f MB (%d clocks and their MQTT clients, one thread)"
                % (100 * own_cpu / elapsed, own_mb, args.clocks),
            ),
            (
                "messages per second per clock in play",
                "%.2f (%d messages in %.0f s)" % (sent / elapsed / max(1, in_play), sent, elapsed),
            ),
            ("page errors", "; ".join(seen.get("errors", [])) or "none"),
        ]
    )
    return 0 if not seen.get("errors") and latencies else 1


# --- faults -----------------------------------------------------------------------------------


class Viewer:
    """The arbiter's account on MQTT 5, as the page is: when each board was last heard online,
    the states, the record's entries of each game and the answers; it sends commands with a
    validity (message expiry) and keeps their fates."""

    def __init__(self, broker):
        import paho.mqtt.client as mqtt

        self.lock = threading.Lock()
        self.online = {}  # board -> monotonic time of its last "online" heartbeat
        self.states = {}  # board -> last state
        self.finished = {}  # (board, game) -> state with the result
        self.logs = {}  # (board, game) -> the record's entries at their index
        self.answers = {}  # (board, seq) -> answer
        self.commands = []  # [board, seq, do, sent at, valid s, fate]
        self.seq = {}
        self.client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2, client_id="arbiter", protocol=mqtt.MQTTv5
        )
        self.client.username_pw_set("arbiter", broker.passwords["arbiter"])
        self.client.reconnect_delay_set(1, 1)  # back at once, as the page is (1 s apart)
        self.client.on_connect = lambda c, u, f, r, p: c.subscribe("clock/%s/+/+" % HALL, 1)
        self.client.on_message = self._message
        self.client.connect(broker.host, broker.port, 30)
        self.client.loop_start()

    def _message(self, client, userdata, message):
        parts = message.topic.split("/")
        if len(parts) != 4 or not parts[2].isdigit():
            return
        board, kind = int(parts[2]), parts[3]
        try:
            doc = json.loads(message.payload)
        except ValueError:
            return
        with self.lock:
            if kind == "alive" and doc.get("online") and not message.retain:
                self.online[board] = time.monotonic()
            elif kind == "state":
                self.states[board] = doc
                self.seq[board] = max(self.seq.get(board, 0), doc.get("seq") or 0)
                if doc.get("result") and isinstance(doc.get("game"), int):
                    self.finished[(board, doc["game"])] = doc
            elif kind == "event" and isinstance(doc.get("game"), int):
                log = self.logs.setdefault((board, doc["game"]), [])
                start = doc.get("from", 0)
                if start <= len(log):
                    log[start:] = doc.get("log", [])
            elif kind == "answer" and isinstance(doc.get("seq"), int):
                self.answers.setdefault((board, doc["seq"]), doc)

    def send(self, board, do, valid_s, **fields):
        from paho.mqtt.packettypes import PacketTypes
        from paho.mqtt.properties import Properties

        with self.lock:
            seq = self.seq.get(board, 0) + 1
            self.seq[board] = seq
        properties = Properties(PacketTypes.PUBLISH)
        properties.MessageExpiryInterval = int(valid_s)
        payload = json.dumps(dict(fields, seq=seq, do=do, by="bench"))
        info = self.client.publish(
            "clock/%s/%d/cmd" % (HALL, board), payload, 1, False, properties
        )
        fate = None if self.client.is_connected() and info.rc == 0 else "not sent"
        self.commands.append([board, seq, do, time.monotonic(), valid_s, fate])

    def fates(self):
        """{fate: count} of the commands sent: carried out, refused, expired, not sent."""
        counts = {}
        now = time.monotonic()
        with self.lock:
            for command in self.commands:
                board, seq, _do, sent, valid, fate = command
                answer = self.answers.get((board, seq))
                if fate is None and answer is not None:
                    fate = "carried out" if answer.get("ok") else "refused"
                elif fate is None and now > sent + valid + 3:
                    fate = "expired"
                counts[fate or "waiting"] = counts.get(fate or "waiting", 0) + 1
        return counts

    def back_after(self, boards, since):
        """Seconds from `since` to the last of `boards` heard online after it (None: not all)."""
        with self.lock:
            times = [self.online.get(board, 0) for board in boards]
        if any(at < since for at in times):
            return None
        return max(times) - since

    def last_back(self, boards, since, count=3):
        """The boards heard online last after `since`, with their seconds (the slowest)."""
        with self.lock:
            found = sorted((self.online.get(b, 0) - since, b) for b in boards)
        return [(board, round(took, 1)) for took, board in found[-count:]]

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()


class UsbClocks:
    """GATEWAY_CLOCKS clocks served on pseudo-terminals (boards first..), their levers pressed
    every 1.5 s, behind one `python -m sim hall gateway`."""

    def __init__(self, broker, first, folder, started):
        self.broker = broker
        started.append(self.close)
        self.boards = list(range(first, first + GATEWAY_CLOCKS))
        self.served = []
        for board in self.boards:
            process = subprocess.Popen(
                [sys.executable, "-m", "sim.serial_cli", "serve", "--pty", "--keys"]
                + ["--preset", "pgn:40", "--storage", os.path.join(folder, "usb-%d" % board)],
                cwd=ROOT,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
            path = process.stdout.readline().split(": ", 1)[1].strip()
            self.served.append((process, path))
        self.turn = 0
        self.pressed_at = 0.0
        self.gateway = None
        self.start_gateway()

    def start_gateway(self):
        self.gateway = subprocess.Popen(
            [sys.executable, "-m", "sim", "hall", "gateway", "--hall", HALL]
            + ["--broker", "%s:%d" % (self.broker.host, self.broker.port)]
            + ["--accounts", self.broker.accounts]
            + [
                arg
                for board, (_p, path) in zip(self.boards, self.served)
                for arg in ("--port", "%d=%s" % (board, path))
            ],
            cwd=ROOT,
            env=dict(os.environ, HALL_PASSWORD=self.broker.passwords["gateway"]),
            stderr=None if os.environ.get("BENCH_DEBUG") else subprocess.DEVNULL,
        )

    def kill_gateway(self):
        self.gateway.send_signal(signal.SIGKILL)
        self.gateway.wait(10)

    def play(self):
        """A lever on each clock, in turn, every 1.5 s (a finished game is the arbiter's to
        clear: `new`)."""
        now = time.monotonic()
        if now - self.pressed_at < 1.5:
            return
        self.pressed_at = now
        key = "rl"[self.turn % 2] + "\n"
        self.turn += 1
        for process, _path in self.served:
            try:
                process.stdin.write(key)
                process.stdin.flush()
            except (BrokenPipeError, ValueError):
                pass

    def close(self):
        if self.gateway is not None and self.gateway.poll() is None:
            self.gateway.terminate()
            self.gateway.wait(10)
        for process, _path in self.served:
            if process.poll() is None:
                process.terminate()
                process.wait(10)


def faults(args):
    """The faults run; whatever happens, nothing it started is left running."""
    started = []
    try:
        return _faults(args, started)
    finally:
        for stop in reversed(started):
            try:
                stop()
            except Exception:  # cleaning up: the next goes on
                pass


def _faults(args, started):
    s = args.scale
    folder = tempfile.mkdtemp(prefix="bench-hall-faults-")
    count = args.clocks
    usb_first = count + 1
    broker = Broker(os.path.join(folder, "broker"), HALL, range(1, usb_first + GATEWAY_CLOCKS))
    started.append(lambda: shutil.rmtree(folder, ignore_errors=True))
    started.append(broker.remove)
    broker.start()
    rng = random.Random(38)
    out = os.path.join(folder, "broadcast")
    recorder = subprocess.Popen(
        [sys.executable, "-m", "sim", "hall", "broadcast", "--hall", HALL]
        + ["--broker", "%s:%d" % (broker.host, broker.port), "--out", out],
        cwd=ROOT,
        env=dict(os.environ, HALL_PASSWORD=broker.passwords["broadcast"]),
        stderr=None if os.environ.get("BENCH_DEBUG") else subprocess.DEVNULL,
    )
    started.append(recorder.kill)
    viewer = Viewer(broker)
    started.append(viewer.close)
    wifi = max(1, count // 10)
    began = time.monotonic()
    # quick games (a bullet game lasts about 2 min here): some end in every outage
    controls = ("Bullet 1+0", "Blitz 3+2", "Bullet 1+0", "US delay G/5 d5")
    hall = SimHall(broker, count, HALL, wifi=wifi, pace=args.pace or 0.3, controls=controls)
    started.append(hall.close)
    usb = UsbClocks(broker, usb_first, folder, started)
    every = list(range(1, count + 1)) + usb.boards
    backs = []  # (fault, seconds to the last board back on the broker)
    cuts = []
    cleared = {}  # (board, game) -> when `new` was asked for it
    cpu0 = (cpu_s(broker.process.pid), cpu_s(os.getpid()))

    def run(seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            hall.run(0.2)
            usb.play()
            for board in usb.boards:  # a finished game on a USB clock: the arbiter clears it
                state = viewer.states.get(board) or {}
                if state.get("result") and state.get("state") == "over":
                    key = (board, state.get("game"))
                    if time.monotonic() - cleared.get(key, 0) > 10:
                        cleared[key] = time.monotonic()
                        viewer.send(board, "new", 30)
            if cuts_due and time.monotonic() >= cuts_due[0][0]:
                _at, board = cuts_due.pop(0)
                hall.power_cut(board)
                cuts.append(board)

    def back(name, boards, since, limit=60):
        end = time.monotonic() + limit
        took = None
        while took is None and time.monotonic() < end:
            run(0.5)
            took = viewer.back_after(boards, since)
        backs.append((name, took))
        if os.environ.get("BENCH_DEBUG"):
            print(
                name,
                viewer.last_back(boards, since, 5),
                [
                    (
                        b,
                        hall.clocks[b - 1].wifi is not None,
                        hall.clocks[b - 1].app.hall.link.online,
                    )
                    for b, _t in viewer.last_back(boards, since, 5)
                    if b <= count
                ],
            )

    # power cuts at random instants of the run, on clocks in play
    total = 20 + 10 + 20 + 60 + 20 + 15 + 20 + 20 + 30
    cuts_due = sorted(
        (time.monotonic() + rng.uniform(10, total * s), rng.randrange(1, count + 1))
        for _ in range(max(2, count // 50))
    )
    made_s = on_the_broker(hall, began)
    run(max(20 * s, 8))  # games under way
    # the broker killed for 10 s, then for 60 s
    for outage in (10, 60):
        broker.kill()
        run(outage * s)
        broker.start()
        back("broker down %d s" % outage, every, time.monotonic())
        run(20 * s)
    # the gateway killed; commands for its boards meanwhile (valid 60 s: carried out after)
    usb.kill_gateway()
    for board in usb.boards[:3]:
        viewer.send(board, "pause", 60)
    run(15 * s)
    usb.start_gateway()
    back("gateway killed, started again", usb.boards, time.monotonic())
    for board in usb.boards[:3]:
        viewer.send(board, "resume", 60)
    # the Wi-Fi dropped for 20 s; commands for Wi-Fi boards (valid 5 s: expire; 120 s: not)
    hall.drop_wifi()
    run(max(8, 6 * s))  # the clocks have noticed (5 s at most)
    wifi_boards = list(range(1, wifi + 1))
    for board in wifi_boards[: max(1, len(wifi_boards) // 2)]:
        viewer.send(board, "pause", 5)
    for board in wifi_boards[max(1, len(wifi_boards) // 2) : max(2, len(wifi_boards))]:
        viewer.send(board, "pause", 120)
    run(max(20 * s, 10))
    hall.restore_wifi()
    back("Wi-Fi dropped 20 s", wifi_boards, time.monotonic())
    run(30 * s)  # the outboxes drain, the last acks come
    run(max(10, 5 * s))
    hall.playing = False  # no more presses: what the clocks hold is what the recorder gets
    run(5)
    drained = time.monotonic() + 90  # every finished game acknowledged: the outboxes empty
    while time.monotonic() < drained and (
        any(len(clock.app.hall.outbox) for clock in hall.clocks)
        or any((viewer.states.get(board) or {}).get("outbox") for board in usb.boards)
    ):
        run(1)
    elapsed = time.monotonic() - began
    cpu = (cpu_s(broker.process.pid) - cpu0[0], cpu_s(os.getpid()) - cpu0[1])
    memory = (rss_mb(broker.process.pid), rss_mb(os.getpid()))
    # what the recorder has, and what the clocks finished
    recorder.send_signal(signal.SIGTERM)
    recorder.wait(30)
    try:
        with open(os.path.join(out, "round-1", "results.json")) as handle:
            recorded = {(g["board"], g["game"]): g for g in json.load(handle)["games"]}
    except (OSError, ValueError):
        recorded = {}
    finished = dict(hall.finished)
    with viewer.lock:
        for (board, game), state in viewer.finished.items():
            if board in usb.boards:
                finished[(board, game)] = (state["plies"], state["entries"], state["result"])
    delivered = [key for key in finished if recorded.get(key, {}).get("version")]
    lost = doubled = 0
    for key in delivered:
        entries = finished[key][1]
        theirs = recorded[key]["entries"]
        lost += max(0, entries - theirs)
        doubled += max(0, theirs - entries)
    live_lost = live_doubled = 0
    mismatched = []
    for clock in hall.clocks:  # the games in play: the record as the recorder has it
        record = clock.app.record
        if record.owner is None or (clock.board, record.tag) in finished:
            continue
        theirs = recorded.get((clock.board, record.tag), {}).get("entries", 0)
        live_lost += max(0, record.length - theirs)
        live_doubled += max(0, theirs - record.length)
        if theirs != record.length:
            mismatched.append(
                "board %d%s%s: %d entries, the recorder %d"
                % (
                    clock.board,
                    " (Wi-Fi)" if clock.wifi else "",
                    " (power cut)" if clock.board in cuts else "",
                    record.length,
                    theirs,
                )
            )
    outboxes = sum(len(clock.app.hall.outbox) for clock in hall.clocks)
    fates = viewer.fates()
    table(
        [
            (
                "clocks",
                "%d simulated (%d on Wi-Fi), %d USB behind the gateway; on the broker in %.0f s"
                % (count, wifi, GATEWAY_CLOCKS, made_s),
            ),
            ("run", "%.0f s (outages x %g)" % (elapsed, s)),
            ("power cuts mid-game", "%d clocks" % len(cuts)),
            (
                "finished games delivered",
                "%d of %d (%d still waiting on their clocks at the end)"
                % (len(delivered), len(finished), outboxes),
            ),
            ("record entries lost / doubled", "%d / %d (finished games)" % (lost, doubled)),
            (
                "live entries lost / doubled",
                "%d / %d (games in play at the end)%s"
                % (
                    live_lost,
                    live_doubled,
                    "; " + ", ".join(mismatched[:3]) if mismatched else "",
                ),
            ),
        ]
        + [
            ("back on the broker: " + name, "%.1f s" % took if took is not None else "not all")
            for name, took in backs
        ]
        + [
            (
                "commands to boards away",
                ", ".join("%s %d" % (fate, n) for fate, n in sorted(fates.items())) or "none",
            ),
            (
                "broker CPU, memory",
                "%.0f %% of a core, %.0f MB" % (100 * cpu[0] / elapsed, memory[0]),
            ),
            (
                "simulator CPU, memory",
                "%.0f %% of a core, %.0f MB" % (100 * cpu[1] / elapsed, memory[1]),
            ),
        ]
    )
    good = len(delivered) == len(finished) and not (lost or doubled or live_lost or live_doubled)
    return 0 if good else 1


def main(argv=None):
    # The clocks' firmware unloads its notation modules after each parse (the board's RAM is
    # small): without bytecode written (PYTHONDONTWRITEBYTECODE) each import compiles them again,
    # most of the time of making hundreds of clocks.
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    parser = argparse.ArgumentParser(prog="bench/hall.py")
    parser.add_argument("--clocks", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=60.0, help="the measured stretch")
    parser.add_argument("--faults", action="store_true", help="the faults run (see above)")
    parser.add_argument(
        "--scale", type=float, default=1.0, help="faults: every outage and stretch times this"
    )
    parser.add_argument(
        "--pace", type=float, help="the players' think time times this (1; faults: 0.3)"
    )
    args = parser.parse_args(argv)
    return faults(args) if args.faults else scale(args)


if __name__ == "__main__":
    sys.exit(main())
