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

from clock import display
from ui.seg7 import HINT_EVERY_MS, HINT_MS, Scroll, counter, encode, hint_clock, menu_text
from ui.seg7 import percent
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


def _hinting(into):
    """Whether the start hint shows, `into` its cycle (ui.seg7.hint_clock)."""
    return into is not None and 0 <= into < HINT_MS


class LcdScreen:
    def __init__(self, frame=None):
        self.frame = frame if frame is not None else bytearray(FRAME_BYTES)
        self.dirty = None  # the modules' driver finds the changed digits itself
        self._next = bytearray(FRAME_BYTES)
        self._sides = bytearray(FRAME_BYTES)  # each side's time digits as last built
        self._keys = [_UNKNOWN, _UNKNOWN]  # the time (-1, -2: FLAG, FLG2) each side shows
        self._text = bytearray(12)
        self._valid = False
        self._scroll = Scroll(_CELLS)  # the menu line
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
            percent(out, 0, DIGITS, 1, status.battery_percent)
            percent(out, DIGITS, DIGITS, DIGITS + 1, status.battery_percent)
        elif status.info:
            counter(out, 0, DIGITS, 1, left)
            counter(out, DIGITS, DIGITS, DIGITS + 1, right)
        elif _hinting(hint_clock(status, status.now)):
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

    def until_hint(self, status, now):
        """Milliseconds from `now` until the ready screen's start hint comes or goes (a new
        game, `status` filled before), or -1."""
        into = hint_clock(status, now)
        if into is None:
            return -1
        if into < 0:
            return -into
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

    def menu(self, title, lines, selected=-1, now=0):
        """One line on the twelve digits (ui.seg7.menu_text), in the 7-segment alphabet; a
        longer one scrolls with `now`. Allocates. Returns False if no segment changed."""
        out = self._next
        self._scroll.fill(out, menu_text(title, lines, selected), now)
        return self._commit(out)

    def menu_wait(self, now):
        """Milliseconds from `now` until the menu line scrolls on, or -1 if it fits."""
        return self._scroll.wait(now)

    def _commit(self, out):
        frame = self.frame
        if self._valid and out == frame:
            return False
        frame[:] = out
        self._valid = True
        return True
