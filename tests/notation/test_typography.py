# SPDX-License-Identifier: MIT
# A preset typed on a phone, pasted from a PDF or a word processor: curly quotes, primes, the
# multiplication sign, dashes and spaces that do not break read as their ASCII forms, in every
# notation, and are stored and sent as ASCII.
import notation
from notation import registry
from notation.describe import describe
from notation.errors import PresetError
from support import raises

# Each typographic character in a preset where its ASCII form belongs.
TEMPLATES = {
    "'": ("90{c}+30{c}{c}", "90'+30''"),
    '"': ("90'+30{c}", "90'+30\""),
    "x": ("45m 3{c}30s", "45m 3x30s"),
    "-": ("45 min 3x30 byo{c}yomi", "45 min 3x30 byo-yomi"),
    " ": ("45m{c}3x30s", "45m 3x30s"),
}


def reads(text):
    return describe(registry.parse(text))


def test_what_phones_and_pdfs_type_reads_as_what_the_event_printed():
    assert reads("90\u2019+30\u2019\u2019") == reads("90'+30''") == "90 min + 30 s/move"
    assert reads("90\u2032+30\u2033") == reads("90'+30\"") == "90 min + 30 s/move"
    assert reads("45m 3\u00d730s") == reads("45m 3x30s") == "45 min; then 3x30 s byo-yomi"
    assert reads("15\u2019 + 10\u201d") == "15 min + 10 s/move"


def test_every_character_of_the_family_one_by_one():
    checked = []
    for char, ascii_form in registry.FOLDS.items():
        typed, plain = TEMPLATES[ascii_form]
        text = typed.replace("{c}", char)
        assert registry.parse(text) == registry.parse(plain), (char, text)
        assert registry.fold(text) == plain, (char, text)
        checked.append(char)
    for char in "\u2018\u2019\u2032\u2033\u201c\u201d\u00d7\u2010\u2013\u2014\u00a0\u2009\u202f":
        assert char in checked, char


def test_spaces_that_do_not_break_around_a_plus():
    for space in ("\u00a0", "\u2009", "\u202f"):
        assert reads("5" + space + "+" + space + "3") == "5 min + 3 s/move"
    assert reads("fischer\u2013after 5 3") == reads("fischer-after 5 3")


def test_a_prefixed_preset_is_stored_in_ascii():
    assert notation.prefixed("90\u2019+30\u2019\u2019") == "chessclock:90'+30''"
    assert notation.prefixed("45m 3\u00d730s") == "go:45m 3x30s"
    assert notation.prefixed("chessclock:5\u2009+\u20093") == "chessclock:5 + 3"
    assert notation.prefixed("3|2") == "chessclock:3|2"  # ASCII stays as it was


def test_an_error_points_at_the_character_as_typed():
    error = raises(PresetError, registry.parse, "90\u2019+30\u2019x")
    assert error.position == 7 and "at character 8" in str(error)
    assert "90'+30'x" in str(error)  # quoted in ASCII: it goes over the serial line as it is


def test_other_characters_are_still_refused():
    error = raises(PresetError, registry.parse, "5\u20ac3")  # a euro sign is no notation
    assert "character 2" in str(error)
    assert registry.fold("5\u20ac3") == "5\u20ac3"
    assert registry.fold(None) is None
