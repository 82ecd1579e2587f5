# SPDX-License-Identifier: MIT
# The running-side lights: each side's light mode from the app's state, and its level at any stamp.
#
# Running (an interim flag too): the running side ON, the other OFF; on battery a board with
# leds.flash_ms lights ON that long at the start of each second instead of steadily, and SLOW
# that long every two seconds (a 5 mm LED at 4 mA is most of a sleeping clock's current).
# Paused, in the arbiter's menu, after an undo, a question over the pause: the side on move SLOW. Over on time: the side
# that flagged first FAST. Ready, the preset menus, an end by the arbiter or a limit: both OFF.
# A blink starts lit at the stamp its mode began, so the level at any `now` is known without
# keeping time, and so is the next edge. Leds that take a flash (hal/rp2040/leds.py flash())
# are handed it: the HAL then lights and darkens it in its sleeps, and the loop wakes for no
# flash's edge.
from micropython import const

import ticks
from clock.game import OVER, PAUSED, RUNNING, TIME
from ui.status import FAST, OFF, ON, SLOW

_SLOW_MS = const(1000)
_FAST_MS = const(125)


def _flashes(mode, flash):
    """The period of a mode's flashes (`flash` > 0: on battery), or 0: it is not flashed."""
    if not flash or mode == OFF or mode == FAST:
        return 0
    return _SLOW_MS if mode == ON else 2 * _SLOW_MS


def level(mode, since, now, flash=0):
    """Whether a light in `mode`, since stamp `since`, is lit at `now`; `flash` > 0: ON is a
    flash that long each second, SLOW one every two seconds."""
    period = _flashes(mode, flash)
    if period:
        return ticks.diff(now, since) % period < flash
    if mode < SLOW:
        return mode == ON
    return ticks.diff(now, since) // (_SLOW_MS if mode == SLOW else _FAST_MS) % 2 == 0


def until_edge(mode, since, now, flash=0):
    """Milliseconds from `now` until a light in `mode` since `since` turns on or off; -1:
    never (steady)."""
    period = _flashes(mode, flash)
    if period:
        into = ticks.diff(now, since) % period
        return flash - into if into < flash else period - into
    if mode < SLOW:
        return -1
    half = _SLOW_MS if mode == SLOW else _FAST_MS
    return half - ticks.diff(now, since) % half


class Lights:
    """The app's two lights on `leds` (hal.leds). follow() takes the modes from the app and
    writes the levels; `left` and `right` are the modes, `since` when they began. Allocates
    nothing after construction."""

    def __init__(self, leds, now=0):
        self.leds = leds
        self.left = self.right = OFF
        self.since = now
        self.flash = 0  # ms a running light flashes each second; 0: steady (battery() sets it)
        self._handed = getattr(leds, "flash", None)  # the leds' flash(), or None
        self._period = 0  # the period handed to the leds last (0: none)

    def battery(self, on):
        """On battery a running light flashes for the leds' flash_ms; with USB power steady."""
        self.flash = getattr(self.leds, "flash_ms", 0) if on else 0
        self._hand()

    def _hand(self):
        """The flashes to leds that take them, when they change (one side flashes at most)."""
        handed = self._handed
        if handed is None:
            return
        flash = self.flash
        left = _flashes(self.left, flash)
        right = _flashes(self.right, flash)
        period = left or right
        if period or self._period:
            handed(left > 0, right > 0, self.since, flash, period)
            self._period = period

    def follow(self, app, now):
        """Bring the modes up to the app's state and the levels up to `now`: from its game's
        state, whatever menu or question is open over it, but the menus over a game that is
        not running or paused, which leave both dark."""
        game = app.game
        state = game.state()
        left_player = app.left_player
        side = 0 if game.turn() == left_player else 1
        mode = OFF
        if state == RUNNING:
            mode = ON
        elif state == PAUSED:
            mode = SLOW
        elif state == OVER and app.open_menu() is None and game.reason() == TIME:
            mode = FAST
            side = 0 if game.first_flag() == left_player else 1
        left = mode if side == 0 else OFF
        right = mode if side == 1 else OFF
        if left != self.left or right != self.right:
            self.left = left
            self.right = right
            self.since = now
            self._hand()
        flash = self.flash
        if mode < SLOW and not flash:  # steady: on or off, as level() says, without its calls
            self.leds.set(left == ON, right == ON)
        else:
            self.leds.set(
                level(left, self.since, now, flash), level(right, self.since, now, flash)
            )

    def until_edge(self, now):
        """Milliseconds from `now` until a light turns on or off; -1: neither blinks. 0 when an
        edge went by since follow() last wrote the levels (a pass that saved to flash past it):
        the light is set right at once, not a blink later."""
        flash = self.flash
        left = until_edge(self.left, self.since, now, flash)
        right = until_edge(self.right, self.since, now, flash)
        if self._period:  # the leds flash by themselves
            if _flashes(self.left, flash):
                left = -1
            if _flashes(self.right, flash):
                right = -1
        leds = self.leds
        if left >= 0 and level(self.left, self.since, now, flash) != leds.left_on:
            return 0
        if right >= 0 and level(self.right, self.since, now, flash) != leds.right_on:
            return 0
        return right if left < 0 or 0 <= right < left else left
