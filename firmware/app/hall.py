# SPDX-License-Identifier: MIT
# The clock in a hall: its board number and hall, the arbiter's commands, applied only where the
# clock's own buttons could do the same, and its finished games kept until the hall has them.
# The broker's side is app/hall_link.py; the finished games, app/hall_outbox.py.
#
# A command is one JSON object (docs/hall.md): {"seq": 7, "do": "pause", "by": "Anna"}, with a
# sequence number per board that only grows, by at most SEQ_AHEAD at a time (a replay is
# refused, and so is a number that would run ahead), and the fields its `do` takes. It comes
# from the broker (a Wi-Fi clock's link) or over USB (`HALL CMD {json}`, the hall gateway), and
# gets one answer: {"seq", "do", "ok", "said", "board", "stamp"}; what is not a command gets an
# answer saying so ("ok": false, "error": true), with its seq when one could be read.
#
# The clock never writes flash for the hall while a clock runs: the last command's number is
# kept in memory and stored at the next pass where no clock runs (a pause, a result, ready), as
# are the recorder's acknowledgements; a finished game is stored as it ends.
import json

from micropython import const

from app import gestures as act
from app.settings import key_values
from clock.game import OVER, PAUSED, READY, RUNNING
from notation.errors import PresetError
import ticks

FILE = "hall.txt"
MAX_COMMAND = const(512)  # bytes of a command; a longer one is dropped unread
MAX_BOARD = const(9999)
MAX_NAME = const(24)  # a hall's name: a topic level, letters, digits, - and _
MAX_START_MS = const(600000)  # a start is scheduled at most 10 min ahead
MAX_ADJUST_MS = const(36000000)
MAX_MOVES = const(999)
MAX_BY = const(40)
SEQ_AHEAD = const(1000)  # how far above the last number a command's may be
MAX_SEQ = const(0x3FFFFFFF)  # a small int on the board; SET BOARD or SET HALL start it over
_E_OVER = const(7)  # app.clock_app.E_OVER (a constant is not seen outside its module)
_NOTES = const(4)  # the last log lines kept for `HALL`
DOS = ("preset", "new", "start", "pause", "resume", "adjust", "moves", "end")
_SIDES = ("left", "right")
# What the file keeps: the hall's name and board, the last command's number, and for a Wi-Fi
# clock its network and broker (app/hall_net.py).
_KEYS = ("hall", "board", "seq", "broker", "port", "user", "password", "ssid", "wifi")
_NUMBERS = ("board", "seq", "port")


class CommandError(ValueError):
    """A command that is not one: nothing is obeyed, the log says why, and it is answered as an
    error (`seq` and `do` when they could be read, else None)."""

    seq = None
    do = None


def check_hall_name(text):
    """The hall's name as a topic level; ValueError saying why it cannot be one."""
    if not 1 <= len(text) <= MAX_NAME:
        raise ValueError("a hall's name is 1 to %d characters" % MAX_NAME)
    for char in text:
        if not ("a" <= char <= "z" or "A" <= char <= "Z" or "0" <= char <= "9" or char in "-_"):
            raise ValueError("a hall's name has only letters, digits, - and _ (not %r)" % char)
    return text


class HallSettings:
    """hall.txt: `key = value` lines. Written whole, and taken only once written (OSError: the
    settings stay as storage has them)."""

    def __init__(self, storage):
        self.storage = storage
        self.values = {"hall": "hall", "board": 0, "seq": 0, "port": 1883}
        for key, value in key_values(storage.read(FILE)):
            if key not in _KEYS or not value:
                continue
            if key in _NUMBERS:
                if value.isdigit():
                    self.values[key] = int(value)
            else:
                self.values[key] = value

    def get(self, key):
        return self.values.get(key)

    def store(self, **changes):
        values = dict(self.values)
        values.update(changes)
        lines = []
        for key in _KEYS:
            value = values.get(key)
            if value is not None and value != "":
                lines.append("%s = %s\n" % (key, value))
        self.storage.write(FILE, "".join(lines).encode())
        self.values = values


def of(app):
    """The app's Hall, made at the first need (a command, a setting, a link, the boot)."""
    if app.hall is None:
        app.hall = Hall(app)
    return app.hall


def boot(app):
    """At start (main.py, the desktop's clocks): a clock that keeps a board number is in a
    hall from its first pass, so every game it finishes is kept for the hall. (A clock with no
    number is in one once something asks for its Hall: the gateway's HALL, which then gives the
    number its --port says.)"""
    if app.hall is None and HallSettings(app.hal.storage).get("board"):
        of(app)


