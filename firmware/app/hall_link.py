# SPDX-License-Identifier: MIT
# The clock on an MQTT broker: its state (retained) and record entries out, the arbiter's commands in.
#
# Topics, under clock/<hall>/<board>/ (docs/hall.md): `state` (retained: the STATE object with
# the hall's fields, at every event the serial stream carries), `event` (the event and the
# record's entries since the last one sent), `alive` (retained: a heartbeat with the clock's
# ticks, and the broker's last will when the clock goes), `answer` (one per command), `cmd`
# (the arbiter's commands, read).
#
# The transport is injected: an object with connect(), publish(topic, msg, retain),
# subscribe(topic), set_callback(f), check_msg() and disconnect(), as umqtt.simple's MQTTClient
# has (and set_last_will(topic, msg, retain) when it can). The app's listener only notes an
# event in a preallocated ring (16; a full ring drops its oldest, counted in the state's
# `dropped`); the main loop hands the link a pass after the frame and the save, and each pass
# sends one message at most, so a press never waits for the broker and a pass with nothing
# to send allocates nothing. A broker that is down is tried again after 2 s, then up to 60 s.
import json
from array import array

from micropython import const

from app.hall import CommandError
from clock.record import PLY, UNDO
import ticks

_QUEUE = const(16)
_CHUNK = const(8)  # record entries per event message
_ANSWERS = const(4)  # answers waiting to go; more drop the oldest
HEARTBEAT_MS = const(5000)
RETRY_MS = const(2000)
_RETRY_MAX_MS = const(60000)
OFFLINE = b'{"online": false}'


