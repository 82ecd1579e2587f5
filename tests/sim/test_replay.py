# SPDX-License-Identifier: MIT
# The replay command: a stable JSON Lines interface (CPython; runs `python -m sim replay`).
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(*args):
    done = subprocess.run(
        [sys.executable, "-m", "sim", "replay", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    return done.returncode, lines, done.stderr


def test_pcn_fischer_5_plus_3():
    code, lines, _ = run(
        "--format",
        "pcn",
        "--preset",
        '[{"duration_ms": 300000, "increment_ms": 3000}]',
        "--moves",
        "8000,12000,15000,5000",
    )
    assert code == 0 and len(lines) == 5
    assert lines[0] == {
        "ply": 0,
        "player": None,
        "elapsed_ms": None,
        "first": {
            "remaining_ms": 300000,
            "stage": 0,
            "periods_left": None,
            "moves_left": None,
            "reserve_ms": None,
            "penalty_ms": 0,
            "soft_timeout": False,
            "flagged": False,
        },
        "second": lines[0]["first"],
        "result": None,
    }
    assert lines[1]["player"] == "first" and lines[1]["elapsed_ms"] == 8000
    assert lines[1]["first"]["remaining_ms"] == 295000
    assert lines[3]["first"]["remaining_ms"] == 283000
    assert lines[4]["second"]["remaining_ms"] == 300000 - 12000 + 3000 - 5000 + 3000


def test_chessclock_modes_and_stages():
    code, lines, _ = run(
        "--preset", "1/1/60, 1/10s/30", "--mode", "fischer-after", "--moves", "0,0,0"
    )
    assert code == 0
    assert [line["first"]["remaining_ms"] for line in lines] == [60000, 130000, 130000, 170000]
    assert lines[1]["first"]["stage"] == 1
    code, lines, _ = run("--preset", "G/22/12", "--moves", "5000")
    assert lines[0]["first"]["remaining_ms"] == 22 * 60000 + 12000  # Fischer: at the start
    assert lines[1]["second"]["remaining_ms"] == 22 * 60000 + 12000


def test_a_flag_ends_the_replay():
    code, lines, _ = run("--preset", "TM[10]OT[3x30 byo-yomi]", "--moves", "40000,1000,100001,5")
    assert code == 0 and len(lines) == 4
    assert lines[1]["first"]["periods_left"] == 3 and lines[1]["first"]["moves_left"] == 1
    assert lines[3]["result"] == {"reason": "time", "loser": "first"}
    assert lines[3]["first"]["flagged"] and lines[3]["first"]["remaining_ms"] == 0


def test_arimaa_reserve_and_a_halt():
    code, lines, _ = run("--preset", "1/5/50/0/1t", "--moves", "20000,0")
    assert code == 0 and len(lines) == 3
    assert lines[1]["first"]["reserve_ms"] == 5 * 60000 + 20000
    assert lines[1]["first"]["remaining_ms"] == 60000
    assert lines[2]["result"] == {"reason": "halted"}


def test_ggs_soft_timeout_is_reported():
    code, lines, _ = run("--preset", "0:10,0//2:00,0", "--moves", "15000")
    assert lines[1]["first"]["soft_timeout"] and lines[1]["first"]["stage"] == 1
    assert lines[1]["first"]["remaining_ms"] == 115000 and lines[1]["result"] is None


def test_pcn_record(tmp_path):
    record = tmp_path / "game.json"
    record.write_text(
        json.dumps(
            {
                "periods": [{"duration_ms": 600000}, {"duration_ms": 30000, "plies": 1}],
                "plies": [
                    {"pmn": "7g-7f", "elapsed_ms": 5200},
                    {"pmn": "3c-3d", "elapsed_ms": 8000},
                ],
            }
        )
    )
    code, lines, _ = run("--pcn", str(record))
    assert code == 0 and len(lines) == 3
    assert lines[2]["second"]["remaining_ms"] == 592000


def test_a_pcn_record_without_elapsed_times_replays_the_control(tmp_path):
    record = tmp_path / "game.json"
    periods = [{"duration_ms": 300000, "increment_ms": 3000}]
    plies = [{"pmn": "e2-e4"}, {"pmn": "e7-e5"}, {"pmn": "g1-f3"}]
    record.write_text(json.dumps({"periods": periods, "plies": plies}))
    code, lines, err = run("--pcn", str(record))
    assert code == 0 and len(lines) == 4 and "no time charged" in err
    assert lines[1]["first"]["remaining_ms"] == 303000  # the increment, nothing charged
    assert lines[3]["first"]["remaining_ms"] == 306000
    plies[1]["elapsed_ms"] = 1000  # some with, some without: which one is missing is said
    record.write_text(json.dumps({"periods": periods, "plies": plies}))
    code, lines, err = run("--pcn", str(record))
    assert code == 2 and "ply 1 has no elapsed_ms" in err


def test_bad_input_exits_2_with_the_error_on_stderr():
    code, lines, err = run("--preset", "40/90/30, X/30", "--format", "chessclock", "--moves", "1")
    assert code == 2 and lines == []
    assert "chessclock" in err and '"40/90/30, X/30"' in err and "character 11" in err
    assert "Traceback" not in err
    code, lines, err = run("--preset", "G/30", "--moves", "100,abc")
    assert code == 2 and "--moves item 2" in err
    code, lines, err = run("--pcn", "/nonexistent/game.json")
    assert code == 2 and "cannot read" in err
