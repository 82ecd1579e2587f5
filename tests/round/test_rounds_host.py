# SPDX-License-Identifier: MIT
# The arbiter's rounds (sim/rounds.py): a round loaded from a TRF and an engine's pairings or from
# a club's CSV; results entered with who and when, a change only when confirmed, its old and new
# value kept; rounds kept apart in their folder, a board still playing kept and said when the next
# round comes; a killed process or two at once never lose a result.
import datetime
import json
import os
import signal
import subprocess
import sys

import pytest

from sim import files, round_store, rounds

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = os.path.join(HERE, "files")
ROOT = os.path.dirname(os.path.dirname(HERE))
DAY = datetime.date(2026, 3, 16)


def fixture(name):
    return os.path.join(FILES, name)


def loaded(tmp_path, base="swiss_manager", **how):
    store = round_store.Rounds(str(tmp_path / "rounds"))
    how.setdefault("time_control", "90+30")
    round_, notes = store.load_trf(
        3, fixture(base + "_r2.trf"), fixture(base + "_p3.txt"), date=DAY, **how
    )
    return store, round_, notes


def test_a_round_from_the_tournament_file_and_the_engines_pairings(tmp_path):
    store, round_, notes = loaded(tmp_path)
    assert notes == []
    assert round_.number == 3 and round_.doc["date"] == "2026-03-16"
    assert round_.doc["event"] == {
        "name": "Club Open 2026",
        "site": "Torino ITA",
        "dialect": "trf16",
    }
    boards = [(b["board"], b["white"]["number"], b["black"]["number"]) for b in round_.boards]
    assert boards == [(1, 1, 5), (2, 4, 3), (3, 7, 2)]
    first = round_.board(1)
    assert first["white"] == {
        "number": 1,
        "name": "Kowalski, Jan",
        "rating": 2650,
        "title": "GM",
        "federation": "POL",
        "fide_id": "1100001",
        "short": "Kowalski J",
    }
    assert first["black"]["short"] == "Novakova E"
    assert first["time_control"] == "90+30"
    assert [(b["player"]["number"], b["kind"], b["why"]) for b in round_.byes] == [
        (6, "U", "the pairing engine's")
    ]
    assert round_.progress() == (0, 3) and round_.pending() == [1, 2, 3]
    # the files it came from are kept with it, as they were
    kept = store.files(3)
    with open(os.path.join(kept, "tournament.trf"), "rb") as handle:
        with open(fixture("swiss_manager_r2.trf"), "rb") as source:
            assert handle.read() == source.read()


def test_the_2026_files_bye_and_time_control(tmp_path):
    _store, round_, _notes = loaded(tmp_path, "bbp_2026", time_control=None)
    assert round_.doc["event"]["dialect"] == "trf26"
    assert round_.doc["time_control"] == "pgn:5400+30"  # the file's 222
    assert [(b["player"]["number"], b["kind"], b["why"]) for b in round_.byes] == [
        (4, "H", "asked before the pairing")
    ]


def test_a_time_control_in_words_is_said_and_left_to_the_arbiter(tmp_path):
    _store, round_, notes = loaded(tmp_path, time_control=None)
    assert round_.doc["time_control"] is None
    assert notes == [
        "the file's time control '90 min/40 moves + 30 min + 30 sec increment' is not one the"
        " clock reads: give --tc"
    ]
    with pytest.raises(rounds.RoundError) as raised:
        loaded(tmp_path / "b", time_control="ninety minutes")
    assert str(raised.value).startswith("--tc: ")


def test_results_with_who_and_when(tmp_path):
    store, _round, _notes = loaded(tmp_path)
    assert store.enter(3, 1, "½-½", "clock 1", at="2026-03-16T15:02:11+01:00") == "entered"
    assert store.enter(3, 1, "1/2-1/2", "Anna") == "unchanged"  # a clock saying it again
    held = store.get(3).result(1)
    assert held == {"result": "1/2-1/2", "by": "clock 1", "at": "2026-03-16T15:02:11+01:00"}
    assert store.enter(3, 2, "-+", "Anna") == "entered"
    assert store.get(3).result(2)["result"] == "0-1 forfeit"
    rows = store.get(3).rows()
    assert [row[0] for row in rows] == [3, 1, 2]  # still playing first
    assert rows[0][3] == "pending" and rows[1][3:5] == ("1/2-1/2", "clock 1")
    assert rows[1][1:3] == ("Kowalski, Jan (2650)", "Nováková, Eva (2150)")


