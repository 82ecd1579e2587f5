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
REPEAT_AFTER_MS = const(500)  # PLUS or MINUS held this long acts again, where the app repeats it
REPEAT_MS = const(100)  # ... and again every this long while it is held

_NONE = const(-1)


class Gestures:
    """Turns debounced edges into actions, sent to `sink(action, stamp)`.

    On every board: a lever acts when pressed; PLUS and MINUS when pressed; SET when released
    (held RESET_MS: RESET instead). PLAY acts when pressed on full boards, and on the minimal
    board when `at_once()` says so (the app: while a clock runs, for an instant pause);
    otherwise on release: short PLAY, or SET if held LONG_MS, or RESET once held RESET_MS. The
    button of RESET held on to OFF_MS is OFF.
    PLUS, MINUS or a lever held acts again after REPEAT_AFTER_MS, then every REPEAT_MS, each at
    its own stamp, as long as `repeats(action)` says so (the app: in the arbiter's menu and the
    preset menus, never over a question, whose yes is a second press).
    """

    def __init__(self, present, sink, at_once=None, repeats=None):
        self.has_set = buttons.SET in present
        self.sink = sink
        self.at_once = at_once if at_once is not None else _never
        self.repeats = repeats if repeats is not None else _no_repeat
        self._held = _NONE  # the button whose long press is being timed
        self._since = 0
        self._done = False  # the held button already acted (RESET)
        self._off = False  # ... and OFF
        self._repeat = _NONE  # the action held down that repeats, and when it next acts
        self._repeat_button = _NONE
        self._repeat_at = 0

    def edge(self, button, pressed, stamp):
        sink = self.sink
        if button <= buttons.RIGHT or button == buttons.PLUS or button == buttons.MINUS:
            if not pressed:
                if button == self._repeat_button:
                    self._repeat = self._repeat_button = _NONE
                return
            if button == buttons.LEFT:
                action = LEVER_LEFT
            elif button == buttons.RIGHT:
                action = LEVER_RIGHT
            else:
                action = PLUS if button == buttons.PLUS else MINUS
            sink(action, stamp)
            if self.repeats(action):  # asked after it acted: what it opened may not repeat
                self._repeat = action
                self._repeat_button = button
                self._repeat_at = ticks.add(stamp, REPEAT_AFTER_MS)
            else:
                self._repeat = self._repeat_button = _NONE
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
        """Stamp at which a held button turns into RESET, then OFF, or acts again, or None."""
        due = None
        if self._held != _NONE and not self._off:
            due = ticks.add(self._since, OFF_MS if self._done else RESET_MS)
        if self._repeat != _NONE and (due is None or ticks.diff(self._repeat_at, due) < 0):
            due = self._repeat_at
        return due

    def poll(self, now):
        if self._held != _NONE and not self._off:
            due = ticks.add(self._since, OFF_MS if self._done else RESET_MS)
            if ticks.diff(now, due) >= 0:
                if self._done:
                    self._off = True
                    self.sink(OFF, due)
                else:
                    self._done = True
                    self.sink(RESET, due)
        # A held PLUS or MINUS acts at each of its stamps up to now, while the app repeats it.
        while self._repeat != _NONE and ticks.diff(now, self._repeat_at) >= 0:
            action = self._repeat
            if not self.repeats(action):
                self._repeat = _NONE
                return
            at = self._repeat_at
            self._repeat_at = ticks.add(at, REPEAT_MS)
            self.sink(action, at)


def _never():
    return False


def _no_repeat(action):
    return False
