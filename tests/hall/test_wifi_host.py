# SPDX-License-Identifier: MIT
# The Wi-Fi clock under the MicroPython unix port (tests/hall/umqtt_wifi.py) on a real Mosquitto:
# the network joined on a fake `network`, the broker's refusal of a wrong password said, the
# game published through umqtt.simple, then the broker stopped: the clock plays on exactly, says
# NO NET, and comes back with its state once the broker does. No pass of its loop waits for the
# network: the longest is measured in real time.
import json
import os
import subprocess

import pytest

from broker_support import Watcher, broker, umqtt_path, wait_for

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")
TOPIC = "clock/club/12/"
LONGEST_MS = 100  # a pass that waited for the network would take 250 ms (a read) or seconds


@pytest.mark.skipif(umqtt_path() is None, reason="no micropython-lib (MICROPYTHON_LIB)")
def test_a_wifi_clock_publishes_through_umqtt_and_plays_on_without_its_broker(tmp_path):
    with broker(tmp_path) as brokered:
        paths = [umqtt_path(), ROOT + "/firmware", ROOT, ROOT + "/tests", ROOT + "/tests/hall"]
        process = subprocess.Popen(
            [MICROPYTHON, ROOT + "/tests/hall/umqtt_wifi.py"]
            + [str(brokered.port), brokered.passwords["clock-12"]],
            env=dict(os.environ, MICROPYPATH=":".join(paths)),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        arbiter = Watcher(brokered)

        def step(name):
            said = json.loads(process.stdout.readline())
            assert said["step"] == name, said
            return said

        try:
            refused = step("refused")
            assert not refused["online"]
            assert refused["note"] == (
                "broker: BrokerError: refused: not authorised; trying again"
            ), refused
            played = step("played")
            assert played["online"] and played["word"] == "NET", played
            assert played["longest_ms"] < LONGEST_MS, played
            state = wait_for(lambda: arbiter.seen(TOPIC + "state", lambda s: s["plies"] == 2))
            assert state["left"]["remaining_ms"] == 298500
            brokered.stop()
            process.stdin.write("stopped\n")
            process.stdin.flush()
            alone = step("alone")
            assert not alone["online"] and alone["word"] == "NO NET", alone
            assert alone["plies"] == 4 and alone["same"], alone
            assert alone["note"] and alone["longest_ms"] < LONGEST_MS, alone
            arbiter.close()
            brokered.start()
            arbiter = Watcher(brokered)
            process.stdin.write("started\n")
            process.stdin.flush()
            back = step("back")
            assert back["online"] and back["word"] == "NET", back
            assert back["longest_ms"] < LONGEST_MS, back
            state = wait_for(lambda: arbiter.seen(TOPIC + "state", lambda s: s["plies"] == 4))
            assert state["board"] == 12
            assert process.wait(10) == 0
        finally:
            if process.poll() is None:
                process.kill()
            rest = process.stdout.read()
            process.stdout.close()
            process.stdin.close()
            arbiter.close()
        assert "Traceback" not in rest, rest
