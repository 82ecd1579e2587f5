# SPDX-License-Identifier: MIT
# `python -m sim hall gateway`: clocks on a USB hub onto the hall's broker, one connection each.
#
# Each clock is followed as `python -m sim record` follows it (sim/follow.py: the state stream,
# GAME when a line was missed), and asked `HALL` for its board number, which the clock keeps:
# unplugged and plugged back (at any port), it comes back under the same number. For each board
# the gateway publishes what a Wi-Fi clock's own link publishes (firmware/app/hall_link.py): the
# state, retained, at every event; the record's entries on `event`; a heartbeat with the clock's
# ticks every 5 s (from STATE) on `alive`, whose last will says offline. A command on the
# board's `cmd` goes to the clock as `HALL CMD <json>`, and its answer back on `answer`.
import glob
import json
import os
import selectors
import signal
import sys
import time

from sim import follow
from sim.mqtt_transport import PahoTransport

HEARTBEAT_S = 5.0
RETRY_S = 2.0
CHUNK = 8  # record entries per event message, as the clock's link sends them
MAX_COMMAND = 512  # bytes; the clock's own limit (app/hall.py)
MAX_LINE = 240  # what fits the clock's 250-byte line after "HALL CMD "
SCAN = ("/dev/serial/by-id/*MicroPython*", "/dev/ttyACM*")


class BoardLink:
    """One board's connection to the broker, made when the board number is known."""

    def __init__(self, gateway, board):
        self.gateway = gateway
        self.board = board
        self.base = "clock/%s/%d/" % (gateway.hall, board)
        self.transport = None
        self.retry_at = 0.0
        self.sent_log = []  # the entries published, as the record had them

    def online(self):
        if self.transport is not None and not self.transport.lost:
            return True
        now = time.monotonic()
        if now < self.retry_at:
            return False
        self.retry_at = now + RETRY_S
        gateway = self.gateway
        transport = PahoTransport(
            gateway.host, gateway.port, gateway.user, gateway.password, "gateway-%d" % self.board
        )
        transport.set_last_will(self.base + "alive", b'{"online": false}', True)
        transport.set_callback(lambda topic, payload: None)
        try:
            transport.connect()
            transport.subscribe(self.base + "cmd")
        except OSError as error:
            gateway.say("board %d: broker: %s" % (self.board, error))
            return False
        self.transport = transport
        self.sent_log = []  # the record again: the broker may have lost the last ones
        gateway.say("board %d: on the broker as %s" % (self.board, self.base))
        return True

    def publish(self, topic, doc, retain=False):
        if not self.online():
            return
        try:
            self.transport.publish(self.base + topic, json.dumps(doc).encode(), retain)
        except OSError:
            pass  # lost: the next publish connects again

    def commands(self):
        """The commands that came for this board, oldest first."""
        transport = self.transport
        found = []
        while transport is not None and transport.inbox:
            found.append(transport.inbox.popleft()[1])
        return found

    def close(self, gone=True):
        if self.transport is not None:
            if gone and not self.transport.lost:
                try:
                    self.transport.publish(self.base + "alive", b'{"online": false}', True)
                except OSError:
                    pass
            self.transport.disconnect()
            self.transport = None


class GatewayClock(follow.Clock):
    """A followed clock (sim/follow.py) that also asks HALL and publishes for its board."""

    def __init__(self, gateway, path, board, folder, selector):
        name = "board-%d" % board if board else os.path.basename(path.rstrip("/"))
        follow.Clock.__init__(self, name, path, folder, selector, gateway.say, gateway.timeout)
        self.gateway = gateway
        self.given_board = board  # --port N=PATH: the number when the clock keeps none
        self.link = None
        self.seq = 0
        self.last = None  # the last state published
        self.beat_at = 0.0

    # --- the conversation ---------------------------------------------------------------

    def answer(self, text):
        if not self.heard:
            follow.Clock.answer(self, text)
            if self.heard:
                self.send("HALL")
            return
        command = self.pending[0] if self.pending else None
        if command == "HALL":
            self.pending.pop(0)
            self.hall_answer(text)
            return
        if command is not None and command.startswith("HALL CMD "):
            self.pending.pop(0)
            self.command_answer(text)
            return
        follow.Clock.answer(self, text)
        if command == "STATE" and text.startswith("OK {"):
            state = json.loads(text[3:])
            if self.last is None:
                self.publish_state(state)
            elif self.link is not None:
                self.link.publish("alive", {"online": True, "now": state["stamp"]}, True)
        elif command == "GAME":
            self.publish_entries(None)

    def hall_answer(self, text):
        if not text.startswith("OK {"):
            self.note("HALL: %s (a firmware before the hall?)" % text)
            return
        said = json.loads(text[3:])
        board = said.get("board") or self.given_board
        self.seq = said.get("seq") or 0
        if not board:
            self.note("no board number: SET BOARD <n> on the clock, or --port N=%s" % self.path)
            return
        if self.link is not None and self.link.board != board:
            self.link.close()
            self.link = None
        if self.link is None:
            self.link = self.gateway.link_for(board)
            self.note("board %d" % board)
        self.last = None
        self.beat_at = 0.0
        self.send("STATE")

    def line(self, text):
        follow.Clock.line(self, text)
        if text.startswith("EV ") and self.link is not None:
            try:
                event = json.loads(text[3:])
            except ValueError:
                return
            if isinstance(event, dict):
                self.publish_state(event)
                self.publish_entries(event)

    def publish_state(self, state):
        if self.link is None:
            return
        doc = dict(state)
        doc.pop("entry", None)
        doc.setdefault("event", "hello")
        doc["at"] = doc.get("stamp")
        doc.update(hall=self.gateway.hall, board=self.link.board, seq=self.seq, dropped=0)
        self.last = doc
        self.link.publish("state", doc, True)

    def publish_entries(self, event):
        """The record's entries not yet published (all again for another game), CHUNK a message."""
        link = self.link
        held = self.files.held if self.files.current else None
        if link is None or not held:
            if link is not None and event is not None:
                link.publish("event", self.event_doc(event, len(link.sent_log), []))
            return
        log = held["clock"]["log"]
        sent = link.sent_log
        if log[: len(sent)] != sent:
            sent = link.sent_log = []
        start = len(sent)
        if start == len(log) and event is not None:
            link.publish("event", self.event_doc(event, start, []))
        while start < len(log):
            chunk = log[start : start + CHUNK]
            link.publish("event", self.event_doc(event, start, chunk))
            sent.extend(chunk)
            start += len(chunk)
            event = None

    def event_doc(self, event, start, chunk):
        doc = {
            "event": "log",
            "stamp": None,
            "board": self.link.board,
            "from": start,
            "log": chunk,
        }
        if event is not None:
            doc.update(event=event.get("event"), stamp=event.get("stamp"))
            doc["entries"] = event.get("entries")
        return doc

    # --- commands from the broker -------------------------------------------------------

    def command_answer(self, text):
        if text.startswith("OK {"):
            answer = json.loads(text[3:])
            self.seq = max(self.seq, answer.get("seq") or 0)
            self.link.publish("answer", answer)
            if self.last is not None:
                self.last["seq"] = self.seq
        else:
            self.note("a command refused: %s" % text)

    def pass_commands(self):
        if self.link is None or self.port is None or not self.heard:
            return
        for payload in self.link.commands():
            command = forwardable(payload)
            if command is None:
                self.note("dropped a command: %s" % describe(payload))
            else:
                self.send("HALL CMD " + command)

    def heartbeat(self, now):
        if self.link is not None and self.heard and now >= self.beat_at:
            self.beat_at = now + HEARTBEAT_S
            if "STATE" not in self.pending:
                self.send("STATE")

    def lost(self):
        follow.Clock.lost(self)
        if self.link is not None:
            self.link.publish("alive", {"online": False}, True)


