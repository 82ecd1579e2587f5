# SPDX-License-Identifier: MIT
# The terminal simulator: the board's app and runner in real time, its display drawn with curses.
# The two running-side lights sit in the box's bottom edge, under each half: "(●)" lit, "( )" dark.
import curses
import locale
import os
import sys
import textwrap

import sim  # noqa: F401  (puts the firmware on the path)
from app import gestures
from app.runner import Runner
import ticks
from clock import display
from hal import buttons
from sim import boards, frames
from sim.hal_base import DesktopBuzzer
from sim.realtime import TAP_MS, RealTimeHal, folder_storage

SET_HOLD_MS = gestures.LONG_MS + 200
RESET_HOLD_MS = gestures.RESET_MS + 100
_ASCII = str.maketrans("\u2588\u2580\u2584\u2022", '#".:')


def keymap(board):
    """{key: (button, hold_ms)} for the buttons the board has, and the help lines."""
    present = board.BUTTONS
    keys = {}

    def bind(button, hold, *names):
        for name in names:
            keys[ord(name) if isinstance(name, str) else name] = (button, hold)

    bind(buttons.LEFT, TAP_MS, "a", "A", curses.KEY_LEFT)
    bind(buttons.RIGHT, TAP_MS, "l", "L", curses.KEY_RIGHT)
    bind(buttons.PLAY, TAP_MS, " ")
    lines = ["a or Left   left lever      l or Right   right lever", "space       play / pause"]
    if buttons.SET in present:
        bind(buttons.SET, TAP_MS, "s", "S")
        bind(buttons.SET, RESET_HOLD_MS, "r", "R")
        lines[1] += "    s            set"
        lines.append("r           reset (holds set %.1f s)" % (RESET_HOLD_MS / 1000))
    else:
        bind(buttons.PLAY, SET_HOLD_MS, "s", "S")
        bind(buttons.PLAY, RESET_HOLD_MS, "r", "R")
        lines[1] += "    s            set (holds play %.1f s)" % (SET_HOLD_MS / 1000)
        lines.append("r           reset (holds play %.1f s)" % (RESET_HOLD_MS / 1000))
    if buttons.PLUS in present and buttons.MINUS in present:
        bind(buttons.PLUS, TAP_MS, "+", "=", curses.KEY_UP)
        bind(buttons.MINUS, TAP_MS, "-", "_", curses.KEY_DOWN)
        lines.append("+ = or Up   plus            - or Down    minus")
    else:
        lines.append("in menus the levers are minus (left) and plus (right)")
    lines.append("m           mute the bell   q            quit")
    return keys, lines


def key_lines(board):
    """The keys in two short lines, for a terminal with no room for the table of them."""
    present = board.BUTTONS
    second = "s set   r reset" if buttons.SET in present else "s set, r reset (hold play)"
    if buttons.PLUS in present and buttons.MINUS in present:
        second += "   +/Up plus   -/Down minus"
    else:
        second += "   menus: levers -/+"
    return [
        "a/Left left lever   l/Right right lever   space play/pause",
        second + "   m mute   q quit",
    ]


def menu_text(items, selected, room):
    """A menu's items joined by " | ", the selected one in brackets. When they do not fit in
    `room` characters, "..." stands for those farthest from it, on one side or both, until they
    do or it is the only one left."""
    marked = ["[%s]" % item if n == selected else item for n, item in enumerate(items)]
    first, end = 0, len(marked)

    def joined():
        text = " | ".join(["..."] * (first > 0) + marked[first:end])
        return text + " | ..." * (end < len(marked))

    keep = max(selected, 0)
    while len(joined()) > room and end - first > 1:
        if keep - first > end - 1 - keep:
            first += 1
        else:
            end -= 1
    return joined()


STATUS_LINES = 4  # board and storage, preset, state, last tone (and beside the picture, a menu's)


