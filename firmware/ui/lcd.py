# SPDX-License-Identifier: MIT
# Frames for two six-digit segment LCD modules (HT1621), one per side: 12 bytes, built on change.
#
# Bytes 0..5 are the left module's digits, 6..11 the right's, in ui/seg7.py's 7-segment
# convention (bit 0 = segment a .. bit 6 = g), bit 7 the point after the digit. Per side:
#   digit 0     the side's mark: a bar (segment g) while its clock runs, and in a pause on the side
#               on move (whose light blinks slowly); the glass holds it at no cost, so it does not
#               blink. The running-side LEDs say the same from across the hall.
#   digits 1-5  the time, right-aligned, a point for each colon: "1.30.00" (H:MM:SS), "05.00"
#               (MM:SS), "15.3" (seconds and tenths below 20 s), "10.30" (H:MM from 10 hours).
#               No time lights the last digit's point.
#   flags       "FLAG" on a side that flagged first (or alone), "FLG2" after the other.
#   low         status.battery_low: the last digit's point, on both sides.
#   ready       a new game before a lever starts it (status.message is START_HINT): the times for
#               the first HINT_AFTER_MS, then every HINT_EVERY_MS " PrESS" " LEVEr" for HINT_MS,
#               a word on each module, so nothing scrolls (ui/seg7.py's timing).
#   counters    status.info (SET while a clock runs): "n  23" (moves made), "M  12" (moves left
#               to the control), "P   3" (periods left), as ui/seg7.py; INFO_BATTERY: "b  87".
# Menus show one line on the twelve digits; a longer one scrolls (menu(..., now), menu_wait).
from micropython import const

import ticks
from clock import display
from ui import font
from ui.seg7 import HINT_AFTER_MS, HINT_EVERY_MS, HINT_MS, encode
from ui.status import INFO_BATTERY, SLOW, START_HINT

DIGITS = const(6)  # per module
_CELLS = const(12)  # both modules
FRAME_BYTES = const(12)
_UNKNOWN = const(-3)  # no side key: the side is built at the next clock()
_POINT = const(0x80)
_BAR = const(0x40)  # segment g: the running side's mark
_TEN_HOURS = const(36000000)  # from here a side shows H:MM
_FLAG_FIRST = b"FLAG"
_FLAG_LATER = b"FLG2"
_LETTER_P = const(0x73)
_LETTER_M = const(0x37)
_LETTER_N = const(0x54)
_LETTER_B = const(0x7C)
_MINUS = const(0x40)
# A line longer than the twelve digits: shown from its start for _HOLD_MS, then one digit further
# every _STEP_MS to its end, which stays _HOLD_MS + _STEP_MS, then again from the start.
_HOLD_MS = const(1200)
_STEP_MS = const(350)


