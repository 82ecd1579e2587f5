# SPDX-License-Identifier: MIT
# `python -m sim round` (sim/round_cli.py) as an arbiter types it: a round loaded, results entered
# and changed, a clock's record kept, the results written out; every mistake one line that says
# what and where, with status 2 and nothing changed.
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = os.path.join(HERE, "files")
ROOT = os.path.dirname(os.path.dirname(HERE))
RECORD = os.path.join(ROOT, "tests", "sim", "records", "lichess_blitz.json")


def sim(tmp_path, *args):
    done = subprocess.run(
        [sys.executable, "-m", "sim", "round", *args],
        cwd=str(tmp_path),
        env=dict(os.environ, PYTHONPATH=ROOT),
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.returncode, done.stdout, done.stderr


def ok(tmp_path, *args):
    status, out, err = sim(tmp_path, *args)
    assert status == 0 and err == "", (args, status, err)
    return out


def refused(tmp_path, *args):
    status, out, err = sim(tmp_path, *args)
    assert status == 2 and out == "" and err.startswith("error: "), (args, status, out, err)
    assert err.count("\n") == 1, err
    return err[len("error: ") : -1]


def copied(tmp_path, *names):
    for name in names:
        shutil.copy(os.path.join(FILES, name), str(tmp_path / name))


def loaded(tmp_path):
    copied(tmp_path, "swiss_manager_r2.trf", "swiss_manager_p3.txt")
    return ok(
        tmp_path,
        "load",
        "--round",
        "3",
        "--trf",
        "swiss_manager_r2.trf",
        "--pairings",
        "swiss_manager_p3.txt",
        "--tc",
        "3+2",
        "--date",
        "2026-03-16",
    )


def test_a_round_from_load_to_its_results(tmp_path):
    said = loaded(tmp_path)
    assert said == (
        "round 3 loaded into rounds: 3 boards; byes: Brown, Tom pairing-allocated bye; time"
        " control 3+2 (3 min + 2 s/move)\n"
    )
    assert ok(tmp_path, "result", "--round", "3", "--board", "1", "1/2", "--by", "clock 1") == (
        "round 3 board 1: 1/2-1/2 (entered)\n"
    )
    ok(tmp_path, "result", "--round", "3", "--board", "2", "0-1f", "--by", "Anna")
    ok(tmp_path, "result", "--round", "3", "--board", "3", "1-0")
    assert ok(tmp_path, "record", "--round", "3", "--board", "3", RECORD) == (
        "round 3 board 3: the clock's record kept\n"
    )
    assert ok(tmp_path, "list") == "round 3 (2026-03-16): 3 of 3 finished\n"
    out = ok(
        tmp_path, "results", "--round", "3", "--trf", "r3.trf", "--csv", "r3.csv", "--pgn", "pgn"
    )
    assert out == "round 3 (3 of 3 finished): r3.trf, r3.csv, pgn\n"
    with open(os.path.join(FILES, "swiss_manager_r3.trf"), "rb") as handle:
        assert (tmp_path / "r3.trf").read_bytes() == handle.read()
    assert (tmp_path / "r3.csv").read_text().startswith("round,board,white_number,")
    assert sorted(os.listdir(str(tmp_path / "pgn"))) == [
        "board-1.pgn",
        "board-2.pgn",
        "board-3.pgn",
        "round-3.pgn",
    ]
    assert "[%clk 0:02:59.9] [%emt 0:00:02.1]" in (tmp_path / "pgn" / "board-3.pgn").read_text()
    assert (tmp_path / "pgn" / "round-3.pgn").read_text().count('[Event "Club Open 2026"]') == 3


def test_the_boards_still_playing_first(tmp_path):
    loaded(tmp_path)
    ok(tmp_path, "result", "--round", "3", "--board", "1", "1-0", "--by", "Anna")
    lines = ok(tmp_path, "show", "--round", "3").splitlines()
    assert lines[0] == "Club Open 2026, round 3, 2026-03-16: 1 of 3 finished"
    assert [line.split()[0] for line in lines[1:5]] == ["board", "2", "3", "1"]
    assert lines[2].split()[-1] == "pending" and "1-0" in lines[4] and "Anna, 20" in lines[4]
    assert lines[5] == "bye    Brown, Tom: pairing-allocated bye"
    assert '"round": 3' in ok(tmp_path, "show", "--round", "3", "--json")


def test_a_change_needs_its_confirmation(tmp_path):
    loaded(tmp_path)
    ok(tmp_path, "result", "--round", "3", "--board", "1", "1-0", "--by", "clock 1")
    said = refused(tmp_path, "result", "--round", "3", "--board", "1", "0-1", "--by", "Anna")
    assert said.startswith("board 1 already has 1-0 (entered by clock 1 at 20")
    assert said.endswith("): a change must be confirmed")
    out = ok(tmp_path, "result", "--round", "3", "--board", "1", "0-1", "--by", "Anna", "--change")
    assert out == "round 3 board 1: 0-1 (changed)\n"


def test_a_bye_asked_for_the_next_round(tmp_path):
    copied(tmp_path, "bbp_2026_r2.trf", "swiss_manager_r2.trf")
    out = ok(tmp_path, "ask-bye", "--trf", "bbp_2026_r2.trf", "--round", "3", "--player", "2", "F")
    assert out == "round 3: player 2 asks a full-point bye (bbp_2026_r2.trf)\n"
    assert "240 F 003    2" in (tmp_path / "bbp_2026_r2.trf").read_bytes().decode().split("\r")
    ok(tmp_path, "ask-bye", "--trf", "swiss_manager_r2.trf", "--round", "3", "--player", "6", "H")
    text = (tmp_path / "swiss_manager_r2.trf").read_bytes().decode("cp1252")
    assert text.split("\r\n")[18][111:119] == "0000 - H"


def test_mistakes_are_said_and_change_nothing(tmp_path):
    loaded(tmp_path)
    bad = tmp_path / "bad.trf"
    bad.write_bytes(
        (tmp_path / "swiss_manager_r2.trf").read_bytes().replace(b"  2 b 1", b"  2 x 1")
    )
    cases = [
        (
            ("load", "--round", "4", "--trf", "bad.trf", "--pairings", "swiss_manager_p3.txt"),
            "bad.trf line 14, column 107: round 2 (columns 102-109): the colour: expected w, b or"
            " -, not 'x'",
        ),
        (
            ("load", "--round", "3", "--trf", "swiss_manager_r2.trf"),
            "load needs --trf FILE and --pairings FILE (or --csv FILE)",
        ),
        (
            ("load", "--round", "3", "--csv", "x.csv", "--trf", "swiss_manager_r2.trf"),
            "a round comes from --trf and --pairings, or from --csv: not both",
        ),
        (
            ("load", "--round", "5", "--csv", "x.csv", "--date", "16.3.2026"),
            "--date: expected YYYY-MM-DD, not '16.3.2026'",
        ),
        (
            ("load", "--round", "5", "--csv", "missing.csv"),
            "cannot read missing.csv: No such file or directory",
        ),
        (
            ("result", "--round", "3", "--board", "7", "1-0"),
            "round 3 has no board 7 (boards 1 to 3)",
        ),
        (("result", "--round", "9", "--board", "1", "1-0"), "no round 9 in rounds (rounds 3)"),
        (
            ("results", "--round", "3"),
            "results: say what to write: --trf FILE, --csv FILE, --pgn DIR",
        ),
        (
            ("results", "--round", "3", "--trf", "out.trf"),
            "round 3 is not finished: boards 1, 2, 3 have no result",
        ),
        (
            ("record", "--round", "3", "--board", "1", "none.json"),
            "cannot read none.json: No such file or directory",
        ),
    ]
    before = (tmp_path / "rounds" / "round-3.json").read_bytes()
    for args, said in cases:
        assert refused(tmp_path, *args) == said, args
    assert (tmp_path / "rounds" / "round-3.json").read_bytes() == before
    assert not (tmp_path / "out.trf").exists()
    status, _out, err = sim(tmp_path)
    assert status == 2 and "usage: python -m sim round" in _out + err
