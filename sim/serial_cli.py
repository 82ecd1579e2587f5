# SPDX-License-Identifier: MIT
# The host side of the serial channel: send and list presets, any command, serve the app on a pty.
import argparse
import os
import re
import sys
import time

import sim  # noqa: F401  (puts the firmware on the path)
from app.presets import FILE as PRESETS_FILE
from app.presets import MAX_PRESETS, Preset, Presets
from notation import registry
from sim import presets_file

RP2040_VID = 0x2E8A  # Raspberry Pi: what --port auto looks for
EXIT_CLOCK = 1  # the clock answered ERR, did not answer, or the port would not open
EXIT_INPUT = 2  # the presets file is invalid (nothing was sent), or a bad argument
LISTED = re.compile(r"(\d+) ([^=]*)=(.*)$")  # a preset line `presets list` prints


class LinkError(Exception):
    """The port would not open or the clock did not answer."""


# --- the presets file ----------------------------------------------------------------------


def read_presets(path):
    """([(line number, name, spec, setup)], [(line number, problem)], listing) for the presets
    file at `path`, each line checked as the clock will check it (sim/presets_file.py; the
    board's reader: no PCN in TOML). OSError and UnicodeError as open() and decoding raise
    them."""
    with open(path, encoding="utf-8") as handle:
        return presets_file.read(handle.read(), parse_as_board)


def parse_as_board(spec):
    """registry.parse as the board runs it: without tomllib (PCN in TOML is desktop-only)."""
    saved = sys.modules.get("tomllib")
    sys.modules["tomllib"] = None  # makes `import tomllib` raise ImportError
    try:
        return registry.parse(spec)
    finally:
        if saved is None:
            del sys.modules["tomllib"]
        else:
            sys.modules["tomllib"] = saved


# --- talking to the clock --------------------------------------------------------------------


class Link:
    """Commands and their replies over pyserial. EV lines (the stream) are skipped."""

    def __init__(self, port, baud=115200, timeout=5.0):
        import serial

        self.timeout = timeout
        self.port = find_port() if port == "auto" else port
        try:
            self.serial = serial.Serial(self.port, baud, timeout=0.05)
        except (serial.SerialException, OSError) as error:
            raise LinkError("cannot open %s: %s" % (self.port, error))
        self.serial.reset_input_buffer()
        # An empty line ends whatever half line the clock holds; PING's answer marks the end
        # of the answers to anything sent before us.
        self.serial.write(b"\r\n")
        self.command("PING")

    def command(self, text):
        """(lines before the final one, the final OK/ERR line)."""
        self.serial.write(text.encode("ascii") + b"\r\n")
        lines = []
        deadline = time.monotonic() + self.timeout
        pending = b""
        while True:
            pending += self.serial.readline()
            if not pending.endswith(b"\n"):
                if time.monotonic() > deadline:
                    raise LinkError(
                        "no answer to %s from %s within %g s (is the clock app running?)"
                        % (text.split(" ")[0], self.port, self.timeout)
                    )
                continue
            line = pending.decode("ascii", "replace").strip()
            pending = b""
            if not line or line.startswith("EV "):
                continue
            if line == "OK" or line.startswith(("OK ", "ERR ")):
                if text == "PING" and line != "OK pong":
                    continue  # the answer to something sent before us
                return lines, line
            lines.append(line)

    def close(self):
        self.serial.close()


def find_port():
    from serial.tools import list_ports

    found = [p.device for p in list_ports.comports() if p.vid == RP2040_VID]
    if len(found) != 1:
        listed = ", ".join(p.device for p in list_ports.comports()) or "none"
        raise LinkError(
            "--port auto needs exactly one RP2040 board, found %d (ports: %s)"
            % (len(found), listed)
        )
    return found[0]


# --- the commands ----------------------------------------------------------------------------


def _valid_entries(path):
    """(entries, listing, 0), or (None, None, EXIT_INPUT) after saying on stderr what is wrong:
    every invalid line, or the one reason the file cannot be read."""
    try:
        entries, problems, listing = read_presets(path)
    except OSError as error:
        print("error: cannot read %s: %s" % (path, error.strerror), file=sys.stderr)
        return None, None, EXIT_INPUT
    except UnicodeError as error:
        at = getattr(error, "start", None)
        where = "" if at is None else " (byte %d)" % (at + 1)
        print("error: %s is not UTF-8 text%s" % (path, where), file=sys.stderr)
        return None, None, EXIT_INPUT
    for number, problem in problems:
        print("%s:%d: %s" % (path, number, problem), file=sys.stderr)
    if problems:
        print("error: %d invalid line(s); nothing sent" % len(problems), file=sys.stderr)
        return None, None, EXIT_INPUT
    if not entries:
        print("error: %s holds no presets" % path, file=sys.stderr)
        return None, None, EXIT_INPUT
    return entries, listing, 0


