# The HAL on the desktop in real time: a monotonic clock, keys as button edges, a frame, a bell.
import os

import sim  # noqa: F401  (puts the firmware on the path)
from clock import ticks
from hal import ticks as shim
from hal.events import EdgeRing
from hal.storage import Storage

TAP_MS = 60  # a key press is a button held this long
HEALTHY_MV = 4000  # what battery_mv() reads on a board that senses its supply


class KeptDisplay:
    """Keeps the last frame written, for the terminal UI to draw."""

    def __init__(self):
        self.frame = None
        self.writes = 0

    def show(self, frame, dirty=None):
        self.frame = bytes(frame)
        self.writes += 1
        if dirty is not None:
            dirty.clear()


class BellBuzzer:
    """Rings `bell()` at each tone (not when `muted`, nor on a board with no buzzer) and
    remembers the last tone as (hz, ms, stamp) for the screen."""

    def __init__(self, bell=None, present=True):
        self.bell = bell
        self.present = present
        self.muted = False
        self.last = None
        self.count = 0
        self.sounding = False
        self._until = 0

    def play(self, hz, ms, now):
        self.last = (hz, ms, now)
        self.count += 1
        self.sounding = True
        self._until = ticks.add(now, ms)
        if self.present and not self.muted and self.bell is not None:
            self.bell()

    def update(self, now):
        if self.sounding and ticks.diff(now, self._until) >= 0:
            self.sounding = False

    def stop(self):
        self.sounding = False


def folder_storage(root):
    """hal.storage.Storage in the directory `root` (made if missing), on the real filesystem."""
    os.makedirs(root, exist_ok=True)
    return Storage(os.path.abspath(root), os, open)


class RealtimeHal:
    """The hal/__init__.py contract in real time.

    `read_key(timeout_ms)` returns the next key (any hashable) or None once `timeout_ms` passed
    (-1: no timeout). `keymap` maps a key to (button, hold_ms): the key pushes a press stamped
    when the key was read and, hold_ms later, the release. Any other key is appended to `keys`
    for the UI. wait() returns at the stamp, at a release, or as soon as any key was read."""

    def __init__(self, storage, read_key, keymap, buzzer, battery_mv=HEALTHY_MV, ticks_ms=None):
        self.ticks_ms = ticks_ms or shim.ticks_ms  # a monotonic clock folded to 2**30
        self.edges = EdgeRing()
        self.display = KeptDisplay()
        self.buzzer = buzzer
        self.storage = storage
        self.serial = None
        self.keys = []
        self.keymap = keymap
        self.held = {}  # button -> stamp its release is due
        self._read_key = read_key
        self._battery = battery_mv

    def battery_mv(self):
        return self._battery

    def feed(self):
        pass

    def wait(self, until):
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
            key = self._read_key(timeout)
            if key is not None:
                self._take(key)
                key = self._read_key(0)
                while key is not None:  # the rest of a burst (a paste, a held key)
                    self._take(key)
                    key = self._read_key(0)
                return

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
        # Again while held (a terminal's key repeat): the button stays down a while longer.
        self.held[button] = due

    def _release_due(self, now):
        released = False
        for button, due in list(self.held.items()):
            if ticks.diff(now, due) >= 0:
                del self.held[button]
                self.edges.push(button, False, due)
                released = True
        return released
