# SPDX-License-Identifier: MIT
# Frames for two TM1637 four-digit modules, one per side: 8 bytes of segments and the modules'
# brightness, built on change.
#
# Bytes 0..3 are the left module's digits, 4..7 the right's; byte 8 is the brightness of both
# (0..7, the level of the display-control command). A digit byte is bit 0 = segment a (top) ...
# bit 6 = g (middle), as the TM1637 takes it. Bit 7 is the one mark a module has, and the two
# module variants differ there:
#   colon module (points=False, the common 4-digit clock module): bit 7 of the second digit
#     (bytes 1 and 5) lights the centre colon; bit 7 of any other digit is not wired.
#   point module (points=True): bit 7 of every digit is its decimal point, and there is no colon.
# The board file says which its modules are (TM1637_POINTS).
#
# What a side shows (display.render with four_digits=True):
#   "05:00"  MM:SS: 0 5:0 0 (the point module: 0 5.0 0).
#   " 1:30"  H:MM at an hour or more, the first digit blank; from 10 hours it fills four digits
#            and reads like MM:SS (the one ambiguity); 100 hours or more: "100h".
#   "15:3 "  below 20 s, colon module: seconds on the first two digits, the colon, the tenths,
#            the last digit dark (a time with a dark last digit is always seconds and tenths);
#            " 9:9 " below 10 s. The point module right-aligns " 15.3" with its point.
#   "FLAG"   a side that flagged first (or alone); "FLG2" a side that flagged after the other.
#   running  the running side's mark (colon, or points) blinks while it shows H:MM, lit the first
#            half of each second shown: something changes every second. The waiting side's
#            stays lit; MM:SS and tenths change every second anyway.
#   battery  status.on_battery (no USB power): BATTERY_BRIGHT in play, BATTERY_DIM in a pause; the
#            LEDs' current follows the pulse width, 4/16 and 1/16 against 14/16 and 2/16.
#   paused   both modules dim (brightness DIM, else BRIGHT); the side on move (its light blinks
#            SLOW: status.lights) has its mark dark, the other's stays lit. A blink here would
#            cost a module write each half second (~1.3 ms of bit-banging): the pause writes
#            only as it starts and as it ends.
#   over     the times stand still, marks on (a flag says FLAG; an arbiter's END is not shown).
#   ready    a new game before a lever starts it (status.message is START_HINT): the times for
#            the first HINT_AFTER_MS, then every HINT_EVERY_MS "PrESS LEVEr" for HINT_MS,
#            scrolling across both modules (timed from status.lights.since and status.now).
#   counters status.info (SET pressed while a clock runs): per side "P  3" (periods left),
#            else "M 12" (moves left to the time control; M is drawn as a tall n), else
#            "n 23" (moves made).
#   battery  status.info INFO_BATTERY (SET again): "b 87" on both modules, the percent; "b --"
#            when the board cannot measure it.
#   low      status.battery_low: the point module lights its last digit's point, which no time
#            uses. The colon module has no spare mark: it shows an L in the first digit where
#            that digit says nothing (blank in H:MM, a leading 0 in MM:SS: "L5:00", "L1:30").
#            Where every digit is needed (10:00 to 59:59, and from 10 hours) the L takes the
#            last digit instead, the one that matters least ("15:0L"): steadily on a side that
#            does not run, every other second on the running side (even seconds shown), so its
#            time is still seen to run. It never stands where it could be read as a figure of
#            another time (an L first on "15:00" would read "L5:00", five minutes). Seconds and
#            tenths from 10 s to 20 s ("15:3 ", their dark last digit says what they are) keep
#            every digit.
# Stages, delay and mute do not fit: the OLED shows them.
#
# Menus show one line on the eight digits; a longer one scrolls (menu(..., now), menu_wait).
from micropython import const

import ticks
from clock import display
from ui import font
from ui.status import INFO_BATTERY, SLOW, START_HINT

DIGITS = const(4)  # per module
_CELLS = const(8)  # both modules
FRAME_BYTES = const(9)  # the digits and the brightness
BRIGHT = const(7)
DIM = const(1)  # paused: the LEDs lit 2/16 of the time against 14/16, still legible
BATTERY_BRIGHT = const(2)  # on battery, in play: 4/16
BATTERY_DIM = const(0)  # on battery, paused: 1/16
_LEVEL = const(8)  # the frame's brightness byte
_UNKNOWN = const(-3)  # no side key: the side is built at the next clock()
_MARK = const(0x80)
_MARK_AT = const(1)  # the colon module's colon: bit 7 of the second digit
_DIGITS_BITS = const(0x7F)
_HOUR = const(3600000)  # from here a side shows H:MM
_HALF_S = const(500)
_FLAG_FIRST = b"FLAG"
_FLAG_LATER = b"FLG2"
_LETTER_P = const(0x73)
_LETTER_M = const(0x37)
_LETTER_N = const(0x54)
_LETTER_B = const(0x7C)
_LETTER_L = const(0x38)
_MINUS = const(0x40)
_ZERO = const(0x3F)
# A menu line's scroll (Scroll): its start held, then a digit a step.
_HOLD_MS = const(1200)
_STEP_MS = const(350)
# The ready screen's start hint: after the times alone for HINT_AFTER_MS, then for HINT_MS of
# every HINT_EVERY_MS: shown from its start _HINT_HOLD_MS, one digit further every _STEP_MS,
# its end to the end of HINT_MS.
HINT_AFTER_MS = const(4000)
HINT_EVERY_MS = const(10000)  # a cycle costs ~23 ms of bit-banging: 0.23 % of the ready screen
HINT_MS = const(2500)
_HINT_HOLD_MS = const(700)


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


