# SPDX-License-Identifier: MIT
# What the desktop HALs share: the display keeper, the buzzer's timing, the lights, storage,
# battery, feed().
#
# The family (each keeps the hal/__init__.py contract; each adds its own clock and wait()):
#   sim/virtual_hal.py  VirtualHal   virtual time: scheduled edges (tests, `python -m sim script`)
#   sim/realtime.py     RealTimeHal  real time: terminal keys press buttons (the simulator)
#   sim/pty_hal.py      PtyHal       real time with the serial port on a pty (`serial_cli serve`)
# This module, and VirtualHal's, import under MicroPython too: the heap tests run the app on it.
import ticks
from hal.events import EdgeRing

HEALTHY_MV = 4000  # what battery_mv() reads on a board that senses its supply


class KeptDisplay:
    """Keeps a copy of the last frame shown, when (`stamp`) and how many shows (`writes`)."""

    def __init__(self, hal):
        self.hal = hal
        self.frame = None
        self.writes = 0
        self.stamp = 0

    def show(self, frame, dirty=None):
        self.writes += 1
        self.frame = bytes(frame)
        self.stamp = self.hal.ticks_ms()
        if dirty is not None:
            dirty.clear()


class DesktopBuzzer:
    """Times a tone as the board's buzzer does: `sounding` from play() until its ms have passed.
    Keeps the last tone as (hz, ms, stamp) and how many there were; with record=True, every
    tone in `tones` as (stamp, hz, ms). Rings `bell()` at each tone, unless `muted` or not
    `present` (a board with no buzzer)."""

    def __init__(self, bell=None, present=True, record=False):
        self.bell = bell
        self.present = present
        self.muted = False
        self.tones = [] if record else None
        self.last = None
        self.count = 0
        self.sounding = False
        self._until = 0

    def play(self, hz, ms, now):
        self.last = (hz, ms, now)
        self.count += 1
        if self.tones is not None:
            self.tones.append((now, hz, ms))
        self.sounding = True
        self._until = ticks.add(now, ms)
        if self.present and not self.muted and self.bell is not None:
            self.bell()

    def update(self, now):
        if self.sounding and ticks.diff(now, self._until) >= 0:
            self.sounding = False

    def stop(self):
        self.sounding = False


class DesktopLeds:
    """The running-side lights: the levels `left_on` and `right_on`, how many set() calls
    changed one (`writes`), and when `changes` is a list (None: not kept), each change as
    (stamp, left_on, right_on). Allocates nothing unless it keeps the changes."""

    def __init__(self, hal, record=False):
        self.hal = hal
        self.left_on = False
        self.right_on = False
        self.writes = 0
        self.changes = [] if record else None

    def set(self, left_on, right_on):
        if left_on == self.left_on and right_on == self.right_on:
            return
        self.left_on = left_on
        self.right_on = right_on
        self.writes += 1
        if self.changes is not None:
            self.changes.append((self.hal.ticks_ms(), left_on, right_on))


class DesktopHal:
    """The hal/__init__.py contract but ticks_ms() and wait(), which a subclass gives. `fed`
    counts the feed() calls."""

    def __init__(self, storage, buzzer, battery_mv):
        self.edges = EdgeRing()
        self.display = KeptDisplay(self)
        self.leds = DesktopLeds(self)
        self.buzzer = buzzer
        self.storage = storage
        self.serial = None
        self.fed = 0
        self._battery_mv = battery_mv

    def battery_mv(self):
        return self._battery_mv

    def feed(self):
        self.fed += 1
