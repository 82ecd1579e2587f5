# SPDX-License-Identifier: MIT
# The hall link under the MicroPython unix port on a real Mosquitto, through micropython-lib's
# umqtt.simple (what the Wi-Fi board freezes): the state out, passes with nothing to send
# allocating nothing on a real socket, a command in, a flood of junk refused.
import json
import os
import subprocess
import time

import pytest

from broker_support import Watcher, broker, umqtt_path, wait_for

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")
TOPIC = "clock/club/12/"


@pytest.mark.skipif(umqtt_path() is None, reason="no micropython-lib (MICROPYTHON_LIB)")
def test_the_link_on_the_unix_port_through_umqtt_simple(tmp_path):
    with broker(tmp_path) as brokered:
        arbiter = Watcher(brokered)
        paths = ":".join(
            [umqtt_path(), ROOT + "/firmware", ROOT, ROOT + "/tests", ROOT + "/tests/hall"]
        )
        process = subprocess.Popen(
            [MICROPYTHON, ROOT + "/tests/hall/umqtt_clock.py"]
            + [str(brokered.port), brokered.passwords["clock-12"]],
            env=dict(os.environ, MICROPYPATH=paths),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            played = json.loads(process.stdout.readline())
            assert played == {"step": "played", "online": True, "sent": played["sent"]}, played
            locked = json.loads(process.stdout.readline())
            assert locked["step"] == "locked" and locked["passes"] > 150, locked
            # The states arrive in order; a loaded machine may deliver the second ply's late.
            state = wait_for(lambda: arbiter.seen(TOPIC + "state", lambda s: s["plies"] == 2))
            assert state["left"]["remaining_ms"] == 298000
            for junk in (b"{", b'{"seq": -1, "do": "pause"}', b"x" * 600):
                arbiter.publish(TOPIC + "cmd", junk)
            arbiter.publish(TOPIC + "cmd", json.dumps({"seq": 1, "do": "pause"}))
            answer = wait_for(
                lambda: arbiter.seen(TOPIC + "answer", lambda a: a["seq"] == 1), seconds=20
            )
            assert answer["ok"] and answer["said"] == "paused"
            errors = wait_for(  # each piece of junk answered as what it is
                lambda: len(arbiter.on(TOPIC + "answer")) == 4
                and [json.loads(p)["said"] for p in arbiter.on(TOPIC + "answer")][:3]
            )
            assert errors == [
                "not a command: not JSON",
                "not a command: seq: expected a whole number from 1 to 1073741823",
                "not a command: 600 bytes, over 512",
            ], errors
            last = json.loads(process.stdout.readline())
            assert last == {"step": "commanded", "state": "paused", "seq": 1, "refused": 3}, last
            assert process.wait(10) == 0
            events = [json.loads(p)["event"] for p in arbiter.on(TOPIC + "event")]
            assert events[:3] == ["start", "press", "press"]
        finally:
            if process.poll() is None:
                process.kill()
            rest = process.stdout.read()
            process.stdout.close()
            arbiter.close()
        assert "Traceback" not in rest, rest
