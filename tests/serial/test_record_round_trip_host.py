# SPDX-License-Identifier: MIT
# The clock's record, replayed: GAME's JSON through `replay --pcn` gives, after every entry, the
# figures the clock logged, for every system of the presets, with undos and corrections.
import json
import os
import subprocess
import sys

from app.presets import DEFAULTS
from hal import buttons as b
from serial_fakes import SerialClock
from sim import replay as replaying
import notation

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MOVES = (3000, 41000, 12000, 29000, 95000, 1000, 31000, 7000, 240000, 500, 30000, 61000)


def recorded(preset, plies=30):
    """A game of `preset` on the app: presses of the MOVES times, a pause with an undo and an
    arbiter's correction after ply 3, then until the game ends or the plies are made; GAME."""
    clock = SerialClock(preset=preset)
    clock.press(b.RIGHT, 1000)  # the left lever is the first player's
    now = 1000
    for ply in range(plies):
        now += MOVES[ply % len(MOVES)]
        clock.press(b.RIGHT if ply % 2 else b.LEFT, now)
        clock.run_until(now + 100)
        if clock.app.game.state() == 3:  # over
            break
        if ply == 2:
            clock.press(b.PLAY, now + 500)
            clock.press(b.MINUS, now + 1000)  # undo ply 3? ...
            clock.press(b.MINUS, now + 1200)  # yes: the first player's move goes on
            clock.run_until(now + 1300)
            clock.app.game.adjust_time(1, 15000)  # as the arbiter menu's correction does
            clock.press(b.PLAY, now + 2000)
            clock.run_until(now + 2100)
    clock.run_until(now + 3 * 3600 * 1000)
    lines = clock.ask("GAME")
    assert lines[0].startswith("OK "), lines
    return json.loads(lines[0][3:])


def replay_command(path):
    return subprocess.run(
        [sys.executable, "-m", "sim", "replay", "--pcn", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def figures(side):
    """(left, stage, count) from a replay line's side, in the record's terms."""
    left = side["reserve_ms"] if side["reserve_ms"] is not None else side["remaining_ms"]
    count = side["periods_left"] if side["periods_left"] is not None else side["moves_left"]
    return left, side["stage"], -1 if count is None else count


def logged(side):
    left = side.get("reserve_ms", side["remaining_ms"])
    count = side.get("periods_left", side.get("moves_left", -1))
    return left, side["stage"], count


def test_every_systems_record_replays_to_the_figures_the_clock_logged():
    for name, spec in DEFAULTS:
        record = recorded(name)
        log = record["clock"]["log"]
        kinds = [entry["entry"] for entry in log]
        assert "undo" in kinds and "adjust" in kinds, (name, kinds)
        setup = notation.parse(record["clock"]["preset"])
        assert record["clock"]["preset"] == spec
        lines = list(replaying.replay_log(setup, replaying.entries_of(log)))[1:]
        assert len(lines) == len(log), name
        for entry, line in zip(log, lines):
            assert line["entry"] == entry["entry"], (name, entry)
            if entry["entry"] == "ply":
                for side in ("first", "second"):
                    assert figures(line[side]) == logged(entry[side]), (name, entry, line)
        standing = [entry["elapsed_ms"] for entry in log if entry["entry"] == "ply"]
        assert len(record["plies"]) == len(standing) - kinds.count("undo")
        if record["clock"]["result"] is not None:
            assert lines[-1]["result"] == record["clock"]["result"], name


def test_the_replay_command_reads_the_clocks_record_as_game_answered_it(tmp_path):
    record = recorded("Go 30m 5x30s byoyomi", plies=12)
    path = tmp_path / "GAME.json"
    path.write_text("OK " + json.dumps(record))  # as it came off the serial line
    done = replay_command(path)
    assert done.returncode == 0, done.stderr
    assert "replaying 30 min; then 5x30 s byo-yomi" in done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == len(record["clock"]["log"]) + 1
    ply = [line for line in lines if line.get("entry") == "ply"][-1]
    assert ply["ply"] == len(record["plies"])


def test_a_log_that_does_not_replay_is_an_error_that_says_which_entry(tmp_path):
    record = recorded("Blitz 5+3", plies=4)
    record["clock"]["log"][2]["elapsed_ms"] = 400000  # past the flag: not the ply it was
    path = tmp_path / "GAME.json"
    path.write_text(json.dumps(record))
    done = replay_command(path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "entry 2" in done.stderr.splitlines()[-1], done.stderr