def lights_edge(width, left_on, right_on, unicode=True):
    """The bottom edge of a box `width` wide inside, with the left and right lights in it under
    the middle of each half: "(●)" ("(*)" without unicode) lit, "( )" dark."""
    edge = list("-" * width)
    lit = "(\u25cf)" if unicode else "(*)"
    for middle, on in ((width // 4, left_on), (width - width // 4, right_on)):
        edge[middle - 1 : middle + 2] = lit if on else "( )"
    return "+" + "".join(edge) + "+"


class Screen:
    """Draws the display in a box and the status and keys beside or below it: the largest
    picture of the display that fits with them, whatever the status lines hold: they are cut
    to the room there is, so a long line (a menu's, a storage path) never takes the picture
    away."""

    def __init__(self, scr, board, hal, app, help_lines, where):
        self.scr = scr
        self.board = board
        self.hal = hal
        self.app = app
        self.help = help_lines
        self.short_keys = key_lines(board)
        self.where = where
        self.start = hal.ticks_ms()
        self.unicode = "UTF" in locale.nl_langinfo(locale.CODESET).upper()
        self._writes = -1
        self._pictures = ()

    def pictures(self):
        """The frame boxed, largest first: full size and (OLED) in braille at the sizes between
        it and half size, then half size; redone when the frame changed."""
        if self.hal.display.writes != self._writes:
            self._writes = self.hal.display.writes
            frame = self.hal.display.frame
            full = frames.frame_text(self.board, frame).split("\n")
            half = frames.half_text(self.board, frame)
            if not self.unicode:
                pictures = ([line.translate(_ASCII) for line in full],)
            elif half is not None:
                between = [frames.half_text(self.board, frame, scale) for scale in frames.BETWEEN]
                pictures = [full] + [text.split("\n") for text in between + [half]]
            else:
                pictures = (full,)
            self._pictures = [boards.boxed(picture) for picture in pictures]
        return self._pictures

    def _key_choices(self):
        """(lines under the status, rows between the box and the status when below it): the
        table of keys, then the short key lines."""
        return (([""] + self.help, 1), (self.short_keys, 0))

    def layout(self, rows, cols):
        """(picture, (row, column) of the status, its width, key lines, beside) for the largest
        picture that fits in rows x cols, the status and keys beside it or below; None if none
        fits. Beside the picture each of a menu's lines has a line of its own."""
        for picture in self.pictures():
            box_h, box_w = len(picture), len(picture[0])
            for keys, gap in self._key_choices():
                keys_w = max(len(line) for line in keys)
                info_h = len(self.status(cols, True)) + len(keys)
                if cols >= box_w + 2 + keys_w and rows >= max(box_h, info_h):
                    return picture, (0, box_w + 2), cols - box_w - 2, keys, True
                info_h = STATUS_LINES + len(keys)
                if cols >= max(box_w, keys_w) and rows >= box_h + gap + info_h:
                    return picture, (box_h + gap, 0), cols, keys, False
        return None

    def smallest(self):
        """(rows, cols) of the smallest terminal the simulator draws in."""
        picture = self.pictures()[-1]
        keys = self.short_keys
        rows = len(picture) + STATUS_LINES + len(keys)
        return rows, max(len(picture[0]), max(len(line) for line in keys))

    def status(self, width, beside=False):
        """The status lines. A menu's lines are cut to `width` around the selected one on the
        state line, or `beside` the picture, where there are rows to spare, one line each."""
        app = self.app
        lines = [
            "board: %s (%s)   storage: %s" % (self.board.NAME, self.board.DISPLAY, self.where)
        ]
        lines.append("preset: " + boards.preset_line(app))
        held = [buttons.NAMES[button] for button in sorted(self.hal.held)]
        holding = "  (holding %s)" % " ".join(held) if held else ""
        state = "state: " + app.state_name()
        menu = app.open_menu()
        items = []
        if menu is not None:
            shown, selected = menu.lines(), menu.selected
            if menu.name == "arbiter":
                # Both times and the field: the keys below say what SET and PLAY do, and the
                # 7-segment board's own line is the picture's.
                shown, selected = shown[:3], 2
            state += "  %s" % menu.title
            if beside:
                marks = ["[%s]" if n == selected else " %s" for n in range(len(shown))]
                items = [mark % line for mark, line in zip(marks, shown)]
            else:
                state += ": "
                room = width - len(state) - len(holding)
                state += menu_text(shown, selected, room)
        else:
            left, right = app.views(self.hal.ticks_ms())
            for side, view in (("left", left), ("right", right)):
                state += "  %s %s%s" % (side, display.text(view.time_ms), " FLAG" * view.flagged)
            turn = boards.turn_line(app)
            if turn:
                state += "  " + turn
        lines.append(state + holding)
        lines += ["  " + item for item in items]
        buzzer = self.hal.buzzer
        tone = "last tone: none"
        if buzzer.last is not None:
            hz, ms, stamp = buzzer.last
            at = ticks.diff(stamp, self.start) / 1000
            tone = "last tone: %d Hz for %d ms at %.1f s" % (hz, ms, at)
        if not buzzer.present:
            tone += "   (this board has no buzzer)"
        else:
            tone += "   bell: %s" % ("muted" if buzzer.muted else "on")
        lines.append(tone)
        return lines

    def draw(self):
        scr = self.scr
        rows, cols = scr.getmaxyx()
        scr.erase()
        found = self.layout(rows, cols)
        if found is None:
            message = (
                "The terminal is too small (%d x %d): the simulator needs at least %d x %d."
                % ((cols, rows) + self.smallest()[::-1])
            )
            lines = textwrap.wrap(message, max(1, cols))
            lines += [self.status(cols)[2]] + self.short_keys
            for n, line in enumerate(lines):
                self._put(n, 0, line)
        else:
            picture, (top, left), width, keys, beside = found
            leds = self.hal.leds
            edge = lights_edge(len(picture[-1]) - 2, leds.left_on, leds.right_on, self.unicode)
            for n, line in enumerate(picture[:-1] + [edge]):
                self._put(n, 0, line)
            for n, line in enumerate(self.status(width, beside) + keys):
                self._put(top + n, left, line)
        scr.refresh()

    def _put(self, y, x, text):
        rows, cols = self.scr.getmaxyx()
        if 0 <= y < rows and x < cols:
            try:
                self.scr.addstr(y, x, text[: cols - x])
            except curses.error:
                pass  # the last cell of the screen: written, but curses says ERR


def _read_key(scr):
    def read(timeout_ms):
        scr.timeout(timeout_ms)
        key = scr.getch()
        return None if key == -1 else key

    return read


def _loop(scr, board, spec, folder, where):
    try:
        curses.curs_set(0)
    except curses.error:
        pass
    scr.keypad(True)
    keys, help_lines = keymap(board)
    buzzer = DesktopBuzzer(curses.beep, board.BUZZER is not None)
    storage = folder_storage(folder)
    hal = RealTimeHal(storage, _read_key(scr), keys, buzzer, boards.battery_mv(board))
    app = boards.build_app(hal, board, spec)
    runner = Runner(hal, app)
    screen = Screen(scr, board, hal, app, help_lines, where)
    app.render(hal.ticks_ms())  # the first frame at once, not at the loop's first wake
    while True:
        screen.draw()
        runner.step()
        for key in hal.keys:
            if key in (ord("q"), ord("Q")):
                return 0
            if key in (ord("m"), ord("M")):
                buzzer.muted = not buzzer.muted
            elif key == curses.KEY_RESIZE:
                curses.update_lines_cols()
                scr.clear()
        del hal.keys[:]


def play(board, spec, folder, where=None):
    """Run the simulator in this terminal until `q` (0) or Ctrl-C (130)."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(
            "error: the simulator needs a terminal; `python -m sim script` runs without one",
            file=sys.stderr,
        )
        return 2
    locale.setlocale(locale.LC_ALL, "")
    os.environ.setdefault("ESCDELAY", "25")  # a lone Esc is not held back for a second
    try:
        return curses.wrapper(_loop, board, spec, folder, where or folder)
    except KeyboardInterrupt:
        return 130
    except curses.error as error:
        print("error: this terminal cannot run the simulator (%s)" % error, file=sys.stderr)
        return 2
    except ValueError as error:  # the storage refused the --preset
        print("error: %s" % error, file=sys.stderr)
        return 2
