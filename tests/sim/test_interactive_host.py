# SPDX-License-Identifier: MIT
# The interactive simulator as a person uses it: keys into a pseudo-terminal, the screen read back.
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections import namedtuple

import pexpect
import pytest

from app import gestures
from sim import boards as sim_boards
from sim import frames, interactive
from sim.hal_base import DesktopBuzzer
from sim.realtime import RealTimeHal, folder_storage
from terminal_env import terminal_env

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROWS, COLS = 45, 140
Status = namedtuple("Status", "state left left_flag right right_flag")
_STATUS = re.compile(r"state: (\w+)(?:  left (\S+)( FLAG)?  right (\S+)( FLAG)?)?")
_SEQUENCE = re.compile(
    r"\x1b\[([0-9;?>=]*)[ -/]*([@-~])|\x1b([()][0-9A-Za-z]|[^\[()])"
    r"|([\x00-\x1a\x1c-\x1f])|([^\x00-\x1f]+)"
)


class Terminal:
    """Just enough of an xterm to follow what ncurses writes to it: a grid of characters."""

    def __init__(self, rows, cols):
        self.resize(rows, cols)
        self.y = self.x = 0
        self._rest = ""

    def resize(self, rows, cols):
        self.rows, self.cols = rows, cols
        self.grid = [[" "] * cols for _ in range(rows)]
        self.y = self.x = 0

    def lines(self):
        return ["".join(row).rstrip() for row in self.grid]

    def feed(self, data):
        data = self._rest + data
        self._rest = ""
        at = 0
        while at < len(data):
            match = _SEQUENCE.match(data, at)
            if match is None:
                self._rest = data[at:]  # a sequence cut in two: wait for the rest
                return
            at = match.end()
            params, final, escape, control, text = match.groups()
            if text is not None:
                for char in text:
                    self._put(char)
            elif control == "\r":
                self.x = 0
            elif control == "\n":
                self.y = min(self.rows - 1, self.y + 1)
            elif control == "\b":
                self.x = max(0, self.x - 1)
            elif final is not None and not params.startswith(("?", ">")):
                self._csi([int(p) if p else 0 for p in params.split(";")], final)

    def _put(self, char):
        if self.x < self.cols and self.y < self.rows:
            self.grid[self.y][self.x] = char
        self.x += 1

    def _csi(self, numbers, final):
        n = max(1, numbers[0])
        row = self.grid[self.y]
        if final == "H":
            self.y = min(self.rows, n) - 1
            self.x = min(self.cols, max(1, numbers[1] if len(numbers) > 1 else 1)) - 1
        elif final in "GdABCD":
            moves = {"G": (self.y, n - 1), "d": (n - 1, self.x), "A": (self.y - n, self.x)}
            moves.update({"B": (self.y + n, self.x), "C": (self.y, self.x + n)})
            y, x = moves.get(final, (self.y, self.x - n))
            self.y, self.x = max(0, min(self.rows - 1, y)), max(0, min(self.cols - 1, x))
        elif final == "K":
            start, end = {0: (self.x, self.cols), 1: (0, self.x + 1)}.get(
                numbers[0], (0, self.cols)
            )
            row[start:end] = [" "] * (end - start)
        elif final == "J":
            first = self.y + 1 if numbers[0] == 0 else 0
            if numbers[0] == 0:
                row[self.x :] = [" "] * (self.cols - self.x)
            for other in self.grid[first:]:
                other[:] = [" "] * self.cols
        elif final == "X":
            end = min(self.cols, self.x + n)
            row[self.x : end] = [" "] * (end - self.x)
        elif final == "b":  # repeat the character before
            for _ in range(n):
                self._put(row[self.x - 1] if self.x else " ")
        elif final == "@":  # insert blanks
            row[self.x : self.x] = [" "] * n
            del row[self.cols :]
        elif final == "P":  # delete characters
            del row[self.x : self.x + n]
            row.extend([" "] * (self.cols - len(row)))


_STARTED = []


@pytest.fixture(autouse=True)
def _end_sessions():
    """A test that fails halfway leaves no simulator running."""
    yield
    while _STARTED:
        _STARTED.pop().close(force=True)


