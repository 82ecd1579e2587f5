# SPDX-License-Identifier: MIT
# The clock on an MQTT broker: its state (retained), record entries and finished games out, the
# arbiter's commands and the recorder's acknowledgements in.
#
# Topics, under clock/<hall>/<board>/ (docs/hall.md): `state` (retained: the STATE object with
# the hall's fields, at every event the serial stream carries, at every change of the rule its
# figures run by, and within a heartbeat of a change in the display's health or the store's
# problem: a panel gone dark, a store refusing writes), `event` (the event and the record's
# entries since the last one sent), `alive` (retained: a heartbeat with the clock's ticks, and
# the broker's last will when the clock goes), `answer` (one per command, and one for what is not
# a command), `game` (a finished game from the outbox, app/hall_outbox.py, again every 30 s until
# the recorder acknowledges it), `cmd` and `ack` (read: the arbiter's commands, the recorder's
# acknowledgements).
#
# The session is persistent (clean_session off, the subscriptions at QoS 1): a command sent while
# the clock is away waits on the broker, within the expiry the arbiter's page gives it, and comes
# when the clock is back; the broker's client id is the clock's account (docs/hall.md).
#
# The transport is injected: an object with connect(clean_session), publish(topic, msg, retain,
# qos), subscribe(topic, qos), set_callback(f), check_msg() and disconnect(), as umqtt.simple's
# MQTTClient has (and set_last_will(topic, msg, retain) when it can). The app's listener only
# notes an event in a preallocated ring (16; a full ring drops its oldest, counted in the state's
# `dropped`); the main loop hands the link a pass after the frame and the save, and each pass
# sends one message at most, so a press never waits for the broker and a pass with nothing
# to send allocates nothing. A broker that is down is tried again after 2 s, then up to 10 s.
# A transport may connect in steps (the Wi-Fi board's, app/hall_mqtt.py): its connect() raises
# OSError(EINPROGRESS) while under way and is called again 0.1 s later. On a Wi-Fi clock `net`
# (app/hall_net.py) says whether the network is up: the link connects only while it is.
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
# Doubling to 10 s at most, less up to a quarter at random: a broker back after an outage sees
# its clocks again within about 10 s, not all in the same instant.
_RETRY_MAX_MS = const(10000)
_STEP_MS = const(100)  # the next step of a connection under way
_RESEND_MS = const(30000)  # a finished game not acknowledged is sent again this long after
_EINPROGRESS = const(115)  # as errno has it, on MicroPython and Linux
OFFLINE = b'{"online": false}'