def presets_check(args):
    """Every preset of the file as the clock will read it (the menu's describer), then the
    count; or every invalid line, exit 2."""
    entries, listing, status = _valid_entries(args.file)
    if not status:
        from notation.describe import describe

        for number, name, spec, setup in entries:
            print("%s:%d: %s: %s" % (args.file, number, name, describe(setup, name + " " + spec)))
        kind = " (a `presets list` backup)" if listing else ""
        print("%s%s: %d presets, all valid" % (args.file, kind, len(entries)))
    return status


def presets_stage(args):
    """The file as the board stores it, written by the app's own Presets into a folder, for
    flash.sh to copy; prints where on the board the app reads it."""
    entries, _listing, status = _valid_entries(args.file)
    if status:
        return status
    from hal.storage import Storage
    from sim import boards

    try:
        board = boards.load(args.board)
    except ValueError as error:
        print("error: %s" % error, file=sys.stderr)
        return EXIT_INPUT
    os.makedirs(args.into, exist_ok=True)
    storage = Storage(os.path.abspath(args.into), os, open)
    storage.remove(PRESETS_FILE)
    presets = Presets(storage)
    presets.items = [Preset(name, spec) for _number, name, spec, _setup in entries]
    presets.save()
    stored = Presets(storage)
    wanted = [(name, spec) for _number, name, spec, _setup in entries]
    if stored.problems or [(item.name, item.spec) for item in stored.items] != wanted:
        print(
            "error: the app reads %s back differently: %s" % (args.file, stored.problems),
            file=sys.stderr,
        )
        return EXIT_INPUT
    print(board.STORAGE_ROOT.rstrip("/") + "/" + PRESETS_FILE)
    return 0


def presets_send(args):
    entries, listing, status = _valid_entries(args.file)
    if status:
        return status
    outcome = {}

    def send(link):
        clock = clock_presets(link)
        if listing:
            outcome["refused"] = restore(link, args.file, clock, entries)
            outcome["after"] = clock_presets(link)
            return
        new = len({name for _number, name, _spec, _setup in entries} - {name for name, _ in clock})
        if len(clock) + new > MAX_PRESETS:
            outcome["full"] = (len(clock), new)
            return
        outcome["refused"] = outcome["replaced"] = 0
        for number, name, spec, _setup in entries:
            verb = "REPLACE" if args.replace else "ADD"
            reply = link.command("PRESET %s %s = %s" % (verb, name, spec))[1]
            outcome["refused"] += reply.startswith("ERR")
            outcome["replaced"] += reply.startswith("OK replaced")  # a name the clock held
            print("%s:%d: %s" % (args.file, number, reply))

    status = _with_link(args, send)
    if status:
        return status
    if "full" in outcome:
        print(
            "error: the clock holds %d presets and %d of these are new: more than the %d it"
            " keeps; nothing sent (PRESET DEL <n> makes room)"
            % (outcome["full"] + (MAX_PRESETS,)),
            file=sys.stderr,
        )
        return EXIT_CLOCK
    refused = outcome["refused"]
    if not listing:
        replaced = outcome["replaced"]
        print(
            "%d added, %d replaced, %d refused"
            % (len(entries) - refused - replaced, replaced, refused)
        )
        return EXIT_CLOCK if refused else 0
    if outcome["after"] != [(name, spec) for _number, name, spec, _setup in entries]:
        print(
            "error: %d command(s) refused; the clock's list is not the backup's" % refused,
            file=sys.stderr,
        )
        return EXIT_CLOCK
    print("restored: the clock's %d presets are the backup's" % len(entries))
    return 0


def clock_presets(link):
    """[(name, spec)] of the clock's list, in its order."""
    lines, final = link.command("PRESET LIST")
    if not final.startswith("OK"):
        raise LinkError("PRESET LIST answered %s" % final)
    found = []
    for line in lines:
        listed = LISTED.match(line)
        if listed is None:
            raise LinkError("PRESET LIST answered %r, not `n name = spec`" % line)
        found.append((listed.group(2).strip(), listed.group(3).strip()))
    return found


