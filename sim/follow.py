# SPDX-License-Identifier: MIT
# `python -m sim record`: follow clocks on serial ports, each one's game record and state in files.
import errno
import json
import os
import re
import selectors
import signal
import sys
import time

from sim.follow_files import ClockFiles

EXIT_INPUT = 2
LOOK_EVERY_S = 0.5  # how often a missing port is looked for, and a followed one checked
NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*$")
EMPTY_READS = 20  # empty reads in a row that mean the port hung up
MAX_LINE = 1 << 22  # bytes; a longer line (no clock sends one) is dropped


def parse_ports(specs):
    """[(name, path)] of the --port values, `NAME=PATH` or `PATH` (named by its basename).
    Raises ValueError for a name that cannot name files, or one given twice."""
    ports = []
    for spec in specs:
        name, equals, path = spec.partition("=")
        if not equals or "/" in name:
            name, path = os.path.basename(spec.rstrip("/")), spec
        if not NAME.match(name) or name.endswith(".state"):
            raise ValueError(
                "--port %s: the name %r cannot name its files (letters, digits, _ . -;"
                " NAME=PATH names it)" % (spec, name)
            )
        ports.append((name, path))
    names = [name for name, _path in ports]
    for name in names:
        if names.count(name) > 1:
            raise ValueError("two ports are named %s (NAME=PATH names them apart)" % name)
        archive = re.compile(re.escape(name) + r"-\d+$")
        for other in names:
            if archive.match(other):
                raise ValueError(
                    "the name %s is that of %s's earlier games (%s-1.json...)"
                    % (other, name, name)
                )
    return ports


class Clock:
    """One clock: its port, opened when its path is there and reopened after it was lost, the
    conversation on it; its files in `folder`."""

    def __init__(self, name, path, folder, selector, say, timeout=5.0):
        self.name = name
        self.path = path
        self.folder = folder
        self.selector = selector
        self.say = say
        self.timeout = timeout
        self.port = None  # the pyserial Serial while open
        self.fd = -1
        self.heard = False  # the clock has answered on this opening
        self.seen = False  # ... on some opening: the next answer is "back"
        self.missing = False  # said that the path is not there
        self.refused = None  # the last reason the port would not open, said once
        self.silent = False  # said that the clock does not answer
        self.pending = []  # the commands sent and not answered yet, oldest first
        self.waited = 0.0  # when we began waiting for the next byte of an answer
        self.looked = -LOOK_EVERY_S
        self.inbox = b""
        self.outbox = b""
        self.empty = 0  # empty reads in a row
        self.files = ClockFiles(name, folder, self.note)

    def note(self, text):
        self.say("clock %s: %s" % (self.name, text))

    # --- the port -----------------------------------------------------------------------

    def look(self, now):
        """Called every pass: open the port when its path appears; lose it when it goes."""
        if now - self.looked < LOOK_EVERY_S:
            return
        self.looked = now
        if self.port is not None:
            if not os.path.exists(self.path):
                self.lost()
            elif self.pending and now - self.waited > self.timeout:
                if not self.silent:
                    self.note(
                        "no answer within %g s (is the clock app running?); asking again"
                        % self.timeout
                    )
                    self.silent = True
                self.pending = []
                self.handshake()
            return
        if not os.path.exists(self.path):
            if not self.missing:
                self.note("%s is not there; waiting for it" % self.path)
                self.missing = True
            return
        self.open()

    def open(self):
        import serial

        try:
            self.port = serial.Serial(self.path, 115200, timeout=0)
            self.port.reset_input_buffer()  # lines sent to whoever had the port before
        except (serial.SerialException, OSError) as error:
            self.port = None
            reason = str(error)
            if reason != self.refused:
                self.note("cannot open %s (%s); trying again" % (self.path, reason))
                self.refused = reason
            return
        self.refused = None
        self.missing = False
        self.empty = 0
        self.fd = self.port.fileno()
        os.set_blocking(self.fd, False)
        self.selector.register(self.fd, selectors.EVENT_READ, self)
        self.handshake()

    def handshake(self):
        # An empty line ends whatever half line the clock holds; the answers that come before
        # PING's are to commands someone else sent.
        self.heard = False
        self.files.current = False  # what it holds is to be asked again
        self.send("", "PING")

    def lost(self):
        self.selector.unregister(self.fd)
        try:
            self.port.close()
        except OSError:
            pass
        self.port = None
        self.fd = -1
        self.pending = []
        self.inbox = self.outbox = b""
        self.missing = True  # "waiting" says it already
        self.note("unplugged, waiting")

    def close(self):
        if self.port is not None:
            self.selector.unregister(self.fd)
            self.port.close()
            self.port = None

    def send(self, *commands):
        if not self.pending:
            self.waited = time.monotonic()
        for command in commands:
            self.outbox += command.encode("ascii") + b"\r\n"
            if command:
                self.pending.append(command)
        self.writable()

    def writable(self):
        try:
            written = os.write(self.fd, self.outbox)
        except BlockingIOError:
            written = 0
        except OSError:
            self.lost()
            return
        self.outbox = self.outbox[written:]
        events = selectors.EVENT_READ | (selectors.EVENT_WRITE if self.outbox else 0)
        self.selector.modify(self.fd, events, self)

    def readable(self):
        try:
            data = os.read(self.fd, 65536)
        except BlockingIOError:
            return
        except OSError as error:
            if error.errno not in (errno.EIO, errno.ENXIO, errno.ENODEV, errno.EBADF):
                self.note("read failed: %s" % error)
            self.lost()
            return
        if not data:
            # A hung-up port reads empty, again and again; so does, once, a port that said it
            # had bytes another program took first.
            self.empty += 1
            if self.empty >= EMPTY_READS or not os.path.exists(self.path):
                self.lost()
            return
        self.empty = 0
        self.waited = time.monotonic()
        self.inbox += data
        *lines, self.inbox = self.inbox.split(b"\n")
        if len(self.inbox) > MAX_LINE:
            self.note("dropped %d bytes without a line end" % len(self.inbox))
            self.inbox = b""
        for line in lines:
            if self.port is None:
                return
            text = line.decode("utf-8", "replace").strip()
            try:
                self.line(text)
            except (KeyError, TypeError, ValueError, AttributeError) as error:
                # JSON of the right kind with the wrong insides: this line is lost, not the hall
                self.note("ignored a line (%s: %s): %s" % (type(error).__name__, error, text[:60]))

    # --- the conversation ---------------------------------------------------------------

    def line(self, text):
        if not text:
            return
        if text.startswith("EV "):
            try:
                event = json.loads(text[3:])
            except ValueError:
                event = None
            if isinstance(event, dict):
                self.files.state(json.dumps(event))
                # While GAME is asked, its answer, still to come, holds this event.
                if self.heard and "GAME" not in self.pending and self.files.event(event):
                    self.send("GAME")
            else:
                self.ignored(text)
        elif text in ("OK", "ERR") or text.startswith(("OK ", "ERR ")):
            self.answer(text)
        else:
            self.ignored(text)

    def ignored(self, text):
        self.note("ignored a line: %s" % (text if len(text) <= 60 else text[:57] + "..."))

    def answer(self, text):
        if not self.heard:
            if text != "OK pong":
                return
            self.heard = True
            self.silent = False
            self.note("back" if self.seen else "following %s" % self.path)
            self.seen = True
            self.pending = []
            self.send("STREAM ON", "STATE", "GAME")
            return
        if not self.pending:
            self.ignored(text)
            return
        command = self.pending.pop(0)
        self.waited = time.monotonic()
        if command == "GAME":
            self.files.game(text)
        elif command == "STATE" and text.startswith("OK {"):
            self.files.state(text[3:])
        elif not text.startswith("OK"):
            self.note("%s: %s" % (command, text))


