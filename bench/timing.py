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

from clock.game import Game  # noqa: E402
from clock.model import Control, Setup, Stage  # noqa: E402
from fakes.mini_fs import MiniFs  # noqa: E402
from hal import buttons as b  # noqa: E402
from harness import Clock  # noqa: E402

try:
    _us = time.ticks_us

    def elapsed_us(start):
        return time.ticks_diff(time.ticks_us(), start)

except AttributeError:
    _us = time.perf_counter_ns

    def elapsed_us(start):
        return (time.perf_counter_ns() - start) // 1000


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


def press_us(count):
    game = Game(Setup(Control([Stage(1800000, increment_ms=10000)])))
    game.start(0, 0)
    now = 0
    start = _us()
    for _ in range(count):
        now += 1000
        game.press(game.turn(), now)
    return elapsed_us(start) / count


def running_clock():
    clock = Clock(preset="Rapid 15+10", fs=MiniFs())  # 500 passes end well before a flag
    clock.press(b.RIGHT, 2000)
    clock.run_until(2000)

    class Quiet:  # the board's drivers write from the frame; the recorders would allocate
        def show(self, frame):
            pass

        def play(self, hz, ms, now):
            pass

        def update(self, now):
            pass

    clock.hal.display = Quiet()
    clock.app.sounds.buzzer = Quiet()
    return clock


def tick_us(count):
    clock = running_clock()
    step = clock.runner.step
    start = _us()
    for _ in range(count):
        step()
    return elapsed_us(start) / count


def main():
    print("press_us %.1f" % press_us(2000))
    print("tick_us %.1f" % tick_us(2000))
    clock = running_clock()
    print("tick_alloc_bytes %d" % allocated(clock.runner.step, 500))
    hal = clock.hal
    debouncer = clock.runner.debouncer

    def irq_path():
        hal.edges.push(b.LEFT, True, 2500)  # what the hard IRQ handler does
        hal.edges.pop()
        debouncer.accept(hal.edges.button, hal.edges.pressed, hal.edges.stamp)

    print("irq_alloc_bytes %d" % allocated(irq_path, 500))


main()