def test_a_result_is_changed_only_when_the_change_is_confirmed(tmp_path):
    store, _round, _notes = loaded(tmp_path)
    store.enter(3, 3, "0-1", "clock 3", at="2026-03-16T15:00:00+01:00")
    with pytest.raises(rounds.RoundError) as raised:
        store.enter(3, 3, "1-0", "Anna")
    assert str(raised.value) == (
        "board 3 already has 0-1 (entered by clock 3 at 2026-03-16T15:00:00+01:00): a change"
        " must be confirmed"
    )
    assert store.get(3).result(3)["result"] == "0-1"
    at = "2026-03-16T15:05:00+01:00"
    assert store.enter(3, 3, "1-0", "Anna", at=at, change=True) == "changed"
    assert store.enter(3, 3, "*", "Anna", at=at, change=True) == "changed"  # taken back
    assert store.get(3).result(3) is None
    assert store.get(3).doc["history"] == [
        {
            "board": 3,
            "old": None,
            "new": "0-1",
            "by": "clock 3",
            "at": "2026-03-16T15:00:00+01:00",
        },
        {"board": 3, "old": "0-1", "new": "1-0", "by": "Anna", "at": at},
        {"board": 3, "old": "1-0", "new": None, "by": "Anna", "at": at},
    ]


def test_what_the_round_refuses(tmp_path):
    store, _round, _notes = loaded(tmp_path)
    cases = [
        ((3, 9, "1-0", "Anna"), "round 3 has no board 9 (boards 1 to 3)"),
        ((3, 1, "2-0", "Anna"), "'2-0' is not a result: write one of 1-0, 0-1, 1/2-1/2"),
        ((3, 1, "1-0", ""), "who enters it: a name of 1 to 40 characters"),
        ((3, 1, "1-0", "x" * 41), "who enters it: a name of 1 to 40 characters"),
        ((3, 1, "1-0", "A\x00"), "who enters it: a control character (U+0000)"),
        ((3, 1, None, "Anna"), "a result is a short text: 1-0, 0-1, 1/2-1/2, ..."),
        ((3, 1, "1-0" * 20, "Anna"), "a result is a short text"),
        ((4, 1, "1-0", "Anna"), "no round 4 in"),
    ]
    for args, said in cases:
        with pytest.raises(rounds.RoundError) as raised:
            store.enter(*args)
        assert str(raised.value).startswith(said), (args, str(raised.value))
    assert store.get(3).doc["history"] == []


def test_the_tournament_files_cells_once_every_board_has_its_result(tmp_path):
    store, _round, _notes = loaded(tmp_path)
    store.enter(3, 1, "1/2-1/2", "Anna")
    with pytest.raises(rounds.RoundError) as raised:
        store.get(3).cells()
    assert str(raised.value) == "round 3 is not finished: boards 2, 3 have no result"
    store.enter(3, 2, "0-1 forfeit", "Anna")
    store.enter(3, 3, "1-0", "Anna")
    cells = {n: c.text() for n, c in store.get(3).cells().items()}
    assert cells == {
        1: "   5 w =",
        5: "   1 b =",
        4: "   3 w -",
        3: "   4 b +",
        7: "   2 w 1",
        2: "   7 b 0",
        6: "0000 - U",
    }


def test_each_result_as_the_trf_codes_it():
    codes = {text: rounds.RESULTS[rounds.result_of(text)] for text in rounds.RESULTS}
    assert codes["1-0 forfeit"] == ("+", "-") and codes["0-0 forfeit"] == ("-", "-")
    assert codes["1-0 unrated"] == ("W", "L") and codes["1/2-1/2"] == ("=", "=")
    for said, meant in (("1 - 0", "1-0"), ("1:0", "1-0"), ("0–1", "0-1"), ("+-", "1-0 forfeit")):
        assert rounds.result_of(said) == meant
    assert rounds.result_of(" * ") is None


