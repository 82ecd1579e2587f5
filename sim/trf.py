# SPDX-License-Identifier: MIT
# The FIDE tournament report file (TRF) read, field by field: TRF-16 as Swiss-Manager exports it
# (with the XX lines JaVaFo's TRF(x) adds) and the 2026 revision bbpPairings reads and writes.
#
# A player line (001), by the columns both revisions give it (1-based, as the specifications
# count): 5-8 the starting rank, 10 sex, 11-13 title, 15-47 name, 49-52 FIDE rating, 54-56
# federation, 58-68 FIDE number, 70-79 birth date, 81-84 points ("11.5"), 86-89 rank; then one
# cell of ten columns per round from 92: 92-95 the opponent's starting rank (0000 or blank:
# none), 97 the colour (w, b, - or blank), 99 the result code. docs/round.md has the codes.
import re
import unicodedata

DIALECTS = ("trf16", "trf26")  # Tournament.dialect
# Records that only the 2026 revision has (TRF-16 knows 012 to 132 and 001, 013).
_TRF26 = (
    "142 152 162 172 182 192 202 212 222 240 250 260 299 300 310 320 330 352 362 801 802"
).split()
FIRST_CELL = 91  # 0-based start of round 1's cell
CELL = 10
MAX_NAME = 33  # columns 15-47
MAX_PLAYERS = 9999
MAX_ROUNDS = 99
RESULT_CODES = "+-WDL1=0HFUZ"
BYE_CODES = "HFUZ"  # a cell without an opponent
PLAYED = "1=0WDL"  # a game on the board (W, D and L: less than a move, not rated)
# Unicode's bidirectional controls: a name is shown as it is written, never reordered.
_BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A)) | {0x200E, 0x200F, 0x061C}
_POINTS = re.compile(r" *(\d{1,2})(?:\.(\d))? *$")
_LINE_END = re.compile(r"\r\n|\r|\n")


class TrfError(ValueError):
    """A file that is not a TRF this reader can use, saying where (line and column, from 1)."""

    def __init__(self, name, line, column, problem):
        where = name
        if line is not None:
            where += " line %d" % line
            if column is not None:
                where += ", column %d" % column
        ValueError.__init__(self, "%s: %s" % (where, problem))
        self.line = line
        self.column = column
        self.problem = problem


class Cell:
    """One round of a player line: the opponent's starting rank (0: none), the colour (w, b or
    -) and the result code (one of RESULT_CODES, upper case; None: paired, no result yet)."""

    __slots__ = ("opponent", "colour", "code")

    def __init__(self, opponent, colour, code):
        self.opponent = opponent
        self.colour = colour
        self.code = code

    def paired(self):
        """Whether the pairing engine paired the player this round (a game or its own bye; a
        forfeit win without an opponent is how older files wrote that bye)."""
        return bool(self.opponent) or self.code in ("U", "+")

    def text(self):
        opponent = "%4d" % self.opponent if self.opponent else "0000"
        return "%s %s %s" % (opponent, self.colour, self.code or " ")

    def __eq__(self, other):
        return isinstance(other, Cell) and (self.opponent, self.colour, self.code) == (
            other.opponent,
            other.colour,
            other.code,
        )

    def __repr__(self):
        return "Cell(%r)" % self.text()


class Player:
    def __init__(self, number, line):
        self.number = number  # the starting rank
        self.line = line  # its index in Tournament.lines
        self.sex = ""
        self.title = ""
        self.name = ""
        self.rating = 0  # 0: unrated
        self.federation = ""
        self.fide_id = ""
        self.birth = ""
        self.points = 0  # in tenths, as the file says them
        self.rank = None
        self.cells = []  # a Cell per round, None where the cell is blank

    def cell(self, round_number):
        index = round_number - 1
        return self.cells[index] if index < len(self.cells) else None

    def about(self):
        """For the round's files: the player as the page and the clock show them."""
        return {
            "number": self.number,
            "name": self.name,
            "rating": self.rating,
            "title": self.title,
            "federation": self.federation,
            "fide_id": self.fide_id,
        }


