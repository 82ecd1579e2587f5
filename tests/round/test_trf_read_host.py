# SPDX-License-Identifier: MIT
# The TRF reader (sim/trf.py) on files written by hand from the FIDE specifications, field by field:
# tests/round/files/swiss_manager_r2.trf is TRF-16 as Swiss-Manager exports it (CR LF, Windows-1252,
# the 012-132 records); bbp_2026_r2.trf the 2026 revision as bbpPairings reads it (CR, UTF-8, 142,
# 152, 162, 192, 222, 240, a comment and lines of other programs). Each is two rounds of the same
# seven players: games, a forfeit, a half-point bye asked, the pairing-allocated bye.
import os

import pytest

from sim import trf

FILES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "files")


def fixture(name):
    with open(os.path.join(FILES, name), "rb") as handle:
        return handle.read()


def read(name):
    return trf.read(fixture(name), name)


def error(text, name="t.trf"):
    with pytest.raises(trf.TrfError) as raised:
        trf.read(text.encode("utf-8"), name)
    return str(raised.value)


def line(number, cells, points="0.0", name="Player", rating="2000", rank=None):
    """A player line laid out as the specification's table says (columns from 1)."""
    head = "001 %4d m    %-33s %4s POL     1100001 1990/01/01 %4s %4d" % (
        number,
        name,
        rating,
        points,
        rank or number,
    )
    assert len(head) == 89 and head[80:84] == "%4s" % points
    return head + "".join("  " + cell for cell in cells)


def test_the_player_fields_at_their_columns():
    tournament = read("swiss_manager_r2.trf")
    first = tournament.players[1]
    assert (first.number, first.sex, first.title, first.name) == (1, "m", "GM", "Kowalski, Jan")
    assert (first.rating, first.federation, first.fide_id) == (2650, "POL", "1100001")
    assert (first.birth, first.points, first.rank) == ("1990/01/15", 20, 1)
    woman = tournament.players[5]
    assert (woman.sex, woman.title, woman.name) == ("w", "WFM", "Nováková, Eva")
    unrated = tournament.players[6]
    assert (unrated.rating, unrated.fide_id, unrated.points) == (0, "", 0)
    assert tournament.players[7].birth == ""
    assert list(tournament.players) == [1, 2, 3, 4, 5, 6, 7]


def test_the_round_cells_and_their_codes():
    tournament = read("swiss_manager_r2.trf")
    cells = {n: [c.text() for c in p.cells] for n, p in tournament.players.items()}
    assert cells == {
        1: ["   4 w 1", "   2 b 1"],
        2: ["   5 b =", "   1 w 0"],
        3: ["   6 w +", "0000 - H"],
        4: ["   1 b 0", "   7 w 1"],
        5: ["   2 w =", "   6 b 1"],
        6: ["   3 b -", "   5 w 0"],
        7: ["0000 - U", "   4 b 0"],
    }
    forfeit = tournament.players[3].cell(1)
    assert (forfeit.opponent, forfeit.colour, forfeit.code) == (6, "w", "+")
    bye = tournament.players[7].cell(1)
    assert (bye.opponent, bye.colour, bye.code, bye.paired()) == (0, "-", "U", True)
    asked = tournament.players[3].cell(2)
    assert (asked.code, asked.paired()) == ("H", False)
    assert tournament.players[1].cell(3) is None
    assert tournament.rounds_played() == 2


def test_trf16_as_swiss_manager_exports_it():
    tournament = read("swiss_manager_r2.trf")
    assert tournament.dialect == "trf16"
    assert (tournament.encoding, tournament.newline, tournament.final_newline) == (
        "cp1252",
        "\r\n",
        True,
    )
    assert tournament.players[2].name == "Müller, Jürgen"  # Windows-1252 ü
    assert tournament.players[3].name == "Ødegaard, Sølvi"
    assert tournament.event == "Club Open 2026" and tournament.site == "Torino ITA"
    assert tournament.header["102"] == "IA Rossi, Mario"
    assert tournament.header["122"] == "90 min/40 moves + 30 min + 30 sec increment"
    assert tournament.time_control() == "90 min/40 moves + 30 min + 30 sec increment"
    assert tournament.rounds_total is None and tournament.initial_colour is None
    assert tournament.scoring == trf.Scoring()  # no scoring record: the points fit 1 - 1/2 - 0
    assert not tournament.scoring_given
    assert tournament.byes_asked(3) == {}


def test_the_2026_revision_as_bbppairings_reads_it():
    tournament = read("bbp_2026_r2.trf")
    assert tournament.dialect == "trf26"
    assert (tournament.encoding, tournament.newline) == ("utf-8", "\r")
    assert tournament.rounds_total == 5 and tournament.initial_colour == "w"
    # 162: W 3.0, D 1.0; the pairing-allocated bye as a win, forfeits and absence 0
    assert tournament.scoring == trf.Scoring(win=30, draw=10)
    assert tournament.scoring_given
    assert tournament.players[1].points == 60 and tournament.players[7].points == 30
    assert tournament.time_control() == "pgn:5400+30"  # 222, as a PGN TimeControl
    assert tournament.header["192"] == "FIDE_DUTCH_2025"
    # 240: the byes asked, by round; round 2's is in the player's line as it was played
    assert tournament.requests == {2: {3: "H"}, 3: {4: "H"}}
    assert tournament.byes_asked(3) == {4: "H"}
    assert tournament.rounds_played() == 2
    assert tournament.players[2].name == "Müller, Jürgen"  # UTF-8


