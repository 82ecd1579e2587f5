# SPDX-License-Identifier: MIT
# A round's results out: the tournament file it was paired from with them added (in its own
# dialect), a CSV of the results, and each game's PGN (the Seven Tag Roster, Board, TimeControl
# and the clock's %clk and %emt for every ply, written in by sim/annotate.py).
import csv
import io
import json

from sim import annotate, pgn_text, records, trf_write
from sim.rounds import BYES, RoundError
from sim.text_edits import AnnotateError

# The PGN Result of each of the round's results (PGN has four; a double loss is "*").
PGN_RESULTS = {
    "1-0": "1-0",
    "0-1": "0-1",
    "1/2-1/2": "1/2-1/2",
    "1-0 forfeit": "1-0",
    "0-1 forfeit": "0-1",
    "1-0 unrated": "1-0",
    "0-1 unrated": "0-1",
    "1/2-1/2 unrated": "1/2-1/2",
}
CSV_FIELDS = (
    "round",
    "board",
    "white_number",
    "white",
    "white_rating",
    "black_number",
    "black",
    "black_rating",
    "result",
    "entered_by",
    "entered_at",
)
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def tournament_file(store, number, date=None, rounds_total=None):
    """The bytes of the tournament file round `number` was paired from, its results added."""
    round_ = store.get(number)
    cells = round_.cells()
    tournament = store.tournament(number)
    try:
        text = trf_write.with_round(tournament, number, cells, date, rounds_total)
        return trf_write.encoded(tournament, text)
    except ValueError as error:
        raise RoundError(str(error))


def _cell(value):
    """A CSV cell a spreadsheet shows as text: one that would start a formula gets a quote."""
    text = "" if value is None else str(value)
    if text.startswith(_FORMULA):
        return "'" + text
    return text


def results_csv(round_):
    """The round's results as CSV (a header line, a line per board in board order, then the
    byes), "pending" where a board has none yet."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_FIELDS)
    results = round_.doc["results"]
    for board in round_.boards:
        held = results.get(str(board["board"]))
        white, black = board["white"], board["black"]
        row = [
            round_.number,
            board["board"],
            white["number"],
            white["name"],
            white["rating"] or "",
            black["number"],
            black["name"],
            black["rating"] or "",
            held["result"] if held else "pending",
            held["by"] if held else "",
            held["at"] if held else "",
        ]
        writer.writerow([_cell(value) for value in row])
    for bye in round_.byes:
        player = bye["player"]
        row = [round_.number, "", player["number"], player["name"], player["rating"] or ""]
        row += ["", "", "", BYES[bye["kind"]], bye["why"], round_.doc["loaded"]["at"]]
        writer.writerow([_cell(value) for value in row])
    return out.getvalue()


def _tag(name, value):
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return '[%s "%s"]' % (name, text)


def game_pgn(round_, board_number, record=None, note=None):
    """Board `board_number`'s game as PGN: the Seven Tag Roster from the round (its event, site,
    date, number, players and result), Board, the players' ratings, titles and FIDE numbers, and
    TimeControl; with the clock's record (GAME's JSON), a null move (--) per ply that stands with
    its %clk and %emt to the millisecond. The clock does not see the moves: a scoresheet's PGN
    gets the times with `python -m sim annotate`."""
    board = round_.board(board_number)
    held = round_.result(board_number)
    result = held["result"] if held else None
    outcome = PGN_RESULTS.get(result, "*")
    event = round_.doc["event"]
    date = round_.doc["date"].replace("-", ".")
    tags = [
        ("Event", event["name"] or "?"),
        ("Site", event["site"] or "?"),
        ("Date", date),
        ("Round", round_.number),
        ("White", board["white"]["name"]),
        ("Black", board["black"]["name"]),
        ("Result", outcome),
        ("Board", board_number),
    ]
    for colour, key in (("White", "white"), ("Black", "black")):
        player = board[key]
        if player["rating"]:
            tags.append((colour + "Elo", player["rating"]))
        if player.get("title"):
            tags.append((colour + "Title", player["title"]))
        if player.get("fide_id"):
            tags.append((colour + "FideId", player["fide_id"]))
    control = _pgn_time_control(board["time_control"])
    if control:
        tags.append(("TimeControl", control))
    plies = 0
    parsed = None
    if record is not None:
        name = "board %d's record" % board_number
        try:
            parsed = annotate.record_of(records.decode(json.dumps(record), name), name)
        except (records.RecordError, AnnotateError) as error:
            raise RoundError(str(error))
        plies = len(parsed.plies)
    tokens = []
    if result is not None and PGN_RESULTS.get(result) != result:
        tokens.append("{%s}" % result)
    for ply in range(plies):
        if ply % 2 == 0:
            tokens.append("%d." % (ply // 2 + 1))
        tokens.append("--")
    tokens.append(outcome)
    text = "\n".join(_tag(name, value) for name, value in tags) + "\n\n"
    text += " ".join(tokens) + "\n"
    if parsed is not None:
        try:
            text = pgn_text.annotate_pgn(
                text, parsed, None, True, True, "board %d" % board_number, note or (lambda _: 0)
            )
        except AnnotateError as error:
            raise RoundError("board %d: %s" % (board_number, error))
    return text


def _pgn_time_control(text):
    """A time control as PGN's TimeControl says it, or None where it cannot."""
    if not text:
        return None
    from notation import pcn, pgn, registry
    from notation.errors import PresetError

    try:
        return pgn.format(pcn.after_the_move(registry.parse(text)))
    except PresetError:
        return None
