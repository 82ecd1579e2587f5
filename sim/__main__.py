# SPDX-License-Identifier: MIT
# python -m sim: the simulator's command line (the interactive simulator, script, replay, annotate,
# record).
import argparse
import os
import sys
import tempfile

import sim  # noqa: F401  (puts the firmware on the path)
from notation import registry
from notation.errors import PresetError
from sim import annotate, boards, follow, serial_cli
from sim import replay as replaying

DESCRIPTION = """\
With no command: the interactive simulator, the board's own firmware in this terminal
(the keys are on screen). `script` runs timed presses in virtual time and prints the
frames; `replay` prints a game's clocks after each ply as JSON Lines; `annotate` writes a
clock's game record into the PGN or SGF of the moves; `record` follows clocks on USB and keeps
their records on disk; `label` writes the label for the clock's back; `hall` runs a simulated
hall of clocks on an MQTT broker with the arbiter's page (`hall gateway`, `hall broadcast`);
`round` takes a round's pairings in and writes its results out."""


def replay_command(args):
    try:
        log = None
        if args.pcn:
            setup, elapsed, log = load_record(args.pcn)
        else:
            if args.preset is None or args.moves is None:
                raise replaying.ReplayError("replay needs --preset and --moves, or --pcn RECORD")
            setup = registry.parse(
                args.preset, args.format, mode=args.mode, hourglass=args.hourglass, word=args.word
            )
            elapsed = replaying.parse_moves(args.moves)
    except (PresetError, replaying.ReplayError) as error:
        print("error: %s" % error, file=sys.stderr)
        return 2
    from notation.describe import describe

    print("replaying %s" % describe(setup), file=sys.stderr)  # how the preset was read
    if log is not None:
        try:
            lines = list(replaying.replay_log(setup, log))
        except replaying.ReplayError as error:
            print("error: %s: %s" % (args.pcn, error), file=sys.stderr)
            return 2
    else:
        lines = replaying.replay(setup, elapsed)
    try:
        replaying.write(lines, sys.stdout)
        sys.stdout.flush()
    except BrokenPipeError:
        return reader_left()
    return 0


def annotate_command(args):
    try:
        annotate.run(args, lambda text: print("note: " + text, file=sys.stderr))
    except annotate.AnnotateError as error:
        print("error: %s" % error, file=sys.stderr)
        return 2
    except BrokenPipeError:
        return reader_left()
    return 0


def reader_left():
    """`| head` has what it wanted: the rest of the output goes nowhere, with one line and
    status 2 instead of a traceback."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    print("error: the output was closed before the end (by | head?)", file=sys.stderr)
    return 2


def load_record(path):
    """(setup, elapsed times, log entries or None) of a PCN record file. A record the clock wrote
    (GAME) is replayed from its own preset and log: undos and corrections where they were."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as error:
        raise replaying.ReplayError("cannot read %s: %s" % (path, error.strerror))
    except UnicodeError:
        raise replaying.ReplayError("%s is not UTF-8 text" % path)
    if path.endswith(".toml"):
        from notation import pcn_toml as reader
    else:
        from notation import pcn as reader
    if text.startswith("OK "):  # GAME's answer as the serial line gives it
        text = text[3:]
    setup, elapsed, _sides = reader.parse_record(text)
    clock = _clock_field(reader, text)
    if clock is not None:
        import notation

        if "preset" in clock:
            setup = notation.parse(clock["preset"])
        return setup, elapsed, replaying.entries_of(clock.get("log", []), path)
    if elapsed and elapsed.count(None) == len(elapsed):  # PCN allows it: nothing is charged
        print(
            "note: %s: no ply has elapsed_ms; the control replayed with no time charged" % path,
            file=sys.stderr,
        )
        return setup, [0] * len(elapsed), None
    for index, value in enumerate(elapsed):
        if value is None:
            raise replaying.ReplayError("%s: ply %d has no elapsed_ms" % (path, index + 1))
    return setup, elapsed, None


def _clock_field(reader, text):
    """The clock's own field of a record (docs/records.md), or None."""
    if reader.NAME != "pcn":
        return None
    import json

    clock = json.loads(text).get("clock")
    if clock is None:
        return None
    if not isinstance(clock, dict) or not isinstance(clock.get("log", []), list):
        raise replaying.ReplayError("clock: expected an object with a log list")
    if "preset" in clock and not isinstance(clock["preset"], str):
        raise replaying.ReplayError("clock.preset: expected the preset's text")
    return clock


def state_dir(board):
    """Where a board's files live between runs: a per-user state directory."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join("~", ".local", "state")
    return os.path.join(os.path.expanduser(base), "tournament-clock", board.NAME)


def command_line_preset(text, format, mode):
    """The --preset as one stored line, or None; PresetError as the parser says it."""
    if text is None:
        if format != "auto" or mode is not None:
            raise ValueError("--format and --mode go with --preset")
        return None
    return boards.preset_spec(text, format, mode)


def interactive_command(args):
    try:
        board = boards.load(args.board)
        spec = command_line_preset(args.sim_preset, args.sim_format, args.sim_mode)
    except (ValueError, PresetError) as error:
        print("error: %s" % error, file=sys.stderr)
        return 2
    if args.list_boards:
        for name in boards.names():
            print(boards.listing(name))
        return 0
    folder = args.state or state_dir(board)
    problem = not args.fresh and serial_cli.folder_problem(folder)
    if problem:
        print("error: --state %s" % problem, file=sys.stderr)
        return 2
    if args.list_presets:
        try:
            status = list_presets(None if args.fresh else folder)
            sys.stdout.flush()
        except BrokenPipeError:
            return reader_left()
        return status
    from sim import interactive

    if not args.fresh:
        return interactive.play(board, spec, folder)
    with tempfile.TemporaryDirectory(prefix="clock-sim-") as fresh:
        return interactive.play(board, spec, fresh, "fresh (a temporary directory)")


def list_presets(folder):
    """The preset list the board's storage holds (the defaults when it holds none)."""
    from app.presets import Presets
    from hal.storage import Storage
    from notation.describe import describe

    with tempfile.TemporaryDirectory(prefix="clock-sim-") as empty:
        presets = Presets(Storage(os.path.abspath(folder or empty), os, open))
    for number, preset in enumerate(presets.items, 1):
        try:
            about = describe(preset.setup())
        except PresetError as error:
            about = "error: %s" % error
        print("%2d. %s: %s\n    %s" % (number, preset.name, about, preset.spec))
    return 0


