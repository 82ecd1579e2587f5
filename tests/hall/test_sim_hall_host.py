# SPDX-License-Identifier: MIT
# `python -m sim hall --clocks N`: one command starts the broker, the clocks and the page, and says
# where they are and who may read; its listeners bind where it says (the WebSockets one too), and
# its run folder (accounts, passwords) is gone when it stops.
import os
import re
import subprocess
import sys
import urllib.request

import paho.mqtt.client as mqtt

from broker_support import wait_for
from test_gateway_host import ROOT


def listening(port):
    """The local addresses (hex, as /proc/net/tcp{,6} write them) listening on `port`."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as handle:
                rows = handle.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            address, hex_port = fields[1].rsplit(":", 1)
            if int(hex_port, 16) == port and fields[3] == "0A":  # LISTEN
                found.append(address)
    return found


def test_one_command_starts_a_hall_the_page_and_a_read_only_account():
    hall = subprocess.Popen(
        [sys.executable, "-m", "sim", "hall", "--clocks", "3", "--seconds", "12"]
        + ["--web-port", "0"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        lines = []
        while not lines or not lines[-1].startswith("3 clocks in hall club"):
            lines.append(hall.stdout.readline())
            assert lines[-1], lines
        page = re.match(
            r"the hall's page \(arbiter\): (http://\S+/hall\.html)#broker=ws://", lines[0]
        )
        said = re.match(
            r"broker: mqtt://127\.0\.0\.1:(\d+) \(WebSockets ws://127\.0\.0\.1:(\d+)\), read-only"
            r" user viewer, password (\S+)",
            lines[2],
        )
        folder = re.match(r"accounts and ACL: (\S+) ", lines[3])
        assert page and said and folder, lines
        assert os.path.exists(os.path.join(folder.group(1), "accounts.txt"))
        # both listeners on 127.0.0.1 alone, as said (0100007F: 127.0.0.1 in /proc's hex)
        for port in (int(said.group(1)), int(said.group(2))):
            assert listening(port) == ["0100007F"], (port, listening(port))
        with urllib.request.urlopen(page.group(1).replace("localhost", "127.0.0.1")) as answer:
            assert b"hall.js" in answer.read()
        states = {}
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
        client.username_pw_set("viewer", said.group(3))
        client.on_connect = lambda c, u, f, r, p: c.subscribe("clock/club/+/state")
        client.on_message = lambda c, u, m: states.__setitem__(m.topic, m.payload)
        client.connect("127.0.0.1", int(said.group(1)))
        client.loop_start()
        wait_for(lambda: len(states) == 3, 20)
        assert sorted(states) == ["clock/club/%d/state" % n for n in (1, 2, 3)]
        client.loop_stop()
        client.disconnect()
        assert hall.wait(20) == 0
        assert not os.path.exists(folder.group(1))  # the run's accounts are gone with it
    finally:
        if hall.poll() is None:
            hall.terminate()  # its broker with it (a kill would leave it behind)
            hall.wait(20)
        hall.stdout.close()
        hall.stderr.close()