def _default_interrupt():
    # A runner started in the background ignores SIGINT, and so would its children.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Session:
    """`python -m sim ARGS` in a pseudo-terminal, then `stty -a` to show the terminal it left."""

    def __init__(self, *args, rows=ROWS, cols=COLS):
        command = shlex.join([sys.executable, "-m", "sim", *args])
        env = terminal_env(TERM="xterm", LANG="C.UTF-8", LC_ALL="C.UTF-8")
        self.child = pexpect.spawn(
            "bash",
            ["-c", command + '; echo "exit=$?"; stty -a'],
            cwd=ROOT,
            env=env,
            dimensions=(rows, cols),
            encoding="utf-8",
            preexec_fn=_default_interrupt,
        )
        self.term = Terminal(rows, cols)
        self.raw = []
        _STARTED.append(self.child)

    def wait_for(self, found, timeout=10):
        """Read the screen until found(lines) is true (returns that); fail after `timeout` s."""
        end = time.monotonic() + timeout
        while True:
            result = found(self.term.lines())
            if result:
                return result
            if time.monotonic() > end:
                raise AssertionError("not on the screen:\n" + "\n".join(self.term.lines()))
            try:
                chunk = self.child.read_nonblocking(65536, timeout=0.05)
            except pexpect.TIMEOUT:
                continue
            self.raw.append(chunk)
            self.term.feed(chunk)

    def status(self, wanted=lambda status: True, timeout=10):
        """The plain status line once wanted(Status) is true: state, left, right, flags."""

        def found(lines):
            for line in lines:
                match = _STATUS.search(line)
                if match:
                    status = Status(*match.groups())
                    return status if wanted(status) else None
            return None

        return self.wait_for(found, timeout)

    def released(self):
        """Wait until the status line shows no button held down."""
        self.wait_for(
            lambda lines: [line for line in lines if "state: " in line and "holding" not in line]
        )

    def resize(self, rows, cols):
        self.term.resize(rows, cols)
        self.child.setwinsize(rows, cols)

    def finish(self):
        """Wait for the program to end: (exit status it printed, the stty -a that followed)."""
        self.child.expect(r"exit=(\d+)", timeout=10)
        self.raw.append(self.child.before)
        code = int(self.child.match.group(1))
        self.child.expect(pexpect.EOF, timeout=10)
        return code, self.child.before

    def box(self):
        """The display's picture: the lines inside the +---+ box."""

        def bottom(lines):
            return next((i for i in range(1, len(lines)) if lines[i].startswith("+-")), None)

        end = self.wait_for(bottom)  # the status beside the box can come before its last line
        width = self.term.lines()[0].index("+", 1)  # the top right corner
        return [line[1:width] for line in self.term.lines()[1:end]]


def _search(pattern, lines):
    for line in lines:
        found = re.search(pattern, line)
        if found:
            return found
    return None


def _seconds(text):
    minutes, _, seconds = text.rpartition(":")
    return int(minutes or 0) * 60 + float(seconds)


def _restored(stty):
    settings = stty.split()
    return "icanon" in settings and "echo" in settings and "-icanon" not in settings


def test_a_short_game_starts_pauses_flags_and_quits():
    sim = Session("--fresh", "--preset", "pgn:3")
    assert sim.status() == ("ready", "3.0", None, "3.0", None)
    ready = sim.box()
    sim.child.send("a")  # the left lever starts the right player's clock
    first = sim.status(lambda status: status.state == "running")
    assert first.left == "3.0" and first.left_flag is None
    later = sim.status(lambda status: status.right != first.right)
    assert later.state == "running" and _seconds(later.right) < _seconds(first.right)
    running = sim.box()
    assert running != ready
    bar = running[21]  # the running bar under the right clock, rows 42-43 of the OLED
    assert "\u2588" * 24 in bar[64:] and "\u2588" not in bar[:62]
    lit = "(\u25cf)"

    def lights(left, right):
        def found(lines):
            edges = [line for line in lines[1:] if line.startswith("+-")]
            return edges and (lit in edges[0][:66]) == left and (lit in edges[0][66:]) == right

        return found

    assert sim.wait_for(lights(False, True))  # the right light, in the box's bottom edge
    sim.child.send(" ")
    paused = sim.status(lambda status: status.state == "paused")
    assert sim.box() != running
    assert sim.wait_for(lights(False, True)) and sim.wait_for(lights(False, False))  # blinks
    sim.released()  # a key again while its button is down is a held key (key repeat)
    sim.child.send(" ")
    sim.status(lambda status: status.state == "running")
    over = sim.status(lambda status: status.state == "over", timeout=6)
    assert over == ("over", "3.0", None, "0.0", " FLAG") and _seconds(paused.right) > 0
    assert sim.wait_for(lambda lines: _search(r"last tone: 1200 Hz for 1500 ms", lines))
    digits = "".join(line[66:128] for line in sim.box()[5:20])
    assert digits.count("\u2588") > len(digits) // 2  # the flagged side's digits inverted
    sim.child.send("q")
    code, stty = sim.finish()
    assert code == 0 and _restored(stty)
    assert "\x1b[?1049l" in sim.raw[-1]  # it left the alternate screen


