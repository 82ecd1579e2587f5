# SPDX-License-Identifier: MIT
# The desktop real-time HAL: ticks like time.ticks_ms, wait() until a stamp or a key, keys as edges.
import queue
import threading
import time

import ticks
from hal import buttons
from sim.hal_base import DesktopBuzzer
from sim.realtime import TAP_MS, RealTimeHal, folder_storage

KEYS = {"a": (buttons.LEFT, TAP_MS), "r": (buttons.SET, 2600)}


class Terminal:
    """Keys at given stamps on a fake clock: reading with a timeout moves the clock."""

    def __init__(self, now, keys=()):
        self.now = now
        self.keys = list(keys)  # (stamp, key), in order
        self.reads = []  # the timeouts asked for

    def ticks_ms(self):
        return self.now

    def read_key(self, timeout_ms):
        self.reads.append(timeout_ms)
        if self.keys and (timeout_ms < 0 or ticks.diff(self.keys[0][0], self.now) <= timeout_ms):
            stamp, key = self.keys.pop(0)
            if ticks.diff(stamp, self.now) > 0:
                self.now = stamp
            return key
        assert timeout_ms >= 0, "blocked forever"
        self.now = ticks.add(self.now, timeout_ms)
        return None


def hal_on(terminal, bell=None):
    return RealTimeHal(
        None, terminal.read_key, KEYS, DesktopBuzzer(bell), ticks_ms=terminal.ticks_ms
    )


def edges(hal):
    taken = []
    while hal.edges.pop():
        taken.append((hal.edges.button, hal.edges.pressed, hal.edges.stamp))
    return taken


def test_ticks_are_milliseconds_of_a_monotonic_clock_folded_to_30_bits(monkeypatch):
    hal = RealTimeHal(None, lambda timeout: None, {}, DesktopBuzzer())
    assert 0 <= hal.ticks_ms() < 2**30 and hal.serial is None and hal.feed() is None
    monkeypatch.setattr(time, "monotonic_ns", lambda: (5 * 2**30 + 1234) * 1000000 + 999999)
    assert hal.ticks_ms() == 1234


def test_wait_returns_at_the_stamp_when_no_key_comes():
    terminal = Terminal(2**30 - 100)  # across the wrap
    hal = hal_on(terminal)
    hal.wait(ticks.add(terminal.now, 250))
    assert terminal.now == 150 and edges(hal) == [] and hal.keys == []
    assert terminal.reads == [250]
    hal.wait(100)  # a stamp already past: at once, reading nothing
    assert terminal.now == 150 and terminal.reads == [250]


def test_a_key_ends_the_wait_as_a_press_stamped_when_read_then_a_release():
    terminal = Terminal(1000, [(1300, "a")])
    hal = hal_on(terminal)
    hal.wait(5000)
    assert terminal.now == 1300 and edges(hal) == [(buttons.LEFT, True, 1300)]
    hal.wait(5000)  # the release ends the next wait
    assert terminal.now == 1300 + TAP_MS
    assert edges(hal) == [(buttons.LEFT, False, 1300 + TAP_MS)] and hal.held == {}


def test_a_long_press_key_holds_its_button_and_other_keys_go_to_the_ui():
    terminal = Terminal(0, [(10, "r"), (500, "q"), (700, "r")])
    hal = hal_on(terminal)
    hal.wait(None)
    assert edges(hal) == [(buttons.SET, True, 10)]
    hal.wait(None)
    assert hal.keys == ["q"] and edges(hal) == [] and terminal.now == 500
    hal.wait(None)  # again while held (key repeat): still the one press, held longer
    assert edges(hal) == [] and hal.held == {buttons.SET: 700 + 2600}
    hal.wait(None)
    assert edges(hal) == [(buttons.SET, False, 3300)] and terminal.now == 3300


def test_a_tap_while_a_long_press_holds_the_same_button_does_not_cut_it_short():
    terminal = Terminal(0, [(0, "r"), (100, "s")])
    hal = RealTimeHal(
        None,
        terminal.read_key,
        {"r": (buttons.SET, 2600), "s": (buttons.SET, TAP_MS)},
        DesktopBuzzer(),
        ticks_ms=terminal.ticks_ms,
    )
    hal.wait(None)
    hal.wait(None)
    assert hal.held == {buttons.SET: 2600} and edges(hal) == [(buttons.SET, True, 0)]


def test_a_burst_of_keys_is_taken_at_once():
    terminal = Terminal(0, [(40, "a"), (40, "x"), (40, "y")])
    hal = hal_on(terminal)
    hal.wait(1000)
    assert edges(hal) == [(buttons.LEFT, True, 40)] and hal.keys == ["x", "y"]


def test_real_time_wait_sleeps_until_the_stamp_or_a_key():
    keys = queue.Queue()

    def read_key(timeout_ms):
        try:
            return keys.get(timeout=None if timeout_ms < 0 else timeout_ms / 1000)
        except queue.Empty:
            return None

    hal = RealTimeHal(None, read_key, KEYS, DesktopBuzzer())
    start = hal.ticks_ms()
    hal.wait(ticks.add(start, 120))
    waited = ticks.diff(hal.ticks_ms(), start)
    assert 120 <= waited < 600
    start = hal.ticks_ms()
    threading.Timer(0.05, keys.put, ("a",)).start()
    began = time.monotonic()
    hal.wait(ticks.add(start, 10000))
    assert time.monotonic() - began < 5
    assert hal.edges.pop() and hal.edges.button == buttons.LEFT and hal.edges.pressed
    assert 40 <= ticks.diff(hal.edges.stamp, start) <= ticks.diff(hal.ticks_ms(), start)


def test_the_buzzer_rings_unless_muted_or_absent_and_keeps_the_last_tone():
    rings = []
    buzzer = DesktopBuzzer(lambda: rings.append(1))
    buzzer.play(2400, 60, 100)
    assert rings == [1] and buzzer.last == (2400, 60, 100) and buzzer.sounding
    buzzer.update(160)
    assert not buzzer.sounding
    buzzer.muted = True
    buzzer.play(1200, 1500, 200)
    assert rings == [1] and buzzer.last == (1200, 1500, 200)
    silent = DesktopBuzzer(lambda: rings.append(1), present=False)
    silent.play(1200, 1500, 0)
    assert rings == [1] and silent.last == (1200, 1500, 0)


def test_storage_is_a_directory(tmp_path):
    storage = folder_storage(str(tmp_path / "state" / "pico_oled"))
    storage.write("settings.txt", b"muted = on\n")
    assert (tmp_path / "state" / "pico_oled" / "settings.txt").read_bytes() == b"muted = on\n"
    assert storage.read("settings.txt") == b"muted = on\n" and storage.read("none") is None