class Link:
    net = None  # a Wi-Fi clock's network (app/hall_net.py): connect only while net.up

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
        self._acked = None  # an acknowledgement that came, till the pass takes it
        self._ready = None
        self._rule_at = -1  # when the figures' rule changes (the state's next_ms), or -1
        self._game_at = now  # when the outbox's next game goes (again)
        self._game_index = 0
        self._health = None  # the display's health and the store's problem last published
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
        self._game = (base + "game").encode()
        self._cmd = (base + "cmd").encode()
        self._ack = (base + "ack").encode()

    def moved(self):
        """The hall, the board or the broker changed: the next pass connects under the new
        topics (a connection under way is dropped too)."""
        self._close()
        self._topics()
        self._retry_at = self.app.hal.ticks_ms()

    def retry(self, now):
        """The network came up: connect at the next pass, the backoff started over."""
        self._retry_at = now
        self._retry_ms = RETRY_MS

    def lost(self, why, now):
        """The network went: the connection is closed (a socket would notice only later)."""
        if self.online:
            self._lost(OSError(why), now)
        else:
            self._close()

    def status(self):
        return {
            "online": self.online,
            "topic": self.base,
            "sent": self.sent,
            "dropped": self.dropped,
            "refused": self.refused,
            "queued": self._count,
            "outbox": len(self.hall.outbox),
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
            net = self.net
            if net is not None and not net.up:
                return until
            at = self._retry_at
        elif (
            self._answers
            or self._dirty
            or self._count
            or self._unlogged()
            or self._ready()
            or self._acked is not None
        ):
            return now
        else:
            at = self._beat_at
            rule = self._rule_at
            if rule >= 0 and ticks.diff(at, rule) > 0:
                at = rule
            if len(self.hall.outbox.games) and ticks.diff(at, self._game_at) > 0:
                at = self._game_at
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
        if self._acked is not None:
            self._take_ack()
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
            self.answer(hall.error_answer(error))
            return False
        except Exception as error:  # a bug must not stop the clock: said, and the clock goes on
            self.refused += 1
            hall.refuse("internal error: %s" % _why(error))
            return False
        self.answer(answer)
        return answer["ok"]

    def _received(self, topic, msg):
        topic = bytes(topic)
        if topic == self._cmd:
            self._inbox = msg
        elif topic == self._ack:
            self._acked = msg

    def _take_ack(self):
        """The recorder's {"game": id, "version": v}: that game leaves the outbox; or its
        {"resend": id, "from": n}: the game in play's entries from n are sent again (it missed
        them, being away when they went)."""
        data = self._acked
        self._acked = None
        try:
            doc = json.loads(data)
            if "resend" in doc:
                tag, start = doc["resend"], doc["from"]
                version = 0
            else:
                tag, version = doc["game"], doc["version"]
                start = 0
            if not (_whole(tag) and _whole(version) and _whole(start)):
                raise ValueError
        except (ValueError, KeyError, TypeError, AttributeError):
            self.hall.log("ignored an acknowledgement that is not one")
            return
        if not version:
            if tag == self._tag and start < self._logged:
                self._logged = start
            return
        self.hall.acknowledged(tag, version)

    def game_kept(self, now):
        """A game went into the outbox: it goes at the next pass."""
        self._game_at = now
        self._game_index = 0

    def send(self, now):
        """One message, if one is due: an answer, the state, an event, record entries, a
        heartbeat, in that order. Not online: a connection, when its time has come."""
        if not self.online:
            net = self.net
            if (net is None or net.up) and ticks.diff(now, self._retry_at) >= 0:
                self._connect(now)
            return
        rule = self._rule_at
        if rule >= 0 and ticks.diff(now, rule) >= 0:  # the figures run by another rule now
            self._rule_at = -1
            self._dirty = True
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
            elif len(self.hall.outbox.games) and ticks.diff(now, self._game_at) >= 0:
                self._send_game(now)
            elif ticks.diff(now, self._beat_at) >= 0:
                self._beat(now)
        except Exception as error:
            self._lost(error, now)

    # --- the messages --------------------------------------------------------------------

    def _publish(self, topic, payload, retain, qos=0):
        self.transport.publish(topic, payload, retain, qos)
        self.sent += 1

    def _send_game(self, now):
        """The outbox's next game (QoS 1 where the transport does not wait for it); once all
        went, again in 30 s while any is not acknowledged."""
        outbox = self.hall.outbox
        games = outbox.games
        index = self._game_index
        if index >= len(games):
            index = 0
        payload = outbox.read(games[index])
        index += 1
        if index >= len(games):
            index = 0
            self._game_at = ticks.add(now, _RESEND_MS)
        self._game_index = index
        if payload is not None:
            self._publish(self._game, payload, False, 1)

    def _beat(self, now):
        self._beat_at = ticks.add(now, HEARTBEAT_MS)
        self._publish(self._alive, b'{"online": true, "now": %d}' % now, True)
        if self._health != _health(self.app):  # a display gone dark or back, a store refusing
            self._dirty = True

    def _state_json(self, now):
        from app import commands
        from app.clock_app import EVENT_NAMES

        hall = self.hall
        doc = commands.state(self.app, now)
        doc["hall"] = hall.name
        doc["event"] = EVENT_NAMES[self._last] if self._last >= 0 else "hello"
        doc["at"] = self._last_at
        doc["dropped"] = self.dropped
        self._health = (doc["display"], doc["store"])
        due = doc["next_ms"]
        self._rule_at = -1 if due is None else ticks.add(now, due)
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
            transport.connect(False)  # a persistent session: commands wait while it is away
            transport.subscribe(self._cmd, 1)
            transport.subscribe(self._ack, 1)
            self._publish(self._alive, b'{"online": true, "now": %d}' % now, True)
        except Exception as error:
            if isinstance(error, OSError) and error.args and error.args[0] == _EINPROGRESS:
                self._retry_at = ticks.add(now, _STEP_MS)  # under way: its next step soon
                return
            self._close()
            if not self._said_down:
                self.hall.log("broker: %s; trying again" % _why(error))
                self._said_down = True
            self._retry_at = ticks.add(now, _spread(self._retry_ms))
            self._retry_ms = min(self._retry_ms * 2, _RETRY_MAX_MS)
            return
        self.online = True
        self._said_down = False
        self._retry_ms = RETRY_MS
        self._beat_at = ticks.add(now, HEARTBEAT_MS)
        self._dirty = True
        self._tag = -1  # the record's entries again: the broker may have lost the last ones
        self._game_at = now  # and the games not acknowledged
        self._game_index = 0
        self._ready = _readiness(transport)
        self.hall.log("broker: online as %s" % self.base)

    def _lost(self, error, now):
        self.hall.log("broker: lost (%s)" % _why(error))
        self._close()
        self._said_down = True
        self._retry_at = ticks.add(now, _spread(self._retry_ms))

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


def _whole(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _spread(ms):
    """`ms` less up to a quarter of it, at random."""
    from random import getrandbits

    return ms - (getrandbits(16) * (ms >> 2) >> 16)


def _plies_before(record, index):
    plies = 0
    for at in range(index):
        kind = record.kind(at)
        if kind == PLY:
            plies += 1
        elif kind == UNDO:
            plies -= 1
    return plies


def _health(app):
    return (app.display_health(), app.store_problem)


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
