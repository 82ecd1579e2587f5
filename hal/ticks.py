# The one ticks shim: time.ticks_ms() on MicroPython, a monotonic clock folded to 30 bits elsewhere.
import time

from clock.ticks import PERIOD, add, diff

try:
    ticks_ms = time.ticks_ms
except AttributeError:

    def ticks_ms():
        return time.monotonic_ns() // 1000000 % PERIOD


ticks_add = add
ticks_diff = diff
