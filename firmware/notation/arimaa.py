# The Arimaa notation M/R/P/L/G/T: move time, reserve, percentage, reserve limit, game limit, move limit.
from clock.model import MAX_COUNT, ClockError, Control, Setup, Stage
from notation.errors import PresetError
from notation.scan import Scanner
from notation.units import HOUR, MINUTE, format_time, read_time

NAME = "arimaa"
_MINUTES = "%s (minutes, or with units as in 1h30m10s)"


def parse(text):
    """`M/R[/P[/L[/G[/T]]]]`; the missing trailing fields are P=100, L=0, G=0, T=0."""
    scanner = Scanner(NAME, text)
    scanner.skip_spaces()
    start = scanner.pos
    move = read_time(scanner, MINUTE, _MINUTES % "the move time M")
    scanner.expect("/", '"/" and the reserve R')
    reserve = read_time(scanner, MINUTE, _MINUTES % "the reserve R")
    percent, limit, game_ms, turns, move_limit = 100, 0, 0, 0, 0
    if scanner.accept("/"):
        percent = _percent(scanner)
        if scanner.accept("/"):
            limit = read_time(scanner, MINUTE, _MINUTES % "the reserve limit L")
            if scanner.accept("/"):
                game_ms, turns = _game(scanner)
                if scanner.accept("/"):
                    move_limit = read_time(scanner, MINUTE, _MINUTES % "the move limit T")
                    scanner.end("the end of the preset (T is the last field)")
    scanner.end('"/" and the next field, or the end')
    try:
        control = Control(
            [Stage(reserve)],
            move_ms=move,
            reserve_percent=percent,
            reserve_limit_ms=limit,
            move_limit_ms=move_limit,
        )
        return Setup(control, limit_ms=game_ms, limit_turns=turns)
    except ClockError as error:
        scanner.error(str(error), start)


def _percent(scanner):
    at = scanner.pos
    percent = scanner.integer("the percentage P (0 to 100)")
    if scanner.peek() == ".":
        scanner.error("the percentage P must be a whole number", at)
    if percent > 100:
        scanner.error("the percentage P must be at most 100, not %d" % percent, at)
    return percent


def _game(scanner):
    """G: hours (or a time with units) of play, or a number of turns when it ends in t."""
    at = scanner.pos
    run = scanner.digits()
    if run and scanner.accept("t"):
        turns = int(run) if len(run) <= 9 else MAX_COUNT + 1
        if turns > MAX_COUNT:
            scanner.error("at most %d turns" % MAX_COUNT, at)
        return 0, turns
    scanner.pos = at
    return read_time(scanner, HOUR, "the game limit G (hours, turns as in 120t, or 1h30m)"), 0


def _cannot(what):
    raise PresetError(NAME, "", None, "Arimaa cannot say " + what)


def format(setup):
    """The shortest canonical text: trailing fields at their defaults are left out."""
    if not isinstance(setup, Setup):
        _cannot("anything but a Setup")
    control = setup.first
    if setup.second != control:
        _cannot("different controls for the two players")
    if setup.hourglass or setup.word or setup.start_ms:
        _cannot("hourglass, word or a start clock")
    if setup.limit_ms and setup.limit_turns:
        _cannot("a game limit in both time and turns")
    if control.move_ms is None:
        _cannot("a control without a move time M")
    if len(control.stages) != 1 or control.stages[0] != Stage(control.stages[0].duration_ms):
        _cannot("a control other than one reserve")
    if control.max_ms:
        _cannot("a maximum time")
    if setup.limit_turns:
        game = "%dt" % setup.limit_turns
    else:
        game = format_time(setup.limit_ms, HOUR)
    fields = [
        format_time(control.move_ms, MINUTE),
        format_time(control.stages[0].duration_ms, MINUTE),
        str(control.reserve_percent),
        format_time(control.reserve_limit_ms, MINUTE),
        game,
        format_time(control.move_limit_ms, MINUTE),
    ]
    if None in fields:
        _cannot("times finer than a second")
    defaults = (None, None, "100", "0", "0", "0")
    while len(fields) > 2 and fields[-1] == defaults[len(fields) - 1]:
        fields.pop()
    return "/".join(fields)


def looks_like(text):
    """True for Arimaa texts no other notation reads: a move time of 0 or with units, or more
    than three fields (`40/60` and `1/5/50` are left to the chessclock notation)."""
    try:
        parse(text)
    except PresetError:
        return False
    fields = text.strip().split("/")
    return len(fields) > 3 or not fields[0].isdigit() or int(fields[0]) == 0