class Link:
    def __init__(self, hall, transport, now):
        self.hall = hall
        app = self.app = hall.app
        self.transport = transport
        self.online = False
        self.sent = 0  # messages published
        self.dropped = 0  # events dropped from a full ring
        self.refused = 0  # messages on cmd that were not commands
        self._events = bytearray(_QUEUE)
        self._stamps = array("i", range(_QUEUE))
        self._entries = array("i", range(_QUEUE))
        self._head = 0
        self._count = 0
        self._dirty = True  # the state is to be published
        self._last = -1  # the last event, for the state's `event`
        self._last_at = now
        self._answers = []
        self._tag = -1  # the game whose record entries are being sent, up to _logged
        self._logged = 0
        self._retry_at = now
        self._retry_ms = RETRY_MS
        self._beat_at = now
        self._said_down = False
        self._inbox = None
        self._ready = None
        self._topics()
        self._previous = app.listener
        app.listener = self._on_event

    def _topics(self):
        base = "clock/%s/%d/" % (self.hall.name, self.hall.board)
        self.base = base
        self._state = (base + "state").encode()
        self._event = (base + "event").encode()
        self._alive = (base + "alive").encode()
        self._answer = (base + "answer").encode()
        self._cmd = (base + "cmd").encode()

    def moved(self):
        """The hall or the board changed: the next pass connects under the new topics."""
        if self.online:
            self._close()
        self._topics()
        self._retry_at = self.app.hal.ticks_ms()

    def status(self):
        return {
            "online": self.online,
            "topic": self.base,
            "sent": self.sent,
            "dropped": self.dropped,
            "refused": self.refused,
            "queued": self._count,
        }

    # --- events: noted, nothing allocated ------------------------------------------------

    def _on_event(self, event, stamp):
        previous = self._previous
        if previous is not None:
            previous(event, stamp)
        count = self._count
        if count == _QUEUE:
            self._head = (self._head + 1) % _QUEUE
            count -= 1
            self.dropped += 1
        at = (self._head + count) % _QUEUE
        self._events[at] = event
        self._stamps[at] = stamp
        self._entries[at] = self.app.record.length
        self._count = count + 1
        self._dirty = True
        self._last = event
        self._last_at = stamp

    def answer(self, answer):
        answers = self._answers
        if len(answers) >= _ANSWERS:
            del answers[0]
            self.dropped += 1
        answers.append(json.dumps(answer).encode())

    # --- the main loop's calls -----------------------------------------------------------

    def wake_by(self, until, now):
        if not self.online:
            at = self._retry_at
        elif self._answers or self._dirty or self._count or self._unlogged() or self._ready():
            return now
        else:
            at = self._beat_at
        return at if ticks.diff(until, at) > 0 else until

    def _unlogged(self):
        record = self.app.record
        return record.tag != self._tag or record.length != self._logged

    def take(self, now):
        """A command from the broker, if one came: obeyed or refused, answered. True when it
        was obeyed."""
        if not self.online or not self._ready():
            return False
        try:
            self.transport.check_msg()
        except Exception as error:  # the broker went: a socket error, a broken packet
            self._lost(error, now)
            return False
        data = self._inbox
        if data is None:
            return False
        self._inbox = None
        hall = self.hall
        try:
            answer = hall.command(data, now)
        except CommandError as error:
            self.refused += 1
            hall.refuse(str(error))
            return False
        except Exception as error:  # a bug must not stop the clock: said, and the clock goes on
            self.refused += 1
            hall.refuse("internal error: %s" % _why(error))
            return False
        self.answer(answer)
        return answer["ok"]

    def _received(self, topic, msg):
        if bytes(topic) == self._cmd:
            self._inbox = msg

    def send(self, now):
        """One message, if one is due: an answer, the state, an event, record entries, a
        heartbeat, in that order. Not online: a connection, when its time has come."""
        if not self.online:
            if ticks.diff(now, self._retry_at) >= 0:
                self._connect(now)
            return
        try:
            if self._answers:
                self._publish(self._answer, self._answers.pop(0), False)
            elif self._dirty:
                self._dirty = False
                self._publish(self._state, self._state_json(now).encode(), True)
            elif self._count:
                self._send_event()
            elif self._unlogged():
                record = self.app.record
                if record.length:
                    self._send_entries(-1, now, record.length)
                else:  # a game with nothing in its record yet: nothing to send
                    self._tag = record.tag
                    self._logged = 0
            elif ticks.diff(now, self._beat_at) >= 0:
                self._beat(now)
        except Exception as error:
            self._lost(error, now)

    # --- the messages --------------------------------------------------------------------

    def _publish(self, topic, payload, retain):
        self.transport.publish(topic, payload, retain)
        self.sent += 1

    def _beat(self, now):
        self._beat_at = ticks.add(now, HEARTBEAT_MS)
        self._publish(self._alive, b'{"online": true, "now": %d}' % now, True)

    def _state_json(self, now):
        from app import commands
        from app.clock_app import EVENT_NAMES

        hall = self.hall
        doc = commands.state(self.app, now)
        doc["hall"] = hall.name
        doc["board"] = hall.board
        doc["seq"] = hall.seq
        doc["event"] = EVENT_NAMES[self._last] if self._last >= 0 else "hello"
        doc["at"] = self._last_at
        doc["dropped"] = self.dropped
        doc["game"] = self.app.record.tag
        return json.dumps(doc)

    def _send_event(self):
        head = self._head
        event, stamp, entries = self._events[head], self._stamps[head], self._entries[head]
        self._head = (head + 1) % _QUEUE
        self._count -= 1
        self._send_entries(event, stamp, entries)

    def _send_entries(self, event, stamp, entries):
        """An event (-1: record entries alone, "log") with the record's entries not yet sent,
        up to the event's `entries` and _CHUNK of them."""
        from app.clock_app import EVENT_NAMES

        record = self.app.record
        if record.tag != self._tag or record.length < self._logged:
            self._tag = record.tag
            self._logged = 0
        start = self._logged
        end = min(entries, record.length, start + _CHUNK)
        log = []
        if end > start and record.owner is not None:
            from app import game_record

            setup = record.owner.setup
            ply = _plies_before(record, start)
            for index in range(start, end):
                kind = record.kind(index)
                if kind == PLY:
                    ply += 1
                    number = ply
                else:
                    number = ply
                    if kind == UNDO:
                        ply -= 1
                log.append(game_record.entry(setup, record, index, number))
        else:
            end = start
        self._logged = end
        doc = {
            "event": EVENT_NAMES[event] if event >= 0 else "log",
            "stamp": stamp,
            "board": self.hall.board,
            "game": record.tag,
            "entries": record.length,
            "from": start,
            "log": log,
        }
        self._publish(self._event, json.dumps(doc).encode(), False)

    # --- the connection ------------------------------------------------------------------

    def _connect(self, now):
        transport = self.transport
        try:
            if hasattr(transport, "set_last_will"):
                transport.set_last_will(self._alive, OFFLINE, True)
            transport.set_callback(self._received)
            transport.connect()
            transport.subscribe(self._cmd)
            self._publish(self._alive, b'{"online": true, "now": %d}' % now, True)
        except Exception as error:
            self._close()
            if not self._said_down:
                self.hall.log("broker: %s; trying again" % _why(error))
                self._said_down = True
            self._retry_at = ticks.add(now, self._retry_ms)
            self._retry_ms = min(self._retry_ms * 2, _RETRY_MAX_MS)
            return
        self.online = True
        self._said_down = False
        self._retry_ms = RETRY_MS
        self._beat_at = ticks.add(now, HEARTBEAT_MS)
        self._dirty = True
        self._tag = -1  # the record's entries again: the broker may have lost the last ones
        self._ready = _readiness(transport)
        self.hall.log("broker: online as %s" % self.base)

    def _lost(self, error, now):
        self.hall.log("broker: lost (%s)" % _why(error))
        self._close()
        self._said_down = True
        self._retry_at = ticks.add(now, self._retry_ms)

    def _close(self):
        self.online = False
        try:
            self.transport.disconnect()
        except Exception:
            sock = getattr(self.transport, "sock", None)
            if sock is not None:
                try:
                    sock.close()
                except Exception:
                    pass


def _plies_before(record, index):
    plies = 0
    for at in range(index):
        kind = record.kind(at)
        if kind == PLY:
            plies += 1
        elif kind == UNDO:
            plies -= 1
    return plies


def _why(error):
    text = str(error)
    return type(error).__name__ + (": " + text if text else "")


def _readiness(transport):
    """A call that says, allocating nothing, whether a message waits: the transport's own
    `waiting()`, else a poll of its socket (umqtt.simple's `sock`)."""
    waiting = getattr(transport, "waiting", None)
    if waiting is not None:
        return waiting
    import select

    poller = select.poll()
    poller.register(transport.sock, select.POLLIN)
    ipoll = getattr(poller, "ipoll", None)
    if ipoll is None:  # CPython
        return lambda: bool(poller.poll(0))

    def ready():
        for _ in ipoll(0):
            return True
        return False

    return ready
