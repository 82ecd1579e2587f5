# SPDX-License-Identifier: MIT
# `python -m sim hall gateway`: clocks on a USB hub onto the hall's broker, each under its board's
# own account, in one thread.
#
# Each clock is a conversation on its serial port (docs/serial.md), one command at a time: PING
# until the clock answers, STREAM ON, HALL (its board number, which the clock keeps: unplugged
# and plugged back at any port, it comes back under the same number), then what the board needs:
# STATE, GAME SUM (the record, its CRC-32 at the end: a line that lost a byte on the way is
# asked again), OUTBOX and OUTBOX GET (the finished games, framed the same way). A command not
# answered in time, or a line that is not what was asked for, starts the conversation over.
#
# For each board the gateway publishes what a Wi-Fi clock's own link publishes
# (firmware/app/hall_link.py), on a connection of the board's account (clock-N, from
# --accounts): the state, retained, at every event; the record's entries on `event`; a heartbeat
# with the clock's ticks every 5 s on `alive`, whose last will says offline; the finished games
# on `game` until the recorder's `ack`, which goes on to the clock (OUTBOX ACK). The connection
# is a persistent session, open while the clock is plugged and known: a command sent while it
# is away waits on the broker (within its expiry) and is handed on as `HALL CMD <json>` when it
# is back. Unplugged, the board says offline and its connection closes; a connection the broker
# drops is made again, 2 s later, doubling to 10 s. Every socket and port is in one selector:
# one thread, whatever the broker or the cables do.
#
# The gateway's own account (`gateway`) has a connection of its own, its heartbeat on
# clock/<hall>/gateway/alive; the broker's refusal of it at the start ends the gateway (exit 2).
import errno
import glob
import json
import os
import selectors
import signal
import sys
import time

from sim.mqtt_transport import PahoTransport

HEARTBEAT_S = 5.0
# What the heartbeat's STATE republishes when it changed: a game kept or let go, the display gone
# dark or back, the store refusing writes or taking them again.
_HEALTH = ("outbox", "display", "store")
GAMES_EVERY_S = 30.0  # the finished games are asked for (and sent again) this often
RETRY_S = 2.0
RETRY_MAX_S = 10.0
LOOK_S = 0.5  # a port's path looked for, a port checked
CHUNK = 8  # record entries per event message, as the clock's link sends them
MAX_COMMAND = 512  # bytes; the clock's own limit (app/hall.py)
MAX_LINE = 240  # what fits the clock's 250-byte line after "HALL CMD "
MAX_INPUT = 1 << 20  # bytes of a line from a clock; a longer one is dropped
TRIES = 3  # a framed answer asked again this often before the conversation starts over
SCAN = ("/dev/serial/by-id/*MicroPython*", "/dev/ttyACM*")
EMPTY_READS = 20  # empty reads in a row that mean the port hung up


