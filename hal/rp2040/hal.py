# SPDX-License-Identifier: MIT
# The RP2040 HAL: the hal/__init__.py contract built from a board module and an injected `machine`.
import os

import micropython
from micropython import const
from ticks import add, diff
from hal import buttons as logical
from hal import battery as battery_rules
from hal.events import EdgeRing
from hal.rp2040.battery import Battery
from hal.rp2040.buttons import make_buttons
from hal.rp2040.buzzer import Buzzer, Silent
from hal.rp2040.leds import from_board as leds_from_board
from hal.rp2040.sleeper import Sleeper
from hal.rp2040.waiter import Waiter
from hal.storage import Storage

_REF_WAIT_MS = const(30000)  # on the reference the watchdog counts its ticks: 152 s at 5000 ms
_PADS_BANK0 = const(0x4001C000)  # GPIO n's pad at + 4 + 4 n (RP2040 datasheet, 2.19.6.3)
_PAD_OFF = const(0x4C)  # IE (input enable) and the pull-up and pull-down, cleared
_PAD_OD = const(0x80)  # OD: output disabled
_PICO_OWN = (23, 24, 25, 29)  # the Pico's own: regulator mode, VBUS sense, LED, VSYS sense


def _park_unused(machine, board):
    """The GPIOs the board does not use as the lowest draw: no input buffer, no pull, no
    output (arduino-pico pull request 2620 measured a dormant Pico's unused pins from pull-down
    to plain inputs and with their input gates off). Where the port has no mem32, nothing."""
    mem32 = getattr(machine, "mem32", None)
    if mem32 is None:
        return
    from hal import board_check

    used = board_check.used_gpios(board)
    board_check.forget()
    for gpio in range(30):
        if gpio not in used and gpio not in _PICO_OWN:
            pad = _PADS_BANK0 + 4 + 4 * gpio
            mem32[pad + 0x3000] = _PAD_OFF  # the CLEAR alias
            mem32[pad + 0x2000] = _PAD_OD  # the SET alias


def _emergency_buffer():
    # A traceback from a hard IRQ needs memory set aside beforehand (absent on some ports).
    try:
        micropython.alloc_emergency_exception_buf(100)
    except AttributeError:
        pass


def _lever_stamps(rp2, machine, addressof, pins, edges, ms_of=None):
    """The levers' LeverStamps, or None: not two GPIOs side by side, or the port refused."""
    left, right = pins.get(logical.LEFT), pins.get(logical.RIGHT)
    if left is None or right is None or abs(left - right) != 1:
        return None
    from hal.rp2040.lever_stamps import LeverStamps

    Pin = machine.Pin
    for gpio in (left, right):
        Pin(gpio, Pin.IN, Pin.PULL_UP)  # pulled up before the machine samples its first levels
    lower = (logical.LEFT, logical.RIGHT) if left < right else (logical.RIGHT, logical.LEFT)
    try:
        return LeverStamps(rp2, machine, addressof, min(left, right), lower, edges, ms_of=ms_of)
    except (ValueError, OSError):  # a state machine or a DMA channel the port has not free
        return None


