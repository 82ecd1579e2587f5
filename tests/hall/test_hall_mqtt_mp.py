# SPDX-License-Identifier: MIT
# The Wi-Fi clock's broker connection (app/hall_mqtt.py) on the unix port's real sockets, against
# a listening socket of the test that plays the broker byte by byte: the connection made in steps
# that return at once, MQTT's CONNECT as the spec writes it, a refusal, a broker that never
# answers (5 s of the clock's time, not of the test's), a SUBACK and a command read through
# umqtt.simple, and a packet cut short that costs 0.25 s at most.
import select
import socket
import sys
import time

sys.path.append(__file__.rsplit("/", 2)[0] + "/../build/umqtt")  # tests/hall/setup.sh's
from umqtt.simple import MQTTClient  # noqa: E402

from app.hall_mqtt import BrokerError, Transport, ipv4  # noqa: E402
from support import raises  # noqa: E402


class Settings:
    def __init__(self, **values):
        self.values = values

    def get(self, key):
        return self.values.get(key)


class Hall:
    name = "club"
    board = 12

    def __init__(self, port, **more):
        values = {"broker": "127.0.0.1", "port": port, "user": "clock-12", "password": "pw"}
        values.update(more)
        self.settings = Settings(**values)


class Server:
    """A listening socket on 127.0.0.1; `take()` accepts the clock's connection."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.port = _bind(self.sock)
        self.sock.listen(1)
        self.peer = None

    def take(self):
        self.sock.settimeout(5)  # the clock's connection, 5 s at most
        self.peer = self.sock.accept()[0]
        self.peer.settimeout(2)
        return self.peer

    def sent(self, ms=0):
        """Whether the clock's bytes wait to be read (waiting up to `ms` for them)."""
        poller = select.poll()
        poller.register(self.peer, select.POLLIN)
        return bool(poller.poll(ms))

    def wrote(self):
        """The clock's bytes waited for, 5 s at most."""
        assert self.sent(5000), "the clock wrote nothing in 5 s"

    def read(self, n):
        return self.peer.read(n)

    def close(self):
        if self.peer is not None:
            self.peer.close()
        self.sock.close()


def _bind(sock):
    # The unix port's sockets have no getsockname(): a free port of a range, bound.
    for port in range(42100, 42400):
        try:
            sock.bind(socket.getaddrinfo("127.0.0.1", port)[0][-1])
            return port
        except OSError:
            continue
    raise AssertionError("no free port")


def _news(link, mask, what):
    poller = select.poll()
    poller.register(link.sock, mask)
    assert poller.poll(5000), "%s: not within 5 s" % what


def opened(link):
    """Waits (5 s at most) till the clock's TCP connection is made or refused (writable, or an
    error on its socket): the link's next step finds it."""
    _news(link, select.POLLOUT, "no connection, no refusal")


def arrived(link):
    """Waits (5 s at most) till what the test's broker wrote waits on the clock's socket."""
    _news(link, select.POLLIN, "nothing arrived")


def transport(port, clock, **more):
    found = Transport(Hall(port, **more), MQTTClient, socket, select, lambda: clock[0])
    found.set_last_will(b"clock/club/12/alive", b'{"online": false}', True)
    found.set_callback(lambda topic, msg: clock.append((bytes(topic), bytes(msg))))
    return found


def step(link, clock, ms=100):
    """The link's next step 0.1 s of the clock's time later; its result ('wait' while under
    way). Each returns at once: it is timed in real time, against the connection's 0.25 s read
    timeout, the least a step that waited on the broker would cost (a loaded machine's
    scheduling may take part of that, never all)."""
    clock[0] += ms
    start = time.ticks_us()
    try:
        return link.connect()
    except OSError as error:
        if error.args and error.args[0] == 115:
            return "wait"
        raise
    finally:
        assert time.ticks_diff(time.ticks_us(), start) < 200000


