# SPDX-License-Identifier: MIT
# paho-mqtt with umqtt.simple's calls: the transport the hall link takes on the desktop.
#
# The link (firmware/app/hall_link.py) calls connect, publish, subscribe, set_callback,
# set_last_will, check_msg and disconnect, as on the board; here paho's own thread does the
# network (loop_start), so a publish never waits for the broker: the link's pass only hands a
# message over. A lost connection is raised at the next publish or check_msg, as a socket
# error is on the board, and the link connects again.
#
# With a `selector` (the simulated hall's hundreds of clocks) there is no thread: paho's socket is
# registered there, its owner calls pump() when it is readable and misc() every second, and a
# publish is written at once. (paho's own thread waits in select(), which stops at descriptor
# 1024: some 340 clients.)
import collections
import select
import threading
import time

import paho.mqtt.client as mqtt

CONNECT_WAIT_S = 5.0


class PahoTransport:
    def __init__(
        self, host, port, user, password, client_id, websockets=False, keepalive=30, selector=None
    ):
        self.selector = selector
        self._fd = -1
        self.host = host
        self.port = port
        self.keepalive = keepalive
        self.client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2,
            client_id=client_id,
            protocol=mqtt.MQTTv311,
            transport="websockets" if websockets else "tcp",
        )
        self.client.username_pw_set(user, password)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.callback = None
        self.notify = None  # called (in paho's thread) when a message comes: wakes a loop
        self.inbox = collections.deque(maxlen=64)  # a flood drops its oldest here, not the clock
        self.lost = True
        self._answered = threading.Event()
        self._refusal = None

    # --- umqtt.simple's calls ------------------------------------------------------------

    def set_callback(self, callback):
        self.callback = callback

    def set_last_will(self, topic, msg, retain=False, qos=0):
        self.client.will_set(_text(topic), bytes(msg), qos, retain)

    def connect(self, clean_session=True):
        self._answered.clear()
        self._refusal = None
        self.client.connect(self.host, self.port, self.keepalive)  # OSError: refused, unreachable
        if self.selector is None:
            self.client.loop_start()
        else:
            self._await_connack()
        if not self._answered.wait(0 if self.selector is not None else CONNECT_WAIT_S):
            self.disconnect()
            raise OSError("no CONNACK from %s:%d in %g s" % (self.host, self.port, CONNECT_WAIT_S))
        if self._refusal is not None:
            self.disconnect()
            raise OSError("the broker refused the connection: %s" % self._refusal)
        self.lost = False
        if self.selector is not None:
            import selectors

            self._fd = self.client.socket().fileno()
            self.selector.register(self._fd, selectors.EVENT_READ, self)
        return 0

    def _await_connack(self):
        sock = self.client.socket()
        poller = select.poll()
        poller.register(sock, select.POLLIN)
        deadline = time.monotonic() + CONNECT_WAIT_S
        while not self._answered.is_set() and time.monotonic() < deadline:
            if poller.poll(100) and self.client.loop_read() != mqtt.MQTT_ERR_SUCCESS:
                break

    def pump(self):
        """The socket is readable (the owner's selector said so): take what came."""
        if self.client.loop_read() != mqtt.MQTT_ERR_SUCCESS:
            self._drop()

    def misc(self):
        """Keepalive pings and the like, every second or so."""
        if not self.lost and self.client.loop_misc() != mqtt.MQTT_ERR_SUCCESS:
            self._drop()

    def _drop(self):
        self.lost = True
        if self._fd >= 0:
            try:
                self.selector.unregister(self._fd)
            except (KeyError, ValueError, OSError):
                pass
            self._fd = -1

    def subscribe(self, topic, qos=0):
        self._check(self.client.subscribe(_text(topic), qos)[0])

    def publish(self, topic, msg, retain=False, qos=0):
        self._check(self.client.publish(_text(topic), bytes(msg), qos, retain).rc)

    def waiting(self):
        return bool(self.inbox) or self.lost

    def check_msg(self):
        if self.lost:
            raise OSError("the connection to the broker was lost")
        if self.inbox:
            topic, payload = self.inbox.popleft()
            self.callback(topic, payload)

    def disconnect(self):
        self.lost = True
        try:
            self.client.disconnect()
        finally:
            if self.selector is None:
                self.client.loop_stop()
            else:
                self._drop()

    # --- paho's callbacks (its thread) ---------------------------------------------------

    def _check(self, rc):
        if self.lost or rc != mqtt.MQTT_ERR_SUCCESS:
            raise OSError("the broker is not connected (%s)" % mqtt.error_string(rc))

    def _on_connect(self, client, userdata, flags, reason, properties):
        if reason.is_failure:
            self._refusal = str(reason)
        self._answered.set()

    def _on_disconnect(self, client, userdata, flags, reason, properties):
        self.lost = True
        if self.selector is not None:
            self._drop()

    def _on_message(self, client, userdata, message):
        self.inbox.append((message.topic.encode(), bytes(message.payload)))
        if self.notify is not None:
            self.notify()


def _text(topic):
    return topic.decode() if isinstance(topic, (bytes, bytearray)) else topic
