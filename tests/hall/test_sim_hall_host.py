# SPDX-License-Identifier: MIT
# `python -m sim hall --clocks N`: one command starts the broker, the clocks and the page, and says
# where they are and who may read.
import re
import subprocess
import sys
import urllib.request

import paho.mqtt.client as mqtt

from broker_support import wait_for
from test_gateway_host import ROOT


def test_one_command_starts_a_hall_the_page_and_a_read_only_account():
    hall = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sim",
            "hall",
            "--clocks",
            "3",
            "--seconds",
            "12",
            "--web-port",
            "0",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        lines = [hall.stdout.readline() for _ in range(5)]
        page = re.match(
            r"the hall's page \(arbiter\): (http://\S+/hall\.html)#broker=ws://", lines[0]
        )
        said = re.match(
            r"broker: mqtt://127\.0\.0\.1:(\d+) \(WebSockets ws://127\.0\.0\.1:\d+\), read-only"
            r" user viewer, password (\S+)",
            lines[2],
        )
        assert page and said, lines
        assert lines[4].startswith("3 clocks in hall club")
        with urllib.request.urlopen(page.group(1).replace("localhost", "127.0.0.1")) as answer:
            assert b"hall.js" in answer.read()
        states = {}
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
        client.username_pw_set("viewer", said.group(2))
        client.on_connect = lambda c, u, f, r, p: c.subscribe("clock/club/+/state")
        client.on_message = lambda c, u, m: states.__setitem__(m.topic, m.payload)
        client.connect("127.0.0.1", int(said.group(1)))
        client.loop_start()
        wait_for(lambda: len(states) == 3, 10)
        assert sorted(states) == ["clock/club/%d/state" % n for n in (1, 2, 3)]
        client.loop_stop()
        client.disconnect()
        assert hall.wait(20) == 0
    finally:
        if hall.poll() is None:
            hall.kill()
        hall.stdout.close()
        hall.stderr.close()