class Rp2040Hal:
    """`machine`, `select` and `io` are those modules (fakes in tests), `board` a boards/ module,
    `ticks_ms` and `sleep_us` time.ticks_ms and time.sleep_us, `display` the function that makes
    the board's display driver, display(machine, board, sleep_us) (ui.kinds.driver_for: the
    composition root passes it, so the HAL knows nothing of the screens). The board is checked
    (hal.board_check) before any pin is touched, unless `checked` says the caller did. The
    watchdog starts with watchdog=True and board.WATCHDOG_MS > 0, or by start_watchdog(): once
    started it cannot be stopped, and main() must then feed(). `waiter` sleeps for wait(); a serial channel has it
    watch its stream. A board with VBUS_SENSE sleeps on battery (`sleeper`, hal/rp2040/sleeper.py):
    light sleep between events, dormant in standby. `refsleep` is the clock's own UF2's module of
    that name (None on stock MicroPython): a board with REF_CLOCK then sleeps on its 32.768 kHz
    reference between events, and `ticks_ms` is the reference's clock (hal/rp2040/reftime.py);
    every board's light sleeps are then its refsleep.light, which keeps the timer exact.
    With `rp2` (the module: PIO and DMA) and `addressof` (uctypes.addressof) the levers' edges
    are stamped by hardware (`lever_stamps`, hal/rp2040/lever_stamps.py; in the reference's
    clock where there is one); without them, or where the board's levers are not on two GPIOs
    side by side or the port refuses the state machine or the channels, their interrupts stamp
    them as the other buttons'.
    `flash` is rp2.Flash(), the device under the filesystem: the game's slot ring is found in it
    (hal/lfs_slots.py), else `slots` is None and the files take every save."""

    def __init__(
        self,
        machine,
        board,
        ticks_ms,
        sleep_us,
        watchdog=False,
        fs=None,
        opener=None,
        *,
        select,
        io,
        display,
        checked=False,
        refsleep=None,
        flash=None,
        rp2=None,
        addressof=None,
    ):
        _emergency_buffer()
        if not checked:
            from hal import board_check  # boot only: unloaded once the board passed

            board_check.check(board)  # BoardError, one line, before any pin is touched
            board_check.forget()
        Pin = machine.Pin
        _park_unused(machine, board)
        reference = None
        gpio = getattr(board, "REF_CLOCK", None)
        vbus = getattr(board, "VBUS_SENSE", None)
        if gpio is not None and refsleep is not None and vbus is not None:
            from hal.rp2040.reftime import RefClock

            reference = RefClock(refsleep, gpio)
            ticks_ms = reference.ticks_ms
        self.reference = reference
        self.ticks_ms = ticks_ms
        self.edges = EdgeRing()
        self.display = display(machine, board, sleep_us)
        if board.BUZZER is None:
            self.buzzer = Silent()
        else:
            self.buzzer = Buzzer(machine.PWM(Pin(board.BUZZER)))
        self.leds = leds_from_board(machine, board)
        self.battery = None  # a Battery (millivolts()) where the board senses VSYS
        if board.BATTERY_ADC is not None:
            self.battery = Battery(machine.ADC(Pin(board.BATTERY_ADC)))
        self.gauge = battery_rules.for_board(board)  # the low warning from its cells and current
        self.storage = Storage(board.STORAGE_ROOT, fs or os, opener or open)
        self.slots = None
        if flash is not None:
            from hal import lfs_slots

            self.slots = lfs_slots.open_ring(fs or os, opener or open, flash, board.STORAGE_ROOT)
        self.serial = None
        self.lever_stamps = None
        handlers = None
        if rp2 is not None and addressof is not None:
            ms_of = None if reference is None else reference.ms_of  # the reference's clock
            self.lever_stamps = _lever_stamps(
                rp2, machine, addressof, board.BUTTONS, self.edges, ms_of
            )
        if self.lever_stamps is not None:
            drain = self.lever_stamps.drain  # the levers' interrupts: a wake, then a drain
            handlers = {logical.LEFT: drain, logical.RIGHT: drain}
        # an edge is stamped by the reference's clock: at a wake's instant if it woke the chip
        stamp = ticks_ms if reference is None else reference.stamp
        self.buttons = make_buttons(machine, board.BUTTONS, self.edges, stamp, handlers)
        self.waiter = Waiter(select, io, self.edges, ticks_ms)
        self.sleeper = None
        if vbus is not None and hasattr(machine, "lightsleep"):
            wakers = {}
            for button in (logical.LEFT, logical.RIGHT, logical.PLAY):
                if button in board.BUTTONS:
                    wakers[button] = board.BUTTONS[button]
            light = getattr(refsleep, "light", None)  # the own UF2's: the timer kept exact
            self.sleeper = Sleeper(
                machine,
                vbus,
                wakers,
                self.edges,
                ticks_ms,
                self.display,
                self.leds,
                reference,
                light,
            )
        self._standby = False
        self._watchdog = None
        self._longest_wait = 0
        if watchdog:
            self.start_watchdog(machine, board.WATCHDOG_MS)

    def start_watchdog(self, machine, ms):
        """Start the watchdog (`ms` > 0; none twice): once started it cannot be stopped, and
        the loop must feed() it. main() starts it once the app is built, so a boot that fails
        falls to the REPL instead of resetting into the same failure."""
        if ms > 0 and self._watchdog is None:
            self._watchdog = machine.WDT(timeout=ms)
            self._longest_wait = ms // 2

    def wait(self, until):
        """Sleep until stamp `until`, an edge or a byte on the serial line (None: no stamp).
        With a watchdog running it also returns after half the watchdog period, so that a loop
        waiting on a paused clock still feeds it; the loop must take such an early return as a
        pass with nothing to do. On battery it sleeps lightly instead (returning after one
        sleep), and in standby it is dormant, whatever the stamp, until a lever, PLAY or USB
        power (the watchdog stops with the clocks)."""
        sleeper = self.sleeper
        battery = sleeper is not None and sleeper.on_battery()
        if battery and self._standby:
            self.feed()
            sleeper.deep()
            return
        now = self.ticks_ms()
        quiet = battery and not self.buzzer.playing  # a tone's PWM would stop in a sleep
        if quiet and sleeper.ready(now):
            # on the reference the watchdog counts its ticks (30 times slower): longer sleeps
            latest = add(now, _REF_WAIT_MS)
            if sleeper.on_reference(latest if until is None or diff(until, latest) > 0 else until):
                self.leds.follow(self.ticks_ms())
                return
            now = self.ticks_ms()  # the reference failed its check: a light sleep instead
        if self._watchdog is not None:
            latest = add(now, self._longest_wait)
            if until is None or diff(until, latest) > 0:
                until = latest
        edge = self.leds.until_edge(now)  # a flash's edge the HAL keeps (on battery)
        if edge >= 0 and (until is None or diff(until, add(now, edge)) > 0):
            until = add(now, edge)
        if quiet and until is not None:
            sleeper.sleep(until, self.waiter.wait)
        else:
            self.waiter.wait(until)
        self.leds.follow(self.ticks_ms())

    def on_battery(self):
        """No USB power: the board's VBUS sense reads low (False without one)."""
        sleeper = self.sleeper
        return sleeper is not None and sleeper.on_battery()

    def standby(self, on):
        """The clock switched off (on=True): display dark, lights off, no tone; a wait then
        sleeps dormant on battery. on=False: the display back."""
        self._standby = on
        self.buzzer.stop()
        if on:
            self.leds.set(False, False)
        self.display.power(not on)

    def battery_mv(self):
        if self.battery is None:
            return -1
        return self.battery.millivolts()

    def feed(self):
        if self._watchdog is not None:
            self._watchdog.feed()

    def deinit(self):
        """Interrupts, tone and lights off (tests; a soft reboot). The watchdog keeps running."""
        for button in self.buttons:
            button.disable()
        if self.lever_stamps is not None:
            self.lever_stamps.stop()
        self.buzzer.deinit()
        self.leds.set(False, False)
