# SPDX-License-Identifier: MIT
# The two running-side lights: an LED on an output pin per side, written only when its level changes.
from hal.buttons import LEFT, RIGHT
from ticks import diff


class Leds:
    """`left` and `right` are machine.Pin outputs (None: that side has no LED). set() writes a
    pin only when its level changes, and allocates nothing. `flash_ms` (the board's
    LED_FLASH_MS, 0: none) is how long a running side's light flashes each second on battery:
    the app's lights (app/lights.py) read it.

    flash() hands the HAL a light's flashes (a `length` ms flash every `period` ms from stamp
    `since`): the HAL then lights and darkens it itself, in its sleeps (the 32.768 kHz
    reference's, without waking the crystal), so a flash costs the loop no pass. `mask` is the
    flashing pins' bits (GPIO numbers `gpios`), 0 when none flashes."""

    def __init__(self, left, right, flash_ms=0, gpios=(None, None)):
        self._left = left
        self._right = right
        self.flash_ms = flash_ms
        self.left_on = False
        self.right_on = False
        self._gpios = gpios
        self.mask = 0
        self.since = 0
        self.length = 0
        self.period = 0
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

    def flash(self, left, right, since, length, period):
        """From stamp `since` the left and/or right light flashes `length` ms every `period`
        ms, until flash() says otherwise (left and right False: none)."""
        mask = 0
        gpio = self._gpios[0]
        if left and gpio is not None:
            mask = 1 << gpio
        gpio = self._gpios[1]
        if right and gpio is not None:
            mask |= 1 << gpio
        self.mask = mask
        self.since = since
        self.length = length
        self.period = period

    def until_edge(self, now):
        """ms from `now` to the next edge of the flashes, 0 when the pins are behind (-1: no
        flash)."""
        if not self.mask:
            return -1
        into = diff(now, self.since) % self.period
        lit = into < self.length
        if lit != (self.left_on or self.right_on):
            return 0
        return self.length - into if lit else self.period - into

    def follow(self, now):
        """The flashing pins at their level for `now`."""
        if self.mask:
            lit = diff(now, self.since) % self.period < self.length
            left = lit and self._gpios[0] is not None and self.mask >> self._gpios[0] & 1
            right = lit and self._gpios[1] is not None and self.mask >> self._gpios[1] & 1
            self.set(bool(left), bool(right))

    def resync(self):
        """Take the levels from the pins (a sleep flashed them meanwhile)."""
        if self._left is not None:
            self.left_on = self._left.value() == 1
        if self._right is not None:
            self.right_on = self._right.value() == 1


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
        (left, right),
    )
