# The whole app plays a 200-move game (200 moves each) on the virtual HAL, in a small heap, from
# precompiled modules as on the board (tests/run_all.sh builds them into build/mpy):
#   micropython -X heapsize=64K tests/app/game_200.py build/mpy
# Prints the figures; exits non-zero if the app's times differ from the core's by a millisecond.
import gc
import sys

_top = sys.argv[1] if len(sys.argv) > 1 else "."
sys.path[:0] = [_top + "/firmware", _top, _top + "/tests", _top + "/tests/app"]

from clock.game import Game, View  # noqa: E402
from hal import buttons as b  # noqa: E402
from fakes.mini_fs import MiniFs  # noqa: E402
from harness import Clock  # noqa: E402

MOVES = 200


class CountingDisplay:
    """The board's driver sends the frame itself; the virtual recorder would copy 1 KB a write."""

    writes = 0

    def show(self, frame):
        self.writes += 1


def main():
    clock = Clock(preset="FIDE classical", fs=MiniFs())
    clock.hal.display = CountingDisplay()
    reference = Game(clock.app.preset().setup())
    seed = 12345
    now = 5000
    clock.press(b.RIGHT, now)
    reference.start(now, 0)
    gc.collect()
    lowest = gc.mem_free()
    for ply in range(2 * MOVES):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        now += 200 + seed % 40000
        side = 0 if ply % 2 == 0 else 1  # the left player moves first
        clock.press(b.LEFT if side == 0 else b.RIGHT, now)
        clock.run_until(now + 100)
        reference.press(reference.turn(), now)
        gc.collect()  # what is live, not what waits for the collector
        free = gc.mem_free()
        lowest = free if free < lowest else lowest
    for side in (0, 1):
        shown = clock.view(side).time_ms
        expected = reference.view(side, clock.hal.now, View()).time_ms
        if shown != expected:
            print("side %d shows %d, the core says %d" % (side, shown, expected))
            sys.exit(1)
    moves = clock.app.game.moves(0) + clock.app.game.moves(1)
    print(
        "game_200: %d plies, times exact, least free heap after a collection %d bytes"
        % (moves, lowest)
    )
    if moves != 2 * MOVES:
        sys.exit(1)


main()
