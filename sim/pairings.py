# SPDX-License-Identifier: MIT
# A round's pairings read: a pairing engine's output (JaVaFo's and bbpPairings' -p: the number of
# pairs, then White and Black's starting ranks a line, in board order, "N 0" the pairing-allocated
# bye) against the TRF it paired, or a plain CSV for a club without a pairing program (board,
# White, Black, time control; ratings if the header names them).
import csv
import io
import re

from sim.trf import MAX_NAME, name_problem

MAX_BOARDS = 9999
BYE_WORDS = ("bye", "-")
# A CSV header's words for each field, folded to lower case without spaces or punctuation.
_HEADER = {
    "board": ("board", "table", "bd", "brd", "no", "nr"),
    "white": ("white", "w"),
    "black": ("black", "b"),
    "time_control": ("timecontrol", "tc", "time", "preset", "control"),
    "white_rating": ("whiterating", "whiteelo", "welo", "wrating"),
    "black_rating": ("blackrating", "blackelo", "belo", "brating"),
}
_ORDER = ("board", "white", "black", "time_control")
_LABEL = {
    "board": "Board",
    "white": "White",
    "black": "Black",
    "time_control": "time control",
    "white_rating": "White's rating",
    "black_rating": "Black's rating",
}


class PairingsError(ValueError):
    """A pairings file this reader cannot use, saying where (line, and column or field)."""


def _fail(name, line, where, problem):
    at = "%s line %d" % (name, line) if line else name
    if where:
        at += ", " + where
    raise PairingsError("%s: %s" % (at, problem))


def engine_pairs(text, name, tournament, round_number):
    """([(White, Black) starting ranks in board order], pairing-allocated bye's starting rank or
    None) of an engine's output for round `round_number` of `tournament`."""
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            rows.append((number, line))
    if not rows:
        _fail(name, None, None, "empty: expected the number of pairs, then a pair a line")
    first_line, first = rows[0]
    count = first.strip()
    if not count.isdigit():
        _fail(name, first_line, "column 1", "expected the number of pairs, not %r" % first.strip())
    if int(count) != len(rows) - 1:
        _fail(
            name,
            first_line,
            "column 1",
            "says %s pairs, the file has %d" % (count, len(rows) - 1),
        )
    asked = tournament.byes_asked(round_number)
    seen = {}
    pairs = []
    bye = None
    for line_number, line in rows[1:]:
        words = line.split()
        if len(words) != 2 or not all(word.isdigit() for word in words):
            _fail(name, line_number, "column 1", "expected two starting ranks: %r" % line.strip())
        white, black = int(words[0]), int(words[1])
        columns = [found.start() + 1 for found in re.finditer(r"\S+", line)]
        if not white:
            _fail(name, line_number, "column %d" % columns[0], "White is 0 (a bye is N 0)")
        for column, number in zip(columns, (white, black)):
            if not number:
                continue
            where = "column %d" % column
            if number not in tournament.players:
                _fail(
                    name,
                    line_number,
                    where,
                    "no player has starting rank %d in %s" % (number, tournament.name),
                )
            if number in seen:
                _fail(
                    name,
                    line_number,
                    where,
                    "player %d is paired twice (line %d too)" % (number, seen[number]),
                )
            if number in asked:
                _fail(
                    name,
                    line_number,
                    where,
                    "player %d is paired, and %s asks a bye (%s) for round %d"
                    % (number, tournament.name, asked[number], round_number),
                )
            seen[number] = line_number
        if not black:
            if bye is not None:
                _fail(
                    name,
                    line_number,
                    "column 1",
                    "a second pairing-allocated bye (player %d has one)" % bye,
                )
            bye = white
        else:
            pairs.append((white, black))
    return pairs, bye


class Row:
    """A CSV line: its board, White and Black (names), ratings (0 unrated) and time control."""

    def __init__(self, line, board, white, black, time_control, ratings):
        self.line = line
        self.board = board
        self.white = white
        self.black = black  # None: White has the bye
        self.time_control = time_control
        self.ratings = ratings


def csv_rows(text, name, check_time_control=None):
    """The Rows of a club's CSV: comma, semicolon or tab separated, a header naming the fields
    (Board, White, Black, Time control, White rating, Black rating) or none (then the first
    four, in that order). `check_time_control(text)` says what is wrong with one, or None."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.splitlines()
    delimiter = max(",;\t", key=lambda mark: lines[0].count(mark) if lines else 0)
    try:
        table = list(csv.reader(io.StringIO(text), delimiter=delimiter, strict=True))
    except csv.Error as error:
        _fail(name, None, None, "not CSV: %s" % error)
    numbered = [
        (number, row) for number, row in enumerate(table, 1) if any(c.strip() for c in row)
    ]
    if not numbered:
        _fail(
            name, None, None, "empty: expected a line per board: Board, White, Black, time control"
        )
    fields = _fields(numbered[0][1])
    if fields is None:
        fields = {key: index for index, key in enumerate(_ORDER)}
    else:
        numbered = numbered[1:]
        for key in ("board", "white", "black"):
            if key not in fields:
                _fail(name, 1, None, "the header names no %s column" % _LABEL[key])
    rows = []
    boards = {}
    for line, row in numbered:
        values = {}
        for key, index in fields.items():
            values[key] = row[index].strip() if index < len(row) else ""

        def where(key):
            return "field %d (%s)" % (fields[key] + 1, _LABEL[key])

        board = values["board"]
        if not board.isdigit() or not 1 <= int(board) <= MAX_BOARDS:
            _fail(
                name,
                line,
                where("board"),
                "expected a board number from 1 to 9999, not %r" % board,
            )
        board = int(board)
        if board in boards:
            _fail(
                name,
                line,
                where("board"),
                "board %d is there twice (line %d too)" % (board, boards[board]),
            )
        boards[board] = line
        names = []
        for key in ("white", "black"):
            value = values[key]
            if key == "black" and value.lower() in BYE_WORDS:
                names.append(None)
                continue
            if not value:
                _fail(name, line, where(key), "no name (a bye: write bye as Black)")
            if len(value) > MAX_NAME:
                _fail(
                    name,
                    line,
                    where(key),
                    "a name of %d characters: at most %d, as a TRF holds it"
                    % (len(value), MAX_NAME),
                )
            for char in value:
                problem = name_problem(char)
                if problem:
                    _fail(name, line, where(key), "%s in the name" % problem)
            names.append(value)
        ratings = []
        for key in ("white_rating", "black_rating"):
            value = values.get(key, "")
            if value and not (value.isdigit() and int(value) <= 9999):
                _fail(name, line, where(key), "expected a rating from 0 to 9999, not %r" % value)
            ratings.append(int(value) if value else 0)
        time_control = values.get("time_control") or None
        if time_control is not None and check_time_control is not None:
            problem = check_time_control(time_control)
            if problem:
                _fail(name, line, where("time_control"), problem)
        rows.append(Row(line, board, names[0], names[1], time_control, tuple(ratings)))
    return rows


def _fields(row):
    """{field: index} of a header row, or None when the row is a board's line."""
    if row and row[0].strip().isdigit():
        return None
    fields = {}
    for index, cell in enumerate(row):
        word = "".join(char for char in cell.lower() if char.isalnum())
        for key, words in _HEADER.items():
            if word in words and key not in fields:
                fields[key] = index
    return fields
