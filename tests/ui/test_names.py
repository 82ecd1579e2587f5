# SPDX-License-Identifier: MIT
# Players' names for the displays (ui/names.py): printable ASCII whatever the text, bounded, the
# short name of the ready screen, the board label of the segment modules.
from ui import font
from ui.names import NAME_WIDTH, ascii_text, board_label, fitted, short_name


def drawable(text):
    """Every character has a glyph of the 5x7 font (32..126)."""
    return all(font.FIRST <= ord(char) <= font.LAST for char in text)


def test_letters_with_marks_are_the_letter():
    assert ascii_text("Müller") == "Muller"
    assert ascii_text("Ľubomír Ftáčnik") == "Lubomir Ftacnik"
    assert ascii_text("Łukasz Świercz") == "Lukasz Swiercz"
    assert ascii_text("Ørsted, Søren") == "Orsted, Soren"
    assert ascii_text("Groß") == "Gross"
    assert ascii_text("Ægir Þórsson") == "AEgir Thorsson"
    assert ascii_text("Ștefan Țurcanu") == "Stefan Turcanu"


def test_what_no_font_draws_is_left_out():
    assert ascii_text("Carlsen\x00\x07\x1b[2J") == "Carlsen[2J"
    assert ascii_text("\u202eevil\u202c") == "evil"  # bidirectional overrides
    assert ascii_text("Ли Chao 李超") == "Chao"
    assert ascii_text("3 × 4 ÷ 2") == "3 4 2"
    assert ascii_text("") == ""


def test_white_space_is_one_space_inside_and_none_outside():
    assert ascii_text("  Anand,\t\tViswanathan \r\n") == "Anand, Viswanathan"
    assert ascii_text("Ding\u00a0Liren") == "Ding Liren"


def test_markup_is_text_here():
    # the displays draw characters; a page showing the same name escapes it (docs/round.md)
    assert ascii_text("<script>alert(1)</script>") == "<script>alert(1)</script>"


def test_fitted_cuts_with_a_point():
    assert fitted("Carlsen M") == "Carlsen M"
    assert fitted("Nepomniachtchi") == "Nepomniac."
    assert fitted("Abcdefgh  Z", 9) == "Abcdefgh."
    assert len(fitted("x" * 500)) == NAME_WIDTH


def test_short_names_as_fide_writes_them():
    assert short_name("Carlsen, Magnus") == "Carlsen M"
    assert short_name("Caruana,Fabiano") == "Caruana F"
    assert short_name("Nepomniachtchi, Ian") == "Nepomniac."
    assert short_name("Firouzja, Alireza") == "Firouzja A"
    assert short_name("Vachier-Lagrave, Maxime") == "Vachier-L."
    assert short_name("Rapport, Richard") == "Rapport R"
    assert short_name("Abdusattorov, Nodirbek") == "Abdusatto."
    assert short_name("Ding, Liren") == "Ding L"


def test_short_names_written_first_name_first():
    assert short_name("Magnus Carlsen") == "Carlsen M"
    assert short_name("Judit Polgar") == "Polgar J"
    assert short_name("Carlsen") == "Carlsen"
    assert short_name(", Magnus") == "Magnus"


def test_short_names_are_bounded_and_drawable():
    names = [
        "Ωmega, Alpha",
        "Ünlü, Özge",
        "Nakamura, Hikaru" * 20,
        "\x00\x01",
        "",
        "李, 超",
        '=HYPERLINK("x"), Eve',
        "Kasparov, Garry",
    ]
    for width in (4, 6, 8, NAME_WIDTH, 16):
        for name in names:
            short = short_name(name, width)
            assert len(short) <= width, (name, width, short)
            assert drawable(short), (name, short)
    assert short_name("Ünlü, Özge") == "Unlu O"
    assert short_name("李, 超") == ""  # nothing drawable: the board shows its own "White"


def test_the_initial_only_when_it_fits():
    assert short_name("Gelfand, Boris", 9) == "Gelfand B"
    assert short_name("Gelfand, Boris", 8) == "Gelfand"
    assert short_name("Gelfand, Boris", 7) == "Gelfand"
    assert short_name("Gelfand, Boris", 6) == "Gelfa."
    assert short_name("So, 1234") == "So"  # an initial is a letter


def test_board_labels():
    assert board_label(12, 4) == "b 12"
    assert board_label(1, 4) == "b  1"
    assert board_label(123, 4) == "b123"
    assert board_label(1234, 4) == "1234"
    assert board_label(12, 6) == "b   12"
    assert board_label(9999, 6) == "b 9999"
    for board in (1, 9, 10, 99, 100, 999, 1000, 9999):
        for cells in (4, 6):
            label = board_label(board, cells)
            assert len(label) == cells and str(board) in label
            assert all(font.segments(ord(char)) or char == " " for char in label)
