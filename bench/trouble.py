# SPDX-License-Identifier: MIT
# Charged-time error under loop trouble: our timestamp clock against a naive tick-counting one.
#
# Both face the same game (presses at exact instants) and the same disturbances: loop passes
# late by 0-20 ms, 5 ms GC-like stalls, missed timer ticks, and a 25 ms flash write (interrupts
# off) after every press. Ours runs the real app on the virtual HAL; an edge keeps the stamp
# its interrupt took, except one raised during a flash write, which is taken when the write
# ends (as on the RP2040). The naive clock takes 1 ms off the running side per timer tick its
# loop sees (at most 8 queued, as MicroPython's scheduler holds) and switches when its loop
# sees the lever.
import random

import ticks
from clock.game import Game, View
from fakes.mini_fs import MiniFs
from hal import buttons as b
from harness import Clock

FLASH_WRITE_MS = 25
QUEUE = 8


class Trouble:
    """What goes wrong with the loop: late passes (0..late_ms), a 5 ms stall every
    `stall_every` passes, a missed tick every `miss_every`, a flash write after each press."""

    def __init__(self, seed, late_ms=0, stall_every=0, miss_every=0, flash=False):
        self.random = random.Random(seed)
        self.late_ms = late_ms
        self.stall_every = stall_every
        self.miss_every = miss_every
        self.flash_ms = FLASH_WRITE_MS if flash else 0
        self.passes = 0

    def delay(self):
        """Extra ms a loop pass wakes late, and ticks lost meanwhile."""
        self.passes += 1
        late = self.random.randint(0, self.late_ms) if self.late_ms else 0
        if self.stall_every and self.passes % self.stall_every == 0:
            late += 5
        missed = 1 if self.miss_every and self.passes % self.miss_every == 0 else 0
        return late, missed


def schedule(seed, plies, mean_ms):
    rng = random.Random(seed)
    moments, now = [], 10000
    for _ in range(plies):
        now += max(150, int(rng.expovariate(1.0 / mean_ms)))
        moments.append(now)
    return moments


def exact(setup, moments, end):
    game = Game(setup)
    game.start(moments[0], 0)
    for stamp in moments[1:]:
        game.press(game.turn(), stamp)
    game.update(end)
    return [game.view(p, end, View()).time_ms for p in (0, 1)]


def clock_on(spec):
    clock = Clock(fs=MiniFs())
    clock.app.choose_preset(clock.app.add_preset("Bench", spec))
    clock.app.new_game()
    return clock


def ours(spec, moments, end, trouble):
    clock = clock_on(spec)
    hal = clock.hal
    writes = []  # (start, end) of each flash write
    storage_write = hal.storage.write

    def slow_write(name, data):
        storage_write(name, data)
        writes.append((hal.now, hal.now + trouble.flash_ms))
        hal.now = ticks.add(hal.now, trouble.flash_ms)

    hal.storage.write = slow_write
    base_wait = hal.wait

    def late_wait(until):
        base_wait(until)
        late, _ = trouble.delay()
        hal.now = ticks.add(hal.now, late)
        base_wait(hal.now)  # edges that came meanwhile keep their own stamps

    hal.wait = late_wait
    for index, stamp in enumerate(moments):
        for start, stop in writes:
            if start <= stamp < stop:
                stamp = stop
        lever = b.RIGHT if index == 0 else (b.LEFT if index % 2 == 1 else b.RIGHT)
        clock.press(lever, stamp)
        clock.run_until(stamp + 1)
    clock.run_until(end)
    return [clock.app.game.view(p, end, View()).time_ms for p in (0, 1)]


def naive(initial, moments, end, trouble):
    """Counts timer ticks; presses act when its loop notices them."""
    left = [initial, initial]
    running = -1
    now = moments[0] - 1
    pending = list(moments)
    blocked_until = 0
    while now < end:
        late, missed = trouble.delay()
        step = 1 + late
        ticks_seen = min(step - missed, QUEUE)
        if now < blocked_until:
            ticks_seen = 0  # interrupts off: the ticks never came
        now += step
        if running >= 0:
            left[running] -= ticks_seen
        if pending and pending[0] <= now:
            pending.pop(0)
            running = 0 if running < 0 else 1 - running
            blocked_until = now + trouble.flash_ms
    return left


def run(trouble_args, minutes=90, plies=80, mean_ms=40000, seed=7):
    """(our error, naive error) in ms for a game in `minutes` under the Trouble made of
    `trouble_args`: the largest difference from the exact times."""
    spec = "chessclock:G/%d" % minutes
    setup = clock_on(spec).app.preset().setup()
    moments = schedule(seed, plies, mean_ms)
    end = moments[-1] + 500
    truth = exact(setup, moments, end)
    mine = ours(spec, moments, end, Trouble(seed, **trouble_args))
    theirs = naive(minutes * 60000, moments, end, Trouble(seed, **trouble_args))
    return (
        max(abs(mine[p] - truth[p]) for p in (0, 1)),
        max(abs(theirs[p] - truth[p]) for p in (0, 1)),
    )


def drift(hours=6, seed=11):
    """Our error after a game of `hours` of play in virtual time (no trouble): expected 0."""
    spec = "chessclock:40/120/30, G/60/30"
    setup = clock_on(spec).app.preset().setup()
    plies = 2 * 60
    moments = schedule(seed, plies, hours * 3600000 // plies)
    end = moments[-1] + 1000
    truth = exact(setup, moments, end)
    mine = ours(spec, moments, end, Trouble(seed))
    return max(abs(mine[p] - truth[p]) for p in (0, 1)), (moments[-1] - moments[0]) / 3600000