class BoardLink:
    """One board's connection to the broker, under its own account, while its clock is known."""

    def __init__(self, gateway, board, password):
        self.gateway = gateway
        self.board = board
        self.base = "clock/%s/%d/" % (gateway.hall, board)
        self.account = "clock-%d" % board
        self.transport = PahoTransport(
            gateway.host,
            gateway.port,
            self.account,
            password,
            self.account,
            selector=gateway.selector,
        )
        self.transport.set_last_will(self.base + "alive", b'{"online": false}', True)
        self.transport.set_callback(lambda topic, payload: None)
        self.wanted = False  # the clock is plugged and known: the connection should be up
        self.up = False
        self.retry_at = 0.0
        self.retry_s = RETRY_S
        self.said_down = False
        self.fresh = False  # (re)connected: what the board holds is to be published again

    def step(self, now):
        """Connect when wanted and due; notice a connection the broker dropped."""
        if self.up and self.transport.lost:
            self.up = False
            self.gateway.say("board %d: the broker connection was lost" % self.board)
            self.retry_at = now + RETRY_S
        if self.wanted and not self.up and now >= self.retry_at:
            try:
                self.transport.connect(False)  # in steps: the CONNACK comes through the selector
                self.transport.subscribe(self.base + "cmd", 1)
                self.transport.subscribe(self.base + "ack", 1)
            except OSError as error:
                if error.errno == errno.EINPROGRESS:
                    return  # the next pass takes the next step
                self.transport.disconnect()
                if not self.said_down:
                    self.gateway.say("board %d: broker: %s; trying again" % (self.board, error))
                    self.said_down = True
                self.retry_at = now + self.retry_s
                self.retry_s = min(self.retry_s * 2, RETRY_MAX_S)
                return
            self.up = True
            self.fresh = True
            self.said_down = False
            self.retry_s = RETRY_S
            self.gateway.say("board %d: on the broker as %s" % (self.board, self.account))

    def publish(self, topic, doc, retain=False, qos=0):
        if not self.up:
            return False
        payload = doc if isinstance(doc, bytes) else json.dumps(doc).encode()
        try:
            self.transport.publish(self.base + topic, payload, retain, qos)
        except OSError:
            return False  # lost: step() notices and connects again
        return True

    def messages(self):
        """(kind, payload) of what came for this board (`cmd`, `ack`), oldest first."""
        inbox = self.transport.inbox
        found = []
        while inbox:
            topic, payload = inbox.popleft()
            found.append((topic.decode().rsplit("/", 1)[-1], payload))
        return found

    def leave(self):
        """The clock is gone (unplugged, the gateway stopping): offline, then closed."""
        self.wanted = False
        if self.up:
            self.publish("alive", b'{"online": false}', True)
        self.up = False
        self.transport.disconnect()


class Port:
    """A clock's serial port: opened when its path is there, bytes in as lines, bytes out, and
    lost once (whatever said so first: a read, a write, the path gone)."""

    def __init__(self, path, selector, owner):
        self.path = path
        self.selector = selector
        self.owner = owner
        self.fd = -1
        self.serial = None
        self.inbox = b""
        self.outbox = b""
        self.empty = 0

    @property
    def open(self):
        return self.fd >= 0

    def try_open(self):
        """Open the port (True), or say why not (a string)."""
        import serial

        try:
            port = serial.Serial(self.path, 115200, timeout=0)
            port.reset_input_buffer()  # what it said to whoever had it before
        except (serial.SerialException, OSError) as error:
            return str(error)
        self.serial = port
        self.fd = port.fileno()
        os.set_blocking(self.fd, False)
        self.inbox = self.outbox = b""
        self.empty = 0
        self.selector.register(self.fd, selectors.EVENT_READ, self)
        return True

    def close(self):
        """Closed; False when it was already (the one place a port is let go)."""
        if self.fd < 0:
            return False
        try:
            self.selector.unregister(self.fd)
        except (KeyError, ValueError, OSError):
            pass
        try:
            self.serial.close()
        except OSError:
            pass
        self.fd = -1
        self.serial = None
        self.inbox = self.outbox = b""
        return True

    def write(self, data):
        """Queue bytes; False when the port is gone."""
        if self.fd < 0:
            return False
        self.outbox += data
        return self.flush()

    def flush(self):
        if self.fd < 0:
            return False
        try:
            written = os.write(self.fd, self.outbox) if self.outbox else 0
        except BlockingIOError:
            written = 0
        except OSError:
            return False
        self.outbox = self.outbox[written:]
        events = selectors.EVENT_READ | (selectors.EVENT_WRITE if self.outbox else 0)
        try:
            self.selector.modify(self.fd, events, self)
        except (KeyError, ValueError, OSError):
            return False
        return True

    def read(self):
        """The complete lines that came; None when the port is gone."""
        if self.fd < 0:
            return None
        try:
            data = os.read(self.fd, 65536)
        except BlockingIOError:
            return []
        except OSError:
            return None
        if not data:
            self.empty += 1  # a hung-up port reads empty again and again
            if self.empty >= EMPTY_READS or not os.path.exists(self.path):
                return None
            return []
        self.empty = 0
        self.inbox += data
        *lines, self.inbox = self.inbox.split(b"\n")
        if len(self.inbox) > MAX_INPUT:
            self.inbox = b""
        return [line.decode("utf-8", "replace").strip() for line in lines]


