# SPDX-License-Identifier: MIT
# A small hand-written scanner shared by the text notations (MicroPython's `re` is too small).
from notation.errors import PresetError

DIGITS = "0123456789"


class Scanner:
    def __init__(self, notation, text):
        if not isinstance(text, str):
            raise PresetError(notation, str(text), None, "a preset must be text")
        self.notation = notation
        self.text = text
        self.pos = 0

    def fail(self, expected, position=None):
        """Raise the notation's error at `position` (default: here), saying what was found."""
        at = self.pos if position is None else position
        if at >= len(self.text):
            found = "the end of the text"
        else:
            found = '"' + self.text[at] + '"'
        problem = "expected %s, found %s" % (expected, found)
        raise PresetError(self.notation, self.text, at, problem)

    def error(self, problem, position=None):
        at = self.pos if position is None else position
        raise PresetError(self.notation, self.text, at, problem, self.pos)

    def at_end(self):
        return self.pos >= len(self.text)

    def peek(self):
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def skip_spaces(self):
        while self.pos < len(self.text) and self.text[self.pos] in " \t":
            self.pos += 1

    def accept(self, chars):
        """Consume one character if it is among `chars`; return it or ''."""
        char = self.peek()
        if char and char in chars:
            self.pos += 1
            return char
        return ""

    def expect(self, chars, expected):
        char = self.accept(chars)
        if not char:
            self.fail(expected)
        return char

    def accept_word(self, word):
        """Consume `word` (case-insensitive) if it comes next."""
        end = self.pos + len(word)
        if self.text[self.pos : end].lower() == word.lower():
            self.pos = end
            return True
        return False

    def digits(self):
        """Consume a run of digits and return it ('' if none)."""
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in DIGITS:
            self.pos += 1
        return self.text[start : self.pos]

    def integer(self, expected):
        run = self.digits()
        if not run:
            self.fail(expected)
        if len(run) > 9:
            self.error("the number %s is too large" % run, self.pos - len(run))
        return int(run)

    def decimal_ms(self, unit_ms, expected):
        """A number with an optional fraction, times `unit_ms`, as exact milliseconds."""
        start = self.pos
        whole = self.digits()
        fraction = ""
        if self.accept("."):
            fraction = self.digits()
            if not fraction:
                self.fail("digits after the decimal point")
        if not whole and not fraction:
            self.fail(expected)
        if len(whole) > 9 or len(fraction) > 6:
            self.error(
                "the number %s is too large or too precise" % self.text[start : self.pos], start
            )
        value = int(whole or "0") * unit_ms
        if fraction:
            scale = 10 ** len(fraction)
            exact = int(fraction) * unit_ms
            if exact % scale:
                self.error(
                    "%s is not a whole number of milliseconds" % self.text[start : self.pos], start
                )
            value += exact // scale
        return value

    def seconds_ms(self, expected):
        """Seconds with an optional fraction of at most 3 decimals, as milliseconds."""
        start = self.pos
        char = self.peek()
        if not char or char not in DIGITS:
            self.fail(expected)
        ms = self.decimal_ms(1000, expected)
        dot = self.text.find(".", start, self.pos)
        if dot >= 0 and self.pos - dot - 1 > 3:
            self.error("%s has more than 3 decimals" % self.text[start : self.pos], start)
        return ms

    def end(self, expected="the end of the preset"):
        self.skip_spaces()
        if not self.at_end():
            self.fail(expected)


def seconds_text(ms):
    """Milliseconds as seconds, with only the decimals needed: 1500 -> '1.5'."""
    text = "%d" % (ms // 1000)
    if ms % 1000:
        text += ("." + "%03d" % (ms % 1000)).rstrip("0")
    return text
