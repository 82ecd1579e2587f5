# SPDX-License-Identifier: MIT
# The boards/ modules the simulator can be, and the app built for one as firmware/main.py does.
import pkgutil

import sim  # noqa: F401  (puts the firmware on the path)
import boards as _package
from app.clock_app import ClockApp
from hal.storage import problem_text
from hal import battery, buttons
from clock.game import OVER, PAUSED, READY, TIME
from notation import registry
from notation.describe import describe, players
from notation.errors import PresetError
from sim import board_module
from sim.hal_base import HEALTHY_MV
from ui import kinds

DEFAULT = "pico_oled"
COMMAND_LINE = "Command line"  # the name a --preset takes in the app's preset list


def names():
    """Every board file's name (boards/NAME.py), the default first. None is imported here: a
    file that would not import, or that the board would refuse, says so when it is loaded."""
    found = sorted(info.name for info in pkgutil.iter_modules(_package.__path__))
    found.sort(key=lambda name: name != DEFAULT)
    return found


def load(name):
    """The board module `name`, checked as the board checks it (sim/board_module.py, which the
    page shares); ValueError naming the boards there are when there is none, and BoardError (a
    ValueError, one line) for a board file that does not import or that the board would
    refuse."""
    if name not in names():
        raise ValueError("unknown board %r; the boards are: %s" % (name, ", ".join(names())))
    return board_module.load(name)


def listing(name):
    """One line on board `name` for --list-boards: its summary, or why it is refused."""
    try:
        return summary(load(name))
    except ValueError as error:
        return "%-14s refused: %s" % (name, error)


def button_names(board):
    return [buttons.NAMES[button] for button in sorted(board.BUTTONS)]


def summary(board):
    return "%-14s %-7s %s" % (board.NAME, board.DISPLAY, " ".join(button_names(board)))


def battery_mv(board):
    """A healthy supply where the board senses it; -1 (unknown) as its HAL says elsewhere."""
    return -1 if getattr(board, "BATTERY_ADC", None) is None else HEALTHY_MV


def boxed(picture):
    """The lines of a frame's picture in a +---+ box, as wide as the widest."""
    width = max(len(line) for line in picture)
    edge = "+" + "-" * width + "+"
    return [edge] + ["|" + line.ljust(width) + "|" for line in picture] + [edge]


def preset_spec(text, format="auto", mode=None):
    """Preset text as given on the command line (with --format and --mode) -> one line of
    "format:text" that the app's preset list stores and reads back to the same setup.
    Typographic quotes, primes and the like are stored as their ASCII forms (registry.fold).
    Raises PresetError as registry.parse does."""
    text = registry.fold(text)
    setup = registry.parse(text, format, mode=mode)
    prefixed, body = registry.split_prefix(text)
    name = prefixed or (format if format not in ("auto", None) else None)
    if name is None:
        name = registry.detect(text, mode)[0]
    if mode is not None:
        body += " " + mode  # registry.parse took --mode: only the chessclock notation has one
    candidates = [name + ":" + body.strip(), name + ":" + " ".join(body.split())]
    for other in (name,) + registry.FORMATS:
        try:
            candidates.append(other + ":" + registry.format_as(other, setup))
        except Exception:  # a notation that cannot say this setup
            pass
    for spec in candidates:
        try:
            if "\n" not in spec and registry.parse(spec) == setup:
                return spec
        except PresetError:
            pass
    raise PresetError("preset", text, None, "this preset cannot be stored on one line")


def build_app(hal, board, spec=None):
    """The board's app on `hal`; with `spec`, that preset is added as "Command line" (replacing
    the last one) and chosen (a saved game still offers to resume first, as on the board).
    ValueError, one line, when the storage refuses to keep it. The HAL takes the board's
    battery gauge and light flash, as the board's own HAL does."""
    fit(hal, board)
    app = ClockApp(hal, tuple(board.BUTTONS), kinds.screen_for(board), hal.ticks_ms())
    if spec is not None:
        choose(app, COMMAND_LINE, spec)
    return app


def fit(hal, board):
    """Give a desktop HAL what the board file says of its power: the gauge of its cells and
    current (hal.battery.for_board), the flash of a running light on battery."""
    hal.gauge = battery.for_board(board)
    hal.leds.flash_ms = getattr(board, "LED_FLASH_MS", 0)


def choose(app, name, spec):
    """Add `spec` as preset `name` (replacing one of that name) and choose it; ValueError when
    the storage refuses it (the clock's list and choice then stay as they were)."""
    try:
        app.choose_preset(app.add_preset(name, spec, True))
    except OSError as error:
        raise ValueError("the preset could not be stored: %s" % problem_text(error))


def preset_line(app):
    """'Blitz 5+3: 5 min + 3 s/move', for the game the app is playing; an Armageddon says who
    has the draw odds and on which side."""
    name = app.game_preset_name() or "saved game"  # a resumed game's may be gone
    try:
        setup = registry.parse(app.spec)
    except PresetError:
        return name
    if "armageddon" not in (name + app.spec).lower() or setup.first == setup.second:
        return "%s: %s" % (name, describe(setup, name + " " + app.spec))
    # The draw odds first, and each side's time under its player's name: the end of the line
    # is what a narrow terminal cuts, and the display shows the times already.
    first, second = players(app.spec, name)
    times = describe(setup).replace("first: ", first + " ", 1)
    times = times.replace(" | second: ", " | %s " % second, 1)
    return "%s (draw odds: %s, %s): %s" % (name, second, side_name(app, 1), times)


def side_name(app, player):
    """'left' or 'right': where player 0 (first) or 1 (second) has their lever."""
    return "left" if app.player_on(0) == player else "right"


def turn_line(app):
    """Whose the game is, in words: who starts it, whose clock runs, who is on move in a pause,
    who lost on time."""
    game = app.game
    names = players(app.spec, app.game_preset_name() or "")
    state = game.state()
    if state == READY:
        if game.setup.first != game.setup.second:  # the sides are fixed by their times
            return "a lever starts %s's, %s; +/- swaps" % (names[0], side_name(app, 0))
        return "a lever starts the other clock (%s's)" % names[0]
    mover = game.turn()
    if state == OVER:
        if game.reason() == TIME:
            loser = game.loser()
            return "%s (%s) lost on time" % (names[loser], side_name(app, loser))
        return ""
    doing = "to move" if state == PAUSED else "running"
    return "%s: %s (%s)" % (doing, side_name(app, mover), names[mover])
