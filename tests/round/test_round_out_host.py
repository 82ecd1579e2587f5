# SPDX-License-Identifier: MIT
# A round's results out (sim/round_out.py): the tournament file (byte for byte the file written by
# hand), the CSV (read back by Python's csv, nothing a spreadsheet would run), each game's PGN read
# back by python-chess with the Seven Tag Roster, Board, TimeControl and every %clk and %emt as the
# clock's record has them.
import csv
import datetime
import io
import json
import os
import re

import chess.pgn
import pytest

from sim import records, round_out, round_store, rounds

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = os.path.join(HERE, "files")
RECORDS = os.path.join(os.path.dirname(HERE), "sim", "records")
DAY = datetime.date(2026, 3, 16)


def fixture(name):
    return os.path.join(FILES, name)


def finished(tmp_path):
    store = round_store.Rounds(str(tmp_path / "rounds"))
    store.load_trf(3, fixture("swiss_manager_r2.trf"), fixture("swiss_manager_p3.txt"), "3+2", DAY)
    store.enter(3, 1, "1/2-1/2", "clock 1", at="2026-03-16T16:40:00+01:00")
    store.enter(3, 2, "0-1 forfeit", "Anna", at="2026-03-16T15:01:00+01:00")
    store.enter(3, 3, "1-0", "clock 3", at="2026-03-16T17:12:30+01:00")
    return store


def lichess_record():
    with open(os.path.join(RECORDS, "lichess_blitz.json"), encoding="utf-8") as handle:
        return json.load(handle)


def test_the_tournament_file_with_the_rounds_results(tmp_path):
    store = finished(tmp_path)
    with open(fixture("swiss_manager_r3.trf"), "rb") as handle:
        assert round_out.tournament_file(store, 3, date=DAY) == handle.read()


def test_the_tournament_file_waits_for_every_result(tmp_path):
    store = finished(tmp_path)
    store.enter(3, 3, "*", "Anna", change=True)
    with pytest.raises(rounds.RoundError) as raised:
        round_out.tournament_file(store, 3)
    assert str(raised.value) == "round 3 is not finished: board 3 has no result"


def test_the_results_as_csv(tmp_path):
    store = finished(tmp_path)
    store.enter(3, 3, "*", "Anna", change=True)
    rows = list(csv.reader(io.StringIO(round_out.results_csv(store.get(3)))))
    assert rows[0] == list(round_out.CSV_FIELDS)
    assert rows[1] == [
        "3",
        "1",
        "1",
        "Kowalski, Jan",
        "2650",
        "5",
        "Nováková, Eva",
        "2150",
        "1/2-1/2",
        "clock 1",
        "2026-03-16T16:40:00+01:00",
    ]
    assert rows[2][8:10] == ["0-1 forfeit", "Anna"]
    assert rows[3][8:] == ["pending", "", ""]
    assert rows[4][:9] == ["3", "", "6", "Brown, Tom", "", "", "", "", "pairing-allocated bye"]
    assert len(rows) == 5


def test_csv_cells_a_spreadsheet_would_run_are_text(tmp_path):
    path = tmp_path / "club.csv"
    path.write_text('1,"=HYPERLINK(""http://x"",""y"")",@SUM(A1),5+3\n2,-2+3,"+1",5+3\n')
    store = round_store.Rounds(str(tmp_path / "rounds"))
    store.load_csv(1, str(path), date=DAY)
    rows = list(csv.reader(io.StringIO(round_out.results_csv(store.get(1)))))
    assert rows[1][3] == '\'=HYPERLINK("http://x","y")' and rows[1][6] == "'@SUM(A1)"
    assert rows[2][3] == "'-2+3" and rows[2][6] == "'+1"


def read_pgn(text):
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and not game.errors, text
    return game


def test_a_games_pgn_with_the_clocks_times(tmp_path):
    store = finished(tmp_path)
    record = lichess_record()
    text = round_out.game_pgn(store.get(3), 3, record)
    game = read_pgn(text)
    headers = dict(game.headers)
    assert list(headers)[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    assert headers["Event"] == "Club Open 2026" and headers["Site"] == "Torino ITA"
    assert headers["Date"] == "2026.03.16" and headers["Round"] == "3"
    assert (headers["White"], headers["Black"]) == ("Lee, Min", "Müller, Jürgen")
    assert (headers["Result"], headers["Board"]) == ("1-0", "3")
    assert (headers["WhiteElo"], headers["BlackElo"], headers["BlackTitle"]) == (
        "1800",
        "2501",
        "IM",
    )
    assert headers["BlackFideId"] == "4600002" and "WhiteFideId" not in headers
    assert headers["TimeControl"] == "180+2"  # the clock's preset, as it played
    nodes = list(game.mainline())
    standing = records.standing(record)  # the plies that stand: an undone one is not there
    assert len(nodes) == len(record["plies"]) == len(standing) == 24
    for node, entry in zip(nodes, standing):
        assert node.move == chess.Move.null()
        left = entry[entry["side"]]["remaining_ms"]
        assert round(node.clock() * 1000) == left  # to the millisecond, as the broadcast's
        assert round(node.emt() * 1000) == entry["elapsed_ms"]
    assert text.rstrip().endswith("1-0")


def test_a_pgn_without_a_record_and_a_forfeit(tmp_path):
    store = finished(tmp_path)
    game = read_pgn(round_out.game_pgn(store.get(3), 2))
    assert game.headers["Result"] == "0-1" and game.headers["TimeControl"] == "180+2"
    assert game.comment == "0-1 forfeit" and list(game.mainline()) == []
    store.enter(3, 2, "*", "Anna", change=True)
    assert read_pgn(round_out.game_pgn(store.get(3), 2)).headers["Result"] == "*"


def unescaped(value):
    return re.sub(r"\\(.)", r"\1", value)


def test_pgn_tags_hold_any_name_as_text(tmp_path):
    path = tmp_path / "club.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerow(["1", 'Evil \\"] [Result "1-0"]', "B\\oss"])
    store = round_store.Rounds(str(tmp_path / "rounds"))
    store.load_csv(1, str(path), "5+3", DAY, event='A "quoted" event')
    game = read_pgn(round_out.game_pgn(store.get(1), 1))
    # python-chess keeps a tag's value as written: PGN's escapes, \\" and \\\\ (PGN 8.1.1)
    assert unescaped(game.headers["White"]) == 'Evil \\"] [Result "1-0"]'
    assert unescaped(game.headers["Black"]) == "B\\oss"
    assert unescaped(game.headers["Event"]) == 'A "quoted" event'
    assert game.headers["Result"] == "*" and game.headers["Site"] == "?"


def test_a_record_that_is_not_one(tmp_path):
    store = finished(tmp_path)
    record = lichess_record()
    record["clock"]["log"][0]["side"] = "second"
    with pytest.raises(rounds.RoundError) as raised:
        round_out.game_pgn(store.get(3), 3, record)
    assert "the record's ply 1 is second's, not first's" in str(raised.value)
