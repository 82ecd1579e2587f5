# SPDX-License-Identifier: MIT
# Time as a display shows it (H:MM:SS, MM:SS, SS.t; H:MM on four digits) and when that text changes.
from micropython import const

_HOUR = const(3600000)
_TENTHS_BELOW = const(20000)
# Countdown marks where a beep is due: 10 s before the end of a control, then each of the
# last 5 s; in a byo-yomi period each of the last 10 s.
ALERTS = (10000, 5000, 4000, 3000, 2000, 1000)
PERIOD_ALERTS = (10000, 9000, 8000, 7000, 6000, 5000, 4000, 3000, 2000, 1000)


def resolution(ms, four_digits=False):
    """Milliseconds per step of the shown figure at `ms`."""
    if ms < _TENTHS_BELOW:
        return 100
    if ms >= _HOUR and four_digits:
        return 60000
    return 1000


def _two(buf, at, value):
    buf[at] = 48 + value // 10
    buf[at + 1] = 48 + value % 10
    return at + 2


def render(ms, buf, four_digits=False):
    """Write the text for `ms` (truncated to what is shown) into bytearray `buf`; return its length.

    Allocates nothing: for the tick loop.
    """
    if ms < 0:
        ms = 0
    if ms < _TENTHS_BELOW:
        n = _two(buf, 0, ms // 1000) if ms >= 10000 else 0
        if n == 0:
            buf[0] = 48 + ms // 1000
            n = 1
        buf[n] = 46  # "."
        buf[n + 1] = 48 + ms // 100 % 10
        return n + 2
    seconds = ms // 1000
    hours = seconds // 3600
    minutes = seconds // 60 % 60
    seconds %= 60
    if not hours:
        n = _two(buf, 0, minutes)
        buf[n] = 58  # ":"
        return _two(buf, n + 1, seconds)
    n = 0
    if hours >= 100:
        buf[0] = 48 + hours // 100
        n = 1
    if hours >= 10:
        n = _two(buf, n, hours % 100)
    else:
        buf[0] = 48 + hours
        n = 1
    buf[n] = 58
    n = _two(buf, n + 1, minutes)
    if four_digits:
        return n
    buf[n] = 58
    return _two(buf, n + 1, seconds)


def text(ms, four_digits=False):
    """The same text as a str (allocates: for tests, menus and the simulator)."""
    buf = bytearray(10)
    return bytes(buf[: render(ms, buf, four_digits)]).decode()


def until_change(ms, counting_up=False, four_digits=False):
    """Milliseconds until the text shown for `ms` changes, the clock running."""
    if counting_up:
        step = resolution(ms, four_digits)
        return step - ms % step
    if ms <= 0:
        return -1
    return ms % resolution(ms, four_digits) + 1


def until_alert(ms, marks=ALERTS):
    """Milliseconds until a counting-down `ms` reaches the next beep mark, or -1."""
    for mark in marks:
        if mark < ms:
            return ms - mark
    return -1