def test_byes_asked_in_a_trf16_line_for_the_round_to_pair():
    # TRF(x), as JaVaFo and bbpPairings read it: the next round's cell holds the bye asked
    lines = [
        "XXR 5",
        line(1, ["   2 w 1", "0000 - H"], "1.0"),
        line(2, ["   1 b 0"], "0.0"),
        line(3, ["0000 - U", "0000 - F"], "1.0"),
        line(4, ["0000 - Z", "0000 - Z"], "0.0"),
    ]
    tournament = trf.read("\n".join(lines) + "\n", "x.trf")
    assert tournament.rounds_played() == 1
    assert tournament.byes_asked(2) == {1: "H", 3: "F", 4: "Z"}
    assert tournament.rounds_total == 5 and tournament.newline == "\n"


def test_the_points_may_count_the_byes_asked_or_not():
    for points in ("1.0", "1.5"):
        lines = [line(1, ["   2 w 1", "0000 - H"], points), line(2, ["   1 b 0"], "0.0")]
        assert trf.read("\n".join(lines), "x").players[1].points == int(points[0]) * 10 + int(
            points[2]
        )


def test_scoring_inferred_for_a_trf16_file_played_three_one_zero():
    lines = [
        line(1, ["   2 w 1", "   3 b ="], "4.0"),
        line(2, ["   1 b 0", "0000 - U"], "3.0"),
        line(3, ["0000 - U", "   1 w ="], "4.0"),
    ]
    tournament = trf.read("\n".join(lines), "x")
    assert (tournament.scoring.win, tournament.scoring.draw) == (30, 10)


def test_bbppairings_own_point_lines():
    lines = [
        "BBW  3.0",
        "BBD  1.0",
        "BBU  1.0",
        line(1, ["   2 w 1"], "3.0"),
        line(2, ["   1 b 0"]),
    ]
    tournament = trf.read("\n".join(lines), "x")
    assert tournament.scoring == trf.Scoring(win=30, draw=10, pab=10)


def test_a_pairing_without_a_result_yet_in_the_last_round():
    lines = [line(1, ["   2 w 1", "   2 b  "], "1.0"), line(2, ["   1 b 0", "   1 w"], "0.0")]
    tournament = trf.read("\n".join(lines), "x")
    cell = tournament.players[2].cell(2)
    assert (cell.opponent, cell.colour, cell.code) == (1, "w", None)
    assert tournament.rounds_played() == 2


def test_every_line_is_kept_as_it_was():
    data = fixture("bbp_2026_r2.trf")
    tournament = trf.read(data, "x")
    assert "\r".join(tournament.lines) + "\r" == data.decode("utf-8")
    assert "### Kept as it is: a comment" in tournament.lines
    assert "DAT 0001 EMAIL jan@example.org" in tournament.lines


def test_a_byte_order_mark_is_not_part_of_the_first_record():
    data = b"\xef\xbb\xbf012 Open\n" + line(1, [], "0.0").encode() + b"\n"
    tournament = trf.read(data, "x")
    assert tournament.encoding == "utf-8-sig" and tournament.event == "Open"


# --- errors: what and where -------------------------------------------------------------------


def test_errors_say_the_line_and_the_column():
    ok = line(2, ["   1 b 0"])
    cases = [
        (line(1, ["   2 w 1"])[:70], "line 1, column 71: a player line ends before its points"),
        ("001 ab" + line(1, [])[6:], "line 1, column 5: the starting rank (columns 5-8)"),
        (line(1, [], "x.5"), "line 1, column 81: the points (columns 81-84)"),
        (line(1, [], rating="20x0"), "line 1, column 49: the rating (columns 49-52)"),
        (line(1, ["    2 w 1"]), "line 1, column 96: round 1 (columns 92-99): expected a space"),
        (line(1, ["   2 x 1"]), "line 1, column 97: round 1 (columns 92-99): the colour"),
        (line(1, ["   2 w 7"]), "line 1, column 99: round 1 (columns 92-99): unknown result"),
        (line(1, ["   2 - 1"]), "line 1, column 97: round 1 (columns 92-99): a game played"),
        (line(1, ["0000 w 1"]), "line 1, column 97: round 1 (columns 92-99): a colour without"),
        (line(1, ["0000 - 1"]), "line 1, column 99: round 1 (columns 92-99): result 1 needs"),
        (line(1, ["   2 w H"]), "line 1, column 99: round 1 (columns 92-99): result H is a bye"),
        (line(1, ["   1 w 1"]), "line 1, column 92: round 1 (columns 92-99): the player is"),
        (line(1, ["  9x w 1"]), "line 1, column 92: round 1 (columns 92-99): the opponent"),
        (line(1, [], name="Evil\x1b[2J"), "line 1, column 19: a control character (U+001B)"),
        (line(1, [], name="\u202eevil"), "line 1, column 15: a bidirectional control (U+202E)"),
        (line(1, [], name="Two\u2028lines"), "line 1, column 18: a line separator (U+2028)"),
    ]
    for text, said in cases:
        assert said in error(text + "\n" + ok), (text, said)


