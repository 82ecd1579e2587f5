# SPDX-License-Identifier: MIT
# The 128x64 OLED screens: both clocks side by side, and text menus; only what changed is drawn.
#
# Layout, page-aligned so that a change touches as few SSD1306 pages as possible:
#   page 0      counters per side: "#23  BY 3", "#12    M8", "#45 S2"
#   pages 1-4   the time in 7-segment digits, 32 px high; a flagged side is dark on a lit block
#   page 5      the mark: a band the width of the half under the running side's time (filled),
#               or, in a pause, under the side on move's (outlined: status.lights blinks SLOW);
#               on battery (status.on_battery) a thin line instead, 2 rows or 1, fewer pixels lit
#   page 6      what else runs per side: "1ST FLAG", "T/O", "ST 0:30", "D 4.2", "R 4:32", "+0:30"
#   page 7      status line: MUTE, the message ("PAUSE", "HALT", "OVER"), the battery
# clock() builds the texts into small slot buffers (not at all for a side whose View.fixed
# stayed), compares each with what is on screen (a C compare), redraws only the slots that
# differ (for the time, only the digits that differ when the text keeps its shape) and lists
# the changed windows in `dirty` for the display driver.
from array import array

from micropython import const

from clock import display
from ui import canvas
from ui.dirty import Dirty
from ui.status import SLOW

_SLOT = const(10)  # characters per side in the time, counter and aux texts
_CENTER_LEN = const(11)
_BATTERY = const(_CENTER_LEN)  # status line: the message, then the battery text, then bits
_BATTERY_LEN = const(4)
_LINE_BITS = const(_CENTER_LEN + _BATTERY_LEN)
_LINE = const(_LINE_BITS + 1)
_PAUSED = const(1)
_LOW = const(2)
_MUTED = const(4)
_FLAG = const(2)  # per-side bits
_FILLED = const(1)  # per-side marks
_OUTLINED = const(2)
_TIME_BUILT = const(1)  # what _side built afresh
_TOP_BUILT = const(2)
_AUX_BUILT = const(4)

_RIGHT_X = const(66)
_HALF_W = const(62)
_TOP_Y = const(0)
_DIGITS_Y = const(8)
_DIGITS_H = const(32)
_BAR_Y = const(41)
_BAR_H = const(6)
_THIN_H = const(2)  # the band on battery
_AUX_Y = const(48)
_LINE_Y = const(56)
_TEXT_DY = const(1)  # status text sits one row down its page, under a lit ground when inverted
_DIVIDER_END = const(55)
_MENU_ROWS = const(5)
_SPACES = b"          "  # _SLOT spaces
_ZEROS = bytes(_SLOT)
_NO_LINE = bytes(_LINE)
_NEVER = (-2,) * 9  # no view has these: the first build always runs


def _digits(n):
    d = 1
    while n >= 10:
        n //= 10
        d += 1
    return d


def _put_int(buf, at, n):
    end = at + _digits(n)
    i = end
    while i > at:
        i -= 1
        buf[i] = 48 + n % 10
        n //= 10
    return end


def _put_item(buf, at, letter, n):
    buf[at] = letter
    return _put_int(buf, at + 1, n)


def _put(buf, at, chars, start, count):
    for i in range(count):
        buf[at + i] = chars[start + i]
    return at + count


def _is_mark(c):
    return c == 58 or c == 46


def _length(buf, start, count):
    for i in range(start, start + count):
        if buf[i] == 0:
            return i - start
    return count


