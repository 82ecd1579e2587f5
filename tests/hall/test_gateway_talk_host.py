# SPDX-License-Identifier: MIT
# The gateway's conversation with a clock, line by line, on a port that records what it is sent: a
# framed answer that lost a byte is asked again (then the conversation starts over), an answer that
# never comes starts it over, a port lost twice is let go once, the commands a clock did not get
# are answered as such, a display gone dark reaches the page with the next heartbeat.
import binascii
import json

from sim.hall_gateway import Gateway, UsbClock


class FakePort:
    def __init__(self):
        self.open = True
        self.sent = []
        self.closed = 0

    def write(self, data):
        self.sent.append(data.decode().strip())
        return self.open

    def close(self):
        if not self.open:
            return False
        self.open = False
        self.closed += 1
        return True


class FakeLink:
    def __init__(self, board):
        self.board = board
        self.up = True
        self.published = []
        self.left = 0
        self.inbox = []

    def publish(self, topic, doc, retain=False, qos=0):
        self.published.append((topic, doc))
        return True

    def messages(self):
        found, self.inbox = self.inbox, []
        return found

    def leave(self):
        self.left += 1


def talking(board=7):
    said = []
    gateway = Gateway("127.0.0.1", 1, "gateway", "x", {"clock-7": "p"}, "club", 5.0, said.append)
    clock = UsbClock(gateway, "/dev/null", 0)
    clock.port = FakePort()
    link = FakeLink(board)
    gateway.take = lambda usb, number: link
    clock.hello(0.0)
    clock.line("OK pong", 0.0)
    clock.line("OK stream on", 0.0)
    clock.line("OK " + json.dumps({"board": board, "seq": 3, "net": None}), 0.0)
    return clock, link, said


def framed(doc):
    body = json.dumps(doc)
    return "OK %s %08x" % (body, binascii.crc32(body.encode()))


def test_a_framed_answer_that_lost_a_byte_is_asked_again():
    clock, link, _said = talking()
    assert clock.port.sent[-1] == "STATE" and clock.phase == "serving"
    clock.line("OK " + json.dumps({"stamp": 5, "state": "ready"}), 0.1)
    assert clock.inflight[0] == "GAME SUM"
    game = {"plies": [], "clock": {"log": [{"entry": "ply", "side": "first"}]}}
    good = framed(game)
    damaged = good[:20] + good[21:]  # a byte lost on the way
    clock.line(damaged, 0.2)
    assert clock.port.sent[-1] == "GAME SUM" and clock.inflight[3] == 2  # asked again
    clock.line(good, 0.3)
    assert clock.inflight is None and clock.log == game["clock"]["log"]
    events = [doc for topic, doc in link.published if topic == "event"]
    assert events[-1]["log"] == game["clock"]["log"] and events[-1]["from"] == 0


def test_an_answer_damaged_three_times_starts_the_conversation_over():
    clock, _link, said = talking()
    clock.line("OK " + json.dumps({"stamp": 5}), 0.1)
    for tries in range(3):
        clock.line('OK {"plies": [] 00000000', 0.2 + tries)
    assert clock.phase == "hello" and clock.port.sent[-2:] == ["", "PING"]
    assert any("came damaged 3 times" in line for line in said), said


def test_a_clock_that_does_not_answer_is_asked_again_from_the_start():
    clock, _link, said = talking()
    clock.looked = -10
    clock.look(100.0)  # 100 s later, STATE still unanswered
    assert clock.phase == "hello" and clock.port.sent[-1] == "PING"
    assert any("no answer to STATE" in line for line in said), said


def test_a_port_lost_twice_is_let_go_once_and_its_commands_are_answered():
    clock, link, _said = talking()
    clock.line("OK " + json.dumps({"stamp": 5}), 0.1)
    clock.ask('HALL CMD {"seq":4,"do":"pause"}', clock._answered, 0.2)  # queued behind GAME SUM
    link.inbox = [("cmd", b'{"seq": 5, "do": "resume"}')]  # came, not yet handed on
    clock.lost("unplugged")
    clock.lost("the port failed")  # a write failing as well: nothing twice
    assert clock.port.closed == 1 and link.left == 1 and clock.link is None
    answers = [doc for topic, doc in link.published if topic == "answer"]
    assert [(a["seq"], a["ok"], a["said"]) for a in answers] == [
        (4, False, "not carried out: the clock went before it got it"),
        (5, False, "not carried out: the clock went before it got it"),
    ]


def test_a_display_gone_dark_is_published_at_the_next_heartbeat_and_only_a_change():
    clock, link, _said = talking()
    showing = {"showing": True, "lost": 0, "recovered": 0, "failed_writes": 0}
    first = {"stamp": 5, "state": "running", "outbox": 0, "store": None, "display": showing}
    clock.line("OK " + json.dumps(first), 0.1)
    clock.line(framed({"plies": [], "clock": {"log": []}}), 0.2)  # GAME SUM
    states = lambda: [doc for topic, doc in link.published if topic == "state"]  # noqa: E731
    assert [doc["display"] for doc in states()] == [showing]
    dark = dict(showing, showing=False, lost=1, failed_writes=1)
    for beat, display in ((1, showing), (2, dark), (3, dark)):  # heartbeats' STATE answers
        clock.ask("STATE", clock._state, 5.0 * beat)
        clock.line("OK " + json.dumps(dict(first, stamp=5000 * beat, display=display)), 5.0 * beat)
    assert [doc["display"] for doc in states()] == [showing, dark]  # only the change went
    clock.ask("STATE", clock._state, 20.0)
    clock.line("OK " + json.dumps(dict(first, display=dark, store="the store is full")), 20.0)
    assert states()[-1]["store"] == "the store is full" and len(states()) == 3