def forwardable(payload):
    """A command as one ASCII line the clock takes, or None when it cannot be one."""
    if len(payload) > MAX_COMMAND:
        return None
    try:
        doc = json.loads(payload.decode("utf-8"))
    except (UnicodeError, ValueError, RecursionError):
        return None
    if not isinstance(doc, dict):
        return None
    line = json.dumps(doc, separators=(",", ":"))  # ASCII: \u escapes for the rest
    return line if len(line) <= MAX_LINE else None


def describe(payload):
    if len(payload) > MAX_COMMAND:
        return "%d bytes, over %d" % (len(payload), MAX_COMMAND)
    return "not a JSON object of up to %d bytes" % MAX_LINE


class Gateway:
    def __init__(self, host, port, user, password, hall, timeout, say, folder):
        self.host, self.port, self.user, self.password = host, port, user, password
        self.hall = hall
        self.timeout = timeout
        self.say = say
        self.folder = folder
        self.links = {}
        self.clocks = []
        self.selector = selectors.DefaultSelector()

    def link_for(self, board):
        link = self.links.get(board)
        if link is None:
            link = self.links[board] = BoardLink(self, board)
        return link

    def add(self, path, board=0):
        if any(clock.path == path for clock in self.clocks):
            return
        self.clocks.append(GatewayClock(self, path, board, self.folder, self.selector))

    def scan(self):
        for pattern in SCAN:
            for path in sorted(glob.glob(pattern)):
                real = os.path.realpath(path)
                if not any(os.path.realpath(c.path) == real for c in self.clocks):
                    self.add(path)

    def run(self, scan=False, seconds=None):
        end = None if seconds is None else time.monotonic() + seconds
        scanned = 0.0
        while end is None or time.monotonic() < end:
            now = time.monotonic()
            if scan and now - scanned > 2.0:
                scanned = now
                self.scan()
            for clock in self.clocks:
                clock.look(now)
                clock.pass_commands()
                clock.heartbeat(now)
            for key, events in self.selector.select(0.05):
                clock = key.data
                if events & selectors.EVENT_WRITE and clock.port is not None:
                    clock.writable()
                if events & selectors.EVENT_READ and clock.port is not None:
                    clock.readable()

    def close(self):
        for clock in self.clocks:
            clock.close()
        for link in self.links.values():
            link.close()


def run(args):
    import tempfile

    from sim.hall import broker_address

    def say(text):
        print(text, file=sys.stderr, flush=True)

    try:
        host, port, user, password = broker_address(args)
        ports = []
        for spec in args.ports:
            number, equals, path = spec.partition("=")
            if equals and number.isdigit():
                ports.append((path, int(number)))
            elif equals:
                raise ValueError("--port %s: BOARD=PATH takes a board number" % spec)
            else:
                ports.append((spec, 0))
        if not ports and not args.scan:
            raise ValueError("name the clocks' ports (--port [BOARD=]PATH) or --scan")
    except ValueError as error:
        print("error: %s" % error, file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    folder = tempfile.mkdtemp(prefix="clock-gateway-")  # the followed records (sim/follow.py)
    gateway = Gateway(host, port, user, password, args.hall, args.timeout, say, folder)
    for path, board in ports:
        gateway.add(path, board)
    try:
        gateway.run(args.scan)
    except KeyboardInterrupt:
        pass
    finally:
        gateway.close()
    return 0
