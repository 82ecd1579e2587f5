# SPDX-License-Identifier: MIT
# What the app tells the screens besides the two clocks: pause, flags, battery, sound, message,
# and the running-side lights' modes (app.lights keeps them; the screens follow the blink).
from micropython import const

# A light's mode (Status.lights.left and .right).
OFF = const(0)
ON = const(1)
SLOW = const(2)  # 1 s lit, 1 s dark: its edges fall with the loop's once-a-second wake
FAST = const(3)  # 125 ms lit, 125 ms dark

# What status.info asks the 7-segment modules for (SET while a clock runs, pressed again).
INFO_COUNTERS = const(1)
INFO_BATTERY = const(2)

# The message of a new game, before a lever starts it: how to start, on every display.
START_HINT = "PRESS LEVER"


class Status:
    def __init__(self):
        self.paused = False
        self.info = 0  # 0, INFO_COUNTERS or INFO_BATTERY (SET while running; 7-segment modules)
        self.left_player = 0  # the player on the left: 0 first, 1 second; the right is the other
        self.first_flag_side = -1  # the side that flagged first: -1 none, 0 left, 1 right
        self.battery_low = False
        self.battery_percent = -1  # -1 unknown, else 0..100
        self.muted = False
        self.over = False  # the game is over
        self.lights = None  # None, or the app's Lights: each side's light mode and level
        self.message = ""  # short text ("HALT", "ABORT", "END"); str or bytes, set on change
        self.on_battery = False  # no USB power: the screens draw a face that costs less
        self.now = 0  # the stamp the views were filled for
