# SPDX-License-Identifier: MIT
# Under the MicroPython unix port: 24 hours of play in virtual time, and the heap does not grow.
import gc

from fakes.mini_fs import MiniFs
from hal import buttons as b
from harness import Clock

HOUR = 3600000


class Quiet:
    """Display and buzzer that keep nothing (the virtual recorders keep every frame and tone)."""

    def show(self, frame, dirty=None):
        if dirty is not None:
            dirty.clear()

    def play(self, hz, ms, now):
        pass

    def update(self, now):
        pass


def in_use():
    gc.collect()
    return gc.mem_alloc()


def test_a_day_of_play_without_heap_growth():
    clock = Clock(fs=MiniFs())
    clock.app.choose_preset(clock.app.add_preset("Marathon", "chessclock:G/1500"))
    clock.app.new_game()
    clock.hal.display = Quiet()
    clock.app.sounds.buzzer = Quiet()
    now = 1000
    clock.press(b.RIGHT, now)
    levers = (b.LEFT, b.RIGHT)
    baseline = None
    for ply in range(24 * 60):  # a move a minute for a day
        now += 60000 + (ply % 3 - 1) * 1000  # a minute on average
        clock.press(levers[ply % 2], now)
        clock.run_until(now + 500)
        clock.fs.drop("record")
        if ply == 60:
            baseline = in_use()
    assert clock.app.game.plies() == 24 * 60
    assert clock.hal.now >= 24 * HOUR
    grown = in_use() - baseline
    assert grown <= 0, "the heap grew by %d bytes over a day" % grown
