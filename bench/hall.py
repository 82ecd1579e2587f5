# SPDX-License-Identifier: MIT
# `make bench-hall`: a hall of simulated clocks on one Mosquitto and the arbiter's page in headless
# Chromium: press -> tile latency, the page's frame time, the broker's and the simulator's CPU
# and memory, messages per second per clock in play (docs/hall.md has the figures).
#
#   python bench/hall.py [--clocks 500] [--seconds 60]
import argparse
import json
import os
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


def main(argv=None):
    parser = argparse.ArgumentParser(prog="bench/hall.py")
    parser.add_argument("--clocks", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=60.0, help="the measured stretch")
    args = parser.parse_args(argv)
    folder = tempfile.mkdtemp(prefix="bench-hall-")
    broker = Broker(folder, "bench", range(1, args.clocks + 1)).start()
    httpd = web.server("127.0.0.1", 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    presses = {}  # (board, plies after the press) -> wall clock ms

    def pressed(board, plies):
        presses[(board, plies)] = time.time() * 1000

    began = time.monotonic()
    hall = SimHall(broker, args.clocks, "bench")
    hall.on_press = pressed
    made_s = time.monotonic() - began
    url = (
        "http://127.0.0.1:%d/hall.html#broker=ws://127.0.0.1:%d&hall=bench&user=viewer"
        % (
            httpd.server_address[1],
            broker.ws_port,
        )
        + "&password="
        + broker.passwords["viewer"]
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
    hall.run(10)  # every clock on the broker, the page loaded, the games begun
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
    broker.stop()
    httpd.shutdown()
    latencies = []
    for board, plies, epoch_ms, event in seen.get("updates", []):
        if event == "press" and (board, plies) in presses:
            latencies.append(epoch_ms - presses[(board, plies)])
    frames = seen.get("frames", [])[1:]
    in_play = sum(playing) / max(1, len(playing))
    rows = [
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
            % (percentile(frames, 0.5), percentile(frames, 0.99), max(frames or [0]), len(frames)),
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
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print("%-*s  %s" % (width, name, value))
    return 0 if not seen.get("errors") else 1


if __name__ == "__main__":
    sys.exit(main())