def script_command(args):
    from sim import script

    try:
        board = boards.load(args.script_board or args.board)
        spec = command_line_preset(
            args.script_preset or args.sim_preset,
            args.script_format if args.script_preset else args.sim_format,
            args.script_mode if args.script_preset else args.sim_mode,
        )
        text = read_script(args.file)
        name = "stdin" if args.file == "-" else args.file
        script.run(text, board, spec, print, name, args.record)
        sys.stdout.flush()
    except (ValueError, PresetError) as error:
        print("error: %s" % error, file=sys.stderr)
        return 2
    except BrokenPipeError:
        return reader_left()
    return 0


def read_script(path):
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as error:
        raise ValueError("cannot read %s: %s" % (path, error.strerror))
    except UnicodeError:
        raise ValueError("%s is not UTF-8 text" % path)


def label_command(args):
    from sim import label

    try:
        board = boards.load(args.label_board or args.board)
    except ValueError as error:
        print("error: %s" % error, file=sys.stderr)
        return 2
    text = label.svg(board)
    if args.out in (None, "-"):
        sys.stdout.write(text)
        return 0
    try:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as error:
        print("error: cannot write %s: %s" % (args.out, error.strerror), file=sys.stderr)
        return 2
    print("label for %s written to %s" % (board.NAME, args.out), file=sys.stderr)
    return 0


def build_parser():
    parser = argparse.ArgumentParser(
        prog="python -m sim",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--board", metavar="NAME", default=boards.DEFAULT, help="a boards/ module (--list-boards)"
    )
    parser.add_argument(
        "--preset", dest="sim_preset", metavar="SPEC", help='the time control, e.g. "G/5/3"'
    )
    parser.add_argument(
        "--format", dest="sim_format", default="auto", choices=("auto",) + registry.FORMATS
    )
    parser.add_argument(
        "--mode", dest="sim_mode", choices=registry.MODES, help="increment mode (chessclock)"
    )
    parser.add_argument(
        "--state",
        metavar="DIR",
        help="where the board's files are kept (default: ~/.local/state/tournament-clock/BOARD)",
    )
    parser.add_argument("--fresh", action="store_true", help="start from empty, temporary storage")
    parser.add_argument("--list-presets", action="store_true", help="the board's preset list")
    parser.add_argument("--list-boards", action="store_true", help="the boards there are")
    parser.set_defaults(run=interactive_command)
    commands = parser.add_subparsers(dest="command")
    run = commands.add_parser("script", help="timed presses in virtual time, frames as text")
    run.add_argument("file", help="the script (README: The simulator), - for stdin")
    run.add_argument("--board", dest="script_board", metavar="NAME", help="a boards/ module")
    run.add_argument("--preset", dest="script_preset", metavar="SPEC", help="the time control")
    run.add_argument(
        "--format", dest="script_format", default="auto", choices=("auto",) + registry.FORMATS
    )
    run.add_argument("--mode", dest="script_mode", choices=registry.MODES)
    run.add_argument(
        "--record",
        action="store_true",
        help="print the game's record (GAME's JSON, docs/records.md) as the last line",
    )
    run.set_defaults(run=script_command)
    play = commands.add_parser("replay", help="replay a game's move times as JSON Lines")
    play.add_argument("--preset", help="the time control, in any supported notation")
    play.add_argument("--format", default="auto", choices=("auto",) + registry.FORMATS)
    play.add_argument("--mode", choices=registry.MODES, help="increment mode (chessclock)")
    play.add_argument("--hourglass", action="store_true", help="hourglass option (chessclock)")
    play.add_argument("--word", action="store_true", help="Word penalty option (chessclock)")
    play.add_argument("--moves", help="elapsed ms of each ply, first player first: 8000,12000")
    play.add_argument("--pcn", metavar="RECORD", help="a PCN game record (.json or .toml)")
    play.set_defaults(run=replay_command)
    noting = commands.add_parser("annotate", help="the clock's times into a PGN or SGF file")
    annotate.add_arguments(noting)
    noting.set_defaults(run=annotate_command)
    sticker = commands.add_parser("label", help="a printable SVG label for the clock's back")
    sticker.add_argument("--board", dest="label_board", metavar="NAME", help="a boards/ module")
    sticker.add_argument("--out", metavar="FILE", help="where to write it (default: stdout)")
    sticker.set_defaults(run=label_command)
    follow.add_command(commands)
    serial_cli.add_commands(commands)
    from sim import hall, round_cli, web

    web.add_command(commands)
    hall.add_command(commands)
    round_cli.add_command(commands)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