def test_ctrl_c_quits_and_restores_the_terminal():
    sim = Session("--fresh")
    assert sim.status().state == "ready"
    sim.wait_for(lambda lines: _search(r"preset: Blitz 5\+3: 5 min \+ 3 s/move", lines))
    sim.child.sendintr()
    code, stty = sim.finish()
    assert code == 130 and _restored(stty) and "Traceback" not in stty


def test_resizing_redraws_or_says_the_terminal_is_too_small():
    sim = Session("--fresh", "--preset", "G/5")
    assert sim.status().state == "ready"
    sim.resize(12, 50)
    sim.wait_for(lambda lines: _search("terminal is too small", lines))
    assert sim.status().state == "ready"  # the status line stays, for playing blind
    assert sim.wait_for(lambda lines: _search("needs at least 66 x 24", [" ".join(lines)]))
    sim.resize(24, 80)  # the OLED at half size, in braille, the keys in two short lines
    sim.wait_for(lambda lines: _search("[\u2801-\u28ff]", lines) and _search("q quit", lines))
    sim.resize(32, 80)  # room for the table of keys
    sim.wait_for(lambda lines: _search("[\u2801-\u28ff]", lines) and _search("m  +mute", lines))
    sim.resize(ROWS, COLS)
    sim.wait_for(lambda lines: lines[0].startswith("+" + "-" * 128 + "+"))
    sim.child.send("l")
    assert sim.status(lambda status: status.left != "05:00").left.startswith("04:5")
    sim.child.send("q")
    assert sim.finish()[0] == 0


class Grid:
    """The part of a curses window Screen draws with: rows x cols cells."""

    def __init__(self, rows, cols):
        self.rows, self.cols = rows, cols
        self.erase()

    def getmaxyx(self):
        return self.rows, self.cols

    def erase(self):
        self.cells = [[" "] * self.cols for _ in range(self.rows)]

    def addstr(self, y, x, text):
        assert x + len(text) <= self.cols, "past the edge: %r" % text
        self.cells[y][x : x + len(text)] = text

    def refresh(self):
        pass

    def lines(self):
        return ["".join(row).rstrip() for row in self.cells]


LONG_STORAGE = "/home/someone/.local/state/tournament-clock/pico_tm1637"


def drawn(rows, cols, board="pico_oled", actions=(), where=LONG_STORAGE, folder=None, spec=None):
    """The lines a Screen draws in rows x cols, after `actions` (app/gestures.py)."""
    module = sim_boards.load(board)
    storage = folder_storage(str(folder))
    hal = RealTimeHal(storage, lambda timeout: None, {}, DesktopBuzzer(), ticks_ms=lambda: 0)
    app = sim_boards.build_app(hal, module, spec)
    for action in actions:
        app.on_action(action, 0)
    app.render(0)
    grid = Grid(rows, cols)
    help_lines = interactive.keymap(module)[1]
    screen = interactive.Screen(grid, module, hal, app, help_lines, where)
    screen.unicode = True
    screen.draw()
    return grid.lines(), hal.display.frame


def _braille_box(frame, left_on=False, right_on=False):
    picture = frames.oled_braille(frame).split("\n")
    edge = interactive.lights_edge(64, left_on, right_on)
    return ["+" + "-" * 64 + "+"] + ["|%s|" % line for line in picture] + [edge]


