# SPDX-License-Identifier: MIT
# For the tests on a real Mosquitto: a broker for hall "club", paho clients, waiting for messages.
import json
import os
import threading
import time

import paho.mqtt.client as mqtt

from sim.broker import Broker

HALL = "club"
# micropython-lib's umqtt.simple: tests/hall/setup.sh puts its PyPI release in build/umqtt (make
# test runs it first); MICROPYTHON_LIB, or the checkout firmware.sh builds from, also serve.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIB_CANDIDATES = (
    os.environ.get("MICROPYTHON_LIB", ""),
    os.path.join(os.environ.get("MICROPYTHON_DIR", "/nonexistent"), "lib", "micropython-lib"),
)


def umqtt_path():
    """The folder holding umqtt/simple.py, or None."""
    fetched = os.path.join(ROOT, "build", "umqtt")
    if os.path.exists(os.path.join(fetched, "umqtt", "simple.py")):
        return fetched
    for lib in LIB_CANDIDATES:
        folder = os.path.join(lib, "micropython", "umqtt.simple")
        if lib and os.path.exists(os.path.join(folder, "umqtt", "simple.py")):
            return folder
    return None


def broker(tmp_path, boards=(12, 13)):
    return Broker(str(tmp_path / "broker"), HALL, boards).start()


class Watcher:
    """A paho client of `user` that keeps every message it gets, by topic."""

    def __init__(self, broker, user="arbiter", topic="clock/%s/#" % HALL, password=None):
        self.messages = []  # (topic, payload, retained)
        self.lock = threading.Lock()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
        if user:  # no user: anonymous
            self.client.username_pw_set(
                user, password if password is not None else broker.passwords[user]
            )
        self.refused = None
        connected = threading.Event()

        def on_connect(client, userdata, flags, reason, properties):
            if reason.is_failure:
                self.refused = str(reason)
            elif topic:
                client.subscribe(topic)
            connected.set()

        self.client.on_connect = on_connect
        self.client.on_message = self._on_message
        self.client.connect(broker.host, broker.port, 30)
        self.client.loop_start()
        assert connected.wait(5), "no CONNACK"
        time.sleep(0.1)  # the subscription in place

    def _on_message(self, client, userdata, message):
        with self.lock:
            self.messages.append((message.topic, bytes(message.payload), message.retain))

    def on(self, topic):
        with self.lock:
            return [payload for at, payload, _retained in self.messages if at == topic]

    def last(self, topic):
        found = self.on(topic)
        return json.loads(found[-1]) if found else None

    def publish(self, topic, payload):
        self.client.publish(topic, payload).wait_for_publish(5)

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()


def wait_for(test, seconds=5.0, step=None):
    """Call step() (if given) and test() until test() is true; its value."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if step is not None:
            step()
        value = test()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError("not within %g s" % seconds)
