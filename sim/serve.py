# SPDX-License-Identifier: MIT
# `python -m sim.serial_cli serve --pty`: the board's app in real time behind a pseudo-terminal.
import sys

import sim  # noqa: F401  (puts the firmware on the path)
from notation.errors import PresetError
from sim.pty_hal import PtyHal
from sim.pty_serial import PtySerial


def build(board_name, preset, storage_dir, key_lines):
    """(hal, app, runner, port): the app on a PtyHal behind a new pty. Raises ValueError for an
    unknown board, PresetError for an invalid preset."""
    from app.runner import Runner
    from sim import boards
    from sim.realtime import folder_storage

    board = boards.load(board_name)
    port = PtySerial()
    hal = PtyHal(folder_storage(storage_dir), port, key_lines)
    app = boards.build_app(hal, board)
    if preset is not None:
        choose(app, preset)
    from app import hall

    hall.boot(app)  # a clock that keeps a board number keeps its finished games for the hall
    if getattr(board, "WIFI", False):  # a Pico W: its own Wi-Fi and broker code, as main.py
        from sim import hall_wifi

        hall_wifi.serve(app)
    runner = Runner(hal, app)
    runner.channel.repl = False  # no REPL to go to
    return hal, app, runner, port


def choose(app, preset):
    """Choose the preset named `preset`, or add `preset` as a time control named "Simulator"
    (replacing the last one); ValueError when the storage refuses it."""
    from sim import boards

    index = app.presets.index_of(preset)
    if index < 0:
        boards.choose(app, "Simulator", preset)
        return
    try:
        app.choose_preset(index)
    except OSError as error:
        raise ValueError("the choice could not be stored: %s" % boards.problem_text(error))


def serve_command(args, exit_input=2):
    """Print the pty's path, then run until killed (SIGTERM or Ctrl-C)."""
    import shutil
    import signal
    import tempfile

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    storage = args.storage or tempfile.mkdtemp(prefix="clock-serve-")
    port = None
    try:
        hal, app, runner, port = build(
            args.board, args.preset, storage, sys.stdin if args.keys else None
        )
        print("serial: %s" % port.path, flush=True)
        print("preset: %s" % app.preset().name, flush=True)
        while True:
            runner.step()
    except (ValueError, PresetError) as error:
        print("error: %s" % error, file=sys.stderr)
        return exit_input
    except KeyboardInterrupt:
        pass
    finally:
        if port is not None:
            port.close()
        if args.storage is None:
            shutil.rmtree(storage, ignore_errors=True)
    return 0
