# SPDX-License-Identifier: MIT
# The clock in the page: a board's ClockApp and Runner on the browser HAL, for web/clock.js.
#
# Run by the MicroPython WebAssembly build with the firmware, hal/, boards/ and the desktop HAL
# family in its filesystem. The page calls step() when the last step's due_in() ms have passed,
# and at once after an edge or a serial line; nothing here sleeps.
import json

from app import saved
from app.runner import Runner
from app.clock_app import ClockApp
from app.gestures import LONG_MS, RESET_MS
import ticks
from clock.record import Record
from hal import buttons
from hal.battery import for_board as battery_gauge
from hal.board_check import BoardError
from hal.storage import Storage
from sim.board_module import load as board_module_load
from sim.web_hal import StoredFs, WebHal, folded
from ui import kinds

KEY_PREFIX = "tournament-clock/"  # every key this page keeps in localStorage starts so
SET_HOLD_MS = LONG_MS + 200  # `s` on a board without SET: PLAY held this long
RESET_HOLD_MS = RESET_MS + 100  # `r`: SET (or PLAY) held this long


def board_module(name):
    """The board module `name`, checked as the board checks it; BoardError (a ValueError, one
    line) for a board file that does not import or that the board would refuse (the
    simulator's loader, sim/board_module.py)."""
    return board_module_load(name)


def usable(names):
    """For the page's board chooser: `names` (a JSON list of the bundle's boards) as JSON
    {"boards": those that load, "refused": one line for each that does not}. One broken board
    file leaves the others usable."""
    found = {"boards": [], "refused": []}
    for name in json.loads(names):
        try:
            board_module(name)
            found["boards"].append(name)
        except ValueError as error:
            found["refused"].append(str(error))
    return json.dumps(found)


def stored_game_problem(storage):
    """Why the stored game cannot be read back, or None (no game stored, or one that reads).
    A game a new game retired reads back too: saved.load then gives None but sets the record's
    owner."""
    if storage.read(saved.FILE) is None:
        return None
    record = Record()
    if saved.load(storage, record) is not None or record.owner is not None:
        return None
    return "the stored game (%s) could not be read back" % saved.FILE


