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
    """Keeps a copy of the last frame shown, when (`stamp`) and how many shows (`writes`), and
    whether the panel is `on` and `saving` (power_save: the board's dimmer face)."""

    def __init__(self, hal):
        self.hal = hal
        self.frame = None
        self.writes = 0
        self.stamp = 0
        self.on = True
        self.saving = False
        self.switches = 0  # power() calls: the page redraws at each

    def power(self, on):
        self.on = on
        self.switches += 1

    def power_save(self, on):
        self.saving = on

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
    (stamp, left_on, right_on). Allocates nothing unless it keeps the changes. `flash_ms`: the
    board's LED_FLASH_MS (hal/rp2040/leds.py)."""

    def __init__(self, hal, record=False):
        self.hal = hal
        self.flash_ms = 0
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
    counts the feed() calls. `battery_powered` is what on_battery() answers (a desktop has USB
    power: False, unless a test or the simulator says otherwise); `standing_by` what standby()
    was told last; `gauge` the board's battery gauge, or None (the app's general rule)."""

    def __init__(self, storage, buzzer, battery_mv):
        self.edges = EdgeRing()
        self.display = KeptDisplay(self)
        self.leds = DesktopLeds(self)
        self.buzzer = buzzer
        self.storage = storage
        # The game's saves in play: a hal.slots.SlotRing (sim/nor_file.py's, on a folder's
        # storage), or None: the files take them.
        self.slots = getattr(storage, "slots", None)
        self.serial = None
        self.fed = 0
        self._battery_mv = battery_mv
        self.battery_powered = False
        self.standing_by = False
        self.gauge = None

    def battery_mv(self):
        return self._battery_mv

    def on_battery(self):
        return self.battery_powered

    def standby(self, on):
        self.standing_by = on
        self.buzzer.stop()
        if on:
            self.leds.set(False, False)
        self.display.power(not on)

    def feed(self):
        self.fed += 1
