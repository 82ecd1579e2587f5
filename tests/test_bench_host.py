# SPDX-License-Identifier: MIT
# `make bench`'s short run (bench/run.py --quick): every script it runs still runs against the
# code as it is now, so a change of signature breaks this test and not a user's `make bench`.
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = "| measure | MicroPython unix | CPython | RP2040 estimate | how |"


def quick_table():
    done = subprocess.run(
        [sys.executable, "bench/run.py", "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.splitlines()


def test_the_short_run_prints_every_row_and_the_clock_charges_exactly_under_trouble():
    lines = quick_table()
    assert HEADER in lines
    rows = [line for line in lines if line.startswith("| ") and line != HEADER]
    cells = [[cell.strip() for cell in row.strip("|").split(" | ")] for row in rows]
    assert all(len(row) == 5 for row in cells), [row for row in cells if len(row) != 5]
    measures = [row[0] for row in cells]
    for wanted in (
        "µs per lever press (core)",
        "press to pixels, pico_oled, worst case",
        "press to pixels, pico_tm1637, worst case",
        "CPU busy, pico_oled: Rapid 15+10: game running, above 20 s, 60 s",
        "a second's tick: its frame built, pico_oled",
        "smallest heap, 200-move game",
        "heap bytes the board's code holds in play, at most",
        ".mpy bytes on the board",
        "drift over a 6.2 h game",
    ):
        assert wanted in measures, wanted
    by_name = dict((row[0], row) for row in cells)
    flash = "flash operations of the game's saves, "
    files = flash + "every save to the files (before the slot ring; the browser)"
    slots = flash + "in play to the slot ring (24 blocks), the files once play stops"
    assert files in by_name and slots in by_name
    assert ", 0 erases; 0 saves (0 %) erase a block" in by_name[slots][1], by_name[slots]
    assert by_name["heap bytes allocated, 500 loop passes (the 10 s saves aside)"][1] == "0"
    assert by_name["heap bytes allocated, 500 IRQ edges"][1] == "0"
    trouble = [row for row in cells if row[0].startswith("charged-time error, ")]
    assert len(trouble) == 5
    for row in trouble:
        assert row[1] == "0 ms (ours)", row  # the lever's stamps, whatever the loop suffers
    assert by_name["drift over a 6.2 h game"][1] == "0 ms"
    assert any(line.startswith("- RP2040 estimate: ") for line in lines)