class Scoring:
    """Points in tenths for each result code (the 162 record, bbpPairings' BBx lines, or the
    ones inferred from the players' points as JaVaFo does for a TRF-16 file)."""

    def __init__(self, win=10, draw=5, loss=0, absent=0, pab=None):
        self.win = win
        self.draw = draw
        self.loss = loss
        self.absent = absent  # a forfeit loss, a zero-point bye
        self.pab = pab  # the pairing-allocated bye; None: as a win

    def points(self, cell):
        if cell is None or cell.code is None:
            return 0
        code = cell.code
        if code in "1W+F":
            return self.win
        if code in "=DH":
            return self.draw
        if code in "0L":
            return self.loss
        if code == "U":
            return self.win if self.pab is None else self.pab
        return self.absent  # - Z

    def text(self):
        return "win %s, draw %s, loss %s, absence %s, pairing-allocated bye %s" % tuple(
            points_text(value)
            for value in (self.win, self.draw, self.loss, self.absent, self.pab or self.win)
        )

    def __eq__(self, other):
        return isinstance(other, Scoring) and vars(self) == vars(other)


class Tournament:
    def __init__(self, name):
        self.name = name  # for messages: the file's path
        self.lines = []  # the text's lines, without their ends
        self.newline = "\r"
        self.final_newline = True
        self.encoding = "utf-8"
        self.dialect = "trf16"
        self.header = {}  # "012": the tournament's name, ... (the first of each)
        self.players = {}  # starting rank: Player, in the file's order
        self.rounds_total = None  # 142 or XXR
        self.initial_colour = None  # "w" or "b": 152 or XXC white1/black1
        self.scoring = Scoring()
        self.scoring_given = False
        self.requests = {}  # round: {starting rank: bye code} of 240 records
        self.accelerated = False  # 250 or XXA records: points may carry fictitious ones
        self.abnormal = False  # 299 records: points the results do not give
        self.offsets = {}  # starting rank: points the results do not give (299)

    @property
    def event(self):
        return self.header.get("012", "")

    @property
    def site(self):
        return " ".join(
            value for value in (self.header.get("022"), self.header.get("032")) if value
        )

    def rounds_played(self):
        """The last round that has a pairing in it (a later cell holds only a bye asked for)."""
        last = 0
        for player in self.players.values():
            for index, cell in enumerate(player.cells):
                if cell is not None and cell.paired() and index + 1 > last:
                    last = index + 1
        return last

    def byes_asked(self, round_number):
        """{starting rank: code} of the byes this file asks for round `round_number` before it is
        paired: 240 records (2026), or a cell of that round without an opponent (TRF(x))."""
        asked = {}
        for player in self.players.values():
            cell = player.cell(round_number)
            if cell is not None and not cell.opponent and cell.code in "HFZ":
                asked[player.number] = cell.code
        asked.update(self.requests.get(round_number, {}))
        return asked

    def time_control(self):
        """The time control as the clock reads it: the 2026 revision's encoded 222 (as PGN writes
        a TimeControl, `pgn:` before it), else 122's free text, else None."""
        encoded = self.header.get("222")
        if encoded:
            return "pgn:" + encoded.split()[0]
        return self.header.get("122") or None


def points_text(tenths):
    return "%d.%d" % divmod(tenths, 10)


def decode(data):
    """(text, encoding): UTF-8 (with its byte-order mark, if it has one, written back), else
    Windows-1252 as older Swiss-Manager versions write, else Latin-1."""
    for encoding in (
        "utf-8-sig" if data.startswith(b"\xef\xbb\xbf") else "utf-8",
        "cp1252",
        "latin-1",
    ):
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError:
            continue


