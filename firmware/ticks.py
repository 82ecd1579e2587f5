# SPDX-License-Identifier: MIT
# Wrap-safe arithmetic on millisecond timestamps that wrap at 2**30, as time.ticks_ms() does:
# the hardware's arithmetic, below both the clock core and the HAL, which each import it.
from micropython import const

PERIOD = const(0x40000000)
_MASK = const(0x3FFFFFFF)
_HALF = const(0x20000000)


def _diff(later, earlier):
    return ((later - earlier + _HALF) & _MASK) - _HALF


try:  # the port's own, in C, where its ticks wrap where these do: the board's, the page's
    from time import ticks_add as _port_add
    from time import ticks_diff as _port_diff
except ImportError:  # CPython
    _port_add = _port_diff = None
# diff(later, earlier): signed milliseconds from `earlier` to `later`, correct across one wrap.
# The board's is time.ticks_diff (a C call costs the chip less than the arithmetic written out);
# the 64-bit unix port's ticks wrap at 2**62, so there and on CPython it is the arithmetic.
diff = _port_diff if _port_add is not None and _port_add(0, -1) == _MASK else _diff


def add(stamp, delta):
    """The timestamp `delta` milliseconds after (or before) `stamp`."""
    return (stamp + delta) & _MASK


def is_stamp(value):
    return isinstance(value, int) and 0 <= value <= _MASK
