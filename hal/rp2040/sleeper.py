# SPDX-License-Identifier: MIT
# Sleeping on battery: on the 32.768 kHz reference or in machine.lightsleep to the loop's next stamp.
#
# A board with a reference (REF_CLOCK: a 32.768 kHz clock on GP20 or GP22) and the clock's own
# UF2 (its refsleep module) sleeps on it: clk_sys and the timer from the reference, the crystal,
# the PLLs and the ring oscillator stopped (hal/rp2040/reftime.py keeps the time exact across
# it). The interrupts are disabled around it: an edge that comes after the last look at the
# ring ends the sleep at once (WFI returns for a pending interrupt), and the edges pending at a
# wake are stamped with the wake's instant, as the reference counted it. A reference missing or
# off its rate is found before the sleep, which is then a light one. Without a reference, or
# on stock MicroPython, every sleep is a light one:
#
# With USB power (the board's VBUS sense pin high) the HAL waits in select.poll as it always did:
# USB CDC does not survive a light sleep. On battery, a wait is one machine.lightsleep(ms):
# clk_sys runs from the 12 MHz crystal and PLL_SYS is powered down (a Pico then draws about
# 1.5 mA against 18 mA waiting at 125 MHz). On the clock's own UF2 it is refsleep.light(ms), the
# same sleep without the moment machine.lightsleep's wake spends with clk_ref, and so the timer,
# on the ring oscillator (cmod/refsleep/refsleep.c): the timer loses nothing across it. A lever
# or a button ends either early: MicroPython v1.28.0's rp2 port wakes lightsleep(ms) for a pin
# that has an IRQ handler (refsleep.light for any enabled interrupt), and every button has one,
# which stamps the edge as it always does, so a press during a sleep is charged at its own
# millisecond. The VBUS pin has a handler too, so plugging USB in ends a sleep at once.
#
# Dormant (machine.lightsleep() without a time: the crystal stops, only armed pins wake it) is for
# the clock switched off: the levers and PLAY are armed in IO_BANK0's DORMANT_WAKE_INTE registers
# (MicroPython arms none), through machine.mem32, for a falling edge; VBUS for a rising one. The
# RP2040 datasheet's figures: 0.39 mA asleep, 0.18 mA dormant for the chip alone.
#
# One race is left open: an edge whose IRQ runs between the loop's last look at the ring and the
# sleep's start is stamped and kept, but the sleep runs to its stamp (a second at most) before
# the loop shows it; the charge is exact either way.
from micropython import const
from ticks import diff

_IO_BANK0 = const(0x40014000)
_INTR0 = const(0xF0)  # raw interrupts: writing 1 clears a latched edge
_WAKE_INTE0 = const(0x160)  # DORMANT_WAKE_INTE0..3: 4 bits a GPIO, 8 GPIOs a register
_SET = const(0x2000)  # a register's atomic alias that sets the bits written
_CLEAR = const(0x3000)  # ... that clears them
_EDGE_LOW = const(4)
_EDGE_HIGH = const(8)
_SHORTEST_MS = const(3)  # lightsleep(1) is only a delay on rp2: shorter waits poll
_NO_REFERENCE = const(2)  # reftime's statuses: not slept, the crystal kept the time
_OFF_RATE = const(3)


