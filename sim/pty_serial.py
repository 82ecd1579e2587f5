# The clock behind a pseudo-terminal: the HAL's serial port on a pty, the app in real time.
import errno
import os
import select
import sys
import tty

import sim  # noqa: F401  (puts the firmware on the path)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)  # boards/ and hal/ live at the root

from clock import ticks  # noqa: E402
from hal import buttons  # noqa: E402
from hal.events import EdgeRing  # noqa: E402
from hal.ticks import ticks_ms  # noqa: E402
from notation.errors import PresetError  # noqa: E402
from sim.realtime import BellBuzzer, KeptDisplay  # noqa: E402

KEYS = {"l": buttons.LEFT, "r": buttons.RIGHT, "p": buttons.PLAY, "s": buttons.SET}
KEYS.update({"+": buttons.PLUS, "-": buttons.MINUS})
for _index, _name in enumerate(buttons.NAMES):
    KEYS[_name] = _index
HOLD_MS = 80


class PtySerial:
    """The app reads and writes the master end (never blocking); a host program opens `path`,
    the slave end, as it would open /dev/ttyACM0. The slave stays open here too, so a host may
    come and go without the master seeing a hang-up. Output nobody reads is dropped once the
    terminal's buffer is full, as USB CDC drops it when no host listens."""

    def __init__(self):
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no line editing, no CR/LF translation
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self._slave)
        self.dropped = 0  # bytes of output dropped

    def fileno(self):
        return self.master

    def read_into(self, buf):
        try:
            data = os.read(self.master, len(buf))
        except BlockingIOError:
            return 0
        except OSError as error:
            if error.errno == errno.EIO:  # no slave open: nothing to read
                return 0
            raise
        buf[: len(data)] = data
        return len(data)

    def write(self, data):
        view = memoryview(bytes(data))
        while view:
            try:
                written = os.write(self.master, view)
            except BlockingIOError:
                self.dropped += len(view)
                return
            view = view[written:]

    def close(self):
        for fd in (self.master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass


class RealTimeHal:
    """The HAL in real time (a monotonic clock folded to 30 bits, as on the board). wait()
    sleeps in select() on the pty and on `keys` (a text stream of button names, one a line:
    l, r, p, s, +, - or left, right, play...), so a command or a key is answered at once."""

    def __init__(self, storage, port, keys=None):
        self.storage = storage
        self.serial = port
        self.edges = EdgeRing()
        self.display = KeptDisplay()
        self.buzzer = BellBuzzer(present=False)  # silent: a served clock has no speaker
        self.channel = None  # the SerialChannel, once made: bytes it holds are work to do
        self.keys = keys
        self._releases = []  # (stamp, button) of pressed buttons
        self._typed = ""  # a key line not finished yet

    def ticks_ms(self):
        return ticks_ms()

    def wait(self, until):
        now = ticks_ms()
        if self._releases and (until is None or ticks.diff(until, self._releases[0][0]) > 0):
            until = self._releases[0][0]
        channel = self.channel
        if self.edges.pending() or (channel is not None and channel.backlog()):
            timeout = 0
        elif until is None:
            timeout = None
        else:
            timeout = max(0, ticks.diff(until, now)) / 1000
        streams = [self.serial]
        if self.keys is not None:
            streams.append(self.keys)
        ready = select.select(streams, [], [], timeout)[0]
        if self.keys is not None and self.keys in ready:
            self._keys_ready()
        now = ticks_ms()
        while self._releases and ticks.diff(now, self._releases[0][0]) >= 0:
            stamp, button = self._releases.pop(0)
            self.edges.push(button, False, stamp)

    def _keys_ready(self):
        data = os.read(self.keys.fileno(), 1024)
        if not data:
            self.keys = None  # end of input: keep serving
            return
        self._typed += data.decode("ascii", "replace")
        *lines, self._typed = self._typed.split("\n")
        for line in lines:
            button = KEYS.get(line.strip().lower())
            if button is not None:
                now = ticks_ms()
                self.edges.push(button, True, now)
                self._releases.append((ticks.add(now, HOLD_MS), button))

    def battery_mv(self):
        return -1

    def feed(self):
        pass


def build(board_name, preset, storage_dir, keys):
    """(hal, app, runner, channel, port): the app on a RealTimeHal behind a new pty. Raises
    ValueError for an unknown board, PresetError for an invalid preset."""
    from app.runner import Runner
    from app.serial_channel import SerialChannel
    from hal.storage import Storage
    from sim import boards

    board = boards.load(board_name)
    port = PtySerial()
    hal = RealTimeHal(Storage(storage_dir, os, open), port, keys)
    app = boards.build_app(hal, board)
    if preset is not None:
        choose(app, preset)
    runner = Runner(hal, app)
    channel = getattr(runner, "channel", None)  # the Runner makes it, once wired to
    if channel is None:
        channel = SerialChannel(port, app, repl=False)
    else:
        channel.repl = False
    hal.channel = channel
    return hal, app, runner, channel, port


def choose(app, preset):
    """Choose the preset named `preset`, or add `preset` as a time control named "Simulator"."""
    items = app.presets.items
    index = next((i for i, item in enumerate(items) if item.name == preset), -1)
    if index < 0:
        index = app.presets.add("Simulator", preset)
    app.settings.preset = index
    app.new_game()


def serve(hal, runner, channel, steps=None):
    """Run the loop (for ever, or `steps` passes); poll the channel unless the Runner does."""
    own = getattr(runner, "channel", None) is None
    done = 0
    while steps is None or done < steps:
        runner.step()
        if own:
            channel.poll(hal.ticks_ms())
        done += 1


def serve_command(args, exit_input=2):
    """`serve --pty`: print the pty's path, then run until killed (SIGTERM or Ctrl-C)."""
    import shutil
    import signal
    import tempfile

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    storage = args.storage or tempfile.mkdtemp(prefix="clock-serve-")
    port = None
    try:
        hal, app, runner, channel, port = build(
            args.board, args.preset, storage, sys.stdin if args.keys else None
        )
        print("serial: %s" % port.path, flush=True)
        print("preset: %s" % app.preset().name, flush=True)
        serve(hal, runner, channel)
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
