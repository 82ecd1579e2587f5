# SPDX-License-Identifier: MIT
# CPython stand-in for MicroPython's `micropython` module: just enough for firmware imports.


def const(value):
    return value


def native(function):
    return function


viper = native


def heap_lock():
    return 0


def heap_unlock():
    return 0
