# SPDX-License-Identifier: MIT
# The clock's time across sleeps on the 32.768 kHz reference: refsleep's counts into exact ms.
#
# refsleep (cmod/refsleep/refsleep.c, in the clock's own UF2) sleeps from a microsecond tick of
# the timer (I_u) to the first microsecond tick after its wake (I_v). Between them the timer
# counted microseconds, then one a reference cycle (1e6 / 32768 = 15625 / 512 us), then
# microseconds again, and refsleep measured each piece: clk_sys cycles from I_u to the first
# reference tick it used (I_a), reference ticks from I_a to the last (I_b), clk_sys cycles from
# I_b to I_v, and the raw count from I_u to I_v. The clock's time is the timer's count plus an
# offset, which each sleep grows by what its timer did not count. All of it in small integers
# (MicroPython's, under 2**30), so nothing allocates and nothing is rounded away, sleep after
# sleep: the offset as ms (wrapping at 2**30, as ticks_ms), us (0..999) and a fraction of a us
# in 1/192000 (192000 = 512 x 375: a reference tick and a cycle at 125 or 12 MHz are whole
# numbers of it).
from micropython import const

from ticks import add

_DEN = const(192000)
_REF_HZ = const(32768)
_US_S = const(1000000)
_LONGEST_MS = const(30000)  # a sleep's ticks stay small integers (30 s: 983040 ticks)
# refsleep.sleep's statuses
SLEPT = const(0)  # to its alarm
WOKEN = const(1)  # by an interrupt: a lever, a button, USB power
NO_REFERENCE = const(2)  # no reference tick: not slept, the time kept by the crystal
OFF_RATE = const(3)  # reference ticks at the wrong rate: not slept, the time kept by the crystal
LOST = const(4)  # slept, but at the wake the reference had stopped or left its rate
# the indices of its out[] (refsleep.c says how it measures them)
_MS_U = const(1)
_US_U = const(2)
_PER_US_1 = const(3)
_CYCLES_UA = const(4)
_TICKS_AB = const(5)
_PER_US_2 = const(6)
_CYCLES_BV = const(7)
_RAW_UV = const(8)
_TICKS_AW = const(9)
OUT_LEN = const(12)
_RETRY_MS = const(60000)  # after a fault, light sleep this long before the reference again


def ticks_us(ticks):
    """`ticks` reference cycles as (whole us, fraction in 1/192000 us), exactly."""
    seconds = ticks // _REF_HZ  # exactly 1e6 us each
    scaled = (ticks - seconds * _REF_HZ) * 15625  # under 2**29
    return seconds * _US_S + scaled // 512, scaled % 512 * 375


def cycles_us(cycles, per_us):
    """`cycles` of a clock of `per_us` MHz as (whole us, fraction in 1/192000 us)."""
    return cycles // per_us, cycles % per_us * (_DEN // per_us)


def ms_ticks(ms):
    """Reference ticks in `ms` milliseconds, rounded up (a wake never comes early)."""
    return (ms * _REF_HZ + 999) // 1000


def exact(per_us):
    """Whether a clk_sys of `per_us` MHz keeps the arithmetic exact (125, 12, 48 do)."""
    return per_us > 0 and _DEN % per_us == 0


