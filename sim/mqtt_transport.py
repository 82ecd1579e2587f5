# SPDX-License-Identifier: MIT
# paho-mqtt with umqtt.simple's calls: the transport the hall link takes on the desktop.
#
# The link (firmware/app/hall_link.py) calls connect, publish, subscribe, set_callback,
# set_last_will, check_msg and disconnect, as on the board. Each connect() makes a paho client
# of its own, which never reconnects by itself (reconnect_on_failure off): the link decides when
# to connect again, and a lost connection leaves no client behind that would come back under
# the same id. A lost connection is raised at the next publish or check_msg, as a socket error
# is on the board, and the link connects again.
#
# Without a `selector`, paho's own thread does the network (loop_start, stopped by disconnect()),
# so a publish never waits for the broker. With one (the simulated hall's hundreds of clocks, the
# gateway) there is no thread: paho's socket is registered there, its owner calls pump() when it
# is readable and misc() every second, and a publish is written at once. (paho's own thread
# waits in select(), which stops at descriptor 1024: some 340 clients.)
import collections
import errno
import selectors
import threading
import time

import paho.mqtt.client as mqtt

CONNECT_WAIT_S = 5.0


class PahoTransport:
    def __init__(
        self, host, port, user, password, client_id, websockets=False, keepalive=30, selector=None
    ):
        self.selector = selector
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.client_id = client_id
        self.websockets = websockets
        self.keepalive = keepalive
        self.client = None
        self.callback = None
        self.notify = None  # called (in paho's thread) when a message comes: wakes a loop
        self.inbox = collections.deque(maxlen=64)  # a flood drops its oldest here, not the clock
        self.lost = True
        self.session = False  # the broker kept the session (CONNACK's session present)
        self.refusal = None  # what the broker said when it refused the connection
        self._will = None
        self._fd = -1
        self._answered = threading.Event()
        self._waiting_since = None  # a connection under way (with a selector): since when

    # --- umqtt.simple's calls ------------------------------------------------------------

    def set_callback(self, callback):
        self.callback = callback

    def set_last_will(self, topic, msg, retain=False, qos=0):
        self._will = (_text(topic), bytes(msg), qos, retain)

    def connect(self, clean_session=True):
        """A new connection (the last one closed first). OSError when the broker cannot be
        reached, does not answer or refuses (`refusal` then says why). With a selector it is
        made in steps, as the Wi-Fi clock's is: OSError(EINPROGRESS) while the CONNACK is
        awaited (call again), 0 once the broker took it; the scheduler never waits for it."""
        if self.selector is not None and self._waiting_since is not None:
            return self._connecting()
        self.disconnect()
        self._answered.clear()
        self.refusal = None
        client = self.client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2,
            client_id=self.client_id,
            clean_session=clean_session,
            protocol=mqtt.MQTTv311,
            transport="websockets" if self.websockets else "tcp",
            reconnect_on_failure=False,
        )
        client.username_pw_set(self.user, self.password)
        if self._will is not None:
            client.will_set(*self._will)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        try:
            client.connect(self.host, self.port, self.keepalive)  # OSError: refused, unreachable
        except OSError:
            self.client = None
            raise
        if self.selector is not None:
            self._fd = client.socket().fileno()
            self.selector.register(self._fd, selectors.EVENT_READ, self)
            self._waiting_since = time.monotonic()
            return self._connecting()
        client.loop_start()
        if not self._answered.wait(CONNECT_WAIT_S):
            self.disconnect()
            raise OSError("no CONNACK from %s:%d in %g s" % (self.host, self.port, CONNECT_WAIT_S))
        return self._connected()

    def _connecting(self):
        """A step of a connection under way (the selector's pump() reads the CONNACK)."""
        if not self._answered.is_set():
            if self.client is None or time.monotonic() - self._waiting_since > CONNECT_WAIT_S:
                self._waiting_since = None
                self.disconnect()
                raise OSError(
                    "no CONNACK from %s:%d in %g s" % (self.host, self.port, CONNECT_WAIT_S)
                )
            raise OSError(errno.EINPROGRESS, "the CONNACK is awaited")
        self._waiting_since = None
        return self._connected()

    def _connected(self):
        if self.refusal is not None:
            self.disconnect()
            raise OSError("the broker refused the connection: %s" % self.refusal)
        self.lost = False
        return 0

    def pump(self):
        """The socket is readable (the owner's selector said so): take what came."""
        client = self.client
        if client is None or client.loop_read() != mqtt.MQTT_ERR_SUCCESS:
            self._drop()
            if self._waiting_since is not None:
                self._answered.set()  # closed before its CONNACK: the next step says so
                self.refusal = self.refusal or "the connection closed before its CONNACK"
        elif client.want_write():
            client.loop_write()

    def misc(self):
        """Keepalive pings, what is left to write, every second or so."""
        client = self.client
        if self.lost or client is None:
            return
        if client.want_write() and client.loop_write() != mqtt.MQTT_ERR_SUCCESS:
            self._drop()
        elif client.loop_misc() != mqtt.MQTT_ERR_SUCCESS:
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
        self._check(self.client.subscribe(_text(topic), qos)[0] if self.client else None)

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
        """Closed, its thread (if any) stopped; nothing of it is left running."""
        self.lost = True
        self._waiting_since = None
        client, self.client = self.client, None
        if client is None:
            return
        try:
            client.disconnect()
        finally:
            if self.selector is None:
                client.loop_stop()
            else:
                self._drop()
                try:
                    client.loop_write()  # the DISCONNECT out, then the socket closed
                except OSError:
                    pass
                sock = client.socket()
                if sock is not None:
                    try:
                        sock.close()
                    except OSError:
                        pass

    # --- paho's callbacks (its thread) ---------------------------------------------------

    def waiting_connack(self):
        return self._waiting_since is not None

    def _check(self, rc):
        if self.lost or rc != mqtt.MQTT_ERR_SUCCESS:
            raise OSError(
                "the broker is not connected (%s)"
                % ("no connection" if rc is None else mqtt.error_string(rc))
            )

    def _on_connect(self, client, userdata, flags, reason, properties):
        if client is not self.client:
            return
        if reason.is_failure:
            self.refusal = str(reason)
        self.session = bool(flags.session_present)
        self._answered.set()

    def _on_disconnect(self, client, userdata, flags, reason, properties):
        if client is not self.client:
            return
        self.lost = True
        if self.selector is not None:
            self._drop()

    def _on_message(self, client, userdata, message):
        self.inbox.append((message.topic.encode(), bytes(message.payload)))
        if self.notify is not None:
            self.notify()


def _text(topic):
    return topic.decode() if isinstance(topic, (bytes, bytearray)) else topic