def _mark_lit(view):
    """Whether a side's mark shows, but in a pause: on a running H:MM it blinks, lit the first
    half of each second shown."""
    ms = view.time_ms
    if not view.running or ms < _HOUR:
        return True
    if view.counting_up:
        return ms % 1000 < _HALF_S
    return ms % 1000 >= _HALF_S


def _unmark(out, at):
    for i in range(at, at + DIGITS):
        out[i] &= _DIGITS_BITS


def counter(out, at, cells, letter_at, view):
    """Counter of View `view` on `cells` digits from `at` (blanked first), its letter at
    `letter_at`: M (moves left to the time control), else P (periods left), else n (moves made),
    the count right-aligned, 999 at most."""
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
    _blank(out, at, cells)
    out[letter_at] = letter
    number(out, at + cells - 1, count if count < 999 else 999)


def percent(out, at, cells, letter_at, value):
    """The battery's percent on `cells` digits from `at` (blanked first): b at `letter_at`, the
    figure right-aligned, or two dashes where the board cannot measure it (`value` < 0)."""
    _blank(out, at, cells)
    out[letter_at] = _LETTER_B
    last = at + cells - 1
    if value < 0:
        out[last - 1] = out[last] = _MINUS
    else:
        number(out, last, value)


def number(out, last, count):
    """`count` (0 or more) right-aligned, its last digit at `last`."""
    while True:
        out[last] = font.segments(48 + count % 10)
        count //= 10
        if not count:
            return
        last -= 1


def _blank(out, at, cells):
    for i in range(at, at + cells):
        out[i] = 0


def hint_clock(status, now):
    """Where the ready screen's start hint is at `now` (status filled before): milliseconds
    into its cycle of HINT_EVERY_MS (shown for the first HINT_MS), negative before the first
    (minus the wait), or None: no hint on this screen."""
    lights = status.lights
    if status.message is not START_HINT or lights is None:
        return None
    into = ticks.diff(now, lights.since) - HINT_AFTER_MS
    return into if into < 0 else into % HINT_EVERY_MS


def menu_text(title, lines, selected):
    """What a one-line menu shows: the selected line, else the title then the first line, else
    the title."""
    if 0 <= selected < len(lines):
        return lines[selected]
    if lines:
        return title + " " + lines[0]
    return title


