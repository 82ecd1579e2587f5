# SPDX-License-Identifier: MIT
# Scripted runs: timed key presses in virtual time on the real app, frames printed as text.
#
# A script is lines of:
#   # a comment (also after a command)
#   preset TEXT                  the time control, any notation (before any `at` or `show`)
#   at T press BUTTON [hold MS]  press left, right, play, set, plus or minus at T ms, held
#                                MS ms (default 60; e.g. `hold 1200` for a long press)
#   show T                       print the display at T ms: "t=T state=... leds=..." and the
#                                frame in a +---+ box
# Times are whole milliseconds from the start and never go back.
import tempfile

import sim  # noqa: F401  (puts the firmware on the path)
from app.lights import OFF, ON, SLOW
from app.runner import Runner
import ticks
from clock import display
from hal import buttons
from notation.errors import PresetError
from sim import boards, frames
from sim.realtime import TAP_MS, folder_storage
from sim.virtual_hal import VirtualHal

_LONGEST = ticks.PERIOD // 2 - 1  # the farthest a wrap-safe difference reaches


class ScriptError(ValueError):
    """A line of the script that cannot be run, with its number."""


def parse(text, board, name="script"):
    """((line, preset text) or None, [(line, T, "press", button, hold) or (line, T, "show")])."""
    preset = None
    steps = []
    last = 0
    for number, line in enumerate(text.split("\n"), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        where = "%s line %d" % (name, number)
        command = words[0].lower()
        if command == "preset":
            if steps or preset is not None:
                raise ScriptError("%s: `preset` comes once, before any `at` or `show`" % where)
            if len(words) == 1:
                raise ScriptError("%s: `preset` needs the preset text" % where)
            preset = (number, line.split("#", 1)[0].split(None, 1)[1].strip())
            continue
        if command == "show" and len(words) == 2:
            step = (number, _time(words[1], where), "show")
        elif command == "at" and len(words) in (4, 6) and words[2].lower() == "press":
            hold = TAP_MS
            if len(words) == 6:
                if words[4].lower() != "hold":
                    raise ScriptError("%s: expected `hold MS`, found %r" % (where, words[4]))
                hold = _time(words[5], where)
                if hold == 0:
                    raise ScriptError("%s: a press is held at least 1 ms" % where)
            step = (number, _time(words[1], where), "press", _button(words[3], board, where), hold)
        else:
            raise ScriptError(
                "%s: expected `preset TEXT`, `at T press BUTTON [hold MS]` or `show T`, found %r"
                % (where, line.strip())
            )
        if step[1] < last:
            raise ScriptError(
                "%s: %d ms is before %d ms above: times never go back" % (where, step[1], last)
            )
        last = step[1]
        steps.append(step)
    return preset, steps


def _time(word, where):
    if not word.isdigit() or int(word) > _LONGEST:
        raise ScriptError("%s: expected whole milliseconds, found %r" % (where, word))
    return int(word)


def _button(word, board, where):
    name = word.lower()
    if name in buttons.NAMES and buttons.NAMES.index(name) in board.BUTTONS:
        return buttons.NAMES.index(name)
    raise ScriptError(
        "%s: no button %r on %s; it has %s"
        % (where, word, board.NAME, ", ".join(boards.button_names(board)))
    )


def run(text, board, spec=None, out=None, name="script", record=False):
    """Run the script; write the output lines with out(line). `spec` (from --preset) is used
    instead of the script's own preset. With `record`, the last line is the game's record as
    the clock's GAME gives it (docs/records.md). Raises ScriptError or PresetError."""
    preset, steps = parse(text, board, name)
    if spec is None and preset is not None:
        try:
            spec = boards.preset_spec(preset[1])
        except PresetError as error:
            raise ScriptError("%s line %d: %s" % (name, preset[0], error))
    with tempfile.TemporaryDirectory(prefix="clock-script-") as folder:
        hal = VirtualHal(folder_storage(folder), 0, boards.battery_mv(board))
        app = boards.build_app(hal, board, spec)
        runner = Runner(hal, app)
        out("board %s, preset %s" % (board.NAME, boards.preset_line(app)))
        tones = 0
        for step in steps:
            if step[2] == "press":
                hal.press(step[3], step[1], step[4])
                continue
            _run_until(hal, runner, step[1])
            for stamp, hz, ms in hal.buzzer.tones[tones:] if board.BUZZER is not None else ():
                out("tone t=%d %d Hz %d ms" % (stamp, hz, ms))
            tones = len(hal.buzzer.tones)
            out(_header(app, hal.now))
            for line in boards.boxed(frames.frame_text(board, hal.display.frame).split("\n")):
                out(line)
        if record:
            _run_until(hal, runner, steps[-1][1] if steps else 0)
            out(_record(app))


def _record(app):
    """The game's record as one line of JSON, or why there is none."""
    from app import game_record

    if app.record.owner is None:
        raise ScriptError("no game started in the script: there is no record to print")
    parts = []
    game_record.write(app, parts.append)
    return "".join(parts)


def _run_until(hal, runner, stamp):
    """Step the loop until virtual time reaches `stamp` and every edge due by then is taken."""
    hal.horizon = stamp
    while ticks.diff(stamp, hal.now) > 0 or hal.next_edge() == hal.now or hal.edges.pending():
        runner.step()
    runner.step()  # render at `stamp` itself
    hal.horizon = None


def leds_text(lights):
    """The app's Lights as a header names them: "none", "left", "right:slow", "left+right"."""
    parts = []
    for name, mode in (("left", lights.left), ("right", lights.right)):
        if mode != OFF:
            parts.append(
                name if mode == ON else "%s:%s" % (name, "slow" if mode == SLOW else "fast")
            )
    return "+".join(parts) or "none"


def _header(app, now):
    """The time, the app's state, the lights ("none", "left", "right:slow", "left+right": a
    blinking light by its mode, whatever its level at `now`) and both clocks, or the menu."""
    text = "t=%d state=%s leds=%s" % (now, app.state_name(), leds_text(app.lights))
    menu = app.open_menu()
    if menu is not None:
        return text + " menu=%s" % menu.title
    left, right = app.views(now)
    for side, view in (("left", left), ("right", right)):
        text += " %s=%s" % (side, display.text(view.time_ms))
        if view.flagged:
            text += "(flag)"
    return text