class Sleeper:
    """On an injected `machine`: `vbus` the VBUS sense GPIO, `wakers` {button: GPIO} of the
    buttons that wake a dormant clock (already inputs with pull-ups), `edges` the HAL's EdgeRing,
    `display` the display driver: its optional wait() before each sleep (bytes under way by DMA),
    its optional wake() after each (an SPI display re-inits its bus there, since MicroPython
    v1.28.0 leaves clk_peri changed after one). `leds` (hal/rp2040/leds.py): their flashes go on
    during a sleep on the reference; `reference` a RefClock (hal/rp2040/reftime.py), or None;
    `light(ms)` the timed light sleep (refsleep.light on the clock's own UF2: the timer kept
    exact), machine.lightsleep when None."""

    def __init__(
        self,
        machine,
        vbus,
        wakers,
        edges,
        ticks_ms,
        display,
        leds=None,
        reference=None,
        light=None,
    ):
        Pin = machine.Pin
        self._lightsleep = machine.lightsleep
        self._light = light or machine.lightsleep  # a timed light sleep
        self._mem32 = getattr(machine, "mem32", None)
        pin = Pin(vbus, Pin.IN)  # the Pico's own divider holds it: no pull
        self._vbus = pin.value
        self._vbus_gpio = vbus
        self._wakers = tuple((button, gpio, Pin(gpio)) for button, gpio in sorted(wakers.items()))
        self._edges = edges
        self._pending = edges.pending
        self._ticks_ms = ticks_ms
        self._wake = getattr(display, "wake", None)
        # A display whose bytes go out by DMA (overlaps) is waited for: a sleep stops clk_sys.
        self._settle = getattr(display, "wait", None)
        self.light = 0  # light sleeps since power-on
        self.dormant = 0
        self.on_ref = 0  # sleeps on the reference
        self._leds = leds
        self.reference = reference
        self._disable_irq = getattr(machine, "disable_irq", None)
        self._enable_irq = getattr(machine, "enable_irq", None)
        self.plugs = 0  # USB power arriving, seen by the VBUS pin's IRQ
        self._on_vbus = self._plugged  # bound once: the handler allocates nothing
        pin.irq(handler=self._on_vbus, trigger=Pin.IRQ_RISING, hard=True)

    def _plugged(self, pin):
        self.plugs = (self.plugs + 1) & 0x3FFFFFFF

    def on_battery(self):
        return self._vbus() == 0

    def ready(self, now):
        """Whether the next sleep goes on the reference (there is one, not just after a
        fault)."""
        reference = self.reference
        return reference is not None and reference.usable(now)

    def on_reference(self, until):
        """Sleep on the reference until stamp `until`, an edge or another interrupt; the
        leds' flashes go on meanwhile. False when the reference failed its check (not slept:
        sleep another way), and for a wait too short to sleep; True otherwise, after one sleep
        or none."""
        if self._pending():
            return True
        now = self._ticks_ms()
        timeout = diff(until, now)
        if timeout <= 0:
            return True
        if timeout < _SHORTEST_MS:
            return False
        if self._settle is not None:
            self._settle()
        leds = self._leds
        mask = on = length = period = 0
        if leds is not None and leds.mask:
            mask = leds.mask
            length = leds.length
            period = leds.period
            into = diff(now, leds.since) % period
            on = -into if into < length else period - into
        reference = self.reference
        state = self._disable_irq()
        if self._pending():  # its interrupt came between the look above and the disable
            self._enable_irq(state)
            return True
        status = reference.sleep(timeout, mask, on, length, period)
        self._enable_irq(state)  # the pending handlers run: stamped at the wake
        reference.wake = -1
        if leds is not None:
            leds.resync()
        if status == _NO_REFERENCE or status == _OFF_RATE:
            return False
        self.on_ref = (self.on_ref + 1) & 0x3FFFFFFF
        if self._wake is not None:
            self._wake()
        return True

    def sleep(self, until, poll):
        """Sleep lightly until stamp `until`, an edge or another interrupt; `poll(until)` waits
        instead for what is too short to sleep. Returns after one sleep: the loop takes an early
        return as a pass with nothing to do."""
        if self._pending():
            return
        timeout = diff(until, self._ticks_ms())
        if timeout <= 0:
            return
        if timeout < _SHORTEST_MS:
            poll(until)
            return
        if self._settle is not None:
            self._settle()
        self._light(timeout)
        self.light = (self.light + 1) & 0x3FFFFFFF
        if self._wake is not None:
            self._wake()

    def deep(self):
        """Dormant until a lever, PLAY or USB power; a press that woke the clock is in the ring
        when this returns (its IRQ may not have seen an edge that came with no clock running).
        Without machine.mem32 (no wake can be armed) it sleeps lightly for a second instead."""
        mem32 = self._mem32
        if self._settle is not None:
            self._settle()
        if mem32 is None:
            self._lightsleep(1000)
            return
        self._arm(mem32, _SET)
        self._lightsleep()
        self._arm(mem32, _CLEAR)
        self.dormant = (self.dormant + 1) & 0x3FFFFFFF
        if self._wake is not None:
            self._wake()
        edges = self._edges
        if not edges.pending():
            for button, _gpio, pin in self._wakers:
                if pin.value() == 0:
                    edges.push(button, True, self._ticks_ms())

    def _arm(self, mem32, alias):
        for _button, gpio, _pin in self._wakers:
            _wake_bits(mem32, alias, gpio, _EDGE_LOW)
        _wake_bits(mem32, alias, self._vbus_gpio, _EDGE_HIGH)


def _wake_bits(mem32, alias, gpio, edge):
    shift = 4 * (gpio & 7)
    register = _IO_BANK0 + 4 * (gpio >> 3)
    mem32[register + _WAKE_INTE0 + alias] = edge << shift
    if alias == _CLEAR:
        mem32[register + _INTR0] = edge << shift  # the latched wake edge, cleared