def read_file(path):
    """The Tournament of a TRF file; TrfError saying what is wrong and where."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise TrfError(path, None, None, "cannot read it: %s" % error.strerror)
    return read(data, path)


def read(data, name="the TRF"):
    """The Tournament of a TRF's bytes (or text)."""
    tournament = Tournament(name)
    if isinstance(data, bytes):
        text, tournament.encoding = decode(data)
    else:
        text = data
    found = _LINE_END.search(text)
    tournament.newline = found.group() if found else "\r"
    lines = _LINE_END.split(text)
    tournament.final_newline = lines[-1] == ""
    if tournament.final_newline:
        lines.pop()
    tournament.lines = lines
    trf26 = False
    for index, line in enumerate(lines):
        code = line[:3]
        if code in _TRF26:
            trf26 = True
        try:
            _record(tournament, index, line, code)
        except TrfError:
            raise
        except ValueError as error:
            raise TrfError(name, index + 1, None, str(error))
    # bbpPairings' own files may have no record only 2026 defines, but its type code in 092
    trf26 = trf26 or tournament.header.get("092", "").startswith("FIDE_")
    tournament.dialect = "trf26" if trf26 else "trf16"
    if not tournament.players:
        raise TrfError(name, None, None, "no player line (001): is it a TRF file?")
    _check_pairs(tournament)
    _check_points(tournament)
    return tournament


def _record(tournament, index, line, code):
    name = tournament.name
    value = line[4:].strip()
    if code == "001":
        player = _player(tournament, index, line)
        if player.number in tournament.players:
            raise TrfError(name, index + 1, 5, "starting rank %d is there twice" % player.number)
        tournament.players[player.number] = player
    elif code in ("013", "310"):
        raise TrfError(name, index + 1, 1, "a team tournament: the round is for individual games")
    elif code in ("142", "XXR"):
        if not value.isdigit() or not 1 <= int(value) <= MAX_ROUNDS:
            raise TrfError(name, index + 1, 5, "the number of rounds: expected 1 to 99")
        tournament.rounds_total = int(value)
    elif code == "152":
        if value not in ("W", "B"):
            raise TrfError(name, index + 1, 5, "the initial colour: expected W or B")
        tournament.initial_colour = value.lower()
    elif code == "XXC":
        for word in value.split():
            if word in ("white1", "black1"):
                tournament.initial_colour = word[0]
    elif code == "162":
        _scoring_162(tournament, index, line)
    elif code in ("BBW", "BBD", "BBL", "BBZ", "BBF", "BBU"):
        _scoring_bbp(tournament, index, code, value)
    elif code == "240":
        _byes_240(tournament, index, line)
    elif code in ("250", "XXA"):
        tournament.accelerated = True
    elif code == "299":
        tournament.abnormal = True
    elif len(code) == 3 and code[2] == "2" and code.isdigit():
        tournament.header.setdefault(code, value)


def _player(tournament, index, line):
    name = tournament.name
    row = index + 1

    def fail(column, problem):
        raise TrfError(name, row, column, problem)

    if len(line) < 84:
        fail(len(line) + 1, "a player line ends before its points (columns 81-84)")
    number = line[4:8].strip()
    if not number.isdigit() or not 1 <= int(number) <= MAX_PLAYERS:
        fail(5, "the starting rank (columns 5-8): expected 1 to 9999, not %r" % line[4:8])
    player = Player(int(number), index)
    player.sex = line[9].strip()
    player.title = line[10:13].strip()
    player.name = line[14:47].strip()
    for offset, char in enumerate(line[14:47]):
        problem = name_problem(char)
        if problem:
            fail(15 + offset, "%s in the name" % problem)
    rating = line[48:52].strip()
    if rating and not rating.isdigit():
        fail(49, "the rating (columns 49-52): expected digits, not %r" % line[48:52])
    player.rating = int(rating) if rating else 0
    player.federation = line[53:56].strip()
    player.fide_id = line[57:68].strip()
    player.birth = line[69:79].strip()
    points = _POINTS.match(line[80:84])
    if points is None:
        fail(
            81, "the points (columns 81-84): expected a number such as 11.5, not %r" % line[80:84]
        )
    player.points = int(points.group(1)) * 10 + int(points.group(2) or 0)
    rank = line[85:89].strip()
    if rank and not rank.isdigit():
        fail(86, "the rank (columns 86-89): expected digits, not %r" % line[85:89])
    player.rank = int(rank) if rank else None
    for gap in (84, 89, 90):
        if gap < len(line) and line[gap] != " ":
            fail(gap + 1, "expected a space here: are the columns shifted?")
    at = FIRST_CELL
    while at < len(line):
        round_number = (at - FIRST_CELL) // CELL + 1
        cell_text = line[at : at + CELL]
        if round_number > MAX_ROUNDS:
            fail(at + 1, "more than 99 rounds")
        if not cell_text.strip():
            player.cells.append(None)
        else:
            player.cells.append(_cell(fail, player, round_number, at, line))
        at += CELL
    while player.cells and player.cells[-1] is None:
        player.cells.pop()
    return player


