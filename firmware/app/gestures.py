# SPDX-License-Identifier: MIT
# Buttons to actions: levers act on their leading edge; long presses stand in for missing buttons.
from micropython import const

import ticks
from hal import buttons

# Actions the app handles.
LEVER_LEFT = const(0)
LEVER_RIGHT = const(1)
PLAY = const(2)
SET = const(3)
PLUS = const(4)
MINUS = const(5)
RESET = const(6)
OFF = const(7)

LONG_MS = const(1000)  # PLAY held this long means SET on a board without a SET button
RESET_MS = const(2500)  # SET (or PLAY, without SET) held this long means RESET
OFF_MS = const(5000)  # held on this long: OFF (the clock saves and switches itself off)

_NONE = const(-1)


class Gestures:
    """Turns debounced edges into actions, sent to `sink(action, stamp)`.

    On every board: a lever acts when pressed; PLUS and MINUS when pressed; SET when released
    (held RESET_MS: RESET instead). PLAY acts when pressed on full boards, and on the minimal
    board when `at_once()` says so (the app: while a clock runs, for an instant pause);
    otherwise on release: short PLAY, or SET if held LONG_MS, or RESET once held RESET_MS. The
    button of RESET held on to OFF_MS is OFF.
    """

    def __init__(self, present, sink, at_once=None):
        self.has_set = buttons.SET in present
        self.sink = sink
        self.at_once = at_once if at_once is not None else _never
        self._held = _NONE  # the button whose long press is being timed
        self._since = 0
        self._done = False  # the held button already acted (RESET)
        self._off = False  # ... and OFF

    def edge(self, button, pressed, stamp):
        sink = self.sink
        if button == buttons.LEFT or button == buttons.RIGHT:
            if pressed:
                sink(LEVER_LEFT if button == buttons.LEFT else LEVER_RIGHT, stamp)
            return
        if button == buttons.PLUS or button == buttons.MINUS:
            if pressed:
                sink(PLUS if button == buttons.PLUS else MINUS, stamp)
            return
        timed = button == buttons.SET or (button == buttons.PLAY and not self.has_set)
        if button == buttons.PLAY and (self.has_set or self.at_once()):
            if pressed:
                sink(PLAY, stamp)
                self._held = _NONE
            return
        if not timed:
            return
        if pressed:
            self._held = button
            self._since = stamp
            self._done = False
            self._off = False
            return
        if self._held != button:
            return
        self._held = _NONE
        if self._done:
            return
        if button == buttons.SET:
            sink(SET, stamp)
        elif ticks.diff(stamp, self._since) >= LONG_MS:
            sink(SET, stamp)
        else:
            sink(PLAY, stamp)

    def due(self):
        """Stamp at which a held button turns into RESET, then OFF, or None."""
        if self._held == _NONE or self._off:
            return None
        return ticks.add(self._since, OFF_MS if self._done else RESET_MS)

    def poll(self, now):
        if self._held == _NONE:
            return
        due = self.due()
        if due is not None and ticks.diff(now, due) >= 0:
            if self._done:
                self._off = True
                self.sink(OFF, due)
            else:
                self._done = True
                self.sink(RESET, due)


def _never():
    return False
