# SPDX-License-Identifier: MIT
# A round made from the pairing program's files: the tournament file (TRF) it was paired from and
# the engine's pairings, or a club's CSV; each board's players and time control, the byes, what
# the arbiter should know (a time control the clock cannot read, the TRF's last round against the
# one kept).
from sim import pairings, trf
from sim.rounds import RESULTS, RoundError, player_doc, trf_player


class Made:
    """A round as its files give it: what its file keeps (`source`, `event`, `boards`, `byes`,
    `time_control`), the files' bytes to keep beside it (`sources`), the notes for the arbiter,
    and the tournament (None for a CSV)."""

    def __init__(self, source, sources, event, boards, byes, time_control, notes, tournament):
        self.source = source
        self.sources = sources
        self.event = event
        self.boards = boards
        self.byes = byes
        self.time_control = time_control
        self.notes = notes
        self.tournament = tournament


def from_trf(number, trf_path, pairings_path, time_control=None):
    """Round `number` from the TRF it was paired from and the engine's pairings; the round's
    time control is `time_control`, else the file's when the clock reads it (a note if not)."""
    problem = time_control_problem(time_control)
    if problem:
        raise RoundError("--tc: %s" % problem)
    data = _read(trf_path)
    try:
        tournament = trf.read(data, trf_path)
    except trf.TrfError as error:
        raise RoundError(str(error))
    played = tournament.rounds_played()
    if played >= number:
        raise RoundError(
            "%s has round %d paired already: round %d is paired from the file of the rounds"
            " before it" % (trf_path, played, number)
        )
    if played < number - 1:
        raise RoundError(
            "%s has results up to round %d: round %d is paired after round %d's"
            % (trf_path, played, number, number - 1)
        )
    text = _text(_read(pairings_path), pairings_path)
    try:
        pairs, pab = pairings.engine_pairs(text, pairings_path, tournament, number)
    except pairings.PairingsError as error:
        raise RoundError(str(error))
    notes = []
    if time_control is None:
        time_control = tournament.time_control()
        if time_control_problem(time_control):
            notes.append(
                "the file's time control %r is not one the clock reads: give --tc" % time_control
            )
            time_control = None
    players = tournament.players
    boards = [
        {
            "board": index + 1,
            "white": trf_player(players[white]),
            "black": trf_player(players[black]),
            "time_control": time_control,
        }
        for index, (white, black) in enumerate(pairs)
    ]
    asked = tournament.byes_asked(number)
    paired = {n for pair in pairs for n in pair}
    byes = []
    for player in players.values():
        if player.number == pab:
            kind, why = "U", "the pairing engine's"
        elif player.number in asked:
            kind, why = asked[player.number], "asked before the pairing"
        elif player.number not in paired:
            kind, why = "Z", "not paired"
        else:
            continue
        byes.append({"player": trf_player(player), "kind": kind, "why": why})
    event = {
        "name": tournament.event,
        "site": tournament.site,
        "dialect": tournament.dialect,
    }
    source = {"kind": "trf", "trf": "tournament.trf", "pairings": "pairings.txt"}
    sources = {"tournament.trf": data, "pairings.txt": text.encode("utf-8")}
    return Made(source, sources, event, boards, byes, time_control, notes, tournament)


def from_csv(csv_path, time_control=None, event=None, site=None):
    """A round from a club's CSV (board, White, Black, time control; `time_control` for the
    lines without one)."""
    problem = time_control_problem(time_control)
    if problem:
        raise RoundError("--tc: %s" % problem)
    data = _read(csv_path)
    text = _text(data, csv_path)
    try:
        rows = pairings.csv_rows(text, csv_path, time_control_problem)
    except pairings.PairingsError as error:
        raise RoundError(str(error))
    boards = []
    byes = []
    for row in rows:
        white = player_doc(row.white, row.ratings[0])
        if row.black is None:
            byes.append({"player": white, "kind": "U", "why": "the pairing list's"})
            continue
        boards.append(
            {
                "board": row.board,
                "white": white,
                "black": player_doc(row.black, row.ratings[1]),
                "time_control": row.time_control or time_control,
            }
        )
    source = {"kind": "csv", "csv": "pairings.csv"}
    about = {"name": event or "", "site": site or "", "dialect": None}
    sources = {"pairings.csv": data}
    return Made(source, sources, about, boards, byes, time_control, [], None)


def disagreements(before, tournament):
    """Where a tournament file's results of round `before` (the Round kept) say otherwise."""
    if before.doc["source"]["kind"] != "trf":
        return []
    notes = []
    for board in before.boards:
        held = before.doc["results"].get(str(board["board"]))
        kept = held["result"] if held else None
        said = _trf_result(tournament, board, before.number)
        if said != kept:
            notes.append(
                "round %d board %d: the tournament file has %s, the round kept here %s"
                % (before.number, board["board"], said or "no such game", kept or "no result")
            )
    return notes


def _trf_result(tournament, board, number):
    """The result the tournament file gives a board of round `number`, or None."""
    white = tournament.players.get(board["white"]["number"])
    black = tournament.players.get(board["black"]["number"])
    if white is None or black is None:
        return None
    cells = (white.cell(number), black.cell(number))
    if None in cells or cells[0].opponent != black.number or cells[0].colour != "w":
        return None
    for text, codes in RESULTS.items():
        if (cells[0].code, cells[1].code) == codes:
            return text
    return None


def _read(path):
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as error:
        raise RoundError("cannot read %s: %s" % (path, error.strerror))


def _text(data, name):
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise RoundError("%s line %d: not UTF-8 text" % (name, line))


def time_control_problem(text):
    """What the clock finds wrong with a time control's text (None: nothing, or no text)."""
    if text is None:
        return None
    from notation import registry
    from notation.errors import PresetError

    try:
        registry.parse(text)
    except PresetError as error:
        return str(error)
    return None