def follow(clocks, selector):
    """Serve every clock until interrupted."""
    while True:
        now = time.monotonic()
        for clock in clocks:
            clock.look(now)
        for key, events in selector.select(LOOK_EVERY_S):
            clock = key.data
            if events & selectors.EVENT_WRITE and clock.port is not None:
                clock.writable()
            if events & selectors.EVENT_READ and clock.port is not None:
                clock.readable()


def record_command(args):
    def say(text):
        print(text, file=sys.stderr, flush=True)

    try:
        ports = parse_ports(args.ports)
        os.makedirs(args.out, exist_ok=True)
    except ValueError as error:
        print("error: %s" % error, file=sys.stderr)
        return EXIT_INPUT
    except OSError as error:
        print("error: --out %s: %s" % (args.out, error.strerror), file=sys.stderr)
        return EXIT_INPUT
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    selector = selectors.DefaultSelector()
    clocks = [Clock(name, path, args.out, selector, say, args.timeout) for name, path in ports]
    try:
        follow(clocks, selector)
    except KeyboardInterrupt:
        pass
    finally:
        for clock in clocks:
            clock.close()
    return 0


def add_command(subparsers):
    """Register `record` on an argparse subparsers."""
    record = subparsers.add_parser(
        "record", help="follow clocks; keep each one's game record and state in files"
    )
    record.add_argument(
        "--port",
        dest="ports",
        action="append",
        required=True,
        metavar="[NAME=]PATH",
        help="a clock's serial port, named NAME (default: the path's basename); again for more",
    )
    record.add_argument(
        "--out", required=True, metavar="DIR", help="NAME.json and NAME.state.json go here"
    )
    record.add_argument("--timeout", type=float, default=5.0, help="seconds to wait per answer")
    record.set_defaults(run=record_command)
