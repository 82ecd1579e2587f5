# SPDX-License-Identifier: MIT
# The TRF writer (sim/trf_write.py): round 3's results added to the files of
# tests/round/files in their own dialect must give, byte for byte, the round-3 files written by
# hand from the specification (the cells at columns 112-119, the points and ranks, the round's
# date on the 132 line, every other line, the encoding and the line ends as they were).
import datetime
import os

import pytest

from sim import trf, trf_write
from sim.trf import Cell

FILES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "files")


def fixture(name):
    with open(os.path.join(FILES, name), "rb") as handle:
        return handle.read()


def read(name):
    return trf.read(fixture(name), name)


# Round 3 of each file: the games of *_p3.txt with a result each, and the byes.
SWISS_MANAGER_3 = {
    1: Cell(5, "w", "="),
    5: Cell(1, "b", "="),
    4: Cell(3, "w", "-"),  # 0-1 forfeit
    3: Cell(4, "b", "+"),
    7: Cell(2, "w", "1"),
    2: Cell(7, "b", "0"),
    6: Cell(0, "-", "U"),
}
BBP_3 = {
    1: Cell(5, "w", "1"),
    5: Cell(1, "b", "0"),
    3: Cell(7, "w", "-"),  # a double forfeit
    7: Cell(3, "b", "-"),
    6: Cell(2, "w", "="),
    2: Cell(6, "b", "="),
    4: Cell(0, "-", "H"),  # the 240 record's bye
}


def written(tournament, *args, **kwargs):
    return trf_write.encoded(tournament, trf_write.with_round(tournament, *args, **kwargs))


def test_trf16_round_3_as_written_by_hand():
    tournament = read("swiss_manager_r2.trf")
    data = written(tournament, 3, SWISS_MANAGER_3, datetime.date(2026, 3, 16))
    assert data == fixture("swiss_manager_r3.trf")


def test_the_2026_revision_round_3_as_written_by_hand():
    tournament = read("bbp_2026_r2.trf")
    data = written(tournament, 3, BBP_3)  # no 132 line: the date goes nowhere
    assert data == fixture("bbp_2026_r3.trf")
    again = trf.read(data, "r3")
    assert again.dialect == "trf26" and again.rounds_played() == 3
    assert again.players[1].points == 90  # 3 points a win (162)
    assert again.players[4].points == 40  # 3 + the half-point bye's 1


def test_the_written_file_reads_back_cell_for_cell():
    for name, cells in (("swiss_manager_r2.trf", SWISS_MANAGER_3), ("bbp_2026_r2.trf", BBP_3)):
        again = trf.read(written(read(name), 3, cells), name)
        for number, cell in cells.items():
            assert again.players[number].cell(3) == cell


def test_only_the_player_lines_and_the_dates_change():
    before = read("swiss_manager_r2.trf")
    after = trf.read(fixture("swiss_manager_r3.trf"), "r3")
    changed = [i for i, (a, b) in enumerate(zip(before.lines, after.lines)) if a != b]
    players = {player.line for player in before.players.values()}
    dates = {i for i, text in enumerate(before.lines) if text.startswith("132")}
    assert set(changed) == players | dates
    for player in before.players.values():
        old, new = before.lines[player.line], after.lines[player.line]
        assert new[:80] == old[:80]  # 001 to the birth date: as it was
        assert new[89:109] == old[89:109]  # rounds 1 and 2


def test_ties_share_a_rank():
    after = trf.read(fixture("swiss_manager_r3.trf"), "r3")
    ranks = {n: (p.points, p.rank) for n, p in after.players.items()}
    assert ranks == {
        1: (25, 1),
        3: (25, 1),
        5: (20, 3),
        7: (20, 3),
        4: (10, 5),
        6: (10, 5),
        2: (5, 7),
    }


def test_the_number_of_rounds_added_in_the_files_own_dialect():
    for name, code in (("swiss_manager_r2.trf", "XXR"), ("bbp_2026_r2.trf", None)):
        tournament = read(name)
        cells = SWISS_MANAGER_3 if name.startswith("swiss") else BBP_3
        text = trf_write.with_round(tournament, 3, cells, rounds_total=7)
        again = trf.read(text, name)
        if code is None:  # the file has its 142 already: left as it is
            assert again.rounds_total == 5
            assert [t for t in again.lines if t.startswith("142")] == ["142 5"]
        else:
            assert again.rounds_total == 7
            index = again.lines.index("XXR 7")
            assert again.lines[index - 1].startswith("132")
            assert again.lines[index + 1].startswith("001")


