# SPDX-License-Identifier: MIT
# ui/names.py's table of Latin letters against Unicode's own: each letter with marks is the letter
# Python's unicodedata decomposes it to (NFKD), the letters without a decomposition as English
# spells them.
import unicodedata

from ui import names

SPELLED = {
    "Æ": "AE",
    "æ": "ae",
    "Ø": "O",
    "ø": "o",
    "Ð": "D",
    "ð": "d",
    "Þ": "Th",
    "þ": "th",
    "ß": "ss",
    "Đ": "D",
    "đ": "d",
    "Ħ": "H",
    "ħ": "h",
    "ı": "i",
    "ĸ": "k",
    "Ł": "L",
    "ł": "l",
    "Ŋ": "N",
    "ŋ": "n",
    "Œ": "OE",
    "œ": "oe",
    "Ŧ": "T",
    "ŧ": "t",
    "ſ": "s",
    "Ĳ": "IJ",
    "ĳ": "ij",
    "Ŀ": "L",
    "ŀ": "l",
    "ŉ": "n",
}


def test_every_latin_letter_is_its_base_letter():
    for code in range(0xC0, 0x180):
        char = chr(code)
        if char in SPELLED:
            expected = SPELLED[char]
        else:
            decomposed = unicodedata.normalize("NFKD", char)
            expected = "".join(c for c in decomposed if c.isascii() and c.isalpha())
        if not unicodedata.category(char).startswith("L"):
            expected = ""  # × and ÷
        assert names.ascii_text(char) == expected, (hex(code), char)


def test_any_text_comes_out_printable_and_bounded():
    for code in range(0, 0x3000):
        text = "A" + chr(code) * 3 + "B"
        out = names.ascii_text(text)
        assert all(32 <= ord(c) <= 126 for c in out), hex(code)
        assert out.startswith("A") and out.endswith("B")
        assert len(names.short_name(text * 9)) <= names.NAME_WIDTH