class RefTime:
    """The offset from the timer's count to the clock's time: ms (mod 2**30), us, frac."""

    def __init__(self):
        self.ms = 0
        self.us = 0
        self.frac = 0

    def account(self, out):
        """Take one refsleep.sleep's `out`; return the stamp (ms) of its wake, the instant its
        core saw the interrupt or the alarm, as this clock counts it."""
        per_us = out[_PER_US_1]
        a_us, a_frac = cycles_us(out[_CYCLES_UA], per_us)
        t_us, t_frac = ticks_us(out[_TICKS_AB])
        b_us, b_frac = cycles_us(out[_CYCLES_BV], out[_PER_US_2])
        w_us, w_frac = ticks_us(out[_TICKS_AW])
        # the wake: from I_u, placed by the offset before this sleep (its fraction included)
        frac = self.frac + a_frac + w_frac
        us = out[_US_U] + a_us + w_us + frac // _DEN
        wake = add(out[_MS_U], us // 1000)
        # the offset grows by the time from I_u to I_v less what the timer counted
        frac = self.frac + a_frac + t_frac + b_frac
        us = self.us + a_us + t_us + b_us - out[_RAW_UV] + frac // _DEN
        self.frac = frac % _DEN
        self.ms = add(self.ms, us // 1000)
        self.us = us % 1000
        return wake


class RefClock:
    """The board's reference on the injected `refsleep` module: the clock's ticks_ms, sleeps on
    it, and what they found. `stamp()` is the interrupt handlers' clock: the instant a sleep's
    wake was seen while the interrupts pending at that wake run, the clock's ms otherwise.
    Counters (wrapping at 2**30): `sleeps`, `woken` (by an interrupt), `faults` (a reference
    missing or off its rate before a sleep: the crystal kept the time, the sleep was light),
    `lost` (one missing or off its rate after a sleep: that sleep's time is in doubt); `lost_at`
    the stamp of the last."""

    def __init__(self, refsleep, gpio, xosc_delay=47):
        refsleep.init(gpio, xosc_delay)
        from array import array

        self.out = array("i", [0] * OUT_LEN)
        self.time = RefTime()
        self._sleep = refsleep.sleep
        self._offset = refsleep.offset
        self.ticks_ms = refsleep.ticks_ms
        self.ms_of = refsleep.ms_of  # a lever's hardware stamp (a timer count) in this clock
        self.wake = -1
        self.sleeps = 0
        self.woken = 0
        self.faults = 0
        self.lost = 0
        self.lost_at = -1
        self._retry_at = -1  # the reference is not tried before this stamp (after a fault)
        self._stamp = self.stamp  # bound once: the handlers allocate nothing

    def stamp(self):
        wake = self.wake
        return wake if wake >= 0 else self.ticks_ms()

    def usable(self, now):
        """Whether to try the reference now (not within _RETRY_MS of a fault)."""
        retry = self._retry_at
        if retry < 0:
            return True
        if (now - retry) & 0x3FFFFFFF < 0x20000000:
            self._retry_at = -1
            return True
        return False

    def sleep(self, ms, mask=0, on_ms=0, length_ms=0, period_ms=0):
        """Sleep `ms` (at most 30 s) on the reference, with interrupts disabled by the caller;
        `mask` (SIO output bits) flashes on at `on_ms` from now for `length_ms` every
        `period_ms` meanwhile (on_ms <= 0: lit now). Returns refsleep's status; `wake` is then
        the wake's stamp until the caller clears it, after enabling the interrupts."""
        if ms > _LONGEST_MS:
            ms = _LONGEST_MS
        out = self.out
        if mask:
            on = ms_ticks(on_ms) if on_ms > 0 else -ms_ticks(-on_ms)
            status = self._sleep(
                ms_ticks(ms), out, mask, on, ms_ticks(length_ms), ms_ticks(period_ms)
            )
        else:
            status = self._sleep(ms_ticks(ms), out)
        if not exact(out[_PER_US_1]) or not exact(out[_PER_US_2]):
            raise ValueError("clk_sys must be 12, 48 or 125 MHz for the reference's time")
        self.wake = self.time.account(out)
        self._offset(self.time.ms, self.time.us)
        self.sleeps = (self.sleeps + 1) & 0x3FFFFFFF
        if status == WOKEN:
            self.woken = (self.woken + 1) & 0x3FFFFFFF
        elif status == NO_REFERENCE or status == OFF_RATE:
            self.faults = (self.faults + 1) & 0x3FFFFFFF
            self._retry_at = add(self.wake, _RETRY_MS)
        elif status == LOST:
            self.lost = (self.lost + 1) & 0x3FFFFFFF
            self.lost_at = self.wake
            self._retry_at = add(self.wake, _RETRY_MS)
        return status