class Hall:
    """The board number, the hall, the commands and the finished games; `link`
    (app/hall_link.py) when the clock itself is on a broker, and `net` (app/hall_net.py) when
    it reaches it over Wi-Fi. The main loop calls wake_by, take and send at every pass."""

    def __init__(self, app, settings=None):
        from app.hall_outbox import Outbox

        self.app = app
        self.settings = settings if settings is not None else HallSettings(app.hal.storage)
        self.link = None
        self.net = None
        self.notes = []  # the last few log lines, newest last
        self.say = None  # where a log line also goes (the desktop's stderr), or None
        self._start_at = -1  # the stamp of a scheduled start, or -1
        self._start_seq = 0
        self._start_lever = act.LEVER_RIGHT
        self._seq = self.settings.get("seq")  # the last command's number; stored when it can be
        self._ended = False  # a game ended: kept in the outbox at the end of the pass
        self._chores = False  # a game to keep, acknowledgements or a number to store
        self.outbox = Outbox(app.hal.storage)
        self._previous = app.listener
        app.listener = self._on_event
        if self._unkept():
            self._ended = self._chores = True  # ended before it was kept (a cut in between)

    # --- settings ------------------------------------------------------------------------

    @property
    def name(self):
        return self.settings.get("hall")

    @property
    def board(self):
        return self.settings.get("board")

    @property
    def seq(self):
        return self._seq

    def set(self, **changes):
        """Store settings (OSError: nothing changes); a link moves to the new topics or broker,
        a Wi-Fi clock joins the new network. A new hall or board starts the numbers over."""
        if changes.get("hall", self.name) != self.name or changes.get("board", self.board) != (
            self.board
        ):
            changes["seq"] = 0
        self.settings.store(**changes)
        if "seq" in changes:
            self._seq = changes["seq"]
        if "board" in changes and self._unkept():
            self._ended = self._chores = True  # the result on the clock: kept for the hall now
        if self.net is not None and "ssid" in changes:
            self.net.rejoin(self.app.hal.ticks_ms())
        elif self.link is not None:
            for key in ("hall", "board", "broker", "port", "user", "password"):
                if key in changes:
                    self.link.moved()
                    break

    def _unkept(self):
        """Whether a finished game is on the clock that the outbox has not kept."""
        app = self.app
        return (
            app.game.state() == OVER
            and app.record.owner is app.game
            and not self.outbox.holds(app.record.tag)
        )

    def log(self, text):
        notes = self.notes
        notes.append(text)
        if len(notes) > _NOTES:
            del notes[0]
        if self.say is not None:
            self.say(text)

    def _on_event(self, event, stamp):
        """The app's listener (allocates nothing): a game that ends is kept after the pass."""
        previous = self._previous
        if previous is not None:
            previous(event, stamp)
        if event == _E_OVER:
            self._ended = self._chores = True

    # --- the main loop's calls -----------------------------------------------------------

    def wake_by(self, until, now):
        """The loop's next wake, sooner for a scheduled start or what the link has to send."""
        if self._start_at >= 0 and ticks.diff(until, self._start_at) > 0:
            until = self._start_at
        link = self.link
        if link is not None:
            until = link.wake_by(until, now)
        net = self.net
        if net is not None:
            until = net.wake_by(until, now)
        return until

    def take(self, now):
        """Before the frame: a scheduled start that is due, a command from the link. True
        when the clock changed."""
        changed = False
        if self._start_at >= 0 and ticks.diff(now, self._start_at) >= 0:
            changed = self._start(now)
        link = self.link
        if link is not None and link.take(now):
            changed = True
        net = self.net
        if net is not None and net.take(now):  # the status line's word changed
            changed = True
        return changed

    def send(self, now):
        """After the frame and the save: what waits to be stored (where no clock runs), a step
        of the network's, then what the link has to send, a message at most."""
        if self._chores and self.app.game.state() != RUNNING:
            self._store(now)
        net = self.net
        if net is not None:
            net.step(now)
        link = self.link
        if link is not None:
            link.send(now)

    def _store(self, now):
        """A finished game into the outbox, acknowledgements and the last command's number to
        flash; what the store refuses is tried again at a later pass."""
        from app.hall_outbox import message

        outbox = self.outbox
        again = False
        if self._ended:
            self._ended = False
            app = self.app
            record = app.record
            if (
                record.owner is app.game
                and app.game.state() == OVER
                and not outbox.holds(record.tag)
            ):
                try:
                    dropped = outbox.add(record.tag, 1, message(app, self.board, self.name))
                except OSError as error:
                    self._ended = again = True
                    self.log("outbox: not stored (%s); again later" % error)
                else:
                    if dropped is not None:
                        self.log("outbox: full, the oldest game (%d) dropped" % dropped)
                    if self.link is not None:
                        self.link.game_kept(now)
        if outbox.owes():
            try:
                outbox.store()
            except OSError:
                again = True
        if self._seq != self.settings.get("seq"):
            try:
                self.settings.store(seq=self._seq)
            except OSError:
                again = True
        self._chores = again

    def acknowledged(self, tag, version):
        """The recorder has this game (the link's `ack`, the gateway's OUTBOX ACK): it leaves
        the outbox, and flash at the next pass where no clock runs."""
        if self.outbox.ack(tag, version):
            self._chores = True
            return True
        return False

    # --- commands ------------------------------------------------------------------------

    def command(self, data, now):
        """Obey one command (bytes or str); its answer as a dict. CommandError for what is not
        a command (too long, not JSON, a field missing or of the wrong kind): nothing is obeyed
        and the clock is not touched."""
        seq, do, fields = parse(data)
        last = self._seq
        if seq <= last:
            return self._answer(
                seq, do, False, "replayed: seq %d, the clock is at %d" % (seq, last)
            )
        if seq > last + SEQ_AHEAD or seq > MAX_SEQ:
            return self._answer(
                seq,
                do,
                False,
                "seq %d is too far ahead: the clock is at %d, the next is %d"
                % (seq, last, last + 1),
            )
        if self.app.game.state() != RUNNING:
            try:
                self.settings.store(seq=seq)  # before it acts: a restart refuses it again
            except OSError:
                return self._answer(seq, do, False, "not saved: the store refused the seq")
        else:
            self._chores = True  # stored at the next pass where no clock runs
        self._seq = seq
        try:
            ok, said = self._apply(seq, do, fields, now)
        except (ValueError, PresetError) as error:  # the game's own refusal (ClockError...)
            ok, said = False, str(error)
        return self._answer(seq, do, ok, said, fields.get("by"))

    def refuse(self, why):
        """A message that is not a command: logged (and answered as an error by the link)."""
        self.log("dropped a command: %s" % why)

    def error_answer(self, error):
        """The answer to what is not a command (a CommandError)."""
        answer = self._answer(error.seq, error.do, False, "not a command: %s" % error)
        answer["error"] = True
        return answer

    def _answer(self, seq, do, ok, said, by=None):
        answer = {"seq": seq, "do": do, "ok": ok, "said": said, "board": self.board}
        if by is not None:
            answer["by"] = by
        answer["stamp"] = self.app.hal.ticks_ms()
        return answer

    def _apply(self, seq, do, fields, now):
        app = self.app
        game = app.game
        state = game.state()
        top = app.top()
        if do == "preset" or do == "new":
            if app.in_progress():
                return False, "a game is in progress: only the clock drops it"
            if top is not None:
                return False, "close the menu on the clock first"
            if do == "new":
                app.new_game(now)
                return True, "new game on %s" % app.preset().name
            return _preset(app, fields)
        if do == "start":
            if state != READY or top is not None:
                return False, _not_ready(state, top)
            wait = fields.get("in_ms", 0)
            self._start_lever = (
                act.LEVER_RIGHT if fields.get("first", "left") == "left" else act.LEVER_LEFT
            )
            self._start_at = ticks.add(now, wait)
            self._start_seq = seq
            if wait == 0:
                self._start(now, False)
                return True, "started"
            return True, "starts in %d ms" % wait
        if do == "pause":
            if state != RUNNING:
                return False, "no clock runs"
            app.on_action(act.PLAY, now)
            return app.game.state() == PAUSED, _said_state(app, "paused")
        if do == "resume":
            if state != PAUSED:
                return False, "the game is not paused"
            if top is not None:
                return False, "close the menu on the clock first"
            app.on_action(act.PLAY, now)
            return True, "resumed"
        # adjust, moves, end: the arbiter's menu's own corrections, in a pause
        if state != PAUSED:
            return False, "pause the clock first"
        if top is not None and top.name != "arbiter":
            return False, "close the menu on the clock first"
        player = app.player_on(_SIDES.index(fields["side"])) if "side" in fields else 0
        if do == "adjust":
            game.adjust_time(player, fields["ms"])
            app.corrected(now)
            return True, "%s clock %+d ms" % (fields["side"], fields["ms"])
        if do == "moves":
            game.set_moves(player, fields["moves"])
            app.corrected(now)
            return True, "%s moves set to %d" % (fields["side"], fields["moves"])
        if top is not None:
            app.close(top)
        app.end_by_arbiter(now)
        return True, "game ended by the arbiter"

    def _start(self, now, tell=True):
        """The scheduled start, as the lever of the side that does not move first would; told
        on the link as a second answer to its command when it was scheduled ahead."""
        stamp = self._start_at
        self._start_at = -1
        app = self.app
        if app.game.state() != READY or app.top() is not None:
            self._tell(
                self._answer(
                    self._start_seq,
                    "start",
                    False,
                    "not started: " + _not_ready(app.game.state(), app.top()),
                )
            )
            return False
        app.on_action(self._start_lever, stamp)
        if tell:
            self._tell(self._answer(self._start_seq, "start", True, "started"))
        return True

    def _tell(self, answer):
        """An answer that comes later than its command (a scheduled start): on the link."""
        if self.link is not None:
            self.link.answer(answer)
        else:
            self.log("answer: %s" % json.dumps(answer))


