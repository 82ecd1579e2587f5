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
    """A paho client of `user` that keeps every message it gets, by topic; made once the broker
    has answered its CONNECT and its SUBSCRIBE (no wait by the clock)."""

    def __init__(
        self,
        broker,
        user="arbiter",
        topic="clock/%s/#" % HALL,
        password=None,
        version=4,
        client_id=None,
    ):
        self.messages = []  # (topic, payload, retained)
        self.lock = threading.Lock()
        self.client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2,
            client_id=client_id if client_id is not None else user or "",
            protocol=mqtt.MQTTv5 if version == 5 else mqtt.MQTTv311,
        )
        if user:  # no user: anonymous
            self.client.username_pw_set(
                user, password if password is not None else broker.passwords[user]
            )
        self.refused = None
        self.dropped = threading.Event()  # the broker closed the connection
        connected = threading.Event()
        subscribed = threading.Event()

        def on_connect(client, userdata, flags, reason, properties):
            if reason.is_failure:
                self.refused = str(reason)
                subscribed.set()
            elif topic:
                client.subscribe(topic, 1)
            else:
                subscribed.set()
            connected.set()

        self.client.on_connect = on_connect
        self.client.on_subscribe = lambda *args: subscribed.set()
        self.client.on_disconnect = lambda *args: self.dropped.set()
        self.client.on_message = self._on_message
        self.client.connect(broker.host, broker.port, 30)
        self.client.loop_start()
        assert connected.wait(10), "no CONNACK"
        assert subscribed.wait(10), "no SUBACK"

    def _on_message(self, client, userdata, message):
        with self.lock:
            self.messages.append((message.topic, bytes(message.payload), message.retain))

    def on(self, topic):
        with self.lock:
            return [payload for at, payload, _retained in self.messages if at == topic]

    def last(self, topic):
        found = self.on(topic)
        return json.loads(found[-1]) if found else None

    def seen(self, topic, test):
        """The last message on `topic` (decoded) for which test() holds, or None."""
        for payload in reversed(self.on(topic)):
            doc = json.loads(payload)
            if test(doc):
                return doc
        return None

    def publish(self, topic, payload, retain=False, expiry=None):
        """Published at QoS 1, and the broker's PUBACK waited for: by then it has routed it (or
        dropped it), before anything this client or another publishes after."""
        properties = None
        if expiry is not None:
            from paho.mqtt.packettypes import PacketTypes
            from paho.mqtt.properties import Properties

            properties = Properties(PacketTypes.PUBLISH)
            properties.MessageExpiryInterval = expiry
        info = self.client.publish(topic, payload, 1, retain, properties=properties)
        info.wait_for_publish(10)
        assert info.is_published(), "no PUBACK for %s" % topic

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()


def marker(sender, watcher, topic):
    """Publish a marker on `topic` as `sender` and wait till `watcher` has it: whatever was
    published before it on the same path has arrived by then, or never will."""
    payload = json.dumps({"marker": time.monotonic()}).encode()
    sender.publish(topic, payload)
    wait_for(lambda: payload in watcher.on(topic), 20)


def wait_for(test, seconds=20.0, step=None):
    """Call step() (if given) and test() until test() is true; its value. The bound is what a
    machine busy with other tests may need, not a figure of the hall's (bench/hall.py's)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if step is not None:
            step()
        value = test()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError("not within %g s" % seconds)
