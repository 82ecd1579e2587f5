# SPDX-License-Identifier: MIT
# The HAL on the desktop in real time: a monotonic clock, keys as button edges, a frame, a bell.
import os
import time

import sim  # noqa: F401  (puts the firmware on the path)
import ticks
from hal.storage import Storage
from sim.hal_base import HEALTHY_MV, DesktopHal
from sim.nor_file import folder_ring

TAP_MS = 60  # a key press is a button held this long


def monotonic_ms():
    """Milliseconds of a monotonic clock folded to 30 bits, as time.ticks_ms() on the board."""
    return time.monotonic_ns() // 1000000 % ticks.PERIOD


def folder_storage(root):
    """hal.storage.Storage in the directory `root` (made if missing), on the real filesystem.
    It carries the game's slot ring, in the folder's slots.bin (sim/nor_file.py), as `slots`:
    a desktop HAL built on it saves a game in play there (sim/hal_base.py)."""
    os.makedirs(root, exist_ok=True)
    storage = Storage(os.path.abspath(root), os, open)
    storage.slots = folder_ring(root)
    return storage


class RealTimeHal(DesktopHal):
    """The hal/__init__.py contract in real time.

    `read_key(timeout_ms)` returns the next key (any hashable) or None once `timeout_ms` passed
    (-1: no timeout). `keymap` maps a key to (button, hold_ms): the key pushes a press stamped
    when the key was read and, hold_ms later, the release; again while held (a terminal's key
    repeat), the button stays down that much longer. Any other key is appended to `keys` for
    the UI. wait() returns at the stamp, at a release, or as soon as any key was read.
    A subclass may wait for other input by overriding _sleep()."""

    def __init__(
        self, storage, read_key, keymap, buzzer, battery_mv=HEALTHY_MV, ticks_ms=monotonic_ms
    ):
        self.ticks_ms = ticks_ms
        DesktopHal.__init__(self, storage, buzzer, battery_mv)
        self.keys = []
        self.keymap = keymap
        self.held = {}  # button -> stamp its release is due
        self._read_key = read_key

    def wait(self, until):
        if self.edges.pending():
            return
        while True:
            now = self.ticks_ms()
            if self._release_due(now):
                return
            deadline = until
            for due in self.held.values():
                if deadline is None or ticks.diff(due, deadline) < 0:
                    deadline = due
            timeout = -1 if deadline is None else ticks.diff(deadline, now)
            if deadline is not None and timeout <= 0:
                return
            if self._sleep(timeout):
                return

    def _sleep(self, timeout):
        """Sleep up to `timeout` ms (-1: no limit) or until input comes, taking any keys read;
        whether input came."""
        key = self._read_key(timeout)
        if key is None:
            return False
        while key is not None:  # the rest of a burst (a paste, a held key)
            self._take(key)
            key = self._read_key(0)
        return True

    def _take(self, key):
        stamp = self.ticks_ms()
        mapped = self.keymap.get(key)
        if mapped is None:
            self.keys.append(key)
            return
        button, hold_ms = mapped
        due = ticks.add(stamp, hold_ms)
        if button not in self.held:
            self.edges.push(button, True, stamp)
        elif ticks.diff(self.held[button], due) > 0:
            return  # already held longer
        self.held[button] = due

    def _release_due(self, now):
        released = False
        for button, due in list(self.held.items()):
            if ticks.diff(now, due) >= 0:
                del self.held[button]
                self.edges.push(button, False, due)
                released = True
        return released
