# SPDX-License-Identifier: MIT
# The GGS game-server notation [ini[,[N]m1]]/[inc[,[N]m2]]/[ext[,[N]m3]], and GGF's shorter forms.
from clock.model import (
    ADD,
    BRONSTEIN,
    FISCHER_AFTER,
    FLAG,
    MAX_COUNT,
    NEXT,
    SET,
    SOFT,
    ClockError,
    Control,
    Setup,
    Stage,
)
from notation.errors import PresetError, one_control
from notation.scan import Scanner
from notation.units import within_clock

NAME = "ggs"
_TIME = "a time [[HH:]MM:]SS"
_AFTER_DAYS = "hours:minutes:seconds after the days, as in 1.12:00:00"
GRACE_MS = 120000  # GGF's grace (the overtime ext) when a clock leaves out its third field


def parse(text):
    """Three fields split by "/", each empty or `time[,[N]count]`; see docs/time-controls.md "GGS (Othello) overtime".

    As GGF game files write clocks, the fields after the first may be left out: `23` and
    `23/1:00` have the default grace of 2:00 (`0:23//2:00`); a third field, even empty, is
    written and says what it says. A time may start with days: `1.12:01:23` (D.H:MM:SS).
    """
    scanner = Scanner(NAME, text)
    scanner.skip_spaces()
    start = scanner.pos
    ini_written = scanner.peek() not in ("", "/")
    after = '"," and the move count m1, "/" or the end'
    ini, m1, n1 = _field(scanner, 0, after)
    inc, m2, n2 = 0, 1, False
    ext, m3, n3 = GRACE_MS, 0, False
    short = True
    if scanner.accept("/"):
        after = '"," and the move count m2, "/" or the end'
        inc, m2, n2 = _field(scanner, 1, after)
        if scanner.accept("/"):
            after = '"," and the move count m3, or the end'
            ext, m3, n3 = _field(scanner, 0, after)
            short = False
    if short and not ini_written:
        scanner.fail(_TIME, start)  # GGF's shorter forms start with the time
    at = scanner.pos
    scanner.skip_spaces()
    if not scanner.at_end():
        scanner.fail(after, at)
    try:
        return build(ini, m1, n1, inc, m2, n2, ext, m3, n3)
    except ClockError as error:
        scanner.error(str(error), start)


def build(ini, m1, n1, inc, m2, n2, ext, m3, n3):
    """The Setup for the GGS parameters (times in ms, counts, and the three N flags)."""
    mode = BRONSTEIN if n2 else FISCHER_AFTER
    enter = SET if n3 else ADD
    main = Stage(
        ini,
        moves=m1,
        increment_ms=inc,
        mode=mode,
        increment_every=m2,
        on_enter=ADD,
        on_repeat=ADD,
        on_expire=NEXT if n1 else SOFT,
    )
    overtime = Stage(
        ext,
        moves=m3,
        increment_ms=inc,
        mode=mode,
        increment_every=m2,
        on_enter=enter,
        on_repeat=enter,
        on_expire=FLAG,
    )
    return Setup(Control([main, overtime]))


def _field(scanner, low, after):
    """One field: (ms, count, N given); an empty field gives (0, low, False)."""
    if scanner.peek() in ("", "/", " ", "\t"):
        return 0, low, False
    ms = _time(scanner)
    if not scanner.accept(","):
        return ms, low, False
    flag = scanner.accept("N") == "N"
    at = scanner.pos
    count = scanner.integer("a move count" + (" after N" if flag else " or N"))
    if count < low or count > MAX_COUNT:
        scanner.error("the move count must be between %d and %d" % (low, MAX_COUNT), at)
    return ms, count, flag


def _time(scanner):
    """`[[HH:]MM:]SS`, or with GGF's days `D.H:MM:SS` (the hours then below 24)."""
    start = scanner.pos
    run = scanner.digits()
    if not run:
        scanner.fail(_TIME)
    if len(run) > 9:
        scanner.error("the number %s is too large" % run, start)
    days = -1
    if scanner.peek() == ".":
        days = int(run)
        scanner.pos += 1
        hours_at = scanner.pos
        run = scanner.digits()
        if not run or len(run) > 2 or scanner.peek() != ":":
            scanner.fail(_AFTER_DAYS, hours_at)
    parts = [int(run)]
    places = [scanner.pos - len(run)]
    while len(parts) < 3 and scanner.accept(":"):
        places.append(scanner.pos)
        run = scanner.digits()
        if len(run) != 2:
            scanner.fail("two digits after the colon", places[-1])
        parts.append(int(run))
    if scanner.peek() == ":":
        scanner.fail("the end of the time (at most HH:MM:SS)")
    if days >= 0:
        if len(parts) < 3:
            scanner.fail(_AFTER_DAYS, hours_at)
        if parts[0] >= 24:
            scanner.error("the hours after the days must be below 24", hours_at)
    # In MM:SS and HH:MM:SS, every part but the hours is below 60.
    names = ("hours", "minutes", "seconds")[3 - len(parts) :]
    ms = 0
    for index in range(len(parts)):
        if len(parts) > 1 and names[index] != "hours" and parts[index] >= 60:
            scanner.error("the %s must be below 60" % names[index], places[index])
        ms = ms * 60 + parts[index]
    if days > 0:
        ms += days * 86400
    ms *= 1000
    return within_clock(scanner, ms, start)


def _cannot(what):
    raise PresetError(NAME, "", None, "GGS cannot say " + what)


def format(setup):
    """The canonical text: ini and ext always, inc only when not 0, counts only when not default."""
    control = one_control(setup, _cannot)
    if len(control.stages) != 2:
        _cannot("a control other than initial time and overtime")
    main, overtime = control.stages
    inc = main.increment_ms
    n2 = inc > 0 and main.mode == BRONSTEIN
    n1 = main.on_expire == NEXT
    n3 = overtime.on_enter == SET
    try:
        same = build(
            main.duration_ms,
            main.moves,
            n1,
            inc,
            main.increment_every if inc else 1,
            n2,
            overtime.duration_ms,
            overtime.moves,
            n3,
        )
    except ClockError:
        same = None
    if same != setup:
        _cannot("this control (GGS has initial time, an increment and overtime)")
    # As in the seed's examples: ini and ext always written, inc only when not 0.
    fields = (
        _format_field(main.duration_ms, main.moves, n1, 0),
        _format_field(inc, main.increment_every, n2, 1) if inc else "",
        _format_field(overtime.duration_ms, overtime.moves, n3, 0),
    )
    return "/".join(fields)


def _format_field(ms, count, flag, default):
    if ms % 1000:
        _cannot("times finer than a second")
    seconds = ms // 1000
    if seconds >= 3600:
        text = "%d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)
    elif seconds >= 60:
        text = "%d:%02d" % (seconds // 60, seconds % 60)
    else:
        text = str(seconds)
    if count != default or flag:
        text += ",%s%d" % ("N" if flag else "", count)
    return text


def looks_like(text):
    """True for GGS texts with a sign of GGS. Three fields: a colon, an N, or an empty field.
    Fewer (GGF's forms): a count, an N, days, or a colon in a lone field; `23` is left to
    PGN, and two fields with only colons to Arimaa (`1:30/5`) and PGN (`23/1:00`)."""
    try:
        parse(text)
    except PresetError:
        return False
    fields = text.strip().split("/")
    if len(fields) < 3:
        for sign in ",N.":
            if sign in text:
                return True
        return len(fields) == 1 and ":" in text
    if ":" in text or "N" in text:
        return True
    for field in fields:
        if not field:
            return True
    return False
