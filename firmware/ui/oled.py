# The 128x64 OLED screens: both clocks side by side, and text menus; a frame is built on change.
from micropython import const

from clock import display
from ui import canvas

# The content key: every text and mark the clock screen shows, in fixed slots. clock() fills
# it, compares it with the key of the frame on screen, and draws only when they differ.
_SLOT = const(10)  # one side's slot: side s uses [start + s * _SLOT, start + (s + 1) * _SLOT)
_TIME = const(0)  # the big time text, 0-padded: "1:30:25", "05:00", "19.9"
_TOP = const(20)  # "#23 S2  P3": moves made, stage, periods / moves left (right-aligned)
_AUX = const(40)  # "1ST FLAG", "T/O", "ST 0:30", "D 4.2", "R 4:32", "+0:30"
_CENTER = const(60)  # status line middle: "PAUSE", the message, "OVER"
_CENTER_LEN = const(11)
_BATTERY = const(71)  # status line right: "87%", "BAT"
_BATTERY_LEN = const(4)
_BITS = const(75)
_KEY = const(76)
_RUN = const(1)  # << side
_FLAG = const(4)  # << side
_PAUSED = const(16)
_LOW = const(32)
_MUTED = const(64)

# Layout: the left player's half is x 0..61, the right's 66..127.
_RIGHT_X = const(66)
_HALF_W = const(62)
_TOP_Y = const(0)
_DIGITS_Y = const(9)
_DIGITS_H = const(32)
_BAR_Y = const(42)
_BAR_H = const(3)
_AUX_Y = const(47)
_LINE_Y = const(56)
_MENU_ROWS = const(5)


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


def _fill(buf, start, count, value):
    for i in range(start, start + count):
        buf[i] = value


