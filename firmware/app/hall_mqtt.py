# SPDX-License-Identifier: MIT
# The Wi-Fi clock's broker connection: umqtt.simple publishes and reads, the connection and the
# subscription are made here in steps that never wait for the network.
#
# umqtt.simple's connect() and subscribe() wait for the broker's answer (a host that is off keeps
# a socket's connect waiting for tens of seconds), so this transport makes them itself: the TCP
# connect started non-blocking, the socket polled at the link's next steps (0.1 s apart,
# OSError(EINPROGRESS) meanwhile), MQTT's CONNECT written once it is writable, the CONNACK read
# once it came, the SUBSCRIBE written and its SUBACK read by the check_msg() of the pass that
# finds it there. Publishing and the commands that come in are umqtt.simple's, on a socket whose
# every blocking read or write waits 0.25 s at most (umqtt.simple sets it blocking for good
# after a packet's first byte): a connection that stalls is dropped and made again. The broker
# is an IPv4 address (SET BROKER): a name would need a DNS lookup, which blocks for seconds.
# No TLS: its handshake computes for seconds on the RP2040.
#
# The session is persistent when the link asks (clean_session off): the broker keeps the
# subscriptions and the commands that come while the clock is away, and sends those right after
# its CONNACK, whose "session present" then says not to subscribe again. Publishing is QoS 0
# (umqtt.simple waits for a QoS 1 PUBACK): what must arrive, a finished game, is sent again
# until the recorder acknowledges it. Alive: a PINGREQ (umqtt.simple's ping()) when nothing was
# heard for _PING_MS, checked at each publish (the link's heartbeat, every 5 s), and a broker
# silent for _SILENCE_MS (no PINGRESP, nothing) is a dead connection, dropped and made again,
# as micropython-async's mqtt_as does: a Wi-Fi gone without a word leaves a socket that only
# notices much later.
#
# `client` is umqtt.simple's MQTTClient class, `socket` and `select` those modules (injected:
# the unix port's in the tests), `ticks_ms` the clock's.
from micropython import const

import ticks

_TIMEOUT_S = 0.25  # a blocking read or write of an open connection
_CONNECT_MS = const(5000)  # the TCP connect, then the CONNACK, each
_KEEPALIVE_S = const(30)  # the broker drops the clock after 1.5 times this of silence
_PING_MS = const(10000)  # nothing heard this long: a PINGREQ
_SILENCE_MS = const(25000)  # nothing heard this long: the connection is dead
_EINPROGRESS = const(115)
_REFUSALS = {
    1: "protocol version",
    2: "client id",
    3: "server unavailable",
    4: "bad user name or password",
    5: "not authorised",
}

# The connection's steps.
_CLOSED = const(0)
_CONNECTING = const(1)  # the TCP connect under way
_CONNACK = const(2)  # CONNECT sent, its answer awaited
_OPEN = const(3)


class BrokerError(OSError):
    """The broker refused or the connection broke: the link logs it and tries again later."""


def ipv4(text):
    """Whether `text` is a dotted IPv4 address (the Wi-Fi clock takes no names)."""
    parts = text.split(".")
    if len(parts) != 4:
        return False
    for part in parts:
        if not (part.isdigit() and len(part) <= 3 and int(part) <= 255):
            return False
    return True


