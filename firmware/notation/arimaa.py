# SPDX-License-Identifier: MIT
# The Arimaa notation M/R/P/L/G/T: move time, reserve, percentage, reserve limit, game limit, move limit.
from clock.model import MAX_COUNT, ClockError, Control, Setup, Stage
from notation.errors import PresetError
from notation.scan import DIGITS, Scanner
from notation.units import HOUR, MINUTE, SECOND, format_time, read_time, within_clock

NAME = "arimaa"
DAY = 24 * HOUR
_MINUTES = "%s (minutes, m:ss, or with units as in 1h30m10s or 1d)"


def parse(text):
    """`M/R[/P[/L[/G[/T]]]]`; the missing trailing fields are P=100, L=0, G=0, T=0. Every
    field 0, from three fields on (AEI's `0/0/0`), is an untimed game.

    As the official Arimaa time controls are written: M, R, L and T in minutes, or
    minutes:seconds (`1:30`); G in hours, or hours:minutes (`1:30`); any time also with the
    units d, h, m, s (`2d`, `1h30m10s`, `30s`).
    """
    scanner = Scanner(NAME, text)
    scanner.skip_spaces()
    start = scanner.pos
    move = _time(scanner, MINUTE, _MINUTES % "the move time M")
    scanner.expect("/", '"/" and the reserve R')
    reserve = _time(scanner, MINUTE, _MINUTES % "the reserve R")
    percent, limit, game_ms, turns, move_limit = 100, 0, 0, 0, 0
    if scanner.accept("/"):
        percent = _percent(scanner)
        if scanner.accept("/"):
            limit = _time(scanner, MINUTE, _MINUTES % "the reserve limit L")
            if scanner.accept("/"):
                game_ms, turns = _game(scanner)
                if scanner.accept("/"):
                    move_limit = _time(scanner, MINUTE, _MINUTES % "the move limit T")
                    scanner.end("the end of the preset (T is the last field)")
    scanner.end('"/" and the next field, or the end')
    fields = text.count("/") + 1
    if fields >= 3 and not (move or reserve or percent or limit or game_ms or turns or move_limit):
        return Setup(Control([]))  # AEI's 0/0/0: every limit off, an untimed game
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


def _time(scanner, unit_ms, expected):
    """A time: a plain number of `unit_ms`, `a:bb` (minutes:seconds, or for G in hours
    hours:minutes[:seconds]), days (`2d`, `1d12h`), or units as read_time reads them."""
    start = scanner.pos
    run = scanner.digits()
    if len(run) > 9:
        scanner.error("the number %s is too large" % run, start)
    if run and scanner.peek() == ":":
        ms = _colon_time(scanner, int(run), unit_ms)
    elif run and scanner.peek() == "d":
        scanner.pos += 1
        ms = int(run) * DAY
        if scanner.peek() and scanner.peek() in DIGITS:
            rest = scanner.pos
            ms += read_time(scanner, HOUR, expected)
            if scanner.text[rest : scanner.pos].isdigit():
                scanner.error("after the days, a number needs its unit, as in 1d12h", rest)
    else:
        scanner.pos = start
        return read_time(scanner, unit_ms, expected)
    return within_clock(scanner, ms, start)


def _colon_time(scanner, first, unit_ms):
    """After `first` and a colon: minutes:seconds, or from hours, hours:minutes[:seconds]."""
    units = (HOUR, MINUTE, SECOND) if unit_ms == HOUR else (MINUTE, SECOND)
    names = ("hours", "minutes", "seconds")[3 - len(units) :]
    ms = first * units[0]
    index = 1
    while scanner.peek() == ":":
        if index == len(units):
            scanner.fail("the end of the time (%s at most)" % ":".join(names))
        scanner.pos += 1
        at = scanner.pos
        run = scanner.digits()
        if len(run) != 2:
            scanner.fail("two digits after the colon", at)
        if int(run) >= 60:
            scanner.error("the %s must be below 60" % names[index], at)
        ms += int(run) * units[index]
        index += 1
    return ms


def _percent(scanner):
    at = scanner.pos
    percent = scanner.integer("the percentage P (0 to 100)")
    if scanner.peek() == ".":
        scanner.error("the percentage P must be a whole number", at)
    if percent > 100:
        scanner.error("the percentage P must be at most 100, not %d" % percent, at)
    return percent


def _game(scanner):
    """G: hours (h:mm, or a time with units) of play, or a number of turns when it ends in t."""
    at = scanner.pos
    run = scanner.digits()
    if run and scanner.accept("t"):
        turns = int(run) if len(run) <= 9 else MAX_COUNT + 1
        if turns > MAX_COUNT:
            scanner.error("at most %d turns" % MAX_COUNT, at)
        return 0, turns
    scanner.pos = at
    expected = "the game limit G (hours, h:mm, turns as in 120t, or 1h30m)"
    return _time(scanner, HOUR, expected), 0


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
    if control.untimed() and not (setup.limit_ms or setup.limit_turns):
        return "0/0/0"
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
    text = "/".join(fields)
    if text.replace("0", "").replace("/", "") == "" and len(fields) > 2:
        _cannot("a control that gives no time (0/0/0 is AEI's untimed game)")
    return text


def looks_like(text):
    """True for Arimaa texts no other notation reads: a move time of 0, with a colon or with
    units, or more than three fields. `40/60` and `1/5/50` are left to the chessclock
    notation, and three fields with a colon and no unit letter (`2:00/12/0`) to GGS."""
    try:
        parse(text)
    except PresetError:
        return False
    fields = text.strip().split("/")
    if len(fields) > 3:
        return True
    if len(fields) == 3 and ":" in text:
        for char in text:
            if char in "dhms":
                return True
        return False
    return not fields[0].isdigit() or int(fields[0]) == 0