def restore(link, path, clock, entries):
    """Make the clock's list the backup's `entries`, in their order, with PRESET DEL and REPLACE
    (which replaces a preset of its name where it stands, or appends): the presets past the
    common first names go, then the backup's are added. The clock never holds no preset, so
    when not even the first names agree its first stays until the backup's first is in.
    Returns how many commands the clock refused."""
    refused = 0

    def obey(command, where):
        nonlocal refused
        reply = link.command(command)[1]
        refused += reply.startswith("ERR")
        print("%s: %s" % (where, reply))

    kept = 0
    while kept < min(len(clock), len(entries)) and clock[kept][0] == entries[kept][1]:
        kept += 1
    for number in range(len(clock), max(kept, 1), -1):
        obey("PRESET DEL %d" % number, "clock")
    start = 0
    if kept == 0:
        number, name, spec, _setup = entries[0]
        obey("PRESET REPLACE %s = %s" % (name, spec), "%s:%d" % (path, number))
        obey("PRESET DEL 1", "clock")
        start = 1
    for number, name, spec, _setup in entries[start:]:
        obey("PRESET REPLACE %s = %s" % (name, spec), "%s:%d" % (path, number))
    return refused


def presets_list(args):
    return command(args, "PRESET LIST")


def command(args, text=None):
    text = registry.fold(text or " ".join(args.text))
    if any(not 32 <= ord(char) < 127 for char in text):
        print(
            "error: only printable ASCII goes over the serial line: %s" % ascii(text).strip("'\""),
            file=sys.stderr,
        )
        return EXIT_INPUT
    answer = []
    status = _with_link(args, lambda link: answer.append(link.command(text)))
    if status:
        return status
    lines, final = answer[0]
    for line in lines:
        print(line)
    print(final, file=sys.stdout if final.startswith("OK") else sys.stderr)
    return 0 if final.startswith("OK") else EXIT_CLOCK


def _with_link(args, work):
    try:
        link = Link(args.port, args.baud, args.timeout)
        try:
            work(link)
        finally:
            link.close()
    except LinkError as error:
        print("error: %s" % error, file=sys.stderr)
        return EXIT_CLOCK
    return 0


def serve_command(args):
    from sim import serve

    problem = args.storage and folder_problem(args.storage)
    if problem:
        print("error: --storage %s" % problem, file=sys.stderr)
        return EXIT_INPUT
    return serve.serve_command(args, EXIT_INPUT)


def folder_problem(path):
    """Why `path` cannot be a folder for the board's files (it, or the nearest of its parents
    that exists, is not a folder), or None."""
    probe = os.path.abspath(path)
    while not os.path.exists(probe) and os.path.dirname(probe) != probe:
        probe = os.path.dirname(probe)
    if os.path.isdir(probe):
        return None
    if probe == os.path.abspath(path):
        return "%s: a file, not a folder" % path
    return "%s: %s is a file, not a folder" % (path, probe)


def _link_options(parser):
    parser.add_argument("--port", required=True, help="serial port, e.g. /dev/ttyACM0, or auto")
    parser.add_argument("--baud", type=int, default=115200, help="(USB CDC ignores it)")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds to wait per answer")


def add_commands(subparsers):
    """Register `presets send|list|check`, `command` and `serve` on an argparse subparsers."""
    presets = subparsers.add_parser("presets", help="send presets to a clock, or list them")
    actions = presets.add_subparsers(dest="presets_command", required=True)
    send = actions.add_parser("send", help="check a presets file, then add each to the clock")
    send.add_argument(
        "file",
        help="lines 'name = spec' (blank lines and # comments ignored) to add, or what"
        " `presets list` printed, to restore that list",
    )
    send.add_argument(
        "--replace",
        action="store_true",
        help="replace the clock's presets of the same names (without it the clock refuses a"
        " name it holds when the two read differently)",
    )
    _link_options(send)
    send.set_defaults(run=presets_send)
    listing = actions.add_parser("list", help="the clock's presets")
    _link_options(listing)
    listing.set_defaults(run=presets_list)
    checking = actions.add_parser("check", help="check a presets file; send nothing")
    checking.add_argument("file")
    checking.set_defaults(run=presets_check)
    staging = actions.add_parser(
        "stage", help="check a presets file and write it as a board stores it (for flash.sh)"
    )
    staging.add_argument("file")
    staging.add_argument("--board", required=True, help="a module of boards/")
    staging.add_argument("--into", required=True, help="the folder to write presets.txt into")
    staging.set_defaults(run=presets_stage)
    one = subparsers.add_parser("command", help="send one command (HELP, STATE, REPL...)")
    one.add_argument("text", nargs="+", help="the command line")
    _link_options(one)
    one.set_defaults(run=command)
    serve = subparsers.add_parser("serve", help="run the clock app behind a pseudo-terminal")
    serve.add_argument("--pty", action="store_true", required=True, help="serve on a new pty")
    serve.add_argument("--board", default="pico_oled", help="a module of boards/")
    serve.add_argument("--preset", help="a preset's name, or a time control to add and use")
    serve.add_argument("--storage", help="a folder for presets and settings (default: temporary)")
    serve.add_argument(
        "--keys", action="store_true", help="read button names from stdin: l, r, p, s, +, -"
    )
    serve.set_defaults(run=serve_command)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m sim.serial_cli")
    add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
