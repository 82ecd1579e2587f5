# SPDX-License-Identifier: MIT
# A broker in memory with real state (retained messages, subscriptions, queues) and a client of it
# with umqtt.simple's calls, for the hall link's tests under both interpreters.


class FakeBroker:
    def __init__(self):
        self.retained = {}  # topic -> payload
        self.log = []  # (client, topic, payload, retain), every publish taken
        self.clients = []
        self.down = False  # connects and publishes fail (the broker is gone)

    def deliver(self, topic, payload, retain=False):
        """Publish as another client (the arbiter): to every subscriber of `topic`."""
        topic = _bytes(topic)
        payload = _bytes(payload)
        if retain:
            self.retained[topic] = payload
        for client in self.clients:
            if client.connected and topic in client.topics:
                client.inbox.append((topic, payload))

    def on(self, topic):
        """The payloads published on `topic`, in order."""
        topic = _bytes(topic)
        return [payload for _client, at, payload, _retain in self.log if at == topic]


class FakeTransport:
    def __init__(self, broker, client_id="clock"):
        self.broker = broker
        self.client_id = client_id
        self.connected = False
        self.topics = []
        self.inbox = []
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
        self.connected = True
        self.connects += 1
        self.topics = []
        return 0

    def disconnect(self):
        self.connected = False

    def drop(self):
        """The connection breaks: the broker publishes the last will."""
        self.connected = False
        if self.will is not None:
            topic, msg, retain = self.will
            self.broker.deliver(topic, msg, retain)

    def _check(self):
        if not self.connected or self.broker.down:
            self.connected = False
            raise OSError(104)  # ECONNRESET

    def subscribe(self, topic, qos=0):
        self._check()
        self.topics.append(_bytes(topic))

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