def _not_ready(state, top):
    if top is not None:
        return "close the menu on the clock first"
    if state == OVER:
        return "a game is over on the clock: new game first"
    return "a game is in progress"


def _said_state(app, word):
    return word if app.game.state() == PAUSED else "the game is over"


def _preset(app, fields):
    """Add the pushed preset (its name replacing one of that name) and choose it."""
    from app.presets import check_name

    name = check_name(fields.get("name", "Hall"))
    try:
        index = app.add_preset(name, fields["spec"], True)
        over = app.game.state() == OVER
        app.choose_preset(index)
    except OSError:
        return False, "not saved: the store refused the preset"
    preset = app.presets.items[index]
    summary = preset.summary()
    if over:
        return True, "chosen %s for the next game: %s; the result stays until new" % (
            name,
            summary,
        )
    return True, "using %s: %s" % (name, summary)


def parse(data):
    """(seq, do, fields) of a command; CommandError saying what is wrong with it (its `seq` and
    `do` set when they were read)."""
    if len(data) > MAX_COMMAND:
        raise CommandError("%d bytes, over %d" % (len(data), MAX_COMMAND))
    if isinstance(data, (bytes, bytearray, memoryview)):
        try:
            data = bytes(data).decode()
        except UnicodeError:
            raise CommandError("not UTF-8")
    try:
        fields = json.loads(data)
    except (ValueError, RuntimeError):  # RuntimeError: nested too deep
        raise CommandError("not JSON")
    if not isinstance(fields, dict):
        raise CommandError("not a JSON object")
    seq = fields.get("seq")
    do = fields.get("do")
    if not _whole(seq) or not 1 <= seq <= MAX_SEQ:
        raise CommandError("seq: expected a whole number from 1 to %d" % MAX_SEQ)
    try:
        _check(fields, do)
    except CommandError as error:
        error.seq = seq
        error.do = do if isinstance(do, str) and do in DOS else None
        raise
    return seq, do, fields