class UsbClock:
    """One clock on a port: the conversation, one command at a time, and its board's link."""

    def __init__(self, gateway, path, board=0):
        self.gateway = gateway
        self.path = path
        self.given_board = board  # --port N=PATH: the number when the clock keeps none
        self.port = Port(path, gateway.selector, self)
        self.name = os.path.basename(path.rstrip("/"))
        self.phase = "closed"  # closed, hello, serving
        self.queue = []  # (command, handler), to send once the one in flight is answered
        self.inflight = None  # (command, handler, sent at, tries)
        self.link = None
        self.seq = 0
        self.state = None  # the last state published (for a broker that comes back)
        self.tag = None  # the current game's record tag
        self.log = []  # the current game's entries, as the clock's record has them
        self.published = 0  # of them, published on this connection
        self.beat_at = 0.0
        self.games_at = 0.0
        self.store_board = 0  # a --port number to store on the clock at the next chance
        self.looked = -LOOK_S
        self.said = None  # the last thing said about the port, said once

    def note(self, text):
        if text != self.said:
            self.said = text
            self.gateway.say("clock %s: %s" % (self.name, text))

    # --- the port -----------------------------------------------------------------------

    def look(self, now):
        if now - self.looked < LOOK_S:
            return
        self.looked = now
        if self.port.open:
            if not os.path.exists(self.path):
                self.lost("unplugged")
            elif self.inflight is not None and now - self.inflight[2] > self.gateway.timeout:
                self.note(
                    "no answer to %s in %g s; starting over"
                    % (self.inflight[0][:20], self.gateway.timeout)
                )
                self.hello(now)
            return
        if not os.path.exists(self.path):
            self.note("%s is not there; waiting for it" % self.path)
            return
        opened = self.port.try_open()
        if opened is not True:
            self.note("cannot open %s (%s); trying again" % (self.path, opened))
            return
        self.note("following %s" % self.path)
        self.hello(now)

    def lost(self, why):
        """The port went: once, whoever noticed first."""
        if not self.port.close():
            return
        self.phase = "closed"
        if self.link is not None:
            self.unanswered()
        self.queue = []
        self.inflight = None
        self.note("%s, waiting" % why)
        if self.link is not None:
            self.link.leave()
            self.gateway.let_go(self)
            self.link = None

    def close(self):
        if self.link is not None:
            self.unanswered()
            self.link.leave()
            self.link = None
        self.port.close()

    def unanswered(self):
        """The clock is gone: each command it had not answered is answered as such (the one
        sent may have been carried out: its state will say), those still here as not."""
        if self.inflight is not None and self.inflight[0].startswith("HALL CMD "):
            self.error_answer(
                self.inflight[0][9:].encode(),
                "no answer: the clock went before it answered (its state says what it did)",
            )
        waiting = [c[9:].encode() for c, _ in self.queue if c.startswith("HALL CMD ")]
        waiting += [payload for kind, payload in self.link.messages() if kind == "cmd"]
        for payload in waiting:
            self.error_answer(payload, "not carried out: the clock went before it got it")

    # --- the conversation ---------------------------------------------------------------

    def hello(self, now):
        """Start over: an empty line ends whatever half line the clock holds; answers before
        PING's are to what was asked before."""
        self.phase = "hello"
        self.queue = []
        self.inflight = None
        self.port.write(b"\r\n")
        self.ask("PING", self._pong, now)

    def ask(self, command, handler, now=None):
        if self.inflight is None:
            self._send(command, handler, time.monotonic() if now is None else now, 1)
        elif not any(queued == command for queued, _handler in self.queue):
            self.queue.append((command, handler))

    def _send(self, command, handler, now, tries):
        self.inflight = (command, handler, now, tries)
        if not self.port.write(command.encode("ascii") + b"\r\n"):
            self.lost("the port failed")

    def _next(self, now):
        self.inflight = None
        if self.queue and self.port.open:
            command, handler = self.queue.pop(0)
            self._send(command, handler, now, 1)

    def _again(self, now):
        """A framed answer came damaged: asked again, or the conversation starts over."""
        command, handler, _at, tries = self.inflight
        if tries >= TRIES:
            self.note("%s came damaged %d times; starting over" % (command, tries))
            self.hello(now)
        else:
            self._send(command, handler, now, tries + 1)

    def readable(self, now):
        lines = self.port.read()
        if lines is None:
            self.lost("unplugged")
            return
        for text in lines:
            if not self.port.open:
                return
            if text:
                self.line(text, now)

    def line(self, text, now):
        if text.startswith("EV "):
            if self.phase == "serving":
                try:
                    event = json.loads(text[3:])
                except ValueError:
                    event = None
                if isinstance(event, dict):
                    self.event(event, now)
                else:
                    self.ask("GAME SUM", self._game)  # a damaged event: the record tells
            return
        if not (text in ("OK", "ERR") or text.startswith(("OK ", "ERR "))):
            return  # noise (a line cut short): the command in flight waits on
        if self.inflight is None:
            return
        if self.phase == "hello" and self.inflight[0] == "PING" and text != "OK pong":
            return  # an answer to what was asked before we came
        handler = self.inflight[1]
        if handler(text, now) is False:
            self._again(now)
        elif self.inflight is not None and self.inflight[1] is handler:
            self._next(now)

    # --- the answers ----------------------------------------------------------------------

    def _pong(self, text, now):
        self.inflight = None
        self.ask("STREAM ON", _ignore, now)
        self.ask("HALL", self._hall, now)

    def _hall(self, text, now):
        said = _json(text)
        if not isinstance(said, dict):
            self.note("HALL: %s (a firmware before the hall?)" % text[:60])
            return
        net = said.get("net")
        if isinstance(net, dict) and net.get("state") not in (None, "idle"):
            self.note(
                "board %s reaches the broker over Wi-Fi itself: left to it" % said.get("board")
            )
            return
        board = said.get("board") or self.given_board
        # A number given by --port, for a clock that keeps none: stored on the clock (when no
        # clock runs there: a flash write), so it keeps its finished games for the hall.
        self.store_board = board if not said.get("board") else 0
        if not isinstance(board, int) or board <= 0:
            self.note("no board number: SET BOARD <n> on the clock, or --port N=%s" % self.path)
            return
        self.seq = said.get("seq") or 0
        if self.link is not None and self.link.board != board:
            self.link.leave()
            self.gateway.let_go(self)
            self.link = None
        if self.link is None:
            self.link = self.gateway.take(self, board)
            if self.link is None:
                return
        self.link.wanted = True
        self.phase = "serving"
        self.note("board %d" % board)
        self.state = None
        self.beat_at = now
        self.games_at = now
        self.ask("STATE", self._state, now)
        self.ask("GAME SUM", self._game, now)

    def _state(self, text, now):
        state = _json(text)
        if not isinstance(state, dict):
            return
        self.beat_at = now + HEARTBEAT_S
        if self.store_board and state.get("state") != "running":
            self.ask("SET BOARD %d" % self.store_board, self._board_set, now)
            self.store_board = 0
        if self.state is None:
            self.publish_state(state, "hello")
        elif any(state.get(key) != self.state.get(key) for key in _HEALTH):
            self.publish_state(state, self.state.get("event"))
        if self.link is not None and isinstance(state.get("stamp"), int):
            self.link.publish("alive", {"online": True, "now": state["stamp"]}, True)
        if state.get("outbox"):
            self.games_at = min(self.games_at, now)

    def _board_set(self, text, now):
        self.note(("board number stored on the clock: " if text.startswith("OK") else "") + text)

    def _game(self, text, now):
        if text == "ERR no game has started yet":
            return True
        doc = _framed(text)
        if doc is None:
            return False
        if not isinstance(doc, dict) or not isinstance(doc.get("clock"), dict):
            return True
        log = doc["clock"].get("log")
        if isinstance(log, list):
            self.update_log(log)
        return True

    def _outbox(self, text, now):
        listing = _json(text)
        if not isinstance(listing, list):
            return
        for item in listing:
            if isinstance(item, dict) and isinstance(item.get("game"), int):
                self.ask("OUTBOX GET %d" % item["game"], self._finished, now)

    def _finished(self, text, now):
        if text.startswith("ERR "):
            return True  # acknowledged meanwhile
        doc = _framed(text)
        if doc is None:
            return False
        if isinstance(doc, dict) and self.link is not None:
            if not doc.get("board"):  # kept before the clock had its number (--port N=PATH)
                doc["board"] = self.link.board
            self.link.publish("game", json.dumps(doc).encode(), False, 1)
        return True

    def _answered(self, text, now):
        if self.link is None:
            return
        if text.startswith("OK {"):
            answer = _json(text)
            if isinstance(answer, dict):
                if isinstance(answer.get("seq"), int):
                    self.seq = max(self.seq, answer["seq"])
                self.link.publish("answer", answer)
            return
        # ERR not a command: ...: answered as the clock's link answers it
        command = self.inflight[0] if self.inflight else ""
        self.error_answer(command[len("HALL CMD ") :].encode(), text[4:])

    # --- publishing ---------------------------------------------------------------------

    def event(self, event, now):
        self.publish_state(event, event.get("event"))
        tag = event.get("game")
        entry = event.get("entry")
        count = event.get("entries")
        if tag != self.tag:
            self.tag, self.log, self.published = tag, [], 0
        if (
            isinstance(entry, dict)
            and isinstance(count, int)
            and count == len(self.log) + 1
            and event.get("event") == "press"
        ):
            self.update_log(self.log + [entry])
        elif isinstance(count, int) and count != len(self.log):
            self.ask("GAME SUM", self._game, now)
        else:
            self.send_entries(event)
        if event.get("event") == "over":
            self.games_at = min(self.games_at, now + 0.5)
            result = event.get("result")
            reason = result.get("reason") if isinstance(result, dict) else None
            self.note("a game over (%s), kept on the clock till the recorder has it" % reason)

    def publish_state(self, state, event):
        if self.link is None:
            return
        doc = dict(state)
        doc.pop("entry", None)
        doc["event"] = event or "hello"
        doc["at"] = doc.get("stamp")
        doc.update(hall=self.gateway.hall, board=self.link.board, dropped=0)
        doc.setdefault("seq", self.seq)
        if "game" in doc:
            if doc["game"] != self.tag:
                self.tag, self.log, self.published = doc["game"], [], 0
        self.state = doc
        self.link.publish("state", doc, True)

    def update_log(self, log):
        """The record as the clock has it now: what differs from what was published goes out."""
        same = 0
        for mine, theirs in zip(self.log, log):
            if mine != theirs:
                break
            same += 1
        self.log = log
        self.published = min(self.published, same)
        self.send_entries(None)

    def send_entries(self, event):
        link = self.link
        if link is None or not link.up:
            return
        start = self.published
        if start == len(self.log) and event is not None:
            link.publish("event", self.event_doc(event, start, []))
        while start < len(self.log):
            chunk = self.log[start : start + CHUNK]
            if not link.publish("event", self.event_doc(event, start, chunk)):
                return
            start += len(chunk)
            self.published = start
            event = None

    def event_doc(self, event, start, chunk):
        doc = {
            "event": "log",
            "stamp": None,
            "board": self.link.board,
            "game": self.tag,
            "entries": len(self.log),
            "from": start,
            "log": chunk,
        }
        if event is not None:
            doc.update(event=event.get("event"), stamp=event.get("stamp"))
        return doc

    def error_answer(self, payload, why):
        seq = None
        try:
            doc = json.loads(payload.decode("utf-8"))
            if isinstance(doc, dict) and isinstance(doc.get("seq"), int):
                seq = doc["seq"]
        except (UnicodeError, ValueError, RecursionError):
            pass
        if not why.startswith(("not ", "no answer")):
            why = "not a command: " + why
        self.link.publish(
            "answer",
            {
                "seq": seq,
                "do": None,
                "ok": False,
                "said": why,
                "board": self.link.board,
                "error": True,
            },
        )

    def acknowledged(self, doc, now):
        """The recorder's `ack`: a finished game it has (on to the clock, OUTBOX ACK), or the
        game in play's entries it missed, from an index (published again from there)."""
        if not isinstance(doc, dict):
            return
        if _whole(doc.get("resend")) and _whole(doc.get("from")):
            if doc["resend"] == self.tag:
                self.published = min(self.published, doc["from"])
                self.send_entries(None)
        elif _whole(doc.get("game")) and _whole(doc.get("version")):
            self.ask("OUTBOX ACK %d %d" % (doc["game"], doc["version"]), _ignore, now)

    # --- each pass ------------------------------------------------------------------------

    def step(self, now):
        link = self.link
        if link is None or self.phase != "serving":
            return
        if link.fresh and link.up:
            link.fresh = False
            if self.state is not None:
                link.publish("state", self.state, True)
            self.published = 0  # the record again: the broker may have lost the last entries
            self.send_entries(None)
            self.games_at = now
        for kind, payload in link.messages():
            if kind == "cmd":
                command = forwardable(payload)
                if command is None:
                    self.error_answer(payload, describe(payload))
                    self.gateway.say(
                        "clock %s: a command refused: %s" % (self.name, describe(payload))
                    )
                else:
                    self.ask("HALL CMD " + command, self._answered, now)
            elif kind == "ack":
                self.acknowledged(_json("OK " + payload.decode("utf-8", "replace")), now)
        if now >= self.beat_at:
            self.beat_at = now + HEARTBEAT_S
            self.ask("STATE", self._state, now)
        if now >= self.games_at and link.up:
            self.games_at = now + GAMES_EVERY_S
            self.ask("OUTBOX", self._outbox, now)