class OledScreen:
    def __init__(self, frame=None, bus="i2c"):
        self.frame = frame if frame is not None else bytearray(canvas.SIZE)
        # On I2C a half redrawn is 258 bytes, 5.8 ms at 400 kHz: a press's clock() leaves a time
        # whose shape changed (across an hour, into or out of tenths), the counters and aux lines
        # (16 bytes and a text's Python each) and the status line to the next clock(), which the
        # app makes once the press is saved; on SPI they take 0.3 ms and are drawn at once.
        self._spread = bus != "spi"
        self.deferred = False  # the last clock() left something to the next
        self.canvas = canvas.Canvas(self.frame)
        self.dirty = Dirty()
        self._times = (bytearray(_SLOT), bytearray(_SLOT))
        self._time_keys = [-1, -1]  # per side, the time its text in _times was rendered from
        # Per side, the length of the time text: display.render's texts of one length have
        # their marks in the same places, so the same length is the same shape.
        self._time_lens = bytearray(2)
        self._shown_lens = bytearray(2)
        # Per side, View.fixed and `first` of the last build: the same again, and the side is
        # as it was built (and drawn: every clock() draws what it built).
        self._fixed = array("i", (-1, -1))
        self._firsts = bytearray(2)
        self._tops = (bytearray(_SLOT), bytearray(_SLOT))
        self._auxes = (bytearray(_SLOT), bytearray(_SLOT))
        self._shown_times = (bytearray(_SLOT), bytearray(_SLOT))
        self._shown_tops = (bytearray(_SLOT), bytearray(_SLOT))
        self._shown_auxes = (bytearray(_SLOT), bytearray(_SLOT))
        self._bits = bytearray(2)
        self._shown_bits = bytearray(2)
        self._marks = bytearray(2)
        self._shown_marks = bytearray(2)
        self._band = _BAR_H  # the band's height: _THIN_H on battery
        # per side, what the counters and the aux line were last built from
        self._inputs = (array("i", _NEVER), array("i", _NEVER))
        self._line = bytearray(_LINE)
        self._shown_line = bytearray(_LINE)
        self._status_seen = array("i", (-2, -2, -2, -2, -2))  # what the line was built from
        # per side: the time's digit width, height, bar thickness and y (set when drawn)
        self._geometries = (bytearray(4), bytearray(4))
        self._xs = (bytearray(_SLOT), bytearray(_SLOT))  # per side, each character's x
        self._text = bytearray(12)  # display.render scratch
        self._message = bytearray(_CENTER_LEN)
        self._message_len = 0
        self._message_src = None
        self._valid = False  # False: the frame does not hold the clock screen of the shown slots
        self._menu = None

    def invalidate(self):
        """Make the next clock() or menu() draw even if nothing changed (e.g. after a wake)."""
        self._valid = False
        self._menu = None
        self.dirty.all()

    # --- the clock screen ----------------------------------------------------------------

    def clock(self, left, right, status, press=False):
        """Build the clock screen for Views `left` and `right` (the players on the left and
        right) and `status`; return False, leaving the frame alone, if nothing shown changed.
        For a lever's `press` on I2C, a time that changes shape, the counters, the aux lines and
        the status line are left to the next call (`deferred` says so): the press's bands and
        digits go first."""
        self.deferred = False
        first = status.first_flag_side
        built_left = self._side(0, left, first == 0 or (first < 0 and left.flagged_first))
        built_right = self._side(1, right, first == 1 or (first < 0 and right.flagged_first))
        self._status(status)
        if not self._valid:
            self.marks(left.running, right.running, status)  # set: _draw_all draws them
            self._draw_all()
            return True
        # A side _side built nothing of (0) shows what it showed: its flag is an aux input.
        spread = press and self._spread
        changed = built_left > 0 and self._update_side(0, built_left, spread)
        if built_right > 0 and self._update_side(1, built_right, spread):
            changed = True
        if self.marks(left.running, right.running, status):
            changed = True
        if self._line != self._shown_line:
            if spread:
                self.deferred = True  # a press's status line follows its save, as its counters
            else:
                self._shown_line[:] = self._line
                self._draw_line()
                self.dirty.add(0, canvas.WIDTH - 1, _LINE_Y, _LINE_Y + 7)
                changed = True
        return changed

    def marks(self, left_running, right_running, status):
        """Draw the bands under the times where they changed, for the clocks on the left and
        right running or not (a View's `running`): filled under a running clock, outlined under
        the side on move in a pause (its light blinks slowly), else none. Return whether any
        did; off the clock screen False, drawing nothing (the next clock() draws it all). A
        display that sends while the app goes on (hal/rp2040/ssd1306_dma.py) gets a press's
        bands first: they need no View."""
        lights = status.lights
        marks = self._marks
        if left_running:
            marks[0] = _FILLED
        else:
            marks[0] = _OUTLINED if lights is not None and lights.left == SLOW else 0
        if right_running:
            marks[1] = _FILLED
        else:
            marks[1] = _OUTLINED if lights is not None and lights.right == SLOW else 0
        shown = self._shown_marks
        band = _THIN_H if status.on_battery else _BAR_H
        if band != self._band:
            self._band = band
            shown[0] = shown[1] = 255  # both bands are drawn again at their new height
        if not self._valid:
            return False
        moved = 0  # bit s: side s's band changed
        for s in range(2):
            if marks[s] != shown[s]:
                shown[s] = marks[s]
                self._draw_mark(s)
                moved |= 1 << s
        if not moved:
            return False
        # A press moves the band: both halves in one window, one write fewer.
        x0 = 0 if moved & 1 else _RIGHT_X
        x1 = _RIGHT_X + _HALF_W - 1 if moved & 2 else _HALF_W - 1
        self.dirty.add(x0, x1, _BAR_Y, _BAR_Y + _BAR_H - 1)
        return True

    def _side(self, s, view, first):
        """Build side `s`'s texts from `view`: return which it built afresh (_TIME_BUILT,
        _TOP_BUILT, _AUX_BUILT), or -1, leaving them, if nothing of it can have changed since
        they were built."""
        fixed = view.fixed
        if fixed >= 0 and self._fixed[s] == fixed and self._firsts[s] == first:
            return -1
        built = 0
        self._fixed[s] = fixed
        self._firsts[s] = first
        ms = view.time_ms
        if ms < 0:
            ms = 0
        key = ms - ms % display.resolution(ms)  # the time the text is made of
        if self._time_keys[s] != key:
            self._time_keys[s] = key
            time = self._times[s]
            time[:] = _ZEROS
            self._time_lens[s] = display.render(key, time)
            built = _TIME_BUILT
        bits = _FLAG if view.flagged else 0
        self._bits[s] = bits
        # The counters and the aux line are rebuilt only when what they show changed.
        seen = self._inputs[s]
        moves = view.moves
        stage = view.stage
        periods = view.periods_left
        moves_left = view.moves_left
        if seen[0] != moves or seen[1] != stage or seen[2] != periods or seen[3] != moves_left:
            seen[0] = moves
            seen[1] = stage
            seen[2] = periods
            seen[3] = moves_left
            self._top(self._tops[s], view)
            built |= _TOP_BUILT
        flags = (8 if first else 0) | (16 if view.soft_timeout else 0) | (bits & _FLAG)
        start = view.start_ms
        delay = view.delay_ms
        reserve = view.reserve_ms
        penalty = view.penalty_ms
        if (
            seen[4] != flags
            or seen[5] != start
            or seen[6] != delay
            or seen[7] != reserve
            or seen[8] != penalty
        ):
            seen[4] = flags
            seen[5] = start
            seen[6] = delay
            seen[7] = reserve
            seen[8] = penalty
            self._aux(self._auxes[s], view, first)
            built |= _AUX_BUILT
        return built

    def _top(self, key, view):
        key[:] = _SPACES
        p = view.periods_left
        m = view.moves_left if p < 0 else -1  # in byo-yomi a period is one move: no "M1"
        right = 0
        if p >= 0:
            right = 3 + _digits(p)  # "BY 3": byo-yomi periods, as go players count them
        elif m >= 0:
            right = 1 + _digits(m)
        moves = 1 + _digits(view.moves)
        if right and moves + 1 + right > _SLOT:
            moves = 0
        # The stage only where no count says where the player is (go's overtime, a quota do).
        stage = 1 + _digits(view.stage + 1) if view.stage > 0 and not right else 0
        if stage and (moves + 1 if moves else 0) + stage > _SLOT:
            stage = 0
        pos = 0
        if moves:
            pos = _put_item(key, pos, 35, view.moves) + 1  # "#23"
        if stage:
            _put_item(key, pos, 83, view.stage + 1)  # "S2": the second stage
        pos = _SLOT - right
        if p >= 0:
            _put_int(key, _put(key, pos, b"BY ", 0, 3), p)
        elif m >= 0:
            _put_item(key, pos, 77, m)  # "M12"

    def _aux(self, key, view, first):
        key[:] = _SPACES
        pos = 0
        if view.flagged:
            pos = self._word(key, pos, b"1ST FLAG" if first else b"FLAG")
        if view.soft_timeout:
            pos = self._word(key, pos, b"T/O")
        if view.start_ms >= 0:
            pos = self._time(key, pos, b"ST ", view.start_ms)
        if view.delay_ms > 0:
            pos = self._time(key, pos, b"D ", view.delay_ms)
        if view.reserve_ms >= 0:
            pos = self._time(key, pos, b"R ", view.reserve_ms)
        if view.penalty_ms > 0:
            self._time(key, pos, b"+", view.penalty_ms)

    def _word(self, key, pos, word, end=_SLOT):
        if pos > 0:
            pos += 1
        if pos + len(word) > end:
            return end
        return _put(key, pos, word, 0, len(word))

    def _time(self, key, pos, prefix, ms):
        text = self._text
        n = display.render(ms, text)
        skip = 1 if n > 3 and text[0] == 48 else 0  # "04:32" -> "4:32"
        if pos > 0:
            pos += 1
        if pos + len(prefix) + n - skip > _SLOT:
            return _SLOT
        pos = _put(key, pos, prefix, 0, len(prefix))
        return _put(key, pos, text, skip, n - skip)

    def _status(self, status):
        # Few locals, so its frame is on the C stack: most passes end here.
        seen = self._status_seen
        if (
            status.message is self._message_src
            and seen[0] == status.paused
            and seen[1] == status.over
            and seen[2] == status.battery_percent
            and seen[3] == status.battery_low
            and seen[4] == status.muted
        ):
            return  # the line built last time still holds
        self._build_status(status)

    def _build_status(self, status):
        message = status.message
        seen = self._status_seen
        seen[0] = status.paused
        seen[1] = status.over
        seen[2] = status.battery_percent
        seen[3] = status.battery_low
        seen[4] = status.muted
        line = self._line
        line[:] = _NO_LINE
        if message is not self._message_src:
            self._message_src = message
            n = 0
            for c in message or b"":  # a new str costs 1-character strings on MicroPython
                if n == _CENTER_LEN:
                    break
                self._message[n] = c if type(c) is int else ord(c)
                n += 1
            self._message_len = n
        pos = 0
        bits = 0
        if status.paused and not status.over:
            pos = self._word(line, pos, b"PAUSE", _CENTER_LEN)
            bits = _PAUSED
        if self._message_len:
            if pos > 0:
                pos += 1
            n = self._message_len
            if pos + n > _CENTER_LEN:
                n = _CENTER_LEN - pos
            _put(line, pos, self._message, 0, n)
        elif status.over:
            self._word(line, pos, b"OVER", _CENTER_LEN)
        percent = status.battery_percent
        if percent >= 0:
            _put(line, _put_int(line, _BATTERY, percent if percent < 100 else 100), b"%", 0, 1)
        elif status.battery_low:
            _put(line, _BATTERY, b"BAT", 0, 3)
        if status.battery_low:
            bits |= _LOW
        if status.muted:
            bits |= _MUTED
        line[_LINE_BITS] = bits

    # --- drawing -------------------------------------------------------------------------

    def _draw_all(self):
        self.canvas.clear()
        fill_rect = self.canvas.fill_rect
        for s in (0, 1):
            x = _RIGHT_X if s else 0
            self._shown_times[s][:] = self._times[s]
            self._shown_lens[s] = self._time_lens[s]
            self._shown_tops[s][:] = self._tops[s]
            self._shown_auxes[s][:] = self._auxes[s]
            self._shown_bits[s] = self._bits[s]
            self._draw_time(s, x)
            self.canvas.text(x + 1, _TOP_Y, self._tops[s], 0, _SLOT)
            self.canvas.text(x + 1, _AUX_Y, self._auxes[s], 0, _SLOT)
            self._shown_marks[s] = self._marks[s]
            self._draw_mark(s)
        for y in range(0, _DIVIDER_END, 2):
            fill_rect(63, y, 2, 1, 1)
        self._shown_line[:] = self._line
        self._draw_line()
        self._valid = True
        self._menu = None
        self.dirty.all()

    def _update_side(self, s, built, spread):
        """Redraw what changed of side `s`, whose texts `built` (_side's answer) were built
        afresh; return whether anything did. With `spread`, a time that changes shape, the
        counters and the aux line are left for the next clock()."""
        x = _RIGHT_X if s else 0
        dirty = self.dirty
        bits = self._bits[s]
        was = self._shown_bits[s]
        changed = False
        time = self._times[s]
        shown = self._shown_times[s]
        if (built & _TIME_BUILT and time != shown) or (bits ^ was) & _FLAG:
            length = self._time_lens[s]
            if (bits ^ was) & _FLAG or length != self._shown_lens[s]:
                if spread and not (bits ^ was) & _FLAG:
                    # Built again next time (the view may stay fixed): shown stays as it is.
                    self._fixed[s] = -1
                    self._time_keys[s] = -1
                    self.deferred = True
                else:
                    self._shown_lens[s] = length
                    self._draw_time(s, x)
                    dirty.add(x, x + _HALF_W - 1, _DIGITS_Y, _DIGITS_Y + _DIGITS_H - 1)
                    shown[:] = time
                    changed = True
            else:
                self._draw_changed_digits(s, shown)
                shown[:] = time
                changed = True
        if spread and built & (_TOP_BUILT | _AUX_BUILT):
            # The counters and the aux line follow the press's save, as a new shape does: built
            # again next time from inputs no view has.
            seen = self._inputs[s]
            if built & _TOP_BUILT and self._tops[s] != self._shown_tops[s]:
                seen[0] = -2
                self._fixed[s] = -1
                self.deferred = True
            if built & _AUX_BUILT and self._auxes[s] != self._shown_auxes[s]:
                seen[4] = -2
                self._fixed[s] = -1
                self.deferred = True
        else:
            top = self._tops[s]
            if built & _TOP_BUILT and self._update_text(x, _TOP_Y, top, self._shown_tops[s]):
                changed = True
            aux = self._auxes[s]
            if built & _AUX_BUILT and self._update_text(x, _AUX_Y, aux, self._shown_auxes[s]):
                changed = True
        self._shown_bits[s] = bits
        return changed

    def _draw_mark(self, s):
        """Draw side `s`'s band under its time (filled, outlined or dark); on battery a line
        _THIN_H rows high for filled, one row for outlined."""
        x = _RIGHT_X if s else 0
        mark = self._marks[s]
        fill_rect = self.canvas.fill_rect
        band = self._band
        if band == _BAR_H:
            fill_rect(x, _BAR_Y, _HALF_W, _BAR_H, 1 if mark else 0)
            if mark == _OUTLINED:
                fill_rect(x + 1, _BAR_Y + 1, _HALF_W - 2, _BAR_H - 2, 0)
            return
        fill_rect(x, _BAR_Y, _HALF_W, _BAR_H, 0)
        if mark:
            fill_rect(x, _BAR_Y + (_BAR_H - band) // 2, _HALF_W, band if mark == _FILLED else 1, 1)

    def _update_text(self, x, y, text, shown):
        """Redraw the characters of `text` that differ from `shown` (then made the same);
        return whether any did."""
        if text == shown:
            return False
        first = 0
        while text[first] == shown[first]:
            first += 1
        last = _SLOT - 1
        while text[last] == shown[last]:
            last -= 1
        shown[:] = text
        left = x + 1 + first * 6
        right = x + (last + 1) * 6
        self.canvas.fill_rect(left, y, right - left + 1, 8, 0)
        self.canvas.text(left, y, text, first, last + 1)
        self.dirty.add(left, right, y, y + 7)
        return True

    def _layout(self, time, length, g, xs, x):
        """Size and place the time text `time` (`length` characters) in its half at `x`: into
        bytearray `g`, and each character's x into `xs`."""
        marks = 0
        for i in range(length):
            if _is_mark(time[i]):
                marks += 1
        digits = length - marks
        t = 3 if digits <= 4 else 2
        gaps = 2 * (digits + marks - 1)
        w = (_HALF_W - marks * t - gaps) // digits
        if w > 13:
            w = 13
        h = 2 * w + 6
        if h > _DIGITS_H:
            h = _DIGITS_H
        g[0] = w
        g[1] = h
        g[2] = t
        g[3] = _DIGITS_Y + (_DIGITS_H - h) // 2
        x += (_HALF_W - digits * w - marks * t - gaps) // 2  # centred: canvas.big_text_width
        for i in range(length):
            xs[i] = x
            x += (t if _is_mark(time[i]) else w) + 2

    def _draw_time(self, s, x):
        time = self._times[s]
        length = self._time_lens[s]
        on = 0 if self._bits[s] & _FLAG else 1
        g = self._geometries[s]
        xs = self._xs[s]
        self._layout(time, length, g, xs, x)
        self.canvas.fill_rect(x, _DIGITS_Y, _HALF_W, _DIGITS_H, 1 - on)
        canvas = self.canvas  # canvas.big_char called, not bound: a bound method allocates
        for i in range(length):
            canvas.big_char(xs[i], g[3], time[i], g[0], g[1], g[2], on)

    def _draw_changed_digits(self, s, shown):
        """Redraw the characters of side `s`'s time that differ from `shown`, a time of the
        same shape (its marks in the same places: only digits differ)."""
        time = self._times[s]
        on = 0 if self._bits[s] & _FLAG else 1
        g = self._geometries[s]  # the shape is the one drawn last
        w = g[0]
        h = g[1]
        t = g[2]
        y = g[3]
        xs = self._xs[s]
        fill_rect = self.canvas.fill_rect
        for i in range(self._time_lens[s]):
            c = time[i]
            if c != shown[i]:
                x = xs[i]
                fill_rect(x, y, w, h, 1 - on)
                self.canvas.big_char(x, y, c, w, h, t, on)
                self.dirty.add(x, x + w - 1, y, y + h - 1)

    def _draw_line(self):
        line = self._line
        bits = line[_LINE_BITS]
        c = self.canvas
        c.fill_rect(0, _LINE_Y, canvas.WIDTH, 8, 0)
        y = _LINE_Y + _TEXT_DY
        if bits & _MUTED:
            c.text(0, y, b"MUTE")
        n = _length(line, 0, _CENTER_LEN)
        if n:
            x = (canvas.WIDTH - canvas.text_width(n)) // 2
            on = 0 if bits & _PAUSED else 1
            if not on:
                c.fill_rect(x - 2, _LINE_Y, canvas.text_width(n) + 4, 8, 1)
            c.text(x, y, line, 0, n, on)
        n = _length(line, _BATTERY, _BATTERY_LEN)
        if n:
            x = canvas.WIDTH - canvas.text_width(n)
            on = 0 if bits & _LOW else 1
            if not on:
                c.fill_rect(x - 2, _LINE_Y, canvas.text_width(n) + 2, 8, 1)
            c.text(x, y, line, _BATTERY, _BATTERY + n, on)

    # --- menus ---------------------------------------------------------------------------

    def menu(self, title, lines, selected=-1, now=0):
        """A text screen: `title` and up to 5 of `lines` (21 characters fit), the `selected`
        one inverted and kept in view; nothing moves with `now`. Allocates; returns False if
        nothing changed."""
        content = (title, tuple(lines), selected)
        if content == self._menu:
            return False
        self._menu = content
        self._valid = False
        c = self.canvas
        c.clear()
        count = len(lines)
        first = 0
        if count > _MENU_ROWS and selected >= _MENU_ROWS:
            first = min(selected - _MENU_ROWS + 1, count - _MENU_ROWS)
        c.text(1, 0, title)
        if count > _MENU_ROWS:
            where = "%d/%d" % ((selected if selected >= 0 else 0) + 1, count)
            x = canvas.WIDTH - canvas.text_width(len(where))
            c.fill_rect(x - 2, 0, canvas.WIDTH - x + 2, 8, 0)
            c.text(x, 0, where)
        c.fb.hline(0, 9, canvas.WIDTH, 1)
        for row in range(min(_MENU_ROWS, count - first)):
            i = first + row
            y = 12 + row * 11
            on = 1
            if i == selected:
                c.fill_rect(0, y - 1, canvas.WIDTH, 9, 1)
                on = 0
            c.text(1, y, lines[i], 0, -1, on)
        self.dirty.all()
        return True

    def until_blink(self, view):
        """-1: nothing on the clock screen blinks (SegScreen's running colon does)."""
        return -1

    def menu_wait(self, now):
        """-1: a menu screen never changes by itself (SegScreen's scrolls)."""
        return -1