class Scroll:
    """A line of text on `cells` digits: one longer than them is shown from its start for
    _HOLD_MS, then one digit further every _STEP_MS to its end, which stays _HOLD_MS + _STEP_MS,
    then again from the start. A new text allocates its segments; the same one nothing."""

    def __init__(self, cells):
        self.cells = cells
        self._text = None
        self._strip = b""
        self._since = 0

    def fill(self, out, text, now):
        """Write the digits `text` shows at `now` into out[:cells]; a new text scrolls from
        `now`."""
        if text != self._text:
            self._text = text
            strip = bytearray(len(text))
            self._strip = strip[: encode(text, strip, 0)]
            self._since = now
        cells = self.cells
        _blank(out, 0, cells)
        strip = self._strip
        offset = self._offset(now)
        for i in range(min(cells, len(strip) - offset)):
            out[i] = strip[offset + i]

    def _offset(self, now):
        steps = len(self._strip) - self.cells
        if steps <= 0:
            return 0
        shown = ticks.diff(now, self._since) % (2 * _HOLD_MS + steps * _STEP_MS)
        if shown < _HOLD_MS:
            return 0
        return min(steps, (shown - _HOLD_MS) // _STEP_MS + 1)

    def wait(self, now):
        """Milliseconds from `now` until the line scrolls on, or -1 if it fits."""
        steps = len(self._strip) - self.cells
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


class SegScreen:
    CELLS = _CELLS  # a menu shows one line of this many digits: overlays lay theirs out for it

    def __init__(self, frame=None, points=False):
        """`points`: the modules have a decimal point on each digit and no colon (see the top)."""
        self.frame = frame if frame is not None else bytearray(FRAME_BYTES)
        self.dirty = None  # the modules' driver finds the changed digits itself
        self.points = points
        self._next = bytearray(FRAME_BYTES)
        self._sides = bytearray(FRAME_BYTES)  # each side's time digits as last built
        self._keys = [_UNKNOWN, _UNKNOWN]  # the time (-1, -2: FLAG, FLG2) each side shows
        self._text = bytearray(12)
        self._valid = False
        self._scroll = Scroll(_CELLS)  # the menu line
        hint = bytearray(len(START_HINT))
        self._hint = hint[: encode(START_HINT, hint, 0)]

    def invalidate(self):
        self._valid = False

    deferred = False  # never: four digits a module go out in one write

    def clock(self, left, right, status, press=False):
        """Show the times of Views `left` and `right` on the left and right modules; return
        False, leaving the frame alone, if no segment changed. Allocates nothing."""
        out = self._next
        hint = -1 if status.info else self._hint_at(status)
        if status.info == INFO_BATTERY:
            percent(out, 0, DIGITS, 0, status.battery_percent)
            percent(out, DIGITS, DIGITS, DIGITS, status.battery_percent)
        elif status.info:
            counter(out, 0, DIGITS, 0, left)
            counter(out, DIGITS, DIGITS, DIGITS, right)
        elif hint >= 0:
            strip = self._hint
            for i in range(_CELLS):
                out[i] = strip[hint + i] if hint + i < len(strip) else 0
        else:
            first = status.first_flag_side
            self._side(0, left, first == 0 or (first < 0 and left.flagged_first))
            self._side(1, right, first == 1 or (first < 0 and right.flagged_first))
            out[:] = self._sides
            lights = status.lights
            if (lights is not None and lights.left == SLOW) or not _mark_lit(left):
                _unmark(out, 0)
            if (lights is not None and lights.right == SLOW) or not _mark_lit(right):
                _unmark(out, DIGITS)
            if status.battery_low:
                self._low(out, 0, left)
                self._low(out, DIGITS, right)
        if status.on_battery:
            out[_LEVEL] = BATTERY_DIM if status.paused else BATTERY_BRIGHT
        else:
            out[_LEVEL] = DIM if status.paused else BRIGHT
        return self._commit(out)

    def _hint_at(self, status):
        """The digit of the start hint the modules show from, or -1 for the times."""
        into = hint_clock(status, status.now)
        if into is None or into < 0 or into >= HINT_MS:
            return -1
        steps = len(self._hint) - _CELLS
        if into < _HINT_HOLD_MS or steps <= 0:
            return 0
        return min(steps, (into - _HINT_HOLD_MS) // _STEP_MS + 1)

    def until_hint(self, status, now):
        """Milliseconds from `now` until the ready screen's start hint next changes (a new game,
        `status` filled before), or -1."""
        into = hint_clock(status, now)
        if into is None:
            return -1
        if into < 0:
            return -into
        if into >= HINT_MS:
            return HINT_EVERY_MS - into
        steps = len(self._hint) - _CELLS
        if into < _HINT_HOLD_MS:
            return _HINT_HOLD_MS - into
        moved = into - _HINT_HOLD_MS
        if moved < (steps - 1) * _STEP_MS:
            return _STEP_MS - moved % _STEP_MS
        return HINT_MS - into

    def until_blink(self, view):
        """Milliseconds until the mark of running View `view` blinks (H:MM shown), or -1."""
        ms = view.time_ms
        if not view.running or view.flagged or ms < _HOUR:
            return -1
        into = ms % 1000
        if view.counting_up:
            return _HALF_S - into if into < _HALF_S else 1000 - into
        return into - _HALF_S + 1 if into >= _HALF_S else into + 1

    def _side(self, s, view, first):
        """Build side `s` into _sides, unless it already shows what `view` does."""
        if view.flagged:
            key = -1 if first else -2
        else:
            ms = view.time_ms
            if ms < 0:
                ms = 0
            key = ms - ms % display.resolution(ms, True)  # the time the text is made of
        if self._keys[s] == key:
            return
        self._keys[s] = key
        out = self._sides
        at = s * DIGITS
        if view.flagged:
            encode(_FLAG_FIRST if first else _FLAG_LATER, out, at)
            return
        text = self._text
        n = display.render(key, text, True)
        digits = 0
        before_mark = -1
        for i in range(n):
            if text[i] == 58 or text[i] == 46:
                before_mark = digits
            else:
                digits += 1
        if digits > DIGITS:  # 100 hours or more: "100h"
            n = digits - 2
            text[n] = 104
            n += 1
            digits = n
            before_mark = -1
        if before_mark < 0 or self.points:
            start = at + DIGITS - digits
        else:
            start = at + _MARK_AT + 1 - before_mark  # the mark on the colon
        for i in range(at, at + DIGITS):
            out[i] = 0
        encode(text, out, start, n)

    def _low(self, out, at, view):
        """The low-battery sign on the module from `at`, which shows View `view` (see the top)."""
        last = at + DIGITS - 1
        if self.points:
            out[last] |= _MARK
        elif view.flagged:
            return
        elif out[at] == 0 or out[at] == _ZERO:
            out[at] = _LETTER_L
        elif out[last] & _DIGITS_BITS and (not view.running or view.time_ms // 1000 % 2 == 0):
            out[last] = (out[last] & _MARK) | _LETTER_L

    def menu(self, title, lines, selected=-1, now=0):
        """One line on the eight digits (menu_text), in the 7-segment alphabet; a longer one
        scrolls with `now`. Allocates. Returns False if no segment changed."""
        out = self._next
        self._scroll.fill(out, menu_text(title, lines, selected), now)
        out[_LEVEL] = BRIGHT
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