class LcdScreen:
    def __init__(self, frame=None):
        self.frame = frame if frame is not None else bytearray(FRAME_BYTES)
        self.dirty = None  # the modules' driver finds the changed digits itself
        self._next = bytearray(FRAME_BYTES)
        self._sides = bytearray(FRAME_BYTES)  # each side's time digits as last built
        self._keys = [_UNKNOWN, _UNKNOWN]  # the time (-1, -2: FLAG, FLG2) each side shows
        self._text = bytearray(12)
        self._valid = False
        self._line = None  # the menu line shown, its segments, and since when
        self._strip = b""
        self._since = 0
        hint = bytearray(FRAME_BYTES)  # " PRESS" on the left module, " LEVER" on the right
        words = START_HINT.split()
        encode(words[0], hint, DIGITS - len(words[0]))
        encode(words[1], hint, _CELLS - len(words[1]))
        self._hint = hint

    def invalidate(self):
        self._valid = False

    deferred = False  # never: a press's digits go out in one pass

    def clock(self, left, right, status, press=False):
        """Show the times of Views `left` and `right` on the left and right modules; return
        False, leaving the frame alone, if no segment changed. Allocates nothing."""
        out = self._next
        if status.info == INFO_BATTERY:
            self._percent(out, 0, status.battery_percent)
            self._percent(out, DIGITS, status.battery_percent)
        elif status.info:
            self._info(out, 0, left)
            self._info(out, DIGITS, right)
        elif self._hint_into(status, status.now) >= 0:
            out[:] = self._hint
        else:
            first = status.first_flag_side
            self._side(0, left, first == 0 or (first < 0 and left.flagged_first))
            self._side(1, right, first == 1 or (first < 0 and right.flagged_first))
            out[:] = self._sides
            lights = status.lights
            if left.running or (lights is not None and lights.left == SLOW):
                out[0] = _BAR
            if right.running or (lights is not None and lights.right == SLOW):
                out[DIGITS] = _BAR
            if status.battery_low:
                out[DIGITS - 1] |= _POINT
                out[_CELLS - 1] |= _POINT
        return self._commit(out)

    def until_blink(self, view):
        """-1: nothing on the glass blinks."""
        return -1

    def _hint_into(self, status, now):
        """Milliseconds into the start hint's HINT_MS at `now`, or -1: the times are shown."""
        lights = status.lights
        if status.message is not START_HINT or lights is None:
            return -1
        shown = ticks.diff(now, lights.since)
        if shown < HINT_AFTER_MS:
            return -1
        into = (shown - HINT_AFTER_MS) % HINT_EVERY_MS
        return into if into < HINT_MS else -1

    def until_hint(self, status, now):
        """Milliseconds from `now` until the ready screen's start hint comes or goes (a new
        game, `status` filled before), or -1."""
        lights = status.lights
        if status.message is not START_HINT or lights is None:
            return -1
        shown = ticks.diff(now, lights.since)
        if shown < HINT_AFTER_MS:
            return HINT_AFTER_MS - shown
        into = (shown - HINT_AFTER_MS) % HINT_EVERY_MS
        return HINT_MS - into if into < HINT_MS else HINT_EVERY_MS - into

    def _side(self, s, view, first):
        """Build side `s` into _sides, unless it already shows what `view` does."""
        if view.flagged:
            key = -1 if first else -2
        else:
            ms = view.time_ms
            if ms < 0:
                ms = 0
            four = ms >= _TEN_HOURS
            key = ms - ms % display.resolution(ms, four)  # the time the text is made of
        if self._keys[s] == key:
            return
        self._keys[s] = key
        out = self._sides
        at = s * DIGITS
        for i in range(at, at + DIGITS):
            out[i] = 0
        if view.flagged:
            encode(_FLAG_FIRST if first else _FLAG_LATER, out, at + 2)
            return
        text = self._text
        n = display.render(key, text, key >= _TEN_HOURS)
        digits = 0
        for i in range(n):
            if text[i] != 58 and text[i] != 46:
                digits += 1
        for i in range(n):
            if text[i] == 58:
                text[i] = 46  # a colon is a point on this glass
        encode(text, out, at + DIGITS - digits, n)

    def _info(self, out, at, view):
        moves_left = view.moves_left
        if moves_left > 1 or (moves_left >= 0 and view.periods_left < 0):
            letter = _LETTER_M
            count = moves_left
        elif view.periods_left >= 0:
            letter = _LETTER_P
            count = view.periods_left
        else:
            letter = _LETTER_N
            count = view.moves
        if count > 999:
            count = 999
        for i in range(at, at + DIGITS):
            out[i] = 0
        out[at + 1] = letter
        self._number(out, at + DIGITS - 1, count)

    def _percent(self, out, at, percent):
        for i in range(at, at + DIGITS):
            out[i] = 0
        out[at + 1] = _LETTER_B
        if percent < 0:
            out[at + DIGITS - 2] = out[at + DIGITS - 1] = _MINUS
            return
        self._number(out, at + DIGITS - 1, percent)

    def _number(self, out, last, count):
        while True:
            out[last] = font.segments(48 + count % 10)
            count //= 10
            if not count:
                return
            last -= 1

    def menu(self, title, lines, selected=-1, now=0):
        """One line on the twelve digits: the selected line, else the title then the first line,
        else the title, in the 7-segment alphabet; a longer one scrolls with `now`. Allocates.
        Returns False if no segment changed."""
        if 0 <= selected < len(lines):
            text = lines[selected]
        elif lines:
            text = title + " " + lines[0]
        else:
            text = title
        if text != self._line:
            self._line = text
            strip = bytearray(len(text))
            self._strip = strip[: encode(text, strip, 0)]
            self._since = now
        out = self._next
        for i in range(_CELLS):
            out[i] = 0
        offset = self._offset(now)
        strip = self._strip
        for i in range(min(_CELLS, len(strip) - offset)):
            out[i] = strip[offset + i]
        return self._commit(out)

    def _offset(self, now):
        steps = len(self._strip) - _CELLS
        if steps <= 0:
            return 0
        shown = ticks.diff(now, self._since) % (2 * _HOLD_MS + steps * _STEP_MS)
        if shown < _HOLD_MS:
            return 0
        return min(steps, (shown - _HOLD_MS) // _STEP_MS + 1)

    def menu_wait(self, now):
        """Milliseconds from `now` until the menu line scrolls on, or -1 if it fits."""
        steps = len(self._strip) - _CELLS
        if steps <= 0:
            return -1
        cycle = 2 * _HOLD_MS + steps * _STEP_MS
        shown = ticks.diff(now, self._since) % cycle
        if shown < _HOLD_MS:
            return _HOLD_MS - shown
        moved = shown - _HOLD_MS
        if moved < (steps - 1) * _STEP_MS:
            return _STEP_MS - moved % _STEP_MS
        return cycle - shown

    def _commit(self, out):
        frame = self.frame
        if self._valid and out == frame:
            return False
        frame[:] = out
        self._valid = True
        return True
