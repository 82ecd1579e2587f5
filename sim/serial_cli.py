# The host side of the serial channel: send and list presets, any command, serve the app on a pty.
import argparse
import sys
import time

import sim  # noqa: F401  (puts the firmware on the path)
from app.presets import check_name
from app.serial_channel import MAX_LINE
from notation import registry
from notation.errors import PresetError

RP2040_VID = 0x2E8A  # Raspberry Pi: what --port auto looks for
EXIT_CLOCK = 1  # the clock answered ERR, did not answer, or the port would not open
EXIT_INPUT = 2  # the presets file is invalid (nothing was sent), or a bad argument


class LinkError(Exception):
    """The port would not open or the clock did not answer."""


# --- the presets file ----------------------------------------------------------------------


def read_presets(path):
    """([(line number, name, spec)], [(line number, problem)]) for a file of `name = spec`
    lines (blank lines and # comments ignored), each checked as the clock will check it."""
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    entries, problems, seen = [], [], {}
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, equals, spec = line.partition("=")
        problem = "expected 'name = spec'" if not equals else check(name, spec)
        if problem is None and name.strip() in seen:
            problem = "the name %s is on line %d already" % (name.strip(), seen[name.strip()])
        if problem is None:
            seen[name.strip()] = number
            entries.append((number, name.strip(), spec.strip()))
        else:
            problems.append((number, problem))
    return entries, problems


def check(name, spec):
    """None if the clock will accept `PRESET ADD name = spec`, else what is wrong."""
    command = "PRESET ADD %s = %s" % (name.strip(), spec.strip())
    if any(not 32 <= ord(c) < 127 for c in command):
        return "only printable ASCII goes over the serial line"
    if len(command) > MAX_LINE:
        return "the command would be %d bytes; the clock takes %d" % (len(command), MAX_LINE)
    try:
        check_name(name)
        parse_as_board(spec.strip())
    except PresetError as error:
        return str(error)
    return None


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
    """(entries, 0), or (None, EXIT_INPUT) after listing every invalid line on stderr."""
    try:
        entries, problems = read_presets(path)
    except OSError as error:
        print("error: cannot read %s: %s" % (path, error.strerror), file=sys.stderr)
        return None, EXIT_INPUT
    for number, problem in problems:
        print("%s:%d: %s" % (path, number, problem), file=sys.stderr)
    if problems:
        print("error: %d invalid line(s); nothing sent" % len(problems), file=sys.stderr)
        return None, EXIT_INPUT
    if not entries:
        print("error: %s holds no presets" % path, file=sys.stderr)
        return None, EXIT_INPUT
    return entries, 0


def presets_check(args):
    entries, status = _valid_entries(args.file)
    if not status:
        print("%s: %d presets, all valid" % (args.file, len(entries)))
    return status


def presets_send(args):
    entries, status = _valid_entries(args.file)
    if status:
        return status
    failed = 0

    def send(link):
        nonlocal failed
        for number, name, spec in entries:
            reply = link.command("PRESET ADD %s = %s" % (name, spec))[1]
            failed += reply.startswith("ERR")
            print("%s:%d: %s" % (args.file, number, reply))

    status = _with_link(args, send)
    if status:
        return status
    print("%d added, %d refused" % (len(entries) - failed, failed))
    return EXIT_CLOCK if failed else 0


def presets_list(args):
    return command(args, "PRESET LIST")


def command(args, text=None):
    text = text or " ".join(args.text)
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
    from sim import pty_serial

    return pty_serial.serve_command(args, EXIT_INPUT)


def _link_options(parser):
    parser.add_argument("--port", required=True, help="serial port, e.g. /dev/ttyACM0, or auto")
    parser.add_argument("--baud", type=int, default=115200, help="(USB CDC ignores it)")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds to wait per answer")


def add_commands(subparsers):
    """Register `presets send|list|check`, `command` and `serve` on an argparse subparsers."""
    presets = subparsers.add_parser("presets", help="send presets to a clock, or list them")
    actions = presets.add_subparsers(dest="presets_command", required=True)
    send = actions.add_parser("send", help="check a presets file, then add each to the clock")
    send.add_argument("file", help="lines 'name = spec'; blank lines and # comments ignored")
    _link_options(send)
    send.set_defaults(run=presets_send)
    listing = actions.add_parser("list", help="the clock's presets")
    _link_options(listing)
    listing.set_defaults(run=presets_list)
    checking = actions.add_parser("check", help="check a presets file; send nothing")
    checking.add_argument("file")
    checking.set_defaults(run=presets_check)
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