def test_connect_in_steps_then_subscribe_and_a_command_through_umqtt():
    server = Server()
    clock = [1000]
    link = transport(server.port, clock)
    assert step(link, clock) == "wait"  # the TCP connect started, never waited for
    server.take()
    opened(link)
    assert step(link, clock) == "wait"  # the socket found writable, the CONNECT written
    server.wrote()
    connect = server.read(2)
    assert connect[0] == 0x10
    body = server.read(connect[1])
    client_id = b"clock-club-12"
    will = b"clock/club/12/alive"
    expected = b"\x00\x04MQTT\x04" + bytes([0x02 | 0x04 | 0x20 | 0x80 | 0x40]) + b"\x00\x1e"
    expected += b"\x00\x0d" + client_id + b"\x00\x13" + will + b'\x00\x11{"online": false}'
    expected += b"\x00\x08clock-12\x00\x02pw"
    assert body == expected, body
    assert step(link, clock) == "wait"  # no CONNACK yet
    server.peer.write(b"\x20\x02\x00\x00")
    arrived(link)
    assert step(link, clock) == 0
    link.subscribe(b"clock/club/12/cmd")
    sub = server.read(2)
    assert sub[0] == 0x82
    assert server.read(sub[1]) == b"\x00\x01\x00\x11clock/club/12/cmd\x00"
    assert not link.waiting()
    # the SUBACK, then a command (one write: Nagle would hold a second back for 40 ms)
    server.peer.write(b"\x90\x03\x00\x01\x00\x30\x19\x00\x11clock/club/12/cmd{}\x0a\x0a\x0a\x0a")
    arrived(link)
    assert link.waiting()
    link.check_msg()  # the SUBACK
    assert link.waiting()
    link.check_msg()  # the command, through umqtt.simple
    assert clock[1:] == [(b"clock/club/12/cmd", b"{}\n\n\n\n")]
    link.publish(b"clock/club/12/state", b"{}", True)
    assert server.read(4) == b"\x31\x17\x00\x13"
    link.disconnect()
    assert server.read(50)[-2:] == b"\xe0\x00"
    server.close()


def test_a_packet_cut_short_costs_a_quarter_second_at_most():
    server = Server()
    clock = [0]
    link = transport(server.port, clock)
    step(link, clock)
    server.take()
    opened(link)
    step(link, clock)
    server.wrote()
    server.peer.write(b"\x20\x02\x00\x00")
    arrived(link)
    assert step(link, clock) == 0
    server.peer.write(b"\x30\x40\x00\x11clock/club/12/cmd")  # 64 bytes announced, 19 sent
    arrived(link)
    assert link.waiting()
    start = time.ticks_ms()
    raises(OSError, link.check_msg)
    took = time.ticks_diff(time.ticks_ms(), start)
    # 0.25 s by the socket's timeout; the upper bound is loose (a loaded machine's scheduling):
    # what it proves is that the read gives up rather than waits for bytes that never come
    assert 200 <= took < 5000, took
    link.disconnect()
    server.close()


def test_a_broker_that_refuses_or_never_answers_is_said_and_closed():
    clock = [0]
    closed = Server()
    port = closed.port
    closed.close()  # nothing listens there now
    link = transport(port, clock)
    assert step(link, clock) == "wait"
    opened(link)  # refused: an error on the socket
    assert str(raises(BrokerError, step, link, clock)) == "refused" and link.sock is None
    server = Server()
    link = transport(server.port, clock)
    step(link, clock)
    server.take()
    error = None
    while error is None:
        try:
            step(link, clock)
        except BrokerError as found:
            error = found
    assert str(error) == "no CONNACK in 5 s" and link.sock is None
    server.close()
    server = Server()
    link = transport(server.port, clock)
    step(link, clock)
    server.take()
    opened(link)
    step(link, clock)
    server.wrote()
    server.peer.write(b"\x20\x02\x00\x05")  # not authorised
    arrived(link)
    assert str(raises(BrokerError, step, link, clock)) == "refused: not authorised"
    server.close()
    for host, said in (("hall.local", "the broker hall.local is not an IPv4 address"),):
        link = transport(1883, clock, broker=host)
        assert str(raises(BrokerError, step, link, clock)) == said


def test_ipv4_addresses():
    assert ipv4("192.168.1.10") and ipv4("10.0.0.1") and not ipv4("10.0.0.256")
    assert not ipv4("hall.local") and not ipv4("1.2.3") and not ipv4("1.2.3.4.5")
    assert not ipv4("1.2.3.-4") and not ipv4("")