def test_a_round_is_loaded_once_unless_replaced(tmp_path):
    store, _round, _notes = loaded(tmp_path)
    store.enter(3, 1, "1-0", "Anna")
    with pytest.raises(rounds.RoundError) as raised:
        loaded(tmp_path)
    assert str(raised.value) == (
        "round 3 is loaded already (1 of 3 boards finished): it is replaced only when asked"
        " (--replace), and kept then as round-3.replaced-N"
    )
    assert store.get(3).result(1)["result"] == "1-0"
    _store, again, _notes = loaded(tmp_path, replace=True)
    assert again.result(1) is None
    folder = tmp_path / "rounds"
    kept = json.loads((folder / "round-3.replaced-1.json").read_text())
    assert kept["results"]["1"]["result"] == "1-0"
    assert (folder / "round-3.replaced-1" / "tournament.trf").exists()
    loaded(tmp_path, replace=True)
    assert (folder / "round-3.replaced-2.json").exists()
    assert store.numbers() == [3]


def test_the_next_round_keeps_a_board_still_playing(tmp_path):
    store, _round, _notes = loaded(tmp_path)
    store.enter(3, 1, "1/2-1/2", "Anna")
    store.enter(3, 2, "1-0", "Anna")  # the file says 0-1 forfeit: the arbiter is told
    pairs = tmp_path / "p4.txt"
    pairs.write_text("4\n3 1\n5 7\n4 6\n2 0\n")
    round4, notes = store.load_trf(4, fixture("swiss_manager_r3.trf"), str(pairs), "90+30", DAY)
    assert notes == [
        "round 3 board 2: the tournament file has 0-1 forfeit, the round kept here 1-0",
        "round 3 board 3: the tournament file has 1-0, the round kept here no result",
        "round 3 board 3 has no result yet: it is kept, and shown",
    ]
    assert store.numbers() == [3, 4]
    assert store.get(3).result(1)["result"] == "1/2-1/2"  # round 3 as it stood
    assert store.get(3).pending() == [3]
    assert store.unfinished() == [(3, 3), (4, 1), (4, 2), (4, 3)]
    assert [b["white"]["number"] for b in round4.boards] == [3, 5, 4]


def test_the_tournament_file_must_be_the_one_before_the_round(tmp_path):
    store = round_store.Rounds(str(tmp_path))
    p3 = fixture("swiss_manager_p3.txt")
    with pytest.raises(rounds.RoundError) as raised:
        store.load_trf(3, fixture("swiss_manager_r3.trf"), p3)
    assert "has round 3 paired already: round 3 is paired from the file of the rounds" in str(
        raised.value
    )
    with pytest.raises(rounds.RoundError) as raised:
        store.load_trf(4, fixture("swiss_manager_r2.trf"), p3)
    assert "has results up to round 2: round 4 is paired after round 3's" in str(raised.value)
    bad = tmp_path / "bad.txt"
    bad.write_text("4\n1 5\n4 3\n7 2\n6 9\n")
    with pytest.raises(rounds.RoundError) as raised:
        store.load_trf(3, fixture("swiss_manager_r2.trf"), str(bad))
    assert str(raised.value).startswith("%s line 5, column 3: no player has starting rank 9" % bad)
    with pytest.raises(rounds.RoundError) as raised:
        store.load_trf(3, str(tmp_path / "none.trf"), p3)
    assert str(raised.value) == "cannot read %s: No such file or directory" % (
        tmp_path / "none.trf"
    )
    assert store.numbers() == []