def _whole(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _ignore(text, now):
    return True


def _json(text):
    """The JSON after "OK ", or None."""
    if not text.startswith("OK "):
        return None
    try:
        return json.loads(text[3:])
    except (ValueError, RecursionError):
        return None


def _framed(text):
    """The JSON of "OK <json> <crc32>" when the CRC-32 is right, else None."""
    import binascii

    if not text.startswith("OK ") or len(text) < 13 or text[-9] != " ":
        return None
    body, crc = text[3:-9], text[-8:]
    try:
        if binascii.crc32(body.encode("ascii")) != int(crc, 16):
            return None
        return json.loads(body)
    except (ValueError, UnicodeError, RecursionError):
        return None


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
    try:
        doc = json.loads(payload.decode("utf-8"))
    except (UnicodeError, ValueError, RecursionError):
        return "not JSON"
    if not isinstance(doc, dict):
        return "not a JSON object"
    return "over %d characters on one line (the clock's line)" % MAX_LINE


class Gateway:
    def __init__(self, host, port, user, password, accounts, hall, timeout, say):
        self.host, self.port = host, port
        self.user, self.password = user, password
        self.accounts = accounts  # account -> password
        self.hall = hall
        self.timeout = timeout
        self.say = say
        self.selector = selectors.DefaultSelector()
        self.links = {}  # board -> BoardLink
        self.owners = {}  # board -> the UsbClock it is published for
        self.clocks = []
        self.own = None
        self.own_up = False
        self.own_at = 0.0
        self.beat_at = 0.0

    def add(self, path, board=0):
        if any(clock.path == path for clock in self.clocks):
            return
        self.clocks.append(UsbClock(self, path, board))

    def scan(self):
        for pattern in SCAN:
            for path in sorted(glob.glob(pattern)):
                real = os.path.realpath(path)
                if not any(os.path.realpath(c.path) == real for c in self.clocks):
                    self.add(path)

    def take(self, clock, board):
        """Board `board`'s link for `clock`; None when another clock has that number or the
        accounts hold none for it (said)."""
        owner = self.owners.get(board)
        if owner is not None and owner is not clock and owner.port.open:
            clock.note("board %d is also clock %s's number: not published" % (board, owner.name))
            return None
        password = self.accounts.get("clock-%d" % board)
        if password is None:
            clock.note("board %d: no account clock-%d in --accounts" % (board, board))
            return None
        link = self.links.get(board)
        if link is None:
            link = self.links[board] = BoardLink(self, board, password)
        self.owners[board] = clock
        return link

    def let_go(self, clock):
        for board, owner in list(self.owners.items()):
            if owner is clock:
                del self.owners[board]

    def connect_own(self):
        """The gateway's own connection: OSError when the broker refuses or is not there."""
        own = self.own = PahoTransport(
            self.host, self.port, self.user, self.password, self.user, selector=self.selector
        )
        own.set_last_will("clock/%s/gateway/alive" % self.hall, b'{"online": false}', True)
        own.set_callback(lambda topic, payload: None)
        while True:
            try:
                own.connect(True)
                break
            except OSError as error:
                if error.errno != errno.EINPROGRESS:
                    raise
            for key, _events in self.selector.select(0.1):
                key.data.pump()
        self.own_up = True

    def _own_step(self, now):
        own = self.own
        if self.own_up and own.lost:
            self.own_up = False
            self.own_at = now + RETRY_S
        if not self.own_up and now >= self.own_at:
            try:
                own.connect(True)
                self.own_up = True
                self.beat_at = now
            except OSError as error:
                if error.errno != errno.EINPROGRESS:
                    own.disconnect()
                    self.own_at = now + RETRY_S
        if self.own_up and now >= self.beat_at:
            self.beat_at = now + HEARTBEAT_S
            served = sorted(board for board, clock in self.owners.items() if clock.port.open)
            doc = {"online": True, "boards": served}
            try:
                own.publish("clock/%s/gateway/alive" % self.hall, json.dumps(doc).encode(), True)
            except OSError:
                pass

    def run(self, scan=False, seconds=None, stop=None):
        end = None if seconds is None else time.monotonic() + seconds
        scanned = misc_at = 0.0
        while (end is None or time.monotonic() < end) and not (stop and stop.is_set()):
            now = time.monotonic()
            if scan and now - scanned > 2.0:
                scanned = now
                self.scan()
            if now >= misc_at:
                misc_at = now + 1.0
                for link in list(self.links.values()) + [self.own]:
                    if link is not None:
                        (link.transport if isinstance(link, BoardLink) else link).misc()
            self._own_step(now)
            for link in self.links.values():
                link.step(now)
            for clock in self.clocks:
                clock.look(now)
                clock.step(now)
            for key, events in self.selector.select(0.05):
                owner = key.data
                now = time.monotonic()
                if isinstance(owner, Port):
                    if events & selectors.EVENT_WRITE and not owner.flush():
                        owner.owner.lost("the port failed")
                    if events & selectors.EVENT_READ and owner.open:
                        owner.owner.readable(now)
                else:
                    owner.pump()

    def close(self):
        for clock in self.clocks:
            clock.close()
        for link in self.links.values():
            link.leave()
        if self.own is not None:
            try:
                if self.own_up:
                    self.own.publish(
                        "clock/%s/gateway/alive" % self.hall, b'{"online": false}', True
                    )
            except OSError:
                pass
            self.own.disconnect()


def run(args):
    from sim.hall_account import AccountError, broker_address, read_accounts

    def say(text):
        print(text, file=sys.stderr, flush=True)

    try:
        host, port, user, password = broker_address(args)
        if not args.accounts:
            raise AccountError("--accounts FILE: the boards' accounts (clock-N:password lines)")
        accounts = read_accounts(args.accounts)
        ports = []
        for spec in args.ports:
            number, equals, path = spec.partition("=")
            if equals and number.isdigit():
                ports.append((path, int(number)))
            elif equals:
                raise AccountError("--port %s: BOARD=PATH takes a board number" % spec)
            else:
                ports.append((spec, 0))
        if not ports and not args.scan:
            raise AccountError("name the clocks' ports (--port [BOARD=]PATH) or --scan")
    except AccountError as error:
        print("error: %s" % error, file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    gateway = Gateway(host, port, user, password, accounts, args.hall, args.timeout, say)
    try:
        gateway.connect_own()
    except OSError as error:
        print("error: %s" % _refusal(gateway.own, host, port, user, error), file=sys.stderr)
        gateway.own.disconnect()
        return 2
    for path, board in ports:
        gateway.add(path, board)
    try:
        gateway.run(args.scan)
    except KeyboardInterrupt:
        pass
    finally:
        gateway.close()
    return 0


def _refusal(transport, host, port, user, error):
    if transport.refusal is not None:
        return "the broker at %s:%d refused the account %s: %s" % (
            host,
            port,
            user,
            transport.refusal,
        )
    if isinstance(error, OSError) and error.errno == errno.ECONNREFUSED:
        return "cannot reach the broker at %s:%d: connection refused" % (host, port)
    return "the broker at %s:%d: %s" % (host, port, error)