def test_a_round_goes_after_the_one_before():
    tournament = read("swiss_manager_r2.trf")
    with pytest.raises(trf.TrfError) as raised:
        trf_write.with_round(tournament, 4, SWISS_MANAGER_3)
    assert "round 4's results go on a file with 3 rounds before it: this one has 2" in str(
        raised.value
    )
    with pytest.raises(trf.TrfError) as raised:
        trf_write.with_round(tournament, 2, SWISS_MANAGER_3)
    assert "this one has 2" in str(raised.value)


def test_every_player_needs_a_cell():
    cells = dict(SWISS_MANAGER_3)
    del cells[6]
    with pytest.raises(trf.TrfError) as raised:
        trf_write.with_round(read("swiss_manager_r2.trf"), 3, cells)
    assert str(raised.value) == "swiss_manager_r2.trf: round 3: no cell for player 6"


def test_a_bye_asked_is_kept_and_a_different_one_refused():
    tournament = read("bbp_2026_r2.trf")
    text = trf_write.with_byes(tournament, 3, {2: "F"})
    # the 2026 revision: a 240 record
    assert "240 F 003    2" in text.split("\r")
    assert trf.read(text, "x").byes_asked(3) == {4: "H", 2: "F"}
    trf16 = read("swiss_manager_r2.trf")
    text = trf_write.with_byes(trf16, 3, {6: "H"})
    again = trf.read(text, "x")
    assert again.byes_asked(3) == {6: "H"}
    assert again.players[6].cell(3).text() == "0000 - H"
    assert again.lines[again.players[6].line][111:119] == "0000 - H"  # columns 112-119
    cells = dict(SWISS_MANAGER_3)
    with pytest.raises(trf.TrfError) as raised:
        trf_write.with_round(again, 3, cells)  # 6 is given the pairing-allocated bye instead
    assert "round 3: the file already says '0000 - H' for player 6" in str(raised.value)
    cells[6] = Cell(0, "-", "H")
    assert trf.read(trf_write.with_round(again, 3, cells), "x").players[6].points == 5


def test_a_bye_is_asked_for_the_next_round_only():
    tournament = read("swiss_manager_r2.trf")
    for round_number, said in ((2, "round 2 is paired already"), (4, "not 4")):
        with pytest.raises(trf.TrfError) as raised:
            trf_write.with_byes(tournament, round_number, {1: "H"})
        assert said in str(raised.value)
    with pytest.raises(trf.TrfError) as raised:
        trf_write.with_byes(tournament, 3, {99: "H"})
    assert "no player has starting rank 99" in str(raised.value)
    with pytest.raises(trf.TrfError) as raised:
        trf_write.with_byes(tournament, 3, {1: "U"})
    assert "H, F or Z" in str(raised.value)


def test_line_ends_and_the_byte_order_mark_as_they_came():
    head = "001    1 m    A                                 2000 POL     1100001 1990/01/01"
    lines = [head + "  0.0    1", head.replace("   1 m", "   2 m") + "  0.0    2"]
    for newline, final in (("\n", True), ("\r\n", False), ("\r", True)):
        text = newline.join(lines) + (newline if final else "")
        data = b"\xef\xbb\xbf" + text.encode()
        tournament = trf.read(data, "x")
        out = written(tournament, 1, {1: Cell(2, "w", "1"), 2: Cell(1, "b", "0")})
        assert out.startswith(b"\xef\xbb\xbf001")
        assert out.count(newline.encode()) == len(lines) - (not final)
        assert out.endswith(newline.encode()) == final


def test_a_name_the_files_encoding_cannot_hold():
    tournament = read("swiss_manager_r2.trf")  # Windows-1252
    with pytest.raises(trf.TrfError) as raised:
        trf_write.encoded(tournament, "001 ... Ли\r\n")
    assert str(raised.value) == "swiss_manager_r2.trf: 'Ли' cannot be written in cp1252"