class Transport:
    def __init__(self, hall, client, socket, select, ticks_ms):
        self.hall = hall
        self._client_class = client
        self._socket = socket
        self._select = select
        self._ticks_ms = ticks_ms
        self.client = None
        self.sock = None  # the raw socket (the link closes it if a disconnect fails)
        self._step = _CLOSED
        self._deadline = 0
        self._poller = None
        self._ipoll = None
        self._answer = b""
        self._suback = 0  # bytes of SUBACKs still to read; 0: none awaited
        self._will = None
        self._callback = None
        self._clean = True
        self.session = False  # the broker kept the clock's session (CONNACK)
        self._bounded = None
        self._pinged_at = 0

    # --- umqtt.simple's calls, as the link makes them --------------------------------------

    def set_last_will(self, topic, msg, retain=False, qos=0):
        self._will = (topic, msg, retain)

    def set_callback(self, callback):
        self._callback = callback

    def connect(self, clean_session=True):
        """One step: OSError(EINPROGRESS) while the connection is under way, BrokerError (an
        OSError) when it failed, 0 once the broker took it."""
        step = self._step
        now = self._ticks_ms()
        if step == _CLOSED:
            self._clean = clean_session
            self._open(now)
        elif step == _CONNECTING:
            events = self._events()
            if events & (self._select.POLLERR | self._select.POLLHUP):
                self._fail("refused")
            if events & self._select.POLLOUT:
                self.sock.write(self._connect_packet())
                self._poller.modify(self.sock, self._select.POLLIN)
                self._step = _CONNACK
                self._deadline = ticks.add(now, _CONNECT_MS)
            self._waited(now, "no TCP connection")
        elif step == _CONNACK:
            if self._events():
                self._read_connack()
                if self._step == _OPEN:
                    return 0
            self._waited(now, "no CONNACK")
        else:
            return 0
        raise OSError(_EINPROGRESS)

    def subscribe(self, topic, qos=0):
        """SUBSCRIBE sent, unless the broker kept the session (and its subscriptions); its
        SUBACK is read by the check_msg() that finds it."""
        if self.session:
            return
        client = self.client
        client.pid += 1
        packet = bytearray(b"\x82") + _length(2 + 2 + len(topic) + 1)
        packet += client.pid.to_bytes(2, "big") + _string(topic) + bytes((qos,))
        self.sock.write(packet)
        self._suback += 5

    def publish(self, topic, msg, retain=False, qos=0):
        """QoS 0 whatever `qos` says (see above); a PINGREQ first when the broker has said
        nothing for a while, and BrokerError when it has said nothing for too long."""
        now = self._ticks_ms()
        bounded = self._bounded
        silent = ticks.diff(now, bounded.heard_at)
        if silent >= _SILENCE_MS:
            raise BrokerError("the broker said nothing for %d s" % (silent // 1000))
        if silent >= _PING_MS and ticks.diff(now, self._pinged_at) >= _PING_MS:
            self._pinged_at = now
            self.client.ping()
        self.client.publish(topic, msg, retain)

    def waiting(self):
        """Whether bytes wait on the socket (a poll that allocates nothing on MicroPython)."""
        ipoll = self._ipoll
        if ipoll is None:
            poller = self._poller  # CPython (the simulated hall): poll() allocates
            return poller is not None and self._step == _OPEN and bool(poller.poll(0))
        for _ in ipoll(0):
            return True
        return False

    def check_msg(self):
        if self._suback:
            self._read_suback()
        else:
            self.client.check_msg()

    def disconnect(self):
        """Closed, whatever the step (DISCONNECT sent first when open)."""
        step = self._step
        self._step = _CLOSED
        self._ipoll = None
        self._poller = None
        self._suback = 0
        self._answer = b""
        self.session = False
        sock = self.sock
        self.sock = None
        if sock is None:
            return
        try:
            if step == _OPEN:
                sock.write(b"\xe0\x00")
        finally:
            sock.close()

    # --- the steps -------------------------------------------------------------------------

    def _open(self, now):
        settings = self.hall.settings
        host = settings.get("broker")
        if not host:
            raise BrokerError("no broker set (SET BROKER)")
        if not ipv4(host):
            raise BrokerError("the broker %s is not an IPv4 address" % host)
        if not self.hall.board:
            raise BrokerError("no board number (SET BOARD)")
        port = settings.get("port")
        socket = self._socket
        self.client = client = self._client_class(
            "clock-%s-%d" % (self.hall.name, self.hall.board),
            host,
            port,
            settings.get("user"),
            settings.get("password"),
            _KEEPALIVE_S,
        )
        client.set_callback(self._callback)
        address = socket.getaddrinfo(host, port)[0][-1]  # an address: no lookup
        sock = socket.socket()
        self.sock = sock
        sock.setblocking(False)
        try:
            sock.connect(address)
        except OSError as error:
            if not error.args or error.args[0] != _EINPROGRESS:
                self.disconnect()
                raise error
        poller = self._poller = self._select.poll()
        poller.register(sock, self._select.POLLOUT)
        self._ipoll = getattr(poller, "ipoll", None)
        self._step = _CONNECTING
        self._deadline = ticks.add(now, _CONNECT_MS)

    def _events(self):
        found = self._poller.poll(0)
        return found[0][1] if found else 0

    def _waited(self, now, what):
        if ticks.diff(now, self._deadline) >= 0:
            self._fail("%s in %d s" % (what, _CONNECT_MS // 1000))

    def _fail(self, why):
        self.disconnect()
        raise BrokerError(why)

    def _connect_packet(self):
        client = self.client
        flags = 0x02 if self._clean else 0x00  # clean: nothing kept for the clock while away
        body = bytearray(b"\x00\x04MQTT\x04\x00") + _KEEPALIVE_S.to_bytes(2, "big")
        body += _string(client.client_id)
        if self._will is not None:
            topic, msg, retain = self._will
            flags |= 0x24 if retain else 0x04
            body += _string(topic) + _string(msg)
        if client.user:
            flags |= 0x80
            body += _string(client.user)
            if client.pswd:
                flags |= 0x40
                body += _string(client.pswd)
        body[7] = flags
        return bytes(bytearray(b"\x10") + _length(len(body)) + body)

    def _read_connack(self):
        got = self.sock.read(4 - len(self._answer))
        if got == b"":
            self._fail("closed before its CONNACK")
        if got:
            self._answer += got
        answer = self._answer
        if len(answer) < 4:
            return
        self._answer = b""
        if answer[0] != 0x20 or answer[1] != 2:
            self._fail("not an MQTT broker")
        if answer[3]:
            self._fail("refused: %s" % _REFUSALS.get(answer[3], answer[3]))
        self.session = not self._clean and answer[2] & 1 == 1
        sock = self.sock
        sock.setblocking(True)
        sock.settimeout(_TIMEOUT_S)
        # umqtt.simple's connect() would set its `sock`; the connection made here in steps, this
        # sets it, a socket whose waits are bounded and which notes when the broker spoke.
        self._bounded = _Bounded(sock, self._ticks_ms)
        self._pinged_at = self._ticks_ms()
        self.client.sock = self._bounded
        self._poller.modify(sock, self._select.POLLIN)
        self._step = _OPEN

    def _read_suback(self):
        sock = self.sock
        sock.setblocking(False)
        try:
            got = sock.read(self._suback)
        finally:
            sock.settimeout(_TIMEOUT_S)
        if got == b"":
            raise BrokerError("closed")
        if not got:
            return
        self._bounded.heard_at = self._ticks_ms()
        self._answer += got
        self._suback -= len(got)
        answer = self._answer
        while len(answer) >= 5:  # a SUBACK: 0x90, 3, the packet id, the granted QoS
            if answer[0] != 0x90 or answer[4] == 0x80:
                raise BrokerError("subscription refused")
            answer = answer[5:]
        self._answer = answer


class _Bounded:
    """The socket umqtt.simple reads and writes: blocking means waiting _TIMEOUT_S at most;
    `heard_at`, when a byte last came from the broker."""

    def __init__(self, sock, ticks_ms):
        self.sock = sock
        self.write = sock.write
        self.close = sock.close
        self._ticks_ms = ticks_ms
        self.heard_at = ticks_ms()

    def read(self, count):
        data = self.sock.read(count)
        if data:
            self.heard_at = self._ticks_ms()
        return data

    def setblocking(self, flag):
        if flag:
            self.sock.settimeout(_TIMEOUT_S)
        else:
            self.sock.setblocking(False)


def _string(data):
    if isinstance(data, str):
        data = data.encode()
    return len(data).to_bytes(2, "big") + data


def _length(n):
    """MQTT's remaining length: 7 bits a byte, the high bit saying more follow."""
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return out
