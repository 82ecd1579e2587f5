# SPDX-License-Identifier: MIT
# The whole app plays a 200-move game (200 moves each) on the virtual HAL, in a small heap, from
# precompiled modules as on the board (tests/run_all.sh builds them into build/mpy):
#   micropython -X heapsize=195K tests/app/game_200.py build/mpy
# Prints the figures (`make bench` finds the smallest heap it plays in) and the board's modules
# loaded in play; exits non-zero if the app's times differ from the core's by a millisecond or
# a preset parser stays loaded in play.
import gc
import sys

_top = sys.argv[1] if len(sys.argv) > 1 else "."
sys.path[:0] = [_top + "/firmware", _top, _top + "/tests", _top + "/tests/app"]

from clock.game import Game, View  # noqa: E402
from hal import buttons as b  # noqa: E402
from fakes.mini_fs import MiniFs  # noqa: E402
from harness import Clock  # noqa: E402
from app.presets import DEFAULTS  # noqa: E402
from app.settings import FILE as SETTINGS  # noqa: E402
from hal.storage import Storage  # noqa: E402

MOVES = 200


class CountingDisplay:
    """The board's driver sends the frame itself; the virtual recorder would copy 1 KB a write."""

    writes = 0

    def show(self, frame, dirty=None):
        if dirty is not None:
            dirty.clear()
        self.writes += 1


def main():
    fs = MiniFs()
    # The board boots with FIDE classical already chosen: one parse, as on a real power-up.
    chosen = [name for name, spec in DEFAULTS].index("FIDE classical")
    Storage("/", fs, fs.open).write(SETTINGS, b"muted = off\npreset = %d\n" % chosen)
    clock = Clock(fs=fs)
    clock.hal.display = CountingDisplay()
    assert clock.app.preset().name == "FIDE classical"
    reference = Game(clock.app.game.setup)
    seed = 12345
    now = 5000
    clock.press(b.RIGHT, now)
    reference.start(now, 0)
    gc.collect()
    most = gc.mem_alloc()
    for ply in range(2 * MOVES):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        now += 200 + seed % 40000
        side = 0 if ply % 2 == 0 else 1  # the left player moves first
        clock.press(b.LEFT if side == 0 else b.RIGHT, now)
        clock.run_until(now + 100)
        fs.drop("record")
        reference.press(reference.turn(), now)
        gc.collect()  # what is live, not what waits for the collector
        live = gc.mem_alloc()
        most = live if live > most else most
    for side in (0, 1):
        shown = clock.view(side).time_ms
        expected = reference.view(side, clock.hal.now, View()).time_ms
        if shown != expected:
            print("side %d shows %d, the core says %d" % (side, shown, expected))
            sys.exit(1)
    moves = clock.app.game.moves(0) + clock.app.game.moves(1)
    print("game_200: %d plies, times exact, at most %d bytes live in play" % (moves, most))
    test_only = ("harness", "support", "fakes", "sim")
    board = [n for n in sys.modules if n not in test_only and n.split(".")[0] not in test_only]
    print("board modules in play: " + " ".join(sorted(board)))
    parsers = [
        name for name in board if name.startswith("notation.") and name != "notation.errors"
    ]
    if parsers:
        print("a parser stayed loaded in play: " + " ".join(parsers))
        sys.exit(1)
    if moves != 2 * MOVES:
        sys.exit(1)


main()
