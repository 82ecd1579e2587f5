# SPDX-License-Identifier: MIT
# bench/round_trip.py: its reading of bbpPairings' check (-c) counts every pairing the engine
# would not have made (the report below is bbpPairings' own, for a file whose round 5 had one
# game's colours swapped); and, where BBPPAIRINGS_SOURCE names a bbpPairings clone to build, the
# whole round trip: 41 players, 5 rounds, both dialects, no discrepancy.
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))

import round_trip  # noqa: E402

CLEAN = "t: Round #1\nt: Round #2\n\n"
SWAPPED = (
    "bad: Round #1\nbad: Round #2\nbad: Round #3\nbad: Round #4\nbad: Round #5\n"
    "  Checker pairings        Tournament pairings \n"
    "      1 -  20                 20 -   1\n"
    "\n\n"
)
HAND_PAIRED = (
    "r3: Round #1\nr3: Round #2\n"
    "  Checker pairings        Tournament pairings \n"
    "      7 -   1                  2 -   1\n"
    "      2 -   6                  4 -   7\n"
    "      4 -   5                  6 -   5\n"
    "\n"
    "r3: Round #3\n"
    "  Checker pairings        Tournament pairings \n"
    "      1 -   3                  1 -   5\n"
    "      7 -   5                  3 -   7\n"
    "      2 -   6                  6 -   2\n"
    "\n\n"
)


def test_the_checks_report_is_counted():
    assert round_trip.discrepancies(CLEAN) == 0
    assert round_trip.discrepancies(SWAPPED) == 1
    assert round_trip.discrepancies(HAND_PAIRED) == 6
    assert round_trip.discrepancies("No valid pairing exists for round 4.\n\n") == 1


@pytest.mark.skipif(
    not os.environ.get("BBPPAIRINGS_SOURCE"), reason="BBPPAIRINGS_SOURCE: a bbpPairings clone"
)
def test_the_round_trip_through_bbppairings():
    done = subprocess.run(
        [sys.executable, os.path.join(ROOT, "bench", "round_trip.py")],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("discrepancies 0;") == 2
