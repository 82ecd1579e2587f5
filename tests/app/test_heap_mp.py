# SPDX-License-Identifier: MIT
# Under the MicroPython unix port: while a game runs, a pass of the main loop allocates nothing.
import micropython

from hal import buttons as b
from harness import Clock


class CountingDisplay:
    """The board's drivers write from the frame itself; the virtual recorder's copy would allocate."""

    def __init__(self):
        self.writes = 0

    def show(self, frame, dirty=None):
        if dirty is not None:
            dirty.clear()
        self.writes += 1


class CountingBuzzer:
    """Stands in for the PWM buzzer (the virtual one records tones in a growing list)."""

    def __init__(self):
        self.tones = 0

    def play(self, hz, ms, now):
        self.tones += 1

    def update(self, now):
        pass

    def stop(self):
        pass


def locked_steps(clock, count, saves=None):
    """`count` passes with the heap locked, the game's saves aside (a flash write allocates);
    the stamps of those saves go to `saves`."""
    display = CountingDisplay()
    clock.hal.display = display
    clock.app.sounds.buzzer = CountingBuzzer()
    save = clock.app._save
    saves = [] if saves is None else saves

    def save_unlocked(now):
        micropython.heap_unlock()
        try:
            save(now)
            saves.append(now)
        finally:
            micropython.heap_lock()

    clock.app._save = save_unlocked
    runner = clock.runner
    for _ in range(count):
        micropython.heap_lock()
        try:
            runner.step()
        finally:
            micropython.heap_unlock()
    del clock.app._save  # the class's own again
    return display.writes


def test_running_loop_passes_allocate_nothing():
    for preset in ("Blitz 5+3", "Go 30m 5x30s byoyomi", "Arimaa 30s/5m", "Hourglass 3 min"):
        clock = Clock(preset=preset)
        clock.press(b.RIGHT, 2000)
        clock.run_until(2000)
        saves = []
        writes = locked_steps(clock, 300, saves)  # every second's new text, beeps, no press
        assert writes > 0, preset
        assert saves and saves[0] == 12000, (preset, saves)  # the move in progress, every 10 s


def test_lever_edges_and_debounce_allocate_nothing():
    clock = Clock(preset="Blitz 5+3")
    clock.press(b.RIGHT, 2000)
    clock.run_until(2000)
    hal = clock.hal
    debouncer = clock.runner.debouncer
    micropython.heap_lock()
    try:
        hal.edges.push(b.LEFT, True, 2500)  # what the hard IRQ handler does
        hal.edges.push(b.LEFT, False, 2510)  # bounce
        hal.edges.pop()
        accepted = debouncer.accept(hal.edges.button, hal.edges.pressed, hal.edges.stamp)
        hal.edges.pop()
        bounced = debouncer.accept(hal.edges.button, hal.edges.pressed, hal.edges.stamp)
    finally:
        micropython.heap_unlock()
    assert accepted and not bounced


def test_loop_passes_after_a_flag_allocate_nothing():
    clock = Clock(preset="Bullet 1+0")
    clock.press(b.RIGHT, 2000)
    clock.run_until(2000 + 60000 + 10)  # the flag has fallen (its save allocates: a write)
    assert clock.state() == "over"
    locked_steps(clock, 50)


def test_passes_that_wake_early_allocate_nothing():
    clock = Clock(preset="Go 30m 5x30s byoyomi")
    clock.press(b.RIGHT, 2000)
    clock.run_until(2000)
    clock.hal.horizon = clock.hal.now  # wait() returns at once: nothing is due
    locked_steps(clock, 50)
    clock.hal.horizon = None
    locked_steps(clock, 50)  # and the passes that are due again


def test_paused_and_flagged_passes_blinking_the_lights_allocate_nothing():
    clock = Clock(preset="Bullet 1+0")
    clock.press(b.RIGHT, 2000)
    clock.press(b.PLAY, 3000)
    clock.run_until(3100)
    before = clock.hal.leds.writes
    assert locked_steps(clock, 6) == 0  # the outlined band stays; the light blinks
    assert clock.hal.leds.writes == before + 6 and clock.hal.now == 9000
    clock.press(b.PLAY, 9000)
    clock.run_until(69100)
    flag = clock.app.game.end_stamp()
    assert flag == 68001 and clock.app.lights.left == 3  # FAST, blinking from the flag
    before = clock.hal.leds.writes
    locked_steps(clock, 8)  # 69126 (flag + 9 x 125 ms) to 70001
    assert clock.hal.leds.writes == before + 8 and clock.hal.now == flag + 16 * 125


def test_a_held_plus_stepping_on_allocates_nothing():
    from app.gestures import PLUS, REPEAT_AFTER_MS, REPEAT_MS, Gestures

    acted = [0, 0]

    def sink(action, stamp):
        acted[0] += 1
        acted[1] = stamp

    def repeats(action):
        return action == PLUS

    gestures = Gestures((b.LEFT, b.RIGHT, b.PLAY, b.SET, b.PLUS, b.MINUS), sink, None, repeats)
    micropython.heap_lock()
    try:
        gestures.edge(b.PLUS, True, 1000)
        first = gestures.due()
        gestures.poll(1000 + REPEAT_AFTER_MS + 2 * REPEAT_MS)  # three steps due by now
        second = gestures.due()
        gestures.edge(b.PLUS, False, 1000 + REPEAT_AFTER_MS + 2 * REPEAT_MS + 50)
        after = gestures.due()
        gestures.edge(b.LEFT, True, 3000)  # a lever that does not repeat
    finally:
        micropython.heap_unlock()
    assert first == 1000 + REPEAT_AFTER_MS and second == first + 3 * REPEAT_MS
    assert after is None and acted == [5, 3000]
