# SPDX-License-Identifier: MIT
# Speed and allocations of the hot paths; runs under MicroPython and CPython alike. Prints
# "name value" lines that bench/run.py gathers into its table.
import gc
import sys
import time

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
for path in ("tests", "", "firmware"):
    sys.path.insert(0, ROOT + "/" + path if path else ROOT)
if sys.implementation.name != "micropython":
    sys.path.insert(0, ROOT + "/sim/shim")

import notation  # noqa: E402
from clock.game import Game, View  # noqa: E402
from clock.model import Control, Setup, Stage  # noqa: E402
from fakes.mini_fs import MiniFs  # noqa: E402
from hal import buttons as b  # noqa: E402
from hal.rp2040.buzzer import Silent  # noqa: E402
from harness import Clock  # noqa: E402

try:
    _us = time.ticks_us

    def elapsed_us(start):
        return time.ticks_diff(time.ticks_us(), start)

except AttributeError:
    _us = time.perf_counter_ns

    def elapsed_us(start):
        return (time.perf_counter_ns() - start) / 1000


REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 5  # bench/run.py --quick: 1


def allocated(function, count):
    """Bytes allocated by `count` calls (MicroPython: gc.mem_alloc with collection off)."""
    if not hasattr(gc, "mem_alloc"):
        return -1
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(count):
        function()
    after = gc.mem_alloc()
    gc.enable()
    return after - before


def best_of(measure, count, runs=REPEATS):
    """The lowest mean µs per call over `runs` runs of `measure(count)`: a loaded machine only
    ever adds time."""
    best = None
    for _ in range(runs):
        gc.collect()
        took = measure(count)
        if best is None or took < best:
            best = took
    return best


def press_us(count):
    game = Game(Setup(Control([Stage(1800000, increment_ms=10000)])))
    game.start(0, 0)
    now = 0
    start = _us()
    for _ in range(count):
        now += 1000
        game.press(game.turn(), now)
    return elapsed_us(start) / count


def running_game(spec):
    game = Game(notation.parse(spec))
    game.start(1000, 0)
    game.press(0, 4000)
    game.press(1, 9000)
    return game


def view_us(spec, mover, fresh=False):
    """Game.view of the side on move (or the waiting side) as the clock runs on, 1 ms a call,
    into the same View each time (as the app does), or into a new View (`fresh`)."""

    def measure(count):
        game = running_game(spec)
        player = game.turn() if mover else 1 - game.turn()
        out = View()
        views = [View() for _ in range(count)] if fresh else None
        now = 9000
        start = _us()
        if fresh:
            for index in range(count):
                now += 1
                game.view(player, now, views[index])
        else:
            for _ in range(count):
                now += 1
                game.view(player, now, out)
        return elapsed_us(start) / count

    return measure


class Quiet:  # the board's driver writes from the frame; the recorder would allocate
    def show(self, frame, dirty=None):
        if dirty is not None:
            dirty.clear()


def running_clock():
    """A game running, its 10 s saves of the move left out: they write the flash (allocating),
    and bench/press.py and bench/flash_save.py measure them."""
    clock = Clock(preset="Rapid 15+10", fs=MiniFs())  # 500 passes end well before a flag
    clock.press(b.RIGHT, 2000)
    clock.run_until(2000)
    clock.hal.display = Quiet()
    clock.app.sounds.buzzer = Silent()
    app = clock.app

    def saved_elsewhere(now):
        app._saved_at = now

    app._save = saved_elsewhere
    return clock


def tick_us(count):
    """Runner.step while a game runs: every pass wakes when something is due (a new digit)."""
    clock = running_clock()
    step = clock.runner.step
    start = _us()
    for _ in range(count):
        step()
    return elapsed_us(start) / count


def _no_wait(until):
    pass


def idle_step_us(count):
    """Runner.step when the wake finds nothing due: no edge, no byte, before the due stamp (on
    the board: the watchdog's early return, a byte's wake that is not a whole line yet). The
    HAL's wait returns at once and time stands still: the virtual HAL's own wait, which is not
    the board's, is left out."""
    clock = running_clock()
    hal = clock.hal
    hal.wait = _no_wait
    step = clock.runner.step
    step()
    start = _us()
    for _ in range(count):
        step()
    return elapsed_us(start) / count


def app_tick_us(count):
    """ClockApp.tick as the game runs on, 7 ms a call."""
    clock = running_clock()
    app = clock.app
    now = clock.hal.now
    start = _us()
    for _ in range(count):
        now += 7
        app.tick(now)
    return elapsed_us(start) / count


def next_wake_us(count):
    """ClockApp.next_wake after a pass that did something (so nothing it computed is reused),
    7 ms a call."""
    clock = running_clock()
    app = clock.app
    now = clock.hal.now
    start = _us()
    for _ in range(count):
        now += 7
        app.flush(now)  # what a pass that did something leaves: the wake to be planned again
        app.next_wake(now)
    return elapsed_us(start) / count


def press_step_us(count):
    """The Runner.step that takes a lever press: the press, the frame, the save (MiniFs). The
    save allocates: a collection first keeps the GC out of the figure."""
    clock = running_clock()
    hal = clock.hal
    step = clock.runner.step
    lever = b.LEFT
    total = 0
    for _ in range(count):
        stamp = hal.now + 700
        clock.press(lever, stamp)
        lever = b.RIGHT if lever == b.LEFT else b.LEFT
        while True:  # a pass or two may come due before the edge
            gc.collect()
            start = _us()
            step()
            took = elapsed_us(start)
            if hal.next_edge() != stamp:
                break
        total += took
        clock.run_until(stamp + 100)  # the release
    return total / count


def main():
    print("press_us %.2f" % best_of(press_us, 2000))
    print("view_us %.2f" % best_of(view_us("chessclock:G/15/10", True), 2000))
    print("view_waiting_us %.2f" % best_of(view_us("chessclock:G/15/10", False), 2000))
    print("view_fresh_us %.2f" % best_of(view_us("chessclock:G/15/10", True, True), 2000))
    print("view_delay_us %.2f" % best_of(view_us("chessclock:G/5/5 delay", True), 2000))
    print("view_hourglass_us %.2f" % best_of(view_us("chessclock:G/3 hourglass", False), 2000))
    print("tick_us %.2f" % best_of(tick_us, 2000))
    print("app_tick_us %.2f" % best_of(app_tick_us, 2000))
    print("next_wake_us %.2f" % best_of(next_wake_us, 2000))
    print("idle_step_us %.2f" % best_of(idle_step_us, 2000))
    print("press_step_us %.2f" % best_of(press_step_us, 200))
    clock = running_clock()
    print("tick_alloc_bytes %d" % allocated(clock.runner.step, 500))
    clock = running_clock()
    clock.hal.wait = _no_wait
    print("idle_alloc_bytes %d" % allocated(clock.runner.step, 500))
    hal = clock.hal
    debouncer = clock.runner.debouncer

    def irq_path():
        hal.edges.push(b.LEFT, True, 2500)  # what the hard IRQ handler does
        hal.edges.pop()
        debouncer.accept(hal.edges.button, hal.edges.pressed, hal.edges.stamp)

    print("irq_alloc_bytes %d" % allocated(irq_path, 500))


main()