def test_a_120_x_40_terminal_has_the_largest_braille_picture_that_fits(tmp_path):
    lines, frame = drawn(40, 120, folder=tmp_path)
    picture = frames.oled_braille(frame, scale=(7, 4)).split("\n")
    assert [line[1:113] for line in lines[1:29]] == picture  # 1.75 x the half size: 112 x 28
    assert lines[30].startswith("board: pico_oled (oled)")
    assert sum(1 for line in lines if not line.strip()) <= 4


def test_an_80_x_24_terminal_has_the_oled_in_braille_the_status_and_the_keys(tmp_path):
    lines, frame = drawn(24, 80, folder=tmp_path)
    assert [line.ljust(66) for line in lines[:18]] == _braille_box(frame)
    assert lines[18].startswith("board: pico_oled (oled)   storage: /home/someone/")
    assert lines[19] == "preset: Blitz 5+3: 5 min + 3 s/move"
    assert (
        lines[20]
        == "state: ready  left 05:00  right 05:00  a lever starts the other clock (White's)"
    )
    assert lines[21] == "last tone: none   bell: on"
    assert lines[22] == "a/Left left lever   l/Right right lever   space play/pause"
    assert lines[23] == "s set   r reset   +/Up plus   -/Down minus   m mute   q quit"


def test_the_seven_segment_board_fits_80_x_24_with_its_keys_table(tmp_path):
    lines, _ = drawn(24, 80, "pico_tm1637", folder=tmp_path)
    assert lines[0] == "+" + "-" * 56 + "+" and lines[6] == interactive.lights_edge(56, 0, 0)
    assert lines[8].startswith("board: pico_tm1637 (tm1637)   storage: /home/someone/.local/")
    assert len(lines[8]) == 80  # the storage cut at the edge
    assert (
        lines[10]
        == "state: ready  left 05:00  right 05:00  a lever starts the other clock (White's)"
    )
    assert lines[13] == "a or Left   left lever      l or Right   right lever"


def test_a_big_terminal_keeps_the_oled_pixel_for_pixel(tmp_path):
    dark = interactive.lights_edge(128, False, False)
    lines, _ = drawn(45, 140, folder=tmp_path)
    assert lines[0] == "+" + "-" * 128 + "+" and lines[33] == dark
    assert lines[35].startswith("board: pico_oled") and lines[39] == ""
    assert lines[40].startswith("a or Left   left lever")
    lines, _ = drawn(40, 130, folder=tmp_path)  # no room for the table: the short key lines
    assert lines[0] == "+" + "-" * 128 + "+" and lines[33] == dark
    assert (
        lines[36]
        == "state: ready  left 05:00  right 05:00  a lever starts the other clock (White's)"
    )
    assert lines[39].endswith("m mute   q quit")


def _arbiter_actions():
    # the right clock runs (the left lever started it), pause, the arbiter's menu
    return [gestures.LEVER_LEFT, gestures.PLAY, gestures.SET]


def test_beside_the_picture_the_arbiter_s_lines_are_one_each_and_whole(tmp_path):
    lines, _ = drawn(20, 120, actions=_arbiter_actions(), folder=tmp_path)
    panel = [line[68:] for line in lines]  # right of the 66-wide braille box: too low for more
    at = panel.index("state: arbiter  Arbiter")
    assert panel[at + 1 : at + 4] == ["   L 05:00 #0", "   R 05:03 #0", "  [Left time +-1 min]"]
    assert panel[at + 4].startswith("last tone:")


def test_below_the_picture_the_arbiter_s_line_keeps_the_time_being_corrected(tmp_path):
    lines, _ = drawn(24, 80, actions=_arbiter_actions(), folder=tmp_path)
    state = _search(r"^state: arbiter.*$", lines).group(0)
    assert state == "state: arbiter  Arbiter: L 05:00 #0 | R 05:03 #0 | [Left time +-1 min]"
    lines, _ = drawn(24, 80, "pico_tm1637", actions=_arbiter_actions(), folder=tmp_path)
    assert _search(r"^state: arbiter  Arbiter: L 05:00 #0 \| R 05:03 #0 \| \[Left", lines)


