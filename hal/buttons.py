# SPDX-License-Identifier: MIT
# Logical buttons: what the app sees, whatever the pins (boards/ maps pins to these).
from micropython import const

LEFT = const(0)  # the left player's lever
RIGHT = const(1)  # the right player's lever
PLAY = const(2)  # play / pause
SET = const(3)
PLUS = const(4)
MINUS = const(5)
COUNT = const(6)
NAMES = ("left", "right", "play", "set", "plus", "minus")
