# SPDX-License-Identifier: MIT
# A fake refsleep (cmod/refsleep/refsleep.c) over a modelled chip: true time, the timer and what a sleep measures.
#
# Time is kept in 1/192 ns, in which a microsecond (192000), a reference period (5859375), a
# cycle at 125 MHz (1536) and one at 12 MHz (16000) are all whole. The timer counts microseconds
# of the crystal (a grid of its own phase after each restart), or ticks of the 32.768 kHz
# reference while the chip sleeps on it; the reference can stop, start again, or run off its
# rate. `World` is also the Clock of tests/fakes/fake_select.py: its `ms` is the true time, and
# the interrupts scheduled there (select.at) happen at their true millisecond, ending a sleep:
# the pin's handler then waits, as on the chip, for the interrupts to be enabled again.
from fakes import fake_machine

US = 192000
MS = 1000 * US
REF = 5859375
CYC_125 = 1536
CYC_12 = 16000
_MASK = 0x3FFFFFFF


class World:
    """The chip's time and its refsleep module (init, offset, ticks_ms, ms_of, sleep, light)."""

    def __init__(self, ms=0, phase_us=0):
        self.t = ms * MS  # the true time
        self.seg_t = self.t - phase_us * US // 1000  # the microsecond grid: ticks at seg_t + k US
        self.seg_raw = ms * 1000  # the timer's count at seg_t: microseconds since the boot
        self.off_ms = 0
        self.off_us = 0
        self.gpio = None
        self.delay = 47
        self.reference = True
        self.ref_origin = 0  # reference edges at ref_origin + k REF
        self.rate = 1.0  # the reference's rate against its nominal (a drifting one: not 1)
        self.rate_at_wake = None  # a rate it has taken by the wake's check (None: `rate`)
        self.stops = []  # [stop_t, start_t]: the reference stopped between them
        self.left = 5  # the tick generator's count left, in reference edges, at an entry
        self.exit_cycles = 7  # 12 MHz cycles from I_b to the switch of clk_ref
        self.select = None  # the FakeSelect whose schedule holds the interrupts
        self.flashes = []  # (true ns, mask, lit): what a sleep did to its lights
        self.sleeps = []  # (status, ticks asked) of each sleep
        self.slept_us = 0
        self.lights = 0  # light() calls
        self.window = None  # the last sleep's (raw_u, raw_a, raw_b, raw_v, us_ua, ms_u, us_u)
        self._window_t = None  # and its true times (t_u, t_a, t_b, t_v)
        self._sync()

    # --- the Clock of fake_select -------------------------------------------------------------

    @property
    def ms(self):
        return self.t // MS & _MASK

    def advance(self, ms):
        """Time passes awake: the timer counts microseconds."""
        self.t += ms * MS
        self._sync()

    def sleep_us(self, us):
        self.slept_us += us
        self.t += us * US
        self._sync()

    def _sync(self, count=None):
        """The fake machine's timer (what DMA copies from TIMERAWL) at the world's count."""
        fake_machine.state.us = self.raw() if count is None else count

    # --- the refsleep module ------------------------------------------------------------------

    def init(self, gpio, delay):
        if gpio not in (20, 22):
            raise ValueError("the reference is on GP20 (clk_gpin0) or GP22 (clk_gpin1)")
        self.gpio = gpio
        self.delay = delay

    def offset(self, ms, us):
        self.off_ms = ms
        self.off_us = us

    def light(self, ms):
        """refsleep.light: machine.lightsleep's sleep with the timer kept exact (as the fake
        machine's own, which loses nothing either), counted apart."""
        self.lights += 1
        fake_machine.lightsleep(ms)

    def raw(self, t=None):
        t = self.t if t is None else t
        return self.seg_raw + (t - self.seg_t) // US

    def ticks_ms(self):
        return ((self.raw() + self.off_us) // 1000 + self.off_ms) & _MASK

    def clock_us(self):
        """The clock's time in us as its offset makes it (ms wrapping aside)."""
        return self.raw() + self.off_ms * 1000 + self.off_us

    def true_us(self):
        return self.t // US

    def ms_of(self, top, low):
        """The clock's ms of a timer count (its low 32 bits as two halves), as refsleep.c."""
        raw = self.raw()
        raw = raw - (raw - (top << 16 | low)) % (1 << 32)  # the latest one not after now
        window = self.window
        if window is not None and window[0] <= raw <= window[3]:
            raw_u, raw_a, raw_b, raw_v, ua_us, ms_u, us_u = window
            if raw < raw_a:
                us = min(raw - raw_u + 1, ua_us)
            elif raw <= raw_b:
                us = ua_us + (raw - raw_a + 1) * 15625 // 512
            else:
                us = ua_us + (raw_b - raw_a) * 15625 // 512 + raw - raw_b
            return (ms_u + (us_u + us) // 1000) & _MASK
        return ((raw + self.off_us) // 1000 + self.off_ms) & _MASK

    # --- the reference's edges ----------------------------------------------------------------

    def _segments(self):
        """The reference's runs: (origin, end): edges at origin + k period (k >= 1) before end."""
        if not self.reference:
            return []
        runs = []
        origin = self.ref_origin
        for stop, start in sorted(self.stops):
            runs.append((origin, stop))
            origin = start
        runs.append((origin, 1 << 62))
        return runs

    def _running(self, t):
        for origin, end in self._segments():
            if origin <= t < end:
                return True
        return False

    def _period(self):
        return int(REF / self.rate)

    def _edge_after(self, t):
        """The first reference edge after `t`, or None when none comes."""
        period = self._period()
        for origin, end in self._segments():
            k = 1 if t < origin else (t - origin) // period + 1
            edge = origin + k * period
            if edge < end:
                return edge
        return None

    def _nth_edge(self, t, n):
        """The `n`-th reference edge after `t` (n >= 1), or None."""
        period = self._period()
        for origin, end in self._segments():
            k = 1 if t < origin else (t - origin) // period + 1
            last = (end - 1 - origin) // period  # the last k before end
            if k > last:
                continue
            if k + n - 1 <= last:
                return origin + (k + n - 1) * period
            n -= last - k + 1
        return None

    def _ticks(self, start, end):
        """Reference ticks counted in (start, end]."""
        period = self._period()
        count = 0
        for origin, stop in self._segments():
            first = 1 if start < origin else (start - origin) // period + 1
            last = min((end - origin) // period, (stop - 1 - origin) // period)
            if last >= first:
                count += last - first + 1
        return count

    def stop_reference(self, at_ms, until_ms=None):
        """The reference stops at true ms `at_ms` (for good, or until `until_ms`)."""
        stop = at_ms * MS
        start = None if until_ms is None else until_ms * MS
        self.stops.append((stop, start if start is not None else 1 << 62))

    # --- a sleep --------------------------------------------------------------------------------

    def _next_interrupt(self, before):
        """The first interrupt scheduled before true time `before`: (ns, action) or None."""
        found = None
        for entry in self.select.schedule if self.select is not None else ():
            at = entry[0] * MS
            if at < self.t:
                at = self.t
            if at < before and (found is None or at < found[0]):
                found = (at, entry)
        return found

    def sleep(self, ticks, out, mask=0, on=0, length=0, period=0):
        state = fake_machine.state
        assert state.masked, "refsleep.sleep with interrupts enabled"
        for i in range(len(out)):
            out[i] = 0
        if state.taken < len(state.pending):  # an interrupt waits: no sleep
            raw = self.raw()
            out[0] = 1
            out[1] = ((raw + self.off_us) // 1000 + self.off_ms) & _MASK
            out[2] = (raw + self.off_us) % 1000
            out[3] = out[6] = 125
            self.sleeps.append((1, ticks))
            return 1
        # I_u: the next microsecond tick
        k = (self.t - self.seg_t) // US + 1
        t_u = self.seg_t + k * US
        raw_u = self.seg_raw + k
        out[1] = ((raw_u + self.off_us) // 1000 + self.off_ms) & _MASK
        out[2] = (raw_u + self.off_us) % 1000
        out[3] = 125
        edge = self._nth_edge(t_u, self.left)  # the crystal's count ends in reference edges
        if edge is None or edge - t_u > 16 * REF or not self._running(t_u):
            return self._refused(t_u, raw_u, out, 2, 16 * REF, 0)
        t_a = self._edge_after(edge)
        if t_a is None or abs((t_a - edge) - REF) * 50 > REF:
            return self._refused(t_u, raw_u, out, 3, t_a - t_u if t_a else 16 * REF, 2)
        out[4] = (t_a - t_u) // CYC_125
        counted = 2  # the tick generator's last crystal tick and the check
        # asleep: reference ticks to the alarm or an interrupt
        target = self._nth_edge(t_a, ticks)
        if target is None:
            raise RuntimeError("the reference stopped for good: the chip never wakes")
        status = 0
        woke = target
        found = self._next_interrupt(target)
        if found is not None:
            status = 1
            at, entry = found
            self.select.schedule.remove(entry)
            self.t = at
            self._sync(self.count_at_sleep(at, t_u, raw_u, t_a, counted))
            entry[1]()  # the pin changes (a PIO stamps it); its handler waits for the interrupts
            woke = self._edge_after(self._edge_after(at))  # seen at the reference's clock
        n_aw = self._ticks(t_a, woke)
        self._flash(t_a, woke, mask, on, length, period)
        # up: the crystal's start-up, then a checked reference tick (I_b), then I_v
        t_x = woke + self.delay * 256 * CYC_12
        t_b0 = self._edge_after(t_x)
        t_b = self._edge_after(t_b0) if t_b0 is not None else None
        spacing = None if t_b is None else t_b - t_b0
        if spacing is not None and self.rate_at_wake is not None:
            spacing = int(REF / self.rate_at_wake)
        if t_b is None or abs(spacing - REF) * 50 > REF:
            status = 4
            t_b = t_x if t_b is None else t_b
        n_ab = self._ticks(t_a, t_b)
        t_v = t_b + (self.exit_cycles + 1) * CYC_12
        # what else happened before the interrupts are on again: its handler waits too
        while True:
            found = self._next_interrupt(t_v)
            if found is None:
                break
            at, entry = found
            self.select.schedule.remove(entry)
            self.t = at
            self._sync(raw_u + counted + self._ticks(t_a, min(at, t_b)))
            entry[1]()
        out[5] = n_ab
        out[6] = 12
        out[7] = (t_v - t_b) // CYC_12
        out[8] = counted + n_ab + 1
        out[9] = n_aw
        out[11] = (t_b - t_b0) // CYC_12 if t_b0 is not None else 0
        out[0] = status
        raw_a = raw_u + counted
        self.window = (raw_u, raw_a, raw_a + n_ab, raw_a + n_ab + 1, out[4] // 125, out[1], out[2])
        self._window_t = (t_u, t_a, t_b, t_v)
        self._awake(t_v, raw_u + counted + n_ab + 1)
        self.sleeps.append((status, ticks))
        return status

    def _refused(self, t_u, raw_u, out, status, spent, counted):
        """No sleep: back on the crystal after `spent`; SysTick measured it all at 125 MHz."""
        self.window = self._window_t = None
        t_v = t_u + spent + 2 * CYC_12
        out[4] = (t_v - t_u) // CYC_125
        out[6] = 125
        out[8] = counted + 1
        out[0] = status
        self._awake(t_v, raw_u + counted + 1)
        self.sleeps.append((status, 0))
        return status

    def _awake(self, t, raw):
        self.t = t
        self.seg_t = t
        self.seg_raw = raw
        self._sync()

    def count_at_sleep(self, t, t_u, raw_u, t_a, counted):
        """The timer's count at true time `t` inside a sleep begun at I_u (t_u, raw_u)."""
        if t < t_a:
            return raw_u + min((t - t_u) // US, counted - 1)
        return raw_u + counted + self._ticks(t_a, t)

    def _flash(self, t_a, woke, mask, on, length, period):
        if not (mask and length > 0 and period > length):
            return
        while on + length <= 0:
            on += period
        lit = on <= 0
        self.flashes.append((t_a, mask, lit))
        while True:
            edge = on + length if lit else on
            at = t_a + edge * REF
            if at >= woke:
                break
            lit = not lit
            if not lit:
                on += period
            self.flashes.append((at, mask, lit))
        for gpio in range(30):
            if mask >> gpio & 1:
                target = fake_machine.line(gpio)
                target.latch = 1 if lit else 0
                target.settle()
