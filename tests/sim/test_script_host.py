# SPDX-License-Identifier: MIT
# Scripted runs: timed presses in virtual time, the frames printed as text (python -m sim script).
import json
import os
import subprocess
import sys

import pytest

from sim import boards, frames, script
from ui import seg7

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FULL = "\u2588"

GAME = """\
# A 3-second game: pgn:3 gives each player 3 s, no increment.
preset pgn:3
at 1000 press left        # the left lever starts the right clock
show 1500                 # right: 3.0 - 0.5 = 2.5
at 2000 press right       # right moved in 1.0 s; the left clock runs
at 2600 press play        # pause: left 3.0 - 0.6 = 2.4
show 3000
at 4000 press play        # resume with 2.4 s
show 6500                 # left ran out at 4000 + 2400 = 6400 and flags the ms after
"""


def run(text, board="pico_oled", spec=None):
    lines = []
    script.run(text, boards.load(board), spec, lines.append)
    return lines


def blocks(lines):
    """{header: the frame's lines inside its +---+ box} for each `t=` header."""
    found = {}
    for index, line in enumerate(lines):
        if line.startswith("t="):
            end = lines.index(lines[index + 1], index + 2)
            found[line] = [inside[1:-1] for inside in lines[index + 2 : end]]
    return found


def test_a_short_game_headers_tones_and_the_flag_on_the_oled():
    lines = run(GAME)
    assert lines[0] == "board pico_oled, preset Command line: 3 s"
    assert [line for line in lines if line.startswith(("t=", "tone"))] == [
        "t=1500 state=running leds=right left=3.0 right=2.5",
        "t=3000 state=paused leds=left:slow left=2.4 right=2.0",
        "tone t=4400 2400 Hz 60 ms",  # left passes 2 s left: 4000 + 400
        "tone t=5400 2400 Hz 60 ms",  # and 1 s left
        "tone t=6401 1200 Hz 1500 ms",  # the flag
        "t=6500 state=over leds=left:fast left=0.0(flag) right=2.0",
    ]
    shown = blocks(lines)
    assert all(len(frame) == 32 for frame in shown.values())  # 64 pixel rows, two a line
    running = shown["t=1500 state=running leds=right left=3.0 right=2.5"]
    assert running[21][66:128] == FULL * 62 and FULL not in running[21][:62]  # right's band
    over = shown["t=6500 state=over leds=left:fast left=0.0(flag) right=2.0"]
    left_digits = "".join(line[:62].ljust(62) for line in over[5:20])
    right_digits = "".join(line[66:128].ljust(62) for line in over[5:20])
    assert left_digits.count(FULL) > len(left_digits) // 2  # the flagged side inverted
    assert right_digits.count(FULL) < len(right_digits) // 4
    assert run(GAME) == lines  # the same every time


def test_the_seven_segment_board_shows_flag_on_the_left_module():
    lines = run(GAME, "pico_tm1637")
    frame = bytearray(8)
    seg7.encode(b"FLAG", frame, 0)
    seg7.encode(b"2:0", frame, 5)  # " 2:0 ": seconds, the colon, the tenths, a dark digit
    picture = frames.seg_text(bytes(frame)).split("\n")
    over = blocks(lines)["t=6500 state=over leds=left:fast left=0.0(flag) right=2.0"]
    assert [line.rstrip() for line in over] == [line.rstrip() for line in picture]
    assert lines[-1] == "+" + "-" * len(over[0]) + "+"


def test_long_presses_and_menus_on_the_minimal_board():
    lines = run("at 0 press play hold 1200\nshow 1500\n", "pico_minimal")
    assert lines[0] == "board pico_minimal, preset Blitz 5+3: 5 min + 3 s/move"
    assert lines[1] == "t=1500 state=menu leds=none menu=Presets"
    lines = run("preset G/5\nat 100 press right\nshow 60100", "pico_minimal")
    assert lines[1] == "t=60100 state=running leds=left left=04:00 right=05:00"
    assert not [line for line in lines if line.startswith("tone")]  # no buzzer on this board