class Page:
    """`page` is the JS object with now() (performance.now()), tone(hz, ms), leds(left, right),
    serial(text) and the store (get_all, put, drop) of StoredFs."""

    def __init__(self, board_name, page):
        self.board = board_module(board_name)
        self.page = page
        self.notes = []  # what the page must tell the user once, in plain words
        now_ms = page.now
        self.ticks_ms = lambda: folded(now_ms())
        fs = StoredFs(page, KEY_PREFIX + self.board.NAME)
        for path in fs.unreadable:
            self.notes.append("the stored file %s was not readable and is left out" % path)
            fs.store.drop(fs.prefix + path)
        storage = Storage("/data", fs, fs.open)
        problem = stored_game_problem(storage)
        if problem is not None:
            storage.remove(saved.FILE)
            self.notes.append(problem + ": it is refused and the clock starts clean")
        self.storage = storage
        self.files_at_start = dict(fs.files)  # for trace(): a replay starts from the same files
        hal = WebHal(storage, self.ticks_ms, page.tone, page.leds, page.serial, self.battery())
        hal.gauge = battery_gauge(self.board)  # the board's cells and current, as on the board
        self.hal = hal
        self.start = hal.ticks_ms()
        self.app = ClockApp(
            hal, tuple(self.board.BUTTONS), kinds.screen_for(self.board), self.start
        )
        self.runner = Runner(hal, self.app)
        self.runner.channel.repl = False  # no REPL to go to
        self.app.render(self.start)

    def battery(self):
        """The supply the page's HAL reads: a healthy cell where the board senses one (the
        browser has none to read), else -1 (unknown), as the board's HAL says."""
        return -1 if getattr(self.board, "BATTERY_ADC", None) is None else 4000

    def battery_note(self):
        """'4.00 V, 84 %': the simulated figure the board's display shows; None for a board
        that senses no battery."""
        mv = self.hal.battery_mv()
        if mv < 0:
            return None
        return "%d.%02d V, %d %%" % (mv // 1000, mv % 1000 // 10, self.hal.gauge.percent(mv))

    # --- what the page calls -------------------------------------------------------------

    def step(self):
        """One pass of the main loop; the ms until the next is due (-1: only input wakes it)."""
        self.runner.step()
        return self.hal.due_in()

    def edge(self, button, pressed, stamp_ms):
        """A button's edge at the page's event time `stamp_ms` (performance.now()'s scale)."""
        if button in self.board.BUTTONS:
            self.hal.edge(button, pressed, folded(stamp_ms))

    def send(self, text):
        """Bytes to the clock's serial port, as a host would send them."""
        self.hal.serial.feed(text)

    def set_muted(self, muted):
        self.hal.buzzer.muted = bool(muted)

    def frame_writes(self):
        display = self.hal.display
        return display.writes + display.switches  # a display switched off is drawn dark

    def frame_hex(self):
        display = self.hal.display
        frame = display.frame
        if frame is None:
            return ""
        return binascii_hex(frame if display.on else bytes(len(frame)))

    def info(self):
        """JSON for the page's panel: the board, the state, the preset, the times as shown."""
        app = self.app
        return json.dumps(
            {
                "board": self.board.NAME,
                "display": self.board.DISPLAY,
                "points": getattr(self.board, "TM1637_POINTS", False),
                "buttons": [buttons.NAMES[b] for b in sorted(self.board.BUTTONS)],
                "state": app.state_name(),
                "preset": app.preset().name,
                "game_preset": app.game_preset_name(),
                "spec": app.spec,
                "muted": app.settings.muted,
                "leds": [self.hal.leds.left_on, self.hal.leds.right_on],
                "notes": self.notes,
                "set_hold_ms": SET_HOLD_MS,
                "reset_hold_ms": RESET_HOLD_MS,
                "has_set": buttons.SET in self.board.BUTTONS,
                "battery": self.battery_note(),
            }
        )

    def trace(self):
        """JSON: the stamp the app started at, every edge pushed, and the frame's stamp: a
        test replays them on the virtual HAL and compares the frames."""
        return json.dumps(
            {
                "board": self.board.NAME,
                "start": self.start,
                "edges": self.hal.trace,
                "frame_stamp": self.hal.display.stamp,
                "frame": self.frame_hex(),
                "now": self.hal.ticks_ms(),
                "files": {p: b2a(d) for p, d in self.files_at_start.items()},
            }
        )

    def save_now(self):
        """The game in progress saved as of now (the tab is hidden or goes: a reload gives the
        running player no time back)."""
        self.app.save_now(self.hal.ticks_ms())

    def stamp(self):
        return self.hal.ticks_ms()

    def diff(self, later, earlier):
        return ticks.diff(later, earlier)


def b2a(data):
    import binascii

    return binascii.b2a_base64(data).decode().strip()


def binascii_hex(data):
    import binascii

    return binascii.hexlify(data).decode()


# --- presets files, checked with the clock's own parsers (sim/presets_file.py, as the host tool) ---


def _parse(spec):
    import notation

    return notation.parse(spec)


def reading(spec):
    """How the clock reads a preset, in plain words; PresetError as the clock says it."""
    from notation.describe import describe

    return describe(_parse(spec))


def fold(text):
    """`text` with typographic quotes, primes, dashes and spaces as their ASCII forms, as the
    clock's parsers read them: what the page sends over the serial line."""
    from notation import registry

    return registry.fold(text)


def players(spec, name):
    """JSON [first, second]: the players' names in the game of preset `spec` named `name`."""
    from notation.describe import players as named

    return json.dumps(list(named(spec, name or "")))


def check_entry(name, spec):
    """(None, reading) when the clock will take `PRESET ADD name = spec`, else (problem, None).
    Typographic characters count as the ASCII the page sends for them."""
    from notation.describe import describe
    from sim import presets_file

    name, spec = fold(name), fold(spec)
    problem, setup = presets_file.check_entry(name, spec, _parse)
    if problem is not None:
        return problem, None
    return None, describe(setup, name.strip() + " " + spec.strip())


def check_presets(text):
    """JSON {entries: [{line, name, spec, reads}], problems: [{line, problem}], listing} of a
    presets file: `name = spec` lines (blank lines and # comments ignored), or a backup as
    `presets list` prints it (numbered lines, then `OK n presets`)."""
    from notation.describe import describe
    from sim import presets_file

    entries, problems, listing = presets_file.read(text, _parse)
    return json.dumps(
        {
            "entries": [
                {
                    "line": n,
                    "name": name,
                    "spec": spec,
                    "reads": describe(setup, name + " " + spec),
                }
                for n, name, spec, setup in entries
            ],
            "problems": [{"line": n, "problem": p} for n, p in problems],
            "listing": listing,
        }
    )


def check_name_spec(name, spec):
    """JSON {reads} or {error}: `PRESET ADD name = spec` as the clock will answer it."""
    problem, reads = check_entry(name, spec)
    return json.dumps({"error": problem} if problem else {"reads": reads})


def check_spec(spec):
    """JSON {reads} or {error}: one preset as the clock reads it."""
    from notation.errors import PresetError

    try:
        return json.dumps({"reads": reading(spec)})
    except PresetError as error:
        return json.dumps({"error": str(error)})
