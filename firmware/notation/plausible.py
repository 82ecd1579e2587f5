# SPDX-License-Identifier: MIT
# The plausibility rule: a text read without a prefix whose reading no event plays is asked about,
# with the readings meant and how to write each. Loaded only for text without a prefix.
from notation import pgn
from notation.chessclock import MOST_MINUTES
from notation.describe import duration
from notation.scan import Scanner, seconds_text
from notation.units import MINUTE, SECOND, format_time

_MOST_INCREMENT_S = 600  # no event gives more a move: "5+900" is asked about
_SHORTEST_MS = 15000  # no event starts a side with less: "5+3d" (5 s) is asked about
_LONGEST_ARIMAA_MOVE_MS = 10 * MINUTE  # a longer move time in plain minutes is asked about


def doubt(name, text):
    """Why notation `name`'s reading of `text` is far from what events play, with the readings
    meant; None when it is not."""
    if name == "chessclock":
        return _chess(text)
    if name == "pgn":
        return _pgn(text)
    if name == "arimaa":
        return _arimaa(text)
    return None


def _chess(text):
    """`N+M` or `N|M` in plain numbers: minutes + seconds, asked about when no event plays
    it."""
    scanner = Scanner("chessclock", text)
    scanner.skip_spaces()
    base = scanner.digits()
    scanner.skip_spaces()
    sign = scanner.accept("+|")
    scanner.skip_spaces()
    increment = scanner.digits()
    scanner.skip_spaces()
    if not (base and sign and increment and scanner.at_end()) or len(base + increment) > 9:
        return None
    base, increment = int(base), int(increment)
    if base > MOST_MINUTES:
        return _both_readings(base, sign, increment, text, "is longer than any event plays")
    if 0 < increment < (10 if base >= 120 else 5 if base >= 60 else 0):
        # "180+2", "120+1": lichess's 3+2 and 2+1 in seconds; no hour-long game gives so little.
        return _both_readings(base, sign, increment, text, "is no event's control")
    if increment > _MOST_INCREMENT_S:
        return (
            "an increment of %s a move is more than events give; if it is meant, write %d%s%ds"
            % (
                duration(increment * SECOND),
                base,
                sign,
                increment,
            )
        )
    return None


def _both_readings(base, sign, increment, text, why):
    seconds = format_time(base * SECOND, MINUTE)
    as_pgn = " (or pgn:%s)" % text.strip() if sign == "+" else ""
    return (
        "%s + %d s a move %s; for %s + %d s a move (seconds, as "
        "PGN and lichess count) write %s%s%d%s; for %s write %dm%s%d"
        % (
            duration(base * MINUTE),
            increment,
            why,
            duration(base * SECOND),
            increment,
            seconds,
            sign,
            increment,
            as_pgn,
            duration(base * MINUTE),
            base,
            sign,
            increment,
        )
    )


def _pgn(text):
    """The `+Nd` delay form with a first period shorter than any event's ("5+3d": 5 s), read in
    seconds but likely meant in minutes."""
    if "d" not in text:
        return None
    stage = pgn.parse(text).first.stages[0]
    if stage.duration_ms >= _SHORTEST_MS:
        return None
    seconds = stage.duration_ms // 1000
    if stage.duration_ms % 1000 or not seconds:
        return "%s s with a delay is shorter than any event plays (this form counts seconds)" % (
            seconds_text(stage.duration_ms)
        )
    return (
        "%s s with a %s s delay is shorter than any event plays: this form counts seconds; "
        "for %d min write %d+%sd, or G/%d d%s"
        % (
            seconds_text(stage.duration_ms),
            seconds_text(stage.increment_ms),
            seconds,
            seconds * 60,
            seconds_text(stage.increment_ms),
            seconds,
            seconds_text(stage.increment_ms),
        )
    )


def _arimaa(text):
    """`M/R/P/L` read as Arimaa with a move time in plain minutes longer than Arimaa events give
    (`90/30/40/2`: 90 min a move): a chess control mistyped, most likely."""
    from notation import arimaa

    first = text.split("/")[0].strip()
    if not first.isdigit():
        return None  # m:ss or units: written as Arimaa writes it
    move = arimaa.parse(text).first.move_ms
    if move is None or move <= _LONGEST_ARIMAA_MOVE_MS:
        return None
    return (
        "read as Arimaa (move/reserve/percent/limit), %s a move is longer than Arimaa events "
        "give; if it is meant, write arimaa:%s; a chess control with a move count is written "
        "40/90+30 (40 moves in 90 min, 30 s a move)" % (duration(move), text.strip())
    )