def _check(fields, do):
    if do not in DOS:
        raise CommandError("do: expected one of %s" % ", ".join(DOS))
    by = fields.get("by")
    if by is not None and not (isinstance(by, str) and len(by) <= MAX_BY):
        raise CommandError("by: expected a name of up to %d characters" % MAX_BY)
    if do == "preset":
        spec = fields.get("spec")
        if not isinstance(spec, str) or not 1 <= len(spec) <= 200:
            raise CommandError("spec: expected the preset's text (1 to 200 characters)")
        if not isinstance(fields.get("name", "Hall"), str):
            raise CommandError("name: expected the preset's name")
    elif do == "start":
        _number(fields, "in_ms", 0, MAX_START_MS, False)
        if fields.get("first", "left") not in _SIDES:
            raise CommandError("first: expected left or right")
    elif do == "adjust" or do == "moves":
        if fields.get("side") not in _SIDES:
            raise CommandError("side: expected left or right")
        if do == "adjust":
            _number(fields, "ms", -MAX_ADJUST_MS, MAX_ADJUST_MS, True)
            if fields["ms"] == 0:
                raise CommandError("ms: a correction of 0 ms changes nothing")
        else:
            _number(fields, "moves", 0, MAX_MOVES, True)


def _whole(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _number(fields, key, low, high, needed):
    value = fields.get(key)
    if value is None and not needed:
        return
    if not _whole(value) or not low <= value <= high:
        raise CommandError("%s: expected a whole number from %d to %d" % (key, low, high))
