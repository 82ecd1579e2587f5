# SPDX-License-Identifier: MIT
# A round's pairings read (sim/pairings.py): a pairing engine's -p output against the TRF it paired,
# and a club's CSV; every mistake said with its line and column (or field).
import os

import pytest

from sim import pairings, trf

FILES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "files")


def tournament(name="swiss_manager_r2.trf"):
    with open(os.path.join(FILES, name), "rb") as handle:
        return trf.read(handle.read(), name)


def engine_error(text, name="swiss_manager_r2.trf"):
    with pytest.raises(pairings.PairingsError) as raised:
        pairings.engine_pairs(text, "p.txt", tournament(name), 3)
    return str(raised.value)


def test_engine_output_in_board_order_with_the_bye():
    pairs, bye = pairings.engine_pairs("4\n1 5\n4 3\n7 2\n6 0\n", "p", tournament(), 3)
    assert pairs == [(1, 5), (4, 3), (7, 2)] and bye == 6
    # as JaVaFo writes it too: the bye anywhere, spaces and a last line without its end
    pairs, bye = pairings.engine_pairs("4\r\n6 0\r\n  1   5\r\n4 3\r\n7 2", "p", tournament(), 3)
    assert pairs == [(1, 5), (4, 3), (7, 2)] and bye == 6


def test_the_engine_paired_no_one_with_a_bye_asked():
    pairs, bye = pairings.engine_pairs("3\n1 5\n3 7\n6 2\n", "p", tournament("bbp_2026_r2.trf"), 3)
    assert pairs == [(1, 5), (3, 7), (6, 2)] and bye is None
    said = engine_error("3\n1 5\n3 4\n6 2\n", "bbp_2026_r2.trf")
    assert said == (
        "p.txt line 3, column 3: player 4 is paired, and bbp_2026_r2.trf asks a bye (H) for"
        " round 3"
    )


def test_engine_output_errors():
    cases = [
        ("", "p.txt: empty: expected the number of pairs"),
        ("x\n1 2\n", "p.txt line 1, column 1: expected the number of pairs, not 'x'"),
        ("2\n1 5\n", "p.txt line 1, column 1: says 2 pairs, the file has 1"),
        ("1\n1 5 7\n", "p.txt line 2, column 1: expected two starting ranks: '1 5 7'"),
        ("1\n1 -5\n", "p.txt line 2, column 1: expected two starting ranks"),
        ("1\n0 5\n", "p.txt line 2, column 1: White is 0 (a bye is N 0)"),
        ("1\n1 99\n", "p.txt line 2, column 3: no player has starting rank 99 in"),
        ("2\n1 5\n5 2\n", "p.txt line 3, column 1: player 5 is paired twice (line 2 too)"),
        ("1\n3 3\n", "p.txt line 2, column 3: player 3 is paired twice (line 2 too)"),
        ("2\n1 0\n2 0\n", "p.txt line 3, column 1: a second pairing-allocated bye (player 1 has"),
    ]
    for text, said in cases:
        assert engine_error(text).startswith(said), (text, engine_error(text))


def csv(text, check=None):
    return pairings.csv_rows(text, "club.csv", check)


def csv_error(text, check=None):
    with pytest.raises(pairings.PairingsError) as raised:
        csv(text, check)
    return str(raised.value)


def test_a_club_csv_with_a_header():
    rows = csv(
        "Board,White,Black,Time control,White rating,Black rating\n"
        '1,"Carlsen, Magnus","Caruana, Fabiano",90+30,2830,2805\n'
        "2,Anna Cramling,Bo Jensen,G/45 d5,,1500\n"
        "3,Lone Wolf,bye,,,\n"
    )
    assert [(r.board, r.white, r.black, r.time_control, r.ratings) for r in rows] == [
        (1, "Carlsen, Magnus", "Caruana, Fabiano", "90+30", (2830, 2805)),
        (2, "Anna Cramling", "Bo Jensen", "G/45 d5", (0, 1500)),
        (3, "Lone Wolf", None, None, (0, 0)),
    ]
    assert [r.line for r in rows] == [2, 3, 4]


def test_a_csv_as_spreadsheets_save_it():
    # Excel in most of Europe: semicolons, a byte-order mark, CR LF, the header in other words
    text = '\ufeffTable;W;B;TC\r\n1;Müller;"O\'Brien; Seán";15+10\r\n\r\n2;A;B;\r\n'
    rows = csv(text)
    assert [(r.board, r.white, r.black, r.time_control) for r in rows] == [
        (1, "Müller", "O'Brien; Seán", "15+10"),
        (2, "A", "B", None),
    ]
    # no header: board, White, Black, time control; tabs
    rows = csv("7\tA\tB\t5+3\n8\tC\tD\n")
    assert [(r.board, r.white, r.black, r.time_control) for r in rows] == [
        (7, "A", "B", "5+3"),
        (8, "C", "D", None),
    ]


def test_names_are_data_whatever_they_say():
    rows = csv('1,<script>alert(1)</script>,"=HYPERLINK(""http://x"")"\n')
    assert rows[0].white == "<script>alert(1)</script>"
    assert rows[0].black == '=HYPERLINK("http://x")'


def test_csv_errors_say_the_line_and_the_field():
    refuse = lambda text: "5+3" if text == "nonsense" else None  # noqa: E731
    cases = [
        ("", "club.csv: empty: expected a line per board"),
        ("Board,White\n1,A\n", "club.csv line 1: the header names no Black column"),
        ("x1,A,B\n", "club.csv line 1: the header names no Board column"),
        ("0,A,B\n", "club.csv line 1, field 1 (Board): expected a board number from 1 to 9999"),
        ("1,A,B\n1,C,D\n", "club.csv line 2, field 1 (Board): board 1 is there twice (line 1"),
        ("1,,B\n", "club.csv line 1, field 2 (White): no name (a bye: write bye as Black)"),
        ("1,A,\n", "club.csv line 1, field 3 (Black): no name"),
        ("1,%s,B\n" % ("x" * 34), "club.csv line 1, field 2 (White): a name of 34 characters"),
        ("1,A\x07,B\n", "club.csv line 1, field 2 (White): a control character (U+0007)"),
        ("1,A,\u202eB\n", "club.csv line 1, field 3 (Black): a bidirectional control (U+202E)"),
        ("W,B,Board,Black rating\nA,B,1,x\n", "club.csv line 2, field 4 (Black's rating)"),
        ("1,A,B,nonsense\n", "club.csv line 1, field 4 (time control): 5+3"),
        ('1,"A,B\n', "club.csv: not CSV"),
    ]
    for text, said in cases:
        assert csv_error(text, refuse).startswith(said), (text, csv_error(text, refuse))
