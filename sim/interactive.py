# The terminal simulator: the board's app and runner in real time, its display drawn with curses.
import curses
import locale
import os
import sys

import sim  # noqa: F401  (puts the firmware on the path)
from app import gestures
from app.clock_app import STATE_NAMES
from app.runner import Runner
from clock import display, ticks
from hal import buttons
from sim import boards
from sim.realtime import TAP_MS, BellBuzzer, RealtimeHal, folder_storage
from ui import canvas

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


def braille_text(frame):
    """The 128x64 frame at half size: 16 lines of 64 braille cells, 2x4 pixels each."""
    dots = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08))
    dots += ((1, 1, 0x10), (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))
    lines = []
    for y in range(0, canvas.HEIGHT, 4):
        cells = []
        for x in range(0, canvas.WIDTH, 2):
            bits = 0
            for dx, dy, bit in dots:
                if canvas.pixel(frame, x + dx, y + dy):
                    bits |= bit
            cells.append(chr(0x2800 + bits) if bits else " ")
        lines.append("".join(cells))
    return "\n".join(lines)


class Screen:
    """Draws the display in a box and the status and keys beside or below it."""

    def __init__(self, scr, board, hal, app, help_lines, where):
        self.scr = scr
        self.board = board
        self.hal = hal
        self.app = app
        self.help = help_lines
        self.where = where
        self.start = hal.ticks_ms()
        self.unicode = "UTF" in locale.nl_langinfo(locale.CODESET).upper()
        self._writes = -1
        self._pictures = ()

    def pictures(self):
        """The frame boxed, full size and (OLED) half size, redone when the frame changed."""
        if self.hal.display.writes != self._writes:
            self._writes = self.hal.display.writes
            frame = self.hal.display.frame
            full = boards.frame_text(self.board, frame).split("\n")
            if not self.unicode:
                pictures = ([line.translate(_ASCII) for line in full],)
            elif self.board.DISPLAY == "oled":
                pictures = (full, braille_text(frame).split("\n"))
            else:
                pictures = (full,)
            self._pictures = [boards.boxed(picture) for picture in pictures]
        return self._pictures

    def status(self):
        app = self.app
        lines = [
            "board: %s (%s)   storage: %s" % (self.board.NAME, self.board.DISPLAY, self.where)
        ]
        lines.append("preset: " + boards.preset_line(app))
        state = "state: " + STATE_NAMES[app.state]
        if app.menu is not None:
            items = app.menu.lines()
            marked = ["[%s]" % s if i == app.menu.selected else s for i, s in enumerate(items)]
            state += "  %s: %s" % (app.menu.title, " | ".join(marked))
        else:
            for side, view in (("left", app.left), ("right", app.right)):
                state += "  %s %s%s" % (side, display.text(view.time_ms), " FLAG" * view.flagged)
        held = [buttons.NAMES[button] for button in sorted(self.hal.held)]
        if held:
            state += "  (holding %s)" % " ".join(held)
        lines.append(state)
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
        info = self.status() + [""] + self.help
        info_w = max(len(line) for line in info)
        for picture in self.pictures():
            box_h, box_w = len(picture), len(picture[0])
            if cols >= box_w + 2 + info_w and rows >= max(box_h, len(info)):
                at = (0, box_w + 2)  # beside
            elif cols >= max(box_w, info_w) and rows >= box_h + 1 + len(info):
                at = (box_h + 1, 0)  # below
            else:
                continue
            for n, line in enumerate(picture):
                self._put(n, 0, line)
            for n, line in enumerate(info):
                self._put(at[0] + n, at[1], line)
            break
        else:
            self._put(0, 0, "The terminal is too small (%d x %d) for this display." % (cols, rows))
            self._put(1, 0, info[2])
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
    buzzer = BellBuzzer(curses.beep, board.BUZZER is not None)
    storage = folder_storage(folder)
    hal = RealtimeHal(storage, _read_key(scr), keys, buzzer, boards.battery_mv(board))
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