def _cell(fail, player, round_number, at, line):
    """Round `round_number`'s cell at 0-based column `at` of a player line."""
    word = "round %d (columns %d-%d)" % (round_number, at + 1, at + 8)
    text = line[at : at + CELL].ljust(CELL)
    for gap in (4, 6, 8, 9):
        if text[gap] != " ":
            fail(at + gap + 1, "%s: expected a space here: are the columns shifted?" % word)
    opponent_text = text[:4]
    colour = text[5]
    code = text[7].upper()
    if opponent_text.strip() in ("", "0000"):
        opponent = 0
    elif opponent_text.strip().isdigit():
        opponent = int(opponent_text)
    else:
        fail(at + 1, "%s: the opponent: expected a starting rank, not %r" % (word, opponent_text))
    if opponent == player.number:
        fail(at + 1, "%s: the player is paired with himself" % word)
    if colour not in "wb- ":
        fail(at + 6, "%s: the colour: expected w, b or -, not %r" % (word, colour))
    if code not in RESULT_CODES + " ":
        fail(at + 8, "%s: unknown result code %r (codes: %s)" % (word, text[7], RESULT_CODES))
    colour = "-" if colour == " " else colour
    if not opponent:
        if colour != "-":
            fail(at + 6, "%s: a colour without an opponent" % word)
        if code in "10WDL":
            fail(at + 8, "%s: result %s needs an opponent" % (word, code))
        return Cell(0, "-", "Z" if code == " " else code)
    if code in BYE_CODES:
        fail(at + 8, "%s: result %s is a bye: it has no opponent (0000)" % (word, code))
    if code == " ":
        if colour == "-":
            fail(at + 8, "%s: an opponent without a colour or a result" % word)
        return Cell(opponent, colour, None)  # paired, played now: no result yet
    if code in PLAYED and colour == "-":
        fail(at + 6, "%s: a game played needs the colour (w or b)" % word)
    return Cell(opponent, colour, code)


def name_problem(char):
    """What is wrong with a character in a name, or None."""
    code = ord(char)
    category = unicodedata.category(char)
    if category == "Cc":
        return "a control character (U+%04X)" % code
    if category in ("Zl", "Zp"):
        return "a line separator (U+%04X)" % code
    if code in _BIDI:
        return "a bidirectional control (U+%04X): a name is shown as it is written" % code
    return None


def _scoring_162(tournament, index, line):
    at = 5
    while at < len(line) and line[at:].strip():
        code = line[at]
        value = _POINTS.match(line[at + 1 : at + 5])
        if code not in "WDLAPX" or value is None:
            raise TrfError(
                tournament.name,
                index + 1,
                at + 1,
                "the scoring: expected a code (W, D, L, A, P, X) and its points such as 1.0",
            )
        tenths = int(value.group(1)) * 10 + int(value.group(2) or 0)
        _score(
            tournament,
            {"W": "win", "D": "draw", "L": "loss", "A": "absent", "P": "pab"},
            code,
            tenths,
        )
        at += 9


def _scoring_bbp(tournament, index, code, value):
    points = _POINTS.match(value)
    if points is None:
        raise TrfError(tournament.name, index + 1, 5, "%s: expected points such as 1.0" % code)
    tenths = int(points.group(1)) * 10 + int(points.group(2) or 0)
    names = {"BBW": "win", "BBD": "draw", "BBL": "loss", "BBZ": "absent", "BBF": "absent"}
    names["BBU"] = "pab"
    _score(tournament, names, code, tenths)


def _score(tournament, names, code, tenths):
    field = names.get(code)
    if field is not None:  # not X: an unknown result, which this reader never writes
        setattr(tournament.scoring, field, tenths)
        tournament.scoring_given = True


