# SPDX-License-Identifier: MIT
# `python -m sim hall gateway` with clocks behind pseudo-terminals (`serve --pty`) on a real
# Mosquitto: each board's state and record out, a command in and answered, junk dropped, a clock
# unplugged and plugged back under the same board number.
import json
import os
import subprocess
import sys
import threading

from broker_support import Watcher, broker, wait_for
from sim import serial_cli

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "sim"))
from test_record_follow_host import ROOT, Served  # noqa: E402  (the pty clocks of sim record)


def plug(served, link):
    os.symlink(served.path, str(link) + ".new")
    os.replace(str(link) + ".new", link)


def ask(path, command):
    link = serial_cli.Link(path, timeout=5)
    try:
        return link.command(command)[1]
    finally:
        link.close()


def test_the_gateway_publishes_each_clock_and_brings_it_back_under_its_number(tmp_path):
    storage = tmp_path / "flash-a"
    links = tmp_path / "by-id"
    links.mkdir()
    link = links / "clock-a"
    served = [Served("--storage", str(storage)), Served("--preset", "pgn:60")]
    gateway = None
    try:
        assert ask(served[0].path, "SET BOARD 7") == "OK board 7"  # the clock keeps it
        plug(served[0], link)
        with broker(tmp_path, (7, 8)) as brokered:
            arbiter = Watcher(brokered)
            said = []
            gateway = subprocess.Popen(
                [sys.executable, "-m", "sim", "hall", "gateway", "--hall", "club"]
                + ["--broker", "127.0.0.1:%d" % brokered.port]
                + ["--accounts", brokered.accounts]
                + ["--port", str(link), "--port", "8=" + served[1].path],
                cwd=ROOT,
                env=dict(os.environ, HALL_PASSWORD=brokered.passwords["gateway"]),
                stderr=subprocess.PIPE,
                text=True,
            )
            threading.Thread(
                target=lambda: said.extend(line.rstrip() for line in gateway.stderr), daemon=True
            ).start()
            seven = wait_for(lambda: arbiter.last("clock/club/7/state"))
            eight = wait_for(lambda: arbiter.last("clock/club/8/state"))
            assert (seven["board"], seven["state"], eight["board"]) == (7, "ready", 8)
            served[0].key("r")  # the left clock starts
            served[0].key("l")  # ply 1
            state = wait_for(
                lambda: (arbiter.last("clock/club/7/state") or {}).get("plies") == 1
                and arbiter.last("clock/club/7/state")
            )
            assert state["left"]["running"] is False and state["right"]["rate"] == -1
            log = []
            for payload in arbiter.on("clock/club/7/event"):
                event = json.loads(payload)
                del log[event["from"] :]
                log.extend(event["log"])
            assert [entry["entry"] for entry in log] == ["ply"]
            arbiter.publish("clock/club/7/cmd", b"x" * 600)  # dropped by the gateway
            arbiter.publish("clock/club/7/cmd", json.dumps({"seq": 1, "do": "pause", "by": "Zoë"}))
            answer = wait_for(
                lambda: [
                    json.loads(p)
                    for p in arbiter.on("clock/club/7/answer")
                    if json.loads(p).get("seq") == 1
                ]
            )[0]
            assert (answer["ok"], answer["said"], answer["by"]) == (True, "paused", "Zoë")
            assert wait_for(lambda: arbiter.last("clock/club/7/state")["state"] == "paused")
            refused = wait_for(
                lambda: [
                    json.loads(p)
                    for p in arbiter.on("clock/club/7/answer")
                    if json.loads(p).get("error")
                ]
            )
            assert refused[0]["said"] == "not a command: 600 bytes, over 512", refused
            alive = wait_for(lambda: arbiter.last("clock/club/7/alive"))
            assert alive["online"] is True and isinstance(alive["now"], int)
            # unplugged: offline; plugged back (a new pty at the same name): board 7 again
            served[0].stop()
            assert wait_for(lambda: arbiter.last("clock/club/7/alive") == {"online": False})
            served[0] = Served("--storage", str(storage))
            plug(served[0], link)
            back = wait_for(
                lambda: (arbiter.last("clock/club/7/state") or {}).get("state") == "resume"
                and arbiter.last("clock/club/7/state")
            )
            assert back["board"] == 7 and back["plies"] == 1 and back["seq"] == 1
            arbiter.close()
    finally:
        if gateway is not None:
            gateway.terminate()
            gateway.wait(5)
        for one in served:
            if one.process.poll() is None:
                one.stop()
