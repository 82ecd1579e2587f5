# SPDX-License-Identifier: MIT
# A round's results added to the TRF they were paired from, in its own dialect, every other line
# as it was: the round's cells, the points and ranks of the player lines (001), the round's date
# on the 132 line when the file has one. Byes asked for a round before it is paired, too.
from sim.trf import CELL, FIRST_CELL, Cell, TrfError, points_text


def _set(line, at, text):
    """`line` with `text` from 0-based column `at`, padded with spaces to reach it."""
    line = line.ljust(at)
    return line[:at] + text + line[at + len(text) :]


def _cell_at(round_number):
    return FIRST_CELL + (round_number - 1) * CELL


def with_round(tournament, round_number, cells, date=None, rounds_total=None):
    """The file's text with round `round_number`'s cells ({starting rank: Cell}, one for every
    player; the round's date, a datetime.date, onto a 132 line) and the points and ranks they
    give; the number of rounds added (142 or XXR) where the file has none and one is given."""
    name = tournament.name
    played = tournament.rounds_played()
    if round_number != played + 1 and not (round_number == played and _open(tournament, played)):
        raise TrfError(
            name,
            None,
            None,
            "round %d's results go on a file with %d round%s before it: this one has %d"
            % (round_number, round_number - 1, "s" if round_number != 2 else "", played),
        )
    missing = sorted(set(tournament.players) - set(cells))
    if missing:
        raise TrfError(
            name, None, None, "round %d: no cell for player %d" % (round_number, missing[0])
        )
    lines = list(tournament.lines)
    totals = {}
    for number, player in tournament.players.items():
        cell = cells[number]
        have = player.cell(round_number)
        if have is not None and have != cell and not _replaceable(have, cell):
            raise TrfError(
                name,
                player.line + 1,
                _cell_at(round_number) + 1,
                "round %d: the file already says %r for player %d, the round %r"
                % (round_number, have.text(), number, cell.text()),
            )
        scoring = tournament.scoring
        total = sum(scoring.points(c) for c in player.cells[: round_number - 1])
        total += scoring.points(cell) + tournament.offsets.get(number, 0)
        if not 0 <= total <= 999:
            raise TrfError(
                name,
                player.line + 1,
                81,
                "player %d: %s points do not fit columns 81-84" % (number, points_text(total)),
            )
        totals[number] = total
        lines[player.line] = _set(lines[player.line], _cell_at(round_number), cell.text())
    for number, player in tournament.players.items():
        rank = 1 + sum(1 for other in totals.values() if other > totals[number])
        line = _set(lines[player.line], 80, "%4s" % points_text(totals[number]))
        lines[player.line] = _set(line, 85, "%4d" % rank)
    if date is not None:
        for index, line in enumerate(lines):
            if line.startswith("132"):
                lines[index] = _set(line, _cell_at(round_number), date.strftime("%y/%m/%d"))
                break
    if rounds_total is not None and tournament.rounds_total is None:
        code = "142" if tournament.dialect == "trf26" else "XXR"
        lines.insert(_header_end(lines), "%s %d" % (code, rounds_total))
    return _text(tournament, lines)


def _open(tournament, round_number):
    """Whether round `round_number` is paired in the file with no result yet (a file exported
    after the pairing)."""
    return any(
        cell is not None and cell.opponent and cell.code is None
        for cell in (player.cell(round_number) for player in tournament.players.values())
    )


def _replaceable(have, cell):
    """A cell the round's results may fill: the same pairing without its result, or the same bye
    asked for before the pairing."""
    if have.code is None:
        return (have.opponent, have.colour) == (cell.opponent, cell.colour)
    return False


def with_byes(tournament, round_number, asked):
    """The file's text with byes asked for round `round_number` before it is paired ({starting
    rank: "H", "F" or "Z"}): 240 records in the 2026 revision, the player's cell of that round
    in TRF-16 (TRF(x), as JaVaFo and bbpPairings read it)."""
    name = tournament.name
    played = tournament.rounds_played()
    if round_number != played + 1:
        raise TrfError(
            name,
            None,
            None,
            (
                "a bye is asked for the next round, %d; round %d is paired already"
                % (played + 1, round_number)
                if round_number <= played
                else "a bye is asked for the next round, %d, not %d" % (played + 1, round_number)
            ),
        )
    lines = list(tournament.lines)
    for number, kind in sorted(asked.items()):
        player = tournament.players.get(number)
        if player is None:
            raise TrfError(name, None, None, "no player has starting rank %d" % number)
        if kind not in ("H", "F", "Z"):
            raise TrfError(name, None, None, "a bye asked for is H, F or Z, not %r" % kind)
    if tournament.dialect == "trf26":
        for kind in ("F", "H", "Z"):
            numbers = sorted(n for n, k in asked.items() if k == kind)
            if numbers:
                text = "240 %s %03d" % (kind, round_number)
                lines.append(text + "".join(" %4d" % n for n in numbers))
    else:
        for number, kind in asked.items():
            player = tournament.players[number]
            lines[player.line] = _set(
                lines[player.line], _cell_at(round_number), Cell(0, "-", kind).text()
            )
    return _text(tournament, lines)


def _header_end(lines):
    """Where a tournament record goes: after the last one before the first player line."""
    for index, line in enumerate(lines):
        if line.startswith("001"):
            end = index
            while end > 0 and not lines[end - 1].strip():
                end -= 1
            return end
    return len(lines)


def _text(tournament, lines):
    text = tournament.newline.join(lines)
    if tournament.final_newline:
        text += tournament.newline
    return text


def encoded(tournament, text):
    """The text as bytes in the file's own encoding; a character it cannot hold is an error."""
    try:
        return text.encode(tournament.encoding)
    except UnicodeEncodeError as error:
        raise TrfError(
            tournament.name,
            None,
            None,
            "%r cannot be written in %s" % (text[error.start : error.end], tournament.encoding),
        )