def connected(server, clock, link, clean=True, present=False):
    """The connection made (CONNECT read), the CONNACK given; the CONNECT's flags byte."""
    assert _connect_step(link, clock, clean) == "wait"
    server.take()
    opened(link)
    assert _connect_step(link, clock, clean) == "wait"  # the CONNECT written
    server.wrote()
    head = server.read(2)
    body = server.read(head[1])
    server.peer.write(b"\x20\x02" + (b"\x01" if present else b"\x00") + b"\x00")
    arrived(link)
    assert _connect_step(link, clock, clean) == 0
    return body[7]


def _connect_step(link, clock, clean):
    clock[0] += 100
    try:
        return link.connect(clean)
    except OSError as error:
        if error.args and error.args[0] == 115:
            return "wait"
        raise


def test_a_persistent_session_kept_by_the_broker_is_not_subscribed_again():
    server = Server()
    clock = [0]
    link = transport(server.port, clock)
    flags = connected(server, clock, link, clean=False, present=True)
    assert flags & 0x02 == 0  # no clean session: the broker keeps it while the clock is away
    assert link.session
    link.subscribe(b"clock/club/12/cmd", 1)
    link.subscribe(b"clock/club/12/ack", 1)
    assert not server.sent()  # its subscriptions are the broker's already
    # what waited for it comes at once: a QoS 1 command, acknowledged by umqtt.simple
    server.peer.write(b"\x32\x1b\x00\x11clock/club/12/cmd\x00\x07{}\x0a\x0a\x0a\x0a")
    arrived(link)
    assert link.waiting()
    link.check_msg()
    assert clock[1:] == [(b"clock/club/12/cmd", b"{}\n\n\n\n")]
    assert server.read(4) == b"\x40\x02\x00\x07"  # the PUBACK
    link.disconnect()
    server.close()


def test_two_subscriptions_two_subacks_and_a_session_not_kept():
    server = Server()
    clock = [0]
    link = transport(server.port, clock)
    flags = connected(server, clock, link, clean=False, present=False)
    assert flags & 0x02 == 0 and not link.session
    link.subscribe(b"clock/club/12/cmd", 1)
    link.subscribe(b"clock/club/12/ack", 1)
    for topic in (b"clock/club/12/cmd", b"clock/club/12/ack"):
        sub = server.read(2)
        assert server.read(sub[1])[4:] == topic + b"\x01"  # at QoS 1
    server.peer.write(b"\x90\x03\x00\x01\x01\x90\x03\x00\x02\x01")
    arrived(link)
    link.check_msg()
    assert not link.waiting()
    link.disconnect()
    server.close()


def test_a_silent_broker_is_pinged_and_after_25_s_given_up():
    server = Server()
    clock = [0]
    link = transport(server.port, clock)
    connected(server, clock, link)
    link.publish(b"clock/club/12/alive", b"{}", True)  # heard a moment ago: no ping
    assert server.read(2) == b"\x31\x17"  # the topic's 2 + 19 bytes, the payload's 2
    server.read(0x17)
    clock[0] += 10000  # 10 s of silence: a PINGREQ goes first
    link.publish(b"clock/club/12/alive", b"{}", True)
    assert server.read(2) == b"\xc0\x00"
    assert server.read(2 + 0x17)[:2] == b"\x31\x17"  # then the publish
    server.peer.write(b"\xd0\x00")  # the PINGRESP: heard
    arrived(link)
    assert link.waiting()
    link.check_msg()
    clock[0] += 24000  # 24 s since the PINGRESP: still alive, pinged again
    link.publish(b"clock/club/12/alive", b"{}", True)
    assert server.read(2) == b"\xc0\x00"
    assert server.read(2 + 0x17)[:2] == b"\x31\x17"
    clock[0] += 1000  # 25 s without a word: the connection is dead
    error = raises(BrokerError, link.publish, b"clock/club/12/alive", b"{}", True)
    assert str(error) == "the broker said nothing for 25 s"
    link.disconnect()
    server.close()
