# SPDX-License-Identifier: MIT
# Wrap-safe arithmetic on millisecond timestamps that wrap at 2**30, as time.ticks_ms() does:
# the hardware's arithmetic, below both the clock core and the HAL, which each import it.
from micropython import const

PERIOD = const(0x40000000)
_MASK = const(0x3FFFFFFF)
_HALF = const(0x20000000)


def diff(later, earlier):
    """Signed milliseconds from `earlier` to `later`, correct across one wrap."""
    return ((later - earlier + _HALF) & _MASK) - _HALF


def add(stamp, delta):
    """The timestamp `delta` milliseconds after (or before) `stamp`."""
    return (stamp + delta) & _MASK


def is_stamp(value):
    return isinstance(value, int) and 0 <= value <= _MASK