def test_the_command_line_preset_wins_over_the_scripts():
    lines = run("preset G/5\nshow 0\n", spec=boards.preset_spec("G/4/2"))
    assert lines[:2] == [
        "board pico_oled, preset Command line: 4 min + 2 s/move",
        "t=0 state=ready leds=none left=04:00 right=04:00",
    ]


def test_the_lights_as_the_header_names_them():
    from app.lights import FAST, OFF, ON, SLOW

    class Lights:
        pass

    light = Lights()
    for left, right, text in (
        (OFF, OFF, "none"),
        (ON, OFF, "left"),
        (OFF, ON, "right"),
        (ON, ON, "left+right"),
        (OFF, SLOW, "right:slow"),
        (FAST, OFF, "left:fast"),
    ):
        light.left = left
        light.right = right
        assert script.leds_text(light) == text, (left, right)


def test_the_lights_in_the_header_name_each_blinking_one_by_its_mode_at_any_instant():
    # A pause blinks the light on move (1 s lit, 1 s dark): the header says so at either.
    text = "preset G/5\nat 100 press right\nat 900 press play\nshow 1500\nshow 2500\n"
    headers = [line for line in run(text) if line.startswith("t=")]
    assert headers == [
        "t=1500 state=paused leds=left:slow left=04:59 right=05:00",
        "t=2500 state=paused leds=left:slow left=04:59 right=05:00",
    ]


@pytest.mark.parametrize(
    "text, message",
    [
        ("show 10\nbogus 5\n", "script line 2: expected `preset TEXT`"),
        ("at 5 press set\n", "script line 1: no button 'set' on pico_minimal; it has left"),
        ("show 100\nat 50 press left\n", "script line 2: 50 ms is before 100 ms above"),
        ("at 1s press left\n", "script line 1: expected whole milliseconds, found '1s'"),
        ("at 5 press left hold 0\n", "script line 1: a press is held at least 1 ms"),
        (
            "\n# a comment\npreset chessclock:40/90/30, X/30\n",
            'script line 3: chessclock preset "40/90',
        ),
        ("show 5\npreset G/5\n", "script line 2: `preset` comes once, before any"),
    ],
)
def test_errors_name_the_line(text, message):
    with pytest.raises(script.ScriptError) as error:
        run(text, "pico_minimal")
    assert str(error.value).startswith(message)


def cli(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "sim", "script", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_command_line(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(GAME)
    done = cli(str(path), "--board", "pico_tm1637")
    assert done.returncode == 0 and done.stdout.splitlines() == run(GAME, "pico_tm1637")
    done = cli("-", "--preset", "G/1", stdin="show 0\n")
    assert done.stdout.splitlines()[1] == "t=0 state=ready leds=none left=01:00 right=01:00"
    done = cli(str(path), "--board", "pico_minimal")
    assert done.returncode == 0
    done = cli("-", stdin="at 0 press nothing\n")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: stdin line 1: no button 'nothing' on pico_oled")
    done = cli(str(tmp_path / "missing.txt"))
    assert done.returncode == 2 and "cannot read" in done.stderr
    done = cli("-", "--preset", "G/5/X", stdin="show 0\n")
    assert done.returncode == 2 and "G/5/X" in done.stderr and "Traceback" not in done.stderr


def test_with_record_the_last_line_is_the_games_record_and_without_a_game_an_error():
    lines = []
    script.run(GAME, boards.load("pico_oled"), None, lines.append, record=True)
    record = json.loads(lines[-1])
    assert record["plies"] == [{"elapsed_ms": 1000}]
    assert record["clock"]["result"] == {"reason": "time", "loser": "second"}
    assert record["clock"]["log"][-1]["at_ms"] == 3001  # the flag, 3 s and 1 ms into the move
    with pytest.raises(script.ScriptError, match="no game started"):
        script.run("preset pgn:3\nshow 500\n", boards.load("pico_oled"), None, print, record=True)
