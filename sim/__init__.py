# SPDX-License-Identifier: MIT
# The desktop side: runs the board's firmware unchanged under CPython. Under MicroPython (the
# virtual HAL in the heap tests) the runner has put the firmware on the path already.
import sys

if sys.implementation.name != "micropython":
    from sim import paths  # noqa: F401
