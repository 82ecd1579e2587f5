# Frames for two TM1637 four-digit modules, one per side: 8 bytes of segments, built on change.
#
# Assumed module: the common 4-digit clock module with a centre colon. A byte is one digit,
# bit 0 = segment a (top) ... bit 6 = g (middle), as the TM1637 takes it; bit 7 of the second
# digit (bytes 1 and 5) lights the colon. Bit 7 of any other digit is a decimal point, which
# that module does not have, so it stays dark there (a module with points shows it).
#
# What a side shows (display.render with four_digits=True, right-aligned):
#   "05:00"  MM:SS, colon on: 0 5:0 0 (minutes always two digits).
#   " 1:30"  H:MM at an hour or more, colon on, the first digit blank; from 10 hours it fills
#            four digits and reads like MM:SS (the one ambiguity); 100 hours or more: "100h".
#   " 19.9"  below 20 s: seconds and tenths, colon off, bit 7 on the third digit (a point
#            module shows "19.9"; the colon module three digits with no colon).
#   paused or game over: the colon off (a stopped clock), the digits unchanged. On the colon
#            module a paused " 1:30" then reads like 13.0 s; the OLED or the app must say PAUSE.
#   "FLAG"   a side that flagged first (or alone); "FLG2" a side that flagged after the other.
# Periods or moves left, stages, delay, battery and mute do not fit: the OLED shows them.
from micropython import const

from clock import display
from ui import font

DIGITS = const(4)  # per module
_MARK = const(0x80)
_FLAG_FIRST = b"FLAG"
_FLAG_LATER = b"FLG2"


def encode(text, out, at, count=-1):
    """Write the 7-segment codes of the first `count` characters of `text` (all if -1) into
    `out` from index `at`; '.' and ':' light bit 7 of the digit before them. Stops at the end
    of `out`; returns the index after the last digit written. Allocates nothing for bytes or a
    bytearray (a str costs single-character strings on MicroPython)."""
    if count < 0:
        count = len(text)
    start = at
    end = len(out)
    for i in range(count):
        c = text[i]
        if type(c) is not int:
            c = ord(c)
        mark = c == 46 or c == 58
        if mark and at > start:
            out[at - 1] |= _MARK
            continue
        if at >= end:
            break
        out[at] = _MARK if mark else font.segments(c)  # a leading point: a blank digit's point
        at += 1
    return at


class SegScreen:
    def __init__(self, frame=None):
        self.frame = frame if frame is not None else bytearray(2 * DIGITS)
        self.dirty = None  # the modules' driver finds the changed digits itself
        self._next = bytearray(2 * DIGITS)
        self._text = bytearray(12)
        self._valid = False

    def invalidate(self):
        self._valid = False

    def clock(self, left, right, status):
        """Show the times of Views `left` and `right` on the left and right modules; return
        False, leaving the frame alone, if no segment changed. Allocates nothing."""
        out = self._next
        stopped = status.paused or status.over
        first = status.first_flag_side
        self._side(out, 0, left, first == 0 or (first < 0 and left.flagged_first), stopped)
        self._side(out, DIGITS, right, first == 1 or (first < 0 and right.flagged_first), stopped)
        return self._commit(out)

    def _side(self, out, at, view, first, stopped):
        if view.flagged:
            encode(_FLAG_FIRST if first else _FLAG_LATER, out, at)
            return
        text = self._text
        n = display.render(view.time_ms, text, True)
        digits = 0
        for i in range(n):
            if text[i] != 58 and text[i] != 46:
                digits += 1
        if digits > DIGITS:  # 100 hours or more: "100h"
            n = digits - 2
            text[n] = 104
            n += 1
            digits = n
        for i in range(at, at + DIGITS - digits):
            out[i] = 0
        encode(text, out, at + DIGITS - digits, n)
        if stopped:
            out[at + 1] &= 0x7F

    def menu(self, title, lines, selected=-1):
        """Up to 8 characters across both modules: the selected line, else the first line,
        else the title, in the 7-segment alphabet. Returns False if no segment changed."""
        if 0 <= selected < len(lines):
            text = lines[selected]
        elif lines:
            text = lines[0]
        else:
            text = title
        out = self._next
        for i in range(2 * DIGITS):
            out[i] = 0
        encode(text, out, 0)
        return self._commit(out)

    def _commit(self, out):
        frame = self.frame
        if self._valid:
            for i in range(2 * DIGITS):
                if out[i] != frame[i]:
                    break
            else:
                return False
        for i in range(2 * DIGITS):
            frame[i] = out[i]
        self._valid = True
        return True