class OledScreen:
    def __init__(self, frame=None):
        self.frame = frame if frame is not None else bytearray(canvas.SIZE)
        self._key = bytearray(_KEY)
        self._shown = bytearray(_KEY)
        self._valid = False  # False: the frame does not hold the clock screen of _shown
        self._text = bytearray(12)  # display.render scratch
        self._message = bytearray(_CENTER_LEN)
        self._message_len = 0
        self._message_src = None
        self._menu = None

    def invalidate(self):
        """Make the next clock() or menu() draw even if nothing changed (e.g. after a wake)."""
        self._valid = False
        self._menu = None

    # --- the clock screen ----------------------------------------------------------------

    def clock(self, left, right, status):
        """Build the clock screen for Views `left` and `right` (the players on the left and
        right) and `status`; return False, leaving the frame alone, if nothing shown changed."""
        key = self._key
        _fill(key, 0, _KEY, 0)
        first = status.first_flag_side
        self._side(key, 0, left, first == 0 or (first < 0 and left.flagged_first))
        self._side(key, 1, right, first == 1 or (first < 0 and right.flagged_first))
        self._status(key, status)
        if self._valid:
            shown = self._shown
            for i in range(_KEY):
                if key[i] != shown[i]:
                    break
            else:
                return False
        self._key, self._shown = self._shown, key
        self._valid = True
        self._menu = None
        self._draw(key)
        return True

    def _side(self, key, s, view, first):
        text = self._text
        n = display.render(view.time_ms, text)
        _put(key, _TIME + s * _SLOT, text, 0, n)
        if view.running:
            key[_BITS] |= _RUN << s
        if view.flagged:
            key[_BITS] |= _FLAG << s
        self._top(key, _TOP + s * _SLOT, view)
        self._aux(key, _AUX + s * _SLOT, view, first)

    def _top(self, key, at, view):
        _fill(key, at, _SLOT, 32)
        p = view.periods_left
        m = view.moves_left
        right = 0
        if p >= 0:
            right = 1 + _digits(p)
        if m >= 0:
            right += (1 if right else 0) + 1 + _digits(m)
        moves = 1 + _digits(view.moves)
        if right and moves + 1 + right > _SLOT:
            moves = 0
        stage = 1 + _digits(view.stage + 1) if view.stage > 0 else 0
        if stage and (moves + 1 if moves else 0) + stage + (1 + right if right else 0) > _SLOT:
            stage = 0
        pos = at
        if moves:
            pos = _put_item(key, pos, 35, view.moves) + 1  # "#23"
        if stage:
            _put_item(key, pos, 83, view.stage + 1)  # "S2": the second stage
        pos = at + _SLOT - right
        if p >= 0:
            pos = _put_item(key, pos, 80, p) + 1  # "P3"
        if m >= 0:
            _put_item(key, pos, 77, m)  # "M12"

    def _aux(self, key, at, view, first):
        _fill(key, at, _SLOT, 32)
        end = at + _SLOT
        pos = at
        if view.flagged:
            pos = self._word(key, at, pos, end, b"1ST FLAG" if first else b"FLAG")
        if view.soft_timeout:
            pos = self._word(key, at, pos, end, b"T/O")
        if view.start_ms >= 0:
            pos = self._time(key, at, pos, end, b"ST ", view.start_ms)
        if view.delay_ms > 0:
            pos = self._time(key, at, pos, end, b"D ", view.delay_ms)
        if view.reserve_ms >= 0:
            pos = self._time(key, at, pos, end, b"R ", view.reserve_ms)
        if view.penalty_ms > 0:
            self._time(key, at, pos, end, b"+", view.penalty_ms)

    def _word(self, key, at, pos, end, word):
        if pos > at:
            pos += 1
        if pos + len(word) > end:
            return end
        return _put(key, pos, word, 0, len(word))

    def _time(self, key, at, pos, end, prefix, ms):
        text = self._text
        n = display.render(ms, text)
        skip = 1 if n > 3 and text[0] == 48 else 0  # "04:32" -> "4:32"
        if pos > at:
            pos += 1
        if pos + len(prefix) + n - skip > end:
            return end
        pos = _put(key, pos, prefix, 0, len(prefix))
        return _put(key, pos, text, skip, n - skip)

    def _status(self, key, status):
        message = status.message
        if message is not self._message_src:
            self._message_src = message
            n = 0
            for c in message or b"":  # a new str costs 1-character strings on MicroPython
                if n == _CENTER_LEN:
                    break
                self._message[n] = c if type(c) is int else ord(c)
                n += 1
            self._message_len = n
        pos = _CENTER
        end = _CENTER + _CENTER_LEN
        if status.paused and not status.over:
            pos = self._word(key, _CENTER, pos, end, b"PAUSE")
            key[_BITS] |= _PAUSED
        if self._message_len:
            if pos > _CENTER:
                pos += 1
            n = self._message_len
            if pos + n > end:
                n = end - pos
            _put(key, pos, self._message, 0, n)
        elif status.over:
            self._word(key, _CENTER, pos, end, b"OVER")
        percent = status.battery_percent
        if percent >= 0:
            _put(key, _put_int(key, _BATTERY, percent if percent < 100 else 100), b"%", 0, 1)
        elif status.battery_low:
            _put(key, _BATTERY, b"BAT", 0, 3)
        if status.battery_low:
            key[_BITS] |= _LOW
        if status.muted:
            key[_BITS] |= _MUTED

    def _draw(self, key):
        f = self.frame
        canvas.clear(f)
        bits = key[_BITS]
        for s in (0, 1):
            x = _RIGHT_X if s else 0
            self._big_time(f, key, _TIME + s * _SLOT, x, bits & (_FLAG << s))
            canvas.text(f, x + 1, _TOP_Y, key, _TOP + s * _SLOT, _TOP + (s + 1) * _SLOT)
            canvas.text(f, x + 1, _AUX_Y, key, _AUX + s * _SLOT, _AUX + (s + 1) * _SLOT)
            if bits & (_RUN << s):
                canvas.fill_rect(f, x, _BAR_Y, _HALF_W, _BAR_H)
        for y in range(0, _AUX_Y + 7, 2):
            canvas.fill_rect(f, 63, y, 2, 1)
        if bits & _MUTED:
            canvas.text(f, 0, _LINE_Y, b"MUTE")
        n = _length(key, _CENTER, _CENTER_LEN)
        if n:
            x = (canvas.WIDTH - canvas.text_width(n)) // 2
            on = 0 if bits & _PAUSED else 1
            if not on:
                canvas.fill_rect(f, x - 2, _LINE_Y - 1, canvas.text_width(n) + 4, 9)
            canvas.text(f, x, _LINE_Y, key, _CENTER, _CENTER + n, on)
        n = _length(key, _BATTERY, _BATTERY_LEN)
        if n:
            x = canvas.WIDTH - canvas.text_width(n)
            on = 0 if bits & _LOW else 1
            if not on:
                canvas.fill_rect(f, x - 2, _LINE_Y - 1, canvas.text_width(n) + 2, 9)
            canvas.text(f, x, _LINE_Y, key, _BATTERY, _BATTERY + n, on)

    def _big_time(self, f, key, start, x, flagged):
        digits = marks = 0
        for i in range(start, start + _SLOT):
            c = key[i]
            if c == 0:
                break
            if c == 58 or c == 46:
                marks += 1
            else:
                digits += 1
        t = 3 if digits <= 4 else 2
        gap = 2
        w = (_HALF_W - marks * t - (digits + marks - 1) * gap) // digits
        if w > 13:
            w = 13
        h = 2 * w + 6
        if h > _DIGITS_H:
            h = _DIGITS_H
        width = canvas.big_text_width(key, start, start + _SLOT, w, t, gap)
        on = 1
        if flagged:
            canvas.fill_rect(f, x, _DIGITS_Y, _HALF_W, _DIGITS_H)
            on = 0
        y = _DIGITS_Y + (_DIGITS_H - h) // 2
        canvas.big_text(
            f, x + (_HALF_W - width) // 2, y, key, start, start + _SLOT, w, h, t, gap, on
        )

    # --- menus ---------------------------------------------------------------------------

    def menu(self, title, lines, selected=-1):
        """A text screen: `title` and up to 5 of `lines` (21 characters fit), the `selected`
        one inverted and kept in view. Allocates; returns False if nothing changed."""
        content = (title, tuple(lines), selected)
        if content == self._menu:
            return False
        self._menu = content
        self._valid = False
        f = self.frame
        canvas.clear(f)
        count = len(lines)
        first = 0
        if count > _MENU_ROWS and selected >= _MENU_ROWS:
            first = min(selected - _MENU_ROWS + 1, count - _MENU_ROWS)
        canvas.text(f, 1, 0, title)
        if count > _MENU_ROWS:
            where = "%d/%d" % ((selected if selected >= 0 else 0) + 1, count)
            x = canvas.WIDTH - canvas.text_width(len(where))
            canvas.fill_rect(f, x - 2, 0, canvas.WIDTH - x + 2, 8, 0)
            canvas.text(f, x, 0, where)
        canvas.hline(f, 0, 9, canvas.WIDTH)
        for row in range(min(_MENU_ROWS, count - first)):
            i = first + row
            y = 12 + row * 11
            on = 1
            if i == selected:
                canvas.fill_rect(f, 0, y - 1, canvas.WIDTH, 9)
                on = 0
            canvas.text(f, 1, y, lines[i], 0, -1, on)
        return True


def _length(buf, start, count):
    for i in range(start, start + count):
        if buf[i] == 0:
            return i - start
    return count