def _byes_240(tournament, index, line):
    name = tournament.name
    row = index + 1
    kind = line[4:5]
    if kind not in ("F", "H", "Z"):
        raise TrfError(name, row, 5, "the bye: expected F, H or Z")
    round_text = line[6:9].strip()
    if not round_text.isdigit() or not 1 <= int(round_text) <= MAX_ROUNDS:
        raise TrfError(name, row, 7, "the round (columns 7-9): expected 1 to 99")
    asked = tournament.requests.setdefault(int(round_text), {})
    at = 10
    while at < len(line) and line[at:].strip():
        number = line[at : at + 4].strip()
        if not number.isdigit() or not int(number):
            raise TrfError(
                name, row, at + 1, "expected a starting rank, not %r" % line[at : at + 4]
            )
        asked[int(number)] = kind
        at += 5


def _check_pairs(tournament):
    """Each game is in both players' lines, with opposite colours (as pairing engines check)."""
    players = tournament.players
    name = tournament.name
    played = tournament.rounds_played()
    for player in players.values():
        for index, cell in enumerate(player.cells):
            if cell is None or not cell.opponent:
                continue
            column = FIRST_CELL + index * CELL + 1
            if cell.code is None and index + 1 != played:
                raise TrfError(
                    name,
                    player.line + 1,
                    column + 7,
                    "round %d: a game without a result, and round %d after it"
                    % (index + 1, played),
                )
            other = players.get(cell.opponent)
            if other is None:
                raise TrfError(
                    name,
                    player.line + 1,
                    column,
                    "round %d: opponent %d is not in the player list" % (index + 1, cell.opponent),
                )
            back = other.cell(index + 1)
            if back is None or back.opponent != player.number:
                said = "no opponent" if back is None or not back.opponent else back.opponent
                raise TrfError(
                    name,
                    player.line + 1,
                    column,
                    "round %d: player %d meets %d, whose line (line %d) says %s"
                    % (index + 1, player.number, other.number, other.line + 1, said),
                )
            if (cell.code is None) != (back.code is None):
                raise TrfError(
                    name,
                    player.line + 1,
                    column + 7,
                    "round %d: player %d's game has a result in one line only (line %d)"
                    % (index + 1, player.number, other.line + 1),
                )
            if cell.colour != "-" and cell.colour == back.colour:
                raise TrfError(
                    name,
                    player.line + 1,
                    column + 5,
                    "round %d: players %d and %d both have %s"
                    % (index + 1, player.number, other.number, cell.colour),
                )


def _check_points(tournament):
    """The points each line says are what its results give, with the file's scoring; a TRF-16
    file without one has the scoring its points show (as JaVaFo infers it)."""
    if tournament.abnormal or tournament.accelerated:
        played = tournament.rounds_played()
        for player in tournament.players.values():
            tournament.offsets[player.number] = player.points - _sum(
                tournament.scoring, player, played
            )
        if tournament.accelerated:
            tournament.offsets = {}
        return
    if not tournament.scoring_given and not _fits(tournament, tournament.scoring):
        for scoring in _scorings():
            if _fits(tournament, scoring):
                tournament.scoring = scoring
                return
    bad = _misfit(tournament, tournament.scoring)
    if bad is not None:
        player, have = bad
        raise TrfError(
            tournament.name,
            player.line + 1,
            81,
            "player %d has %s points, the results give %s (%s): a result typed wrong, or a"
            " scoring this file does not say?"
            % (
                player.number,
                points_text(player.points),
                points_text(have),
                tournament.scoring.text(),
            ),
        )


def _sum(scoring, player, rounds):
    return sum(scoring.points(cell) for cell in player.cells[:rounds])


def _misfit(tournament, scoring):
    """The first (player, points the results give) whose points are neither the sum of its
    played rounds nor that with the byes asked for the next one."""
    played = tournament.rounds_played()
    for player in tournament.players.values():
        have = _sum(scoring, player, played)
        if player.points not in (have, _sum(scoring, player, len(player.cells))):
            return player, have
    return None


def _fits(tournament, scoring):
    return _misfit(tournament, scoring) is None


def _scorings():
    """The scorings a TRF-16 file may have been played with, the usual first."""
    for win in range(10, 31, 5):
        for draw in [win // 2] + [d for d in range(0, win + 1, 5) if d != win // 2]:
            yield Scoring(win, draw)