def test_the_state_line_names_whose_clock_runs_in_the_game_s_colours(tmp_path):
    lines, _ = drawn(24, 80, actions=[gestures.LEVER_LEFT], folder=tmp_path)
    assert _search(r"^state: running  left 05:00  right 05:03  running: right \(White\)$", lines)
    lines, _ = drawn(24, 80, actions=[gestures.LEVER_RIGHT, gestures.PLAY], folder=tmp_path)
    assert _search(r"^state: paused  .*  to move: left \(White\)$", lines)
    module = sim_boards.load("pico_oled")
    hal = RealTimeHal(folder_storage(str(tmp_path / "go")), lambda t: None, {}, DesktopBuzzer())
    app = sim_boards.build_app(hal, module, "go:45m 3x30s")
    app.on_action(gestures.LEVER_RIGHT, 0)
    assert sim_boards.turn_line(app) == "running: left (Black)"  # go: Black moves first


def test_armageddon_says_who_has_the_draw_odds_and_where(tmp_path):
    module = sim_boards.load("pico_oled")
    hal = RealTimeHal(folder_storage(str(tmp_path)), lambda t: None, {}, DesktopBuzzer())
    app = sim_boards.build_app(hal, module, "armageddon 5/4 +2")
    line = sim_boards.preset_line(app)
    assert line == (
        "Command line (draw odds: Black, right): White 5 min + 2 s/move | Black 4 min + 2 s/move"
    )
    assert sim_boards.turn_line(app) == "a lever starts White's, left; +/- swaps"
    app.on_action(gestures.PLUS, 0)  # the sides swapped: White on the right
    assert sim_boards.preset_line(app).startswith("Command line (draw odds: Black, left): ")
    assert sim_boards.turn_line(app) == "a lever starts White's, right; +/- swaps"
    factory = sim_boards.build_app(hal, module)
    factory.choose_preset(factory.presets.index_of("Armageddon 5/4"))
    line = sim_boards.preset_line(factory)
    assert line == "Armageddon 5/4 (draw odds: Black, right): White 5 min | Black 4 min"
    # On an 80 x 24 terminal the status line keeps who has the draw odds.
    drawn_lines, _ = drawn(24, 80, "pico_oled", folder=tmp_path / "small", spec="armageddon 5/4")
    assert any("(draw odds: Black, right)" in text for text in drawn_lines), drawn_lines


def test_the_lights_sit_in_the_box_s_bottom_edge_under_each_half():
    edge = interactive.lights_edge
    assert edge(64, True, False) == "+" + "-" * 15 + "(\u25cf)" + "-" * 29 + "( )" + "-" * 14 + "+"
    assert edge(128, False, True, unicode=False) == (
        "+" + "-" * 31 + "( )" + "-" * 61 + "(*)" + "-" * 30 + "+"
    )


@pytest.mark.parametrize(
    "board, rows, cols, bottom",
    [("pico_oled", 24, 80, 17), ("pico_oled", 45, 140, 33), ("pico_tm1637", 24, 80, 6)],
)
def test_every_layout_shows_the_running_side_s_light(tmp_path, board, rows, cols, bottom):
    # The left lever starts the right clock: the right light is lit, the left dark.
    lines, _ = drawn(rows, cols, board, actions=[gestures.LEVER_LEFT], folder=tmp_path)
    assert _search(r"^state: running", lines)
    width = len(lines[0]) - 2
    assert lines[bottom] == interactive.lights_edge(width, False, True)
    lines, _ = drawn(rows, cols, board, actions=[gestures.LEVER_RIGHT], folder=tmp_path)
    assert lines[bottom] == interactive.lights_edge(width, True, False)


@pytest.mark.parametrize("rows, cols", [(24, 80), (32, 80), (24, 66), (45, 140)])
def test_a_menu_never_blanks_the_display(tmp_path, rows, cols):
    # The preset menu, at its last item: the widest status line, the selection at its end.
    actions = [gestures.SET, gestures.MINUS]
    lines, frame = drawn(rows, cols, actions=actions, folder=tmp_path)
    if cols < 130:
        assert [line.ljust(66) for line in lines[:18]] == _braille_box(frame)
    else:
        boxed = sim_boards.boxed(frames.oled_text(frame).split("\n"))
        assert lines[:34] == boxed[:-1] + [interactive.lights_edge(128, False, False)]
    state = _search(r"^state: menu  Presets: (.*)$", lines).group(1)
    assert state.endswith("[Factory presets]") and len(state) <= cols - 21


