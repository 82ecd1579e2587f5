# SPDX-License-Identifier: MIT
# A broker in memory with real state (retained messages, subscriptions, persistent sessions that
# keep QoS 1 messages for a client away) and a client of it with umqtt.simple's calls, for the
# hall link's tests under both interpreters.


class FakeBroker:
    def __init__(self):
        self.retained = {}  # topic -> payload
        self.log = []  # (client, topic, payload, retain), every publish taken
        self.clients = []
        self.down = False  # connects and publishes fail (the broker is gone)

    def deliver(self, topic, payload, retain=False, qos=1):
        """Publish as another client (the arbiter, the recorder): to every subscriber of
        `topic`; a QoS 1 message waits in the session of a subscriber away, if it kept one."""
        topic = _bytes(topic)
        payload = _bytes(payload)
        if retain:
            self.retained[topic] = payload
        for client in self.clients:
            granted = client.topics.get(topic)
            if granted is None:
                continue
            if client.connected:
                client.inbox.append((topic, payload))
            elif client.persistent and granted >= 1 and qos >= 1:
                client.queued.append((topic, payload))

    def restart(self):
        """The broker restarts with no persistence: every session and retained message gone."""
        self.retained = {}
        for client in self.clients:
            client.drop()
            client.topics = {}
            client.queued = []
            client.persistent = False

    def on(self, topic):
        """The payloads published on `topic`, in order."""
        topic = _bytes(topic)
        return [payload for _client, at, payload, _retain in self.log if at == topic]


class FakeTransport:
    def __init__(self, broker, client_id="clock"):
        self.broker = broker
        self.client_id = client_id
        self.connected = False
        self.topics = {}  # topic -> granted QoS (the session's subscriptions)
        self.inbox = []
        self.queued = []  # kept by the session while the client is away
        self.persistent = False
        self.session = False  # the last connect found its session kept
        self.callback = None
        self.will = None
        self.connects = 0
        broker.clients.append(self)

    def set_last_will(self, topic, msg, retain=False, qos=0):
        self.will = (_bytes(topic), _bytes(msg), retain)

    def set_callback(self, callback):
        self.callback = callback

    def connect(self, clean_session=True):
        if self.broker.down:
            raise OSError(111)  # ECONNREFUSED
        self.session = self.persistent and not clean_session
        if not self.session:
            self.topics = {}
            self.queued = []
        self.persistent = not clean_session
        self.connected = True
        self.connects += 1
        self.inbox.extend(self.queued)
        self.queued = []
        return 0

    def disconnect(self):
        self.connected = False

    def drop(self):
        """The connection breaks: the broker publishes the last will."""
        was = self.connected
        self.connected = False
        if was and self.will is not None:
            topic, msg, retain = self.will
            self.broker.deliver(topic, msg, retain)

    def _check(self):
        if not self.connected or self.broker.down:
            self.connected = False
            raise OSError(104)  # ECONNRESET

    def subscribe(self, topic, qos=0):
        self._check()
        self.topics[_bytes(topic)] = qos

    def publish(self, topic, msg, retain=False, qos=0):
        self._check()
        topic, msg = _bytes(topic), _bytes(msg)
        self.broker.log.append((self.client_id, topic, msg, retain))
        if retain:
            self.broker.retained[topic] = msg

    def waiting(self):
        return bool(self.inbox)

    def check_msg(self):
        self._check()
        if self.inbox:
            topic, msg = self.inbox.pop(0)
            self.callback(topic, msg)


def _bytes(value):
    return value.encode() if isinstance(value, str) else bytes(value)
