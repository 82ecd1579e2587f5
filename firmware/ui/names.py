# SPDX-License-Identifier: MIT
# Players' names for the clock's displays: any text made printable ASCII (what the 5x7 font and
# the 7-segment alphabet have), bounded; the short name of a board's ready screen; a board label.
from micropython import const

NAME_WIDTH = const(10)  # characters a side has on the OLED's lines (ui/oled.py's slots)
_LATIN_FROM = const(0xC0)
_LATIN_TO = const(0x180)
_NO = const(32)  # a sign, not a letter: left out
_TWO = const(42)  # "*": two letters, in _WIDE
# Latin-1's and Latin Extended-A's letters from U+00C0, each as the letter without its marks
# (what Unicode's compatibility decomposition leaves; tests/ui/test_names_host.py holds the table
# to it), the letters that are not a letter with marks as their usual ASCII spelling.
_LATIN = (
    b"AAAAAA*CEEEEIIIIDNOOOOO OUUUUY**"  # U+00C0
    b"aaaaaa*ceeeeiiiidnooooo ouuuuy*y"  # U+00E0
    b"AaAaAaCcCcCcCcDdDdEeEeEeEeEeGgGg"  # U+0100
    b"GgGgHhHhIiIiIiIiIi**JjKkkLlLlLlL"  # U+0120
    b"lLlNnNnNnnNnOoOoOo**RrRrRrSsSsSs"  # U+0140
    b"SsTtTtTtUuUuUuUuUuUuWwYyYZzZzZzs"  # U+0160
)
_WIDE = {
    0xC6: "AE",
    0xDE: "Th",
    0xDF: "ss",
    0xE6: "ae",
    0xFE: "th",
    0x132: "IJ",
    0x133: "ij",
    0x152: "OE",
    0x153: "oe",
    0x218: "S",  # Romanian S and T with a comma below (Latin Extended-B)
    0x219: "s",
    0x21A: "T",
    0x21B: "t",
}


def ascii_text(text):
    """`text` in printable ASCII: a letter with marks as the letter (Müller: Muller), what no
    font here draws (control characters, other scripts, combining marks) left out, any run of
    white space as one space, none at either end."""
    parts = []
    space = False
    for char in text:
        code = ord(char)
        if code <= 32 or 127 <= code <= 160:
            space = space or code in (9, 10, 13, 32, 160)  # white space, not controls
            continue
        if code < 127:
            part = char
        elif _LATIN_FROM <= code < _LATIN_TO:
            letter = _LATIN[code - _LATIN_FROM]
            if letter == _NO:
                continue
            part = _WIDE[code] if letter == _TWO else chr(letter)
        else:
            part = _WIDE.get(code)
            if part is None:
                continue
        if space and parts:
            parts.append(" ")
        space = False
        parts.append(part)
    return "".join(parts)


def fitted(text, width=NAME_WIDTH):
    """ascii_text(text) in `width` characters at most: a longer one cut, a "." saying so."""
    text = ascii_text(text)
    if len(text) <= width:
        return text
    return text[: width - 1].rstrip() + "."


def short_name(name, width=NAME_WIDTH):
    """The name a board shows for a player, `width` characters at most: the surname ("Carlsen,
    Magnus" as FIDE writes it; else the last word of "Magnus Carlsen") with the first name's
    initial when both fit ("Carlsen M"), a longer surname cut with a "." ("Nepomniac.")."""
    text = ascii_text(name)
    surname, comma, given = text.partition(",")
    if not comma:
        words = text.split(" ")
        surname, given = words[-1], " ".join(words[:-1])
    surname = surname.strip()
    given = given.strip()
    if not surname:
        surname, given = given, ""
    if len(surname) > width:
        return fitted(surname, width)
    initial = given[:1]
    if initial.isalpha() and len(surname) + 2 <= width:
        return surname + " " + initial
    return surname


def board_label(board, cells):
    """A board number in `cells` digits of a 7-segment or LCD module: "b 12" in four, "b123";
    the number alone when the letter does not fit beside it."""
    digits = str(board)
    if len(digits) >= cells:
        return digits[-cells:]
    return "b" + " " * (cells - 1 - len(digits)) + digits
