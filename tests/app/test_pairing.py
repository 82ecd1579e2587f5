# SPDX-License-Identifier: MIT
# A board's pairing as the clock holds it (app/pairing.py): which lever is White's, names made
# drawable and bounded whatever a message carries, every field checked.
import json

from app import pairing
from support import raises

DOC = {
    "round": 3,
    "board": 12,
    "white": "Carlsen M",
    "black": "Caruana F",
    "white_rating": 2830,
    "black_rating": 2805,
    "white_side": "left",
}


def test_a_message_read_and_written_back():
    held = pairing.from_doc(DOC)
    assert (held.round, held.board, held.white, held.black) == (3, 12, "Carlsen M", "Caruana F")
    assert held.ratings == (2830, 2805)
    assert held.doc() == DOC
    assert pairing.from_doc(json.loads(json.dumps(held.doc()))) == held


def test_whites_lever_whichever_side_white_sits():
    left = pairing.from_doc(DOC)
    assert left.side_of("white") == "left" and left.side_of("black") == "right"
    assert left.by_side() == (("Carlsen M", 2830), ("Caruana F", 2805))
    doc = dict(DOC, white_side="right")
    right = pairing.from_doc(doc)
    assert right.side_of("white") == "right" and right.side_of("black") == "left"
    assert right.by_side() == (("Caruana F", 2805), ("Carlsen M", 2830))


def test_defaults_white_on_the_left_unrated():
    held = pairing.from_doc({"round": 1, "board": 1, "white": "A", "black": "B"})
    assert held.white_side == "left" and held.ratings == (0, 0)


def test_names_are_data_made_drawable_and_bounded():
    doc = dict(DOC, white="<b>Müller</b>\x00", black="Ωmega\u202e")
    held = pairing.from_doc(doc)
    assert held.white == "<b>Muller."  # ten characters, cut with a point
    assert held.black == "mega"
    for name in (held.white, held.black):
        assert all(32 <= ord(char) <= 126 for char in name)
        assert len(name) <= 10


def test_every_field_is_checked():
    bad = [
        ("round", 0, "round: expected a whole number from 1 to 999"),
        ("round", 1000, "round: expected a whole number from 1 to 999"),
        ("round", "3", "round: expected a whole number from 1 to 999"),
        ("round", True, "round: expected a whole number from 1 to 999"),
        ("board", 10000, "board: expected a whole number from 1 to 9999"),
        ("white", 7, "white: expected a name of up to 10 characters"),
        ("black", "x" * 41, "black: expected a name of up to 10 characters"),
        ("white_rating", -1, "white_rating: expected a whole number from 0 to 9999"),
        ("black_rating", 2805.5, "black_rating: expected a whole number from 0 to 9999"),
        ("white_side", "middle", "white_side: expected left or right"),
    ]
    for key, value, said in bad:
        error = raises(pairing.PairingError, pairing.from_doc, dict(DOC, **{key: value}))
        assert str(error) == said, (key, value, str(error))
    missing = dict(DOC)
    del missing["board"]
    assert "board" in str(raises(pairing.PairingError, pairing.from_doc, missing))
    assert "object" in str(raises(pairing.PairingError, pairing.from_doc, [1, 2]))


def test_a_pairing_message_fits_a_usb_command_line():
    # HALL CMD takes one line of ASCII, 240 bytes at most (docs/hall.md): the widest pairing
    doc = dict(DOC, round=999, board=9999, white="W" * 10, black="B" * 10)
    doc.update(white_rating=9999, black_rating=9999, white_side="right")
    message = dict(pairing.from_doc(doc).doc(), seq=2**31, do="pairing", by="x" * 40)
    assert len(json.dumps(message)) < 240
