# SPDX-License-Identifier: MIT
# The clock's serial answer to a preset written as people write it: the reading in plain words, or
# one ERR line and nothing stored. Plain asserts: pytest and the MicroPython unix port.
from app.presets import FILE as PRESETS_FILE
from app.presets import Presets
from serial_fakes import SerialClock


def test_add_answers_with_the_reading_and_stores_the_notation_that_read_it():
    clock = SerialClock()
    for text, stored, reading in (
        (
            "40/90, G/30 +30",
            "chessclock:40/90, G/30 +30",
            "90 min + 30 s/move; +30 min after move 40",
        ),
        ("3|2", "chessclock:3|2", "3 min + 2 s/move"),
        ("G/45 d5", "chessclock:G/45 d5", "45 min, delay 5 s/move"),
        ("45m 3x30s", "go:45m 3x30s", "45 min; then 3x30 s byo-yomi"),
        ("300+5d", "pgn:300+5d", "5 min, delay 5 s/move"),
        (
            "FIDE classical",
            "chessclock:40/90/30, G/30/30",
            "90 min + 30 s/move; +30 min after move 40",
        ),
    ):
        lines = clock.ask("PRESET ADD Club = " + text)
        assert lines == ["OK added 17 Club: " + reading], lines
        assert Presets(clock.storage).items[16].spec == stored
        clock.ask("PRESET DEL 17")


def test_armageddon_says_its_draw_odds():
    clock = SerialClock()
    lines = clock.ask("PRESET ADD Playoff = armageddon 5/4")
    assert lines == [
        "OK added 17 Playoff: first: 5 min | second: 4 min; armageddon: a draw is a win for the"
        " second player"
    ]


def test_a_reading_far_from_any_event_is_one_err_line_and_nothing_is_stored():
    clock = SerialClock()
    clock.ask("PRESET ADD Mine = G/5/3")  # the presets file exists from here on
    before = clock.fs.files["/" + PRESETS_FILE][:]
    for text, words in (
        ("300+2", "for 5 min + 2 s a move"),
        ("5+3d", "this form counts seconds"),
        ("20m 25/300", "write 25/300s"),
        ("150h", "more than the clock can hold"),
    ):
        lines = clock.ask("PRESET ADD Odd = " + text)
        assert len(lines) == 1 and lines[0].startswith("ERR ") and words in lines[0], lines
    assert clock.fs.files["/" + PRESETS_FILE] == before
    assert len(clock.app.presets.items) == 17