def test_a_menu_line_keeps_the_selected_item_in_sight():
    menu_text = interactive.menu_text
    items = ["Blitz 5+3", "Rapid 15+10", "FIDE classical", "Blitz 3+2", "Bullet 1+0"]
    assert menu_text(items, 1, 100) == (
        "Blitz 5+3 | [Rapid 15+10] | FIDE classical | Blitz 3+2 | Bullet 1+0"
    )
    assert menu_text(items, 1, 40) == "Blitz 5+3 | [Rapid 15+10] | ..."
    assert menu_text(items, 3, 40) == "... | FIDE classical | [Blitz 3+2] | ..."
    assert menu_text(items, 4, 30) == "... | Blitz 3+2 | [Bullet 1+0]"
    assert menu_text(items, 2, 5) == "... | [FIDE classical] | ..."


@pytest.mark.parametrize(
    "board, smallest",
    [("pico_oled", (24, 66)), ("pico_minimal", (24, 66)), ("pico_tm1637", (13, 60))],
)
def test_below_the_smallest_size_it_says_the_size_it_needs(tmp_path, board, smallest):
    rows, cols = smallest
    assert drawn(rows, cols, board, folder=tmp_path)[0][0].startswith("+---")
    for small in ((rows - 1, cols), (rows, cols - 1), (10, 30)):
        lines = drawn(*small, board, folder=tmp_path)[0]
        said = " ".join(lines).split(" state:")[0]
        assert said.startswith("The terminal is too small (%d x %d)" % small[::-1])
        assert said.endswith("the simulator needs at least %d x %d." % (cols, rows))
        assert _search(r"^state: ready  left 0", lines)


def test_the_minimal_board_has_three_buttons_and_long_presses():
    sim = Session("--fresh", "--board", "pico_minimal")
    sim.wait_for(  # the help's lines may reach the terminal in more than one write
        lambda lines: _search(r"s +set \(holds play 1\.2 s\)", lines)
        and _search("in menus the levers are minus", lines)
    )
    assert not _search(r"Up +plus", sim.term.lines())
    sim.child.send("s")  # play held 1.2 s: set, the preset menu
    sim.wait_for(lambda lines: _search(r"state: menu  Presets: \[Blitz 5\+3\]", lines))
    sim.child.send("l")  # the right lever is plus in menus
    sim.wait_for(lambda lines: _search(r"Presets: .*\[Rapid 15\+10\]", lines))
    sim.child.send("q")
    assert sim.finish()[0] == 0


def test_the_seven_segment_board_and_a_game_kept_between_runs(tmp_path):
    state = str(tmp_path / "state")
    sim = Session("--board", "pico_tm1637", "--state", state, "--preset", "G/5/3")
    assert sim.status().state == "ready"
    assert len(sim.box()) == 5  # two 4-digit modules, five lines tall
    sim.child.send("l")
    sim.status(lambda status: status.state == "running")
    sim.child.send("q")
    assert sim.finish()[0] == 0
    again = Session("--board", "pico_tm1637", "--state", state)
    again.wait_for(lambda lines: _search(r"state: resume  Resume game\?", lines))
    again.child.send("q")
    assert again.finish()[0] == 0


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "sim", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


def test_a_bad_preset_or_board_exits_2_with_the_message():
    done = run("--preset", "40/90/30, X/30", "--format", "chessclock")
    assert (
        done.returncode == 2 and "character 11" in done.stderr and "Traceback" not in done.stderr
    )
    done = run("--board", "pico_nothing")
    assert done.returncode == 2 and "pico_oled" in done.stderr
    done = run("--fresh")  # no terminal
    assert done.returncode == 2 and "needs a terminal" in done.stderr


def test_lists_of_boards_and_presets():
    boards = run("--list-boards").stdout.splitlines()
    assert boards[0].split() == [
        "pico_oled",
        "oled",
        "left",
        "right",
        "play",
        "set",
        "plus",
        "minus",
    ]
    assert "pico_minimal   oled    left right play" in boards
    presets = run("--fresh", "--list-presets").stdout.splitlines()
    assert presets[:2] == [" 1. Blitz 5+3: 5 min + 3 s/move", "    chessclock:G/5/3"]
