# SPDX-License-Identifier: MIT
# The two running-side lights: an LED on an output pin per side, written only when its level changes.
from hal.buttons import LEFT, RIGHT


class Leds:
    """`left` and `right` are machine.Pin outputs (None: that side has no LED). set() writes a
    pin only when its level changes, and allocates nothing. `flash_ms` (the board's
    LED_FLASH_MS, 0: none) is how long a running side's light flashes each second on battery:
    the app's lights (app/lights.py) read it."""

    def __init__(self, left, right, flash_ms=0):
        self._left = left
        self._right = right
        self.flash_ms = flash_ms
        self.left_on = False
        self.right_on = False
        for pin in (left, right):
            if pin is not None:
                pin.value(0)

    def set(self, left_on, right_on):
        if left_on != self.left_on:
            self.left_on = left_on
            if self._left is not None:
                self._left.value(1 if left_on else 0)
        if right_on != self.right_on:
            self.right_on = right_on
            if self._right is not None:
                self._right.value(1 if right_on else 0)


def from_board(machine, board):
    """The board's LEDS ({LEFT: gpio, RIGHT: gpio}, or absent: no lights) as outputs, dark.
    hal.board_check has refused a side that is not LEFT or RIGHT and a pin used twice."""
    pins = getattr(board, "LEDS", None) or {}
    Pin = machine.Pin
    left = pins.get(LEFT)
    right = pins.get(RIGHT)
    return Leds(
        None if left is None else Pin(left, Pin.OUT, value=0),
        None if right is None else Pin(right, Pin.OUT, value=0),
        getattr(board, "LED_FLASH_MS", 0),
    )
