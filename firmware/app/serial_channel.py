# SPDX-License-Identifier: MIT
# The serial command channel: bytes to lines without allocating, replies, the EV state stream.
#
# `port` is the HAL's serial object (read_into(buf) -> count, never blocking; write(data)).
# poll(now) is called once per pass of the main loop. It takes what bytes are there into a
# preallocated line buffer and allocates nothing until a complete line is in: a pass with no
# complete line costs a few attribute reads. A line is a command only if it is printable
# ASCII and fits the buffer; anything else is answered with one ERR line and never obeyed.
# The commands themselves are in app/commands.py, loaded at the first complete line.
from array import array
from micropython import const

from ticks import add, diff

MAX_LINE = const(250)  # bytes in a command line, without its CR/LF
_CHUNK = const(64)  # bytes taken from the port per read
_LINES_PER_POLL = const(4)  # lines answered per pass; more wait for the next pass
_CR = const(13)
_LF = const(10)
_AWAKE_MS = const(2000)  # after input, the loop wakes often this long (a host is talking)
_PROMPT_MS = const(20)  # how often, then
_EVENTS = const(8)  # events held for the stream until the end of the pass; more are dropped


def ascii_line(text):
    """`text` with each character outside printable ASCII written as JSON writes it, \\uXXXX
    (a surrogate pair past U+FFFF): a JSON line stays JSON that decodes to the same text, and a
    name or a message stays one line however it was stored."""
    for char in text:
        if not " " <= char <= "~":
            break
    else:
        return text
    parts = []
    for char in text:
        code = ord(char)
        if 32 <= code < 127:
            parts.append(char)
        elif code > 0xFFFF:
            code -= 0x10000
            parts.append("\\u%04x\\u%04x" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)))
        else:
            parts.append("\\u%04x" % code)
    return "".join(parts)


class LeaveForRepl(Exception):
    """Raised out of poll() after the REPL command was answered: main.py catches it."""


class SerialChannel:
    def __init__(self, port, app, repl=True):
        self.port = port
        self.app = app
        self.repl = repl  # False where there is no REPL to go to (the simulator)
        self.streaming = False
        self.answered = 0  # lines answered so far (tests and diagnostics)
        self._line = bytearray(MAX_LINE)
        self._length = 0
        self._long = False  # the line in progress overflowed: discard it up to its end
        self._bad = -1  # the first byte of the line in progress that is not printable
        self._after_cr = False
        self._chunk = bytearray(_CHUNK)
        self._next = 0  # bytes of _chunk not yet taken: _next up to _end
        self._end = 0
        self._read = port.read_into  # bound once: poll() allocates nothing
        self._heard = -1  # stamp of the last input, or -1
        self._commands = None
        # The stream's events wait here for poll(): a press's EV line goes out after the frame
        # that shows the press. Each: the event, its stamp, the record's entries by then.
        self._events = bytearray(_EVENTS)
        self._stamps = array("i", range(_EVENTS))
        self._entries = array("i", range(_EVENTS))
        self._queued = 0
        self._previous = app.listener
        app.listener = self._on_event

    # --- input ---------------------------------------------------------------------------

    def poll(self, now):
        """Send the stream's events held since the last pass, then take the bytes available and
        answer every complete line (up to a few per pass), then the events those made."""
        if self._queued:
            self._send_events()
        self._take(now)
        if self._queued:
            self._send_events()

    def _take(self, now):
        answered = 0
        chunk = self._chunk
        while answered < _LINES_PER_POLL:
            if self._next >= self._end:
                count = self._read(chunk)
                if not count:
                    return
                self._next = 0
                self._end = count
                self._heard = now
            byte = chunk[self._next]
            self._next += 1
            if byte == _CR or byte == _LF:
                if byte == _LF and self._after_cr:
                    self._after_cr = False  # the LF of a CRLF
                    continue
                self._after_cr = byte == _CR
                if self._length or self._long or self._bad >= 0:
                    self._finish(now)
                    answered += 1
                continue
            self._after_cr = False
            if self._length >= MAX_LINE:
                self._long = True
                continue
            if self._bad < 0 and not 32 <= byte < 127:
                self._bad = byte
            self._line[self._length] = byte
            self._length += 1

    def _finish(self, now):
        length = self._length
        long = self._long
        bad = self._bad
        self._length = 0
        self._long = False
        self._bad = -1
        self.answered += 1
        if long:
            self.send("ERR line too long (max %d bytes)" % MAX_LINE)
        elif bad >= 0:
            self.send("ERR byte 0x%02x in the line: commands are printable ASCII" % bad)
        else:
            self._obey(bytes(self._line[:length]).decode(), now)

    def _loaded(self):
        """app.commands, imported at the first line or event that needs it."""
        if self._commands is None:
            from app import commands

            self._commands = commands
        return self._commands

    def _obey(self, text, now):
        try:
            self._loaded().run(self, text, now)
        except LeaveForRepl:
            raise
        except Exception as error:  # a bug must not stop the clock: say so and carry on
            self.send("ERR internal error: %s %s" % (type(error).__name__, error))

    def leave_for_repl(self):
        """Raise LeaveForRepl out of poll() once the REPL command is answered: main.py catches
        it. The commands call this rather than import this module, which imports them."""
        raise LeaveForRepl()

    def backlog(self):
        """Whether bytes taken from the port wait for the next pass (more lines than one pass
        answers came at once)."""
        return self._next < self._end

    def wake_by(self, until, now):
        """The loop's next wake-up `until`, made sooner while a host has spoken recently, so a
        conversation gets prompt answers and an idle clock still sleeps long; at once while lines
        taken from the port wait for their answers."""
        if self._next < self._end:
            return now
        heard = self._heard
        if heard < 0 or not 0 <= diff(now, heard) < _AWAKE_MS:
            return until
        soon = add(now, _PROMPT_MS)
        return soon if diff(until, soon) > 0 else until

    # --- output --------------------------------------------------------------------------

    def send(self, line):
        """One reply line, CRLF-terminated, in printable ASCII whatever `line` holds."""
        self.port.write((ascii_line(line) + "\r\n").encode())

    def write_part(self, text):
        """A piece of a reply line too long to build at once; send() writes its end."""
        self.port.write(ascii_line(text).encode())

    def _on_event(self, event, stamp):
        previous = self._previous
        if previous is not None:
            previous(event, stamp)
        queued = self._queued
        if self.streaming and queued < _EVENTS:
            self._events[queued] = event
            self._stamps[queued] = stamp
            self._entries[queued] = self.app.record.length
            self._queued = queued + 1

    def _send_events(self):
        event_json = self._loaded().event_json
        for i in range(self._queued):
            self.send(
                "EV " + event_json(self.app, self._events[i], self._stamps[i], self._entries[i])
            )
        self._queued = 0