def test_a_round_from_a_clubs_csv(tmp_path):
    path = tmp_path / "club.csv"
    path.write_text(
        "Board,White,Black,Time control,White rating\n"
        '1,"Carlsen, Magnus","Caruana, Fabiano",,2830\n'
        "2,Anna Cramling,Bo Jensen,G/45 d5,\n"
        "3,Lone Wolf,bye,,\n",
        encoding="utf-8",
    )
    store = round_store.Rounds(str(tmp_path / "rounds"))
    round_, notes = store.load_csv(1, str(path), "15+10", DAY, event="Club night", site="Hall")
    assert notes == []
    assert [
        (b["board"], b["white"]["short"], b["black"]["short"], b["time_control"])
        for b in round_.boards
    ] == [
        (1, "Carlsen M", "Caruana F", "15+10"),
        (2, "Cramling A", "Jensen B", "G/45 d5"),
    ]
    assert (
        round_.board(1)["white"]["rating"] == 2830 and round_.board(1)["white"]["number"] is None
    )
    assert [(b["player"]["name"], b["kind"]) for b in round_.byes] == [("Lone Wolf", "U")]
    assert round_.doc["event"] == {"name": "Club night", "site": "Hall", "dialect": None}
    store.enter(1, 1, "1-0", "Anna")
    store.enter(1, 2, "1-0", "Anna")
    with pytest.raises(rounds.RoundError) as raised:
        store.get(1).cells()
    assert str(raised.value) == "round 1 came from a CSV: there is no tournament file"
    bad = tmp_path / "bad.csv"
    bad.write_text("1,A,B,nonsense\n")
    with pytest.raises(rounds.RoundError) as raised:
        store.load_csv(2, str(bad))
    assert str(raised.value).startswith("%s line 1, field 4 (time control): " % bad)


def test_a_refused_write_leaves_the_round_as_it_was(tmp_path, monkeypatch):
    store, _round, _notes = loaded(tmp_path)
    store.enter(3, 1, "1-0", "Anna")
    before = (tmp_path / "rounds" / "round-3.json").read_bytes()

    def full(path, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files, "replace", full)
    with pytest.raises(OSError):
        store.enter(3, 2, "1-0", "Anna")
    assert (tmp_path / "rounds" / "round-3.json").read_bytes() == before


ENTER = """
import sys
sys.path.insert(0, %r)
import sim
from sim import round_store
store = round_store.Rounds(sys.argv[1])
start, step = int(sys.argv[2]), int(sys.argv[3])
for board in range(start, 61, step):
    store.enter(1, board, "1-0", "clock %%d" %% board)
    print(board, flush=True)
"""


def many_boards(tmp_path):
    path = tmp_path / "big.csv"
    path.write_text("".join("%d,White %d,Black %d\n" % (n, n, n) for n in range(1, 61)))
    store = round_store.Rounds(str(tmp_path / "rounds"))
    store.load_csv(1, str(path), "5+3", DAY)
    return store


def test_a_killed_process_loses_no_result_it_said_it_entered(tmp_path):
    store = many_boards(tmp_path)
    script = tmp_path / "enter.py"
    script.write_text(ENTER % ROOT)
    child = subprocess.Popen(
        [sys.executable, str(script), store.folder, "1", "1"], stdout=subprocess.PIPE, text=True
    )
    said = [int(child.stdout.readline()) for _ in range(25)]
    os.kill(child.pid, signal.SIGKILL)  # mid-way through the next ones, as a power cut would
    child.wait()
    round_ = store.get(1)  # the file reads whole
    entered = [board for board in range(1, 61) if round_.result(board)]
    assert set(said) <= set(entered)
    assert entered == list(range(1, len(entered) + 1))
    assert len(round_.doc["history"]) == len(entered)


def test_two_processes_at_once_lose_nothing(tmp_path):
    store = many_boards(tmp_path)
    script = tmp_path / "enter.py"
    script.write_text(ENTER % ROOT)
    children = [
        subprocess.Popen(
            [sys.executable, str(script), store.folder, str(n), "2"], stdout=subprocess.DEVNULL
        )
        for n in (1, 2)
    ]
    for child in children:
        assert child.wait(60) == 0
    round_ = store.get(1)
    assert round_.progress() == (60, 60)
    assert len(round_.doc["history"]) == 60
    assert {round_.result(b)["by"] for b in range(1, 61)} == {"clock %d" % b for b in range(1, 61)}


def test_an_interrupted_load_is_cleared_by_the_next(tmp_path):
    store, _round, _notes = loaded(tmp_path)
    os.remove(store.path(3))  # round-3/ written, round-3.json not: the load stopped there
    assert store.numbers() == []
    _store, again, _notes = loaded(tmp_path)
    assert again.number == 3
    assert sorted(os.listdir(store.files(3))) == ["pairings.txt", "tournament.trf"]
