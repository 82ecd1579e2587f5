# SPDX-License-Identifier: MIT
# A board's pairing as the clock holds it: the round and board, each player's short name and
# rating, and which lever is White's. Read from a message (any text in it is data, made ASCII and
# bounded here whatever the sender did), written back as one.
from micropython import const

from ui.names import NAME_WIDTH, fitted

MAX_ROUND = const(999)
MAX_BOARD = const(9999)
MAX_RATING = const(9999)
SIDES = ("left", "right")


class PairingError(ValueError):
    """A pairing message the clock cannot take, saying which field and why."""


class Pairing:
    def __init__(self, round_number, board, white, black, white_side="left", ratings=(0, 0)):
        self.round = round_number
        self.board = board
        self.white = white  # short names, printable ASCII, NAME_WIDTH at most
        self.black = black
        self.white_side = white_side  # "left" or "right": where White sits, whose clock starts
        self.ratings = ratings  # (White's, Black's); 0 unrated

    def side_of(self, colour):
        """The side ("left" or "right") of "white" or "black"."""
        if colour == "white":
            return self.white_side
        return SIDES[1] if self.white_side == SIDES[0] else SIDES[0]

    def by_side(self):
        """((left name, rating), (right name, rating)) as the players sit."""
        white = (self.white, self.ratings[0])
        black = (self.black, self.ratings[1])
        return (white, black) if self.white_side == SIDES[0] else (black, white)

    def doc(self):
        """The pairing as a message's fields (from_doc reads them back)."""
        return {
            "round": self.round,
            "board": self.board,
            "white": self.white,
            "black": self.black,
            "white_rating": self.ratings[0],
            "black_rating": self.ratings[1],
            "white_side": self.white_side,
        }

    def __eq__(self, other):
        return isinstance(other, Pairing) and self.doc() == other.doc()


def from_doc(doc):
    """A Pairing from a message's fields; PairingError naming the field that is wrong. Names are
    made printable ASCII and cut to NAME_WIDTH (the sender shortens them: ui.names.short_name)."""
    if not isinstance(doc, dict):
        raise PairingError("a pairing is a JSON object")
    round_number = _whole(doc, "round", 1, MAX_ROUND)
    board = _whole(doc, "board", 1, MAX_BOARD)
    names = []
    for colour in ("white", "black"):
        name = doc.get(colour)
        if not isinstance(name, str) or len(name) > 4 * NAME_WIDTH:
            raise PairingError("%s: expected a name of up to %d characters" % (colour, NAME_WIDTH))
        names.append(fitted(name, NAME_WIDTH))
    ratings = (
        _whole(doc, "white_rating", 0, MAX_RATING, 0),
        _whole(doc, "black_rating", 0, MAX_RATING, 0),
    )
    side = doc.get("white_side", SIDES[0])
    if side not in SIDES:
        raise PairingError("white_side: expected left or right")
    return Pairing(round_number, board, names[0], names[1], side, ratings)


def _whole(doc, key, low, high, default=None):
    value = doc.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise PairingError("%s: expected a whole number from %d to %d" % (key, low, high))
    return value
