# `python -m sim web`'s server side: the PGN and SGF of a page's record, by sim/annotate.py.
import io

import chess.pgn

from sim import web
from sim.text_edits import AnnotateError
from support import raises

RECORD = {
    "periods": [{"duration_ms": 60000, "increment_ms": 2000}],
    "plies": [{"elapsed_ms": 3000}, {"elapsed_ms": 1500}, {"elapsed_ms": 2500}],
    "clock": {
        "record": 1,
        "preset": "pgn:60+2",
        "reads": "1 min + 2 s/move",
        "name": None,
        "state": "paused",
        "result": None,
        "complete": True,
        "log": [
            {
                "entry": "ply",
                "ply": 1,
                "side": "first",
                "elapsed_ms": 3000,
                "first": {"remaining_ms": 59000, "stage": 0},
                "second": {"remaining_ms": 60000, "stage": 0},
            },
            {
                "entry": "ply",
                "ply": 2,
                "side": "second",
                "elapsed_ms": 1500,
                "first": {"remaining_ms": 59000, "stage": 0},
                "second": {"remaining_ms": 60500, "stage": 0},
            },
            {
                "entry": "ply",
                "ply": 3,
                "side": "first",
                "elapsed_ms": 2500,
                "first": {"remaining_ms": 58500, "stage": 0},
                "second": {"remaining_ms": 60500, "stage": 0},
            },
        ],
    },
}


def test_without_moves_the_pgn_has_a_null_move_a_ply_with_its_clock():
    game = chess.pgn.read_game(io.StringIO(web.annotated("pgn", RECORD, "")))
    clocks = [node.clock() for node in game.mainline()]
    assert clocks == [59, 60, 58]  # whole seconds, rounded down, as annotate writes them
    assert all(node.move == chess.Move.null() for node in game.mainline())


def test_the_moves_given_get_the_times():
    text = web.annotated("pgn", RECORD, "1. e4 e5 2. Nf3 *\n")
    game = chess.pgn.read_game(io.StringIO(text))
    assert [n.san() for n in game.mainline()] == ["e4", "e5", "Nf3"]
    assert [n.clock() for n in game.mainline()] == [59, 60, 58]


def test_the_sgf_has_bl_and_wl():
    text = web.annotated("sgf", RECORD, "")
    assert text.endswith(";B[]BL[59];W[]WL[60.5];B[]BL[58.5])\n")
    assert "TM[60]OT[2 Fischer]" in text


def test_moves_that_do_not_match_the_record_are_refused_with_annotates_message():
    error = raises(AnnotateError, web.annotated, "pgn", RECORD, "1. e4 *\n")
    assert "the record's plies 2 to 3 have no move" in str(error)
    assert "/tmp" not in str(error) and "clock-web-" not in str(error)


def test_a_skeleton_says_the_loser():
    assert '[Result "1-0"]' in web.skeleton("pgn", 2, {"reason": "time", "loser": "second"})
