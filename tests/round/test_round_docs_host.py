# SPDX-License-Identifier: MIT
# docs/round.md's commands, in the order the page gives them, on the files its example names
# (tournament.trf and pairs-3.txt: tests/round/files' TRF-2026 file and its round-3 pairings;
# hall/board-1.json: a clock's record): each does what the page says.
import os
import re
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PAGE = os.path.join(ROOT, "docs", "round.md")


def commands():
    with open(PAGE, encoding="utf-8") as handle:
        text = handle.read()
    lines = []
    for body in re.findall(r"```sh\n(.*?)```", text, re.S):
        lines += [line for line in body.splitlines() if line.startswith("python -m sim round")]
    return lines


def test_the_pages_commands_from_pairing_to_the_next(tmp_path):
    shutil.copy(os.path.join(HERE, "files", "bbp_2026_r2.trf"), str(tmp_path / "tournament.trf"))
    shutil.copy(os.path.join(HERE, "files", "bbp_2026_p3.txt"), str(tmp_path / "pairs-3.txt"))
    (tmp_path / "hall").mkdir()
    record = os.path.join(ROOT, "tests", "sim", "records", "lichess_blitz.json")
    shutil.copy(record, str(tmp_path / "hall" / "board-1.json"))
    lines = commands()
    assert [shlex.split(line)[4] for line in lines] == [
        "load",
        "show",
        "result",
        "result",
        "result",
        "result",
        "record",
        "results",
        "ask-bye",
    ]
    for line in lines:
        done = subprocess.run(
            [sys.executable] + shlex.split(line)[1:],
            cwd=str(tmp_path),
            env=dict(os.environ, PYTHONPATH=ROOT),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0 and done.stderr == "", (line, done.stderr)
    with open(PAGE, encoding="utf-8") as handle:
        page = handle.read()
    loaded = page.split("`load` says what it took:\n\n```\n")[1].split("\n```")[0]
    first = subprocess.run(
        [sys.executable, "-m", "sim", "round", "list"],
        cwd=str(tmp_path),
        env=dict(os.environ, PYTHONPATH=ROOT),
        capture_output=True,
        text=True,
    )
    assert first.stdout == "round 3 (2026-03-16): 3 of 3 finished\n"
    assert loaded.startswith("round 3 loaded into rounds: 3 boards; byes: Smith, John (2210)")
    text = (tmp_path / "tournament.trf").read_bytes().decode("utf-8")
    lines = text.split("\r")
    assert "240 H 004    6" in lines  # the bye asked for round 4
    assert (tmp_path / "pgn" / "board-1.pgn").exists() and (tmp_path / "round-3.csv").exists()