def test_a_pairing_both_lines_must_say():
    said = error("\n".join([line(1, ["   3 w 1"], "1.0"), line(2, ["   1 b 0"])]))
    assert said == "t.trf line 1, column 92: round 1: opponent 3 is not in the player list"
    said = error("\n".join([line(1, ["   2 w 1"], "1.0"), line(2, []), line(3, ["   1 b 0"])]))
    assert (
        "line 1, column 92: round 1: player 1 meets 2, whose line (line 2) says no opponent"
        in said
    )
    said = error("\n".join([line(1, ["   2 w 1"], "1.0"), line(2, ["   1 w 0"])]))
    assert said == "t.trf line 1, column 97: round 1: players 1 and 2 both have w"
    said = error("\n".join([line(1, ["   2 w 1"], "1.0"), line(1, ["   2 b 0"])]))
    assert said == "t.trf line 2, column 5: starting rank 1 is there twice"


def test_points_the_results_do_not_give():
    said = error("\n".join(["162  W 1.0", line(1, ["   2 w 1"], "2.0"), line(2, ["   1 b 0"])]))
    assert said == (
        "t.trf line 1, column 81: player 1 has 2.0 points, the results give 1.0 (win 1.0,"
        " draw 0.5, loss 0.0, absence 0.0, pairing-allocated bye 1.0): a result typed wrong, or"
        " a scoring this file does not say?"
    ).replace("line 1,", "line 2,")


def test_records_the_round_cannot_use():
    assert (
        error("013 Team A    1    2")
        == "t.trf line 1, column 1: a team tournament: the round is for individual games"
    )
    assert (
        error("142 x\n" + line(1, []))
        == "t.trf line 1, column 5: the number of rounds: expected 1 to 99"
    )
    assert (
        error("152 X\n" + line(1, []))
        == "t.trf line 1, column 5: the initial colour: expected W or B"
    )
    assert "line 1, column 5: the bye: expected F, H or Z" in error(
        "240 Q 001    1\n" + line(1, [])
    )
    assert "line 1, column 11: expected a starting rank" in error("240 H 001   xx\n" + line(1, []))
    assert error("012 Nothing else\n") == "t.trf: no player line (001): is it a TRF file?"


def test_a_file_that_cannot_be_read():
    with pytest.raises(trf.TrfError) as raised:
        trf.read_file("/nonexistent/t.trf")
    assert str(raised.value) == "/nonexistent/t.trf: cannot read it: No such file or directory"


def test_every_result_code_and_its_points():
    # 162 (2026): win 3, draw 1, loss 0, absence (A: forfeit loss, zero-point bye) 0, the
    # pairing-allocated bye (P) 2; codes in either case, a blank code as Z
    scoring = "162  W 3.0    D 1.0    L 0.0    A 0.0    P 2.0"
    cells_1 = ["   2 w 1", "   2 b =", "   2 w +", "   2 b w", "   2 w d", "   2 b l"]
    cells_1 += ["0000 - U", "0000 - F", "0000 - H", "0000 - Z", "0000 -  ", "   2 w 0"]
    cells_2 = ["   1 b 0", "   1 w =", "   1 b -", "   1 w L", "   1 b D", "   1 w W"]
    cells_2 += ["0000 - Z", "0000 - Z", "0000 - Z", "0000 - Z", "0000 - Z", "   1 b 1"]
    one = 3 + 1 + 3 + 3 + 1 + 0 + 2 + 3 + 1 + 0 + 0 + 0  # 17
    two = 0 + 1 + 0 + 0 + 1 + 3 + 0 + 0 + 0 + 0 + 0 + 3  # 8
    text = "\n".join([scoring, line(1, cells_1, "17.0"), line(2, cells_2, " 8.0")])
    tournament = trf.read(text, "x")
    assert tournament.scoring == trf.Scoring(win=30, draw=10, loss=0, absent=0, pab=20)
    codes = [cell.code for cell in tournament.players[1].cells]
    assert codes == ["1", "=", "+", "W", "D", "L", "U", "F", "H", "Z", "Z", "0"]
    assert [c.paired() for c in tournament.players[1].cells[6:8]] == [True, False]
    assert (tournament.players[1].points, tournament.players[2].points) == (one * 10, two * 10)
    assert tournament.rounds_played() == 12


def test_bbppairings_generated_files_are_the_2026_revision():
    # what bbpPairings -g writes: player lines, a blank line, its type code in 092 (CR ends)
    text = "012 AutoTest Tournament 7\r" + line(1, [], "0.0") + "\r\r092 FIDE_DUTCH_2025\r"
    assert trf.read(text, "generated.trf").dialect == "trf26"
    assert trf.read(text.replace("092 FIDE_DUTCH_2025", "092 Individual"), "x").dialect == "trf16"
