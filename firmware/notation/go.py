# SPDX-License-Identifier: MIT
# Go club forms: main time, then byo-yomi ("45m 3x30s") or a Canadian block ("20m 25/5m").
from clock.model import FLAG, MAX_COUNT, NEXT, SET, ClockError, Control, Setup, Stage
from notation.errors import PresetError, one_control
from notation.scan import DIGITS, Scanner
from notation.units import MINUTE, SECOND, format_time, read_time

NAME = "go"
_MAIN = "the main time (minutes, or with units as in 45m or 1h)"
_PERIODS = "a count of periods or stones, as in 5x30s or 25/10m"
# A Canadian block of more than an hour is no event's: "25/300" is asked about.
_LONGEST_BLOCK_MIN = 60
_BYOYOMI = ("byo-yomi", "byoyomi", "japanese")
_CANADIAN = ("canadian",)


def parse(text):
    """`[MAIN [+]] NxP [byo-yomi]` (N periods of P, seconds) or `[MAIN [+]] S/B [canadian]` (S
    stones in B, minutes); MAIN in minutes; any time also with units (`45m`, `1h`, `30s`). A
    Canadian block without a main time needs the word canadian ("25/5" is 25 moves in 5 min
    in the chess notation)."""
    scanner = Scanner(NAME, text)
    scanner.skip_spaces()
    start = scanner.pos
    at = _overtime_start(text)
    if at < 0:  # not the go form at all: another notation's refusal says more
        raise PresetError(NAME, text, None, "expected an overtime, as in 45m 3x30s or 20m 25/5m")
    main = _main(text, at) if text[:at].strip() else 0
    scanner.pos = at
    count = scanner.integer(_PERIODS)
    if not 1 <= count <= MAX_COUNT:
        scanner.error("a count of 1 to %d" % MAX_COUNT, at)
    if scanner.accept("xX"):
        period_at = scanner.pos
        period = read_time(scanner, SECOND, "the period (seconds, or 1m)", spoken=True)
        words = _BYOYOMI
        stage = _stage(scanner, period, 1, count, period_at)
    else:
        scanner.expect("/", '"x" and a period (3x30s) or "/" and a block (25/5m)')
        block_at = scanner.pos
        block = read_time(scanner, MINUTE, "the block (minutes, or 300s)", spoken=True)
        plain = scanner.text[block_at : scanner.pos].strip().isdigit()
        if plain and block > _LONGEST_BLOCK_MIN * MINUTE:
            minutes = block // MINUTE
            scanner.error(
                "%d stones in %d min is longer than any event's block; for %d stones in %d s "
                "write %d/%ds" % (count, minutes, count, minutes, count, minutes),
                block_at,
            )
        words = _CANADIAN
        stage = _stage(scanner, block, count, 1, block_at)
    before = scanner.pos
    scanner.skip_spaces()
    named = False
    for word in words:
        if scanner.accept_word(word):
            named = True
            break
    if not named:
        scanner.pos = before
    if words is _CANADIAN and not main and not named:
        scanner.error("a Canadian block without a main time needs the word canadian", start)
    scanner.end("the end, or the word %s" % words[0])
    stages = [stage]
    if main:
        stages.insert(0, Stage(main, on_expire=NEXT))
    try:
        return Setup(Control(stages))
    except ClockError as error:
        scanner.error(str(error), start)


def _overtime_start(text):
    """Where the count of "3x30s" or "25/5m" starts, or -1 (also for "15m+10x": a typo of
    the chess notation's)."""
    for index in range(1, len(text)):
        after = text[index + 1 : index + 2]
        if text[index] in "xX/" and text[index - 1] in DIGITS and after and after in DIGITS:
            while index > 0 and text[index - 1] in DIGITS:
                index -= 1
            return index
    return -1


def _main(text, end):
    """The main time before the overtime at `end`, read alone so that its number is not taken
    for more of the time ("45m 3x30s" is not 45 min 3 s)."""
    scanner = Scanner(NAME, text[:end])
    try:
        scanner.skip_spaces()
        main = read_time(scanner, MINUTE, _MAIN, spoken=True)
        scanner.skip_spaces()
        if scanner.accept("+"):
            scanner.skip_spaces()
        scanner.end('a space or "+" and the overtime, as in 45m 3x30s or 20m 25/5m')
    except PresetError as error:
        raise PresetError(NAME, text, error.position, error.problem)
    return main


def _stage(scanner, ms, moves, periods, position):
    try:
        return Stage(ms, moves=moves, periods=periods, on_enter=SET, on_repeat=SET)
    except ClockError as error:
        scanner.error(str(error), position)


def _cannot(what):
    raise PresetError(NAME, "", None, "go cannot say " + what)


def format(setup):
    """`45m 3x30s` or `20m 25/5m` (the main time left out when there is none)."""
    control = one_control(setup, _cannot)
    stages = control.stages
    main = ""
    if len(stages) == 2:
        first = stages[0]
        if first.moves or first.increment_ms or first.periods > 1 or first.on_expire != NEXT:
            _cannot("a main time other than one bank")
        main = _time(first.duration_ms, MINUTE, "m") + " "
        stages = stages[1:]
    if len(stages) != 1:
        _cannot("anything but a main time and byo-yomi or a Canadian block")
    stage = stages[0]
    if stage.increment_ms or stage.on_enter != SET or stage.on_repeat != SET:
        _cannot("an overtime other than byo-yomi or a Canadian block")
    if stage.on_expire != FLAG or not stage.moves:
        _cannot("an overtime other than byo-yomi or a Canadian block")
    if stage.moves == 1:
        text = "%s%dx%s" % (main, stage.periods, _time(stage.duration_ms, SECOND, "s"))
    elif stage.periods == 1:
        text = "%s%d/%s" % (main, stage.moves, _time(stage.duration_ms, MINUTE, "m"))
        if not main:
            text += " canadian"
    else:
        _cannot("several Canadian blocks")
    if parse(text) != setup:
        _cannot("this control")
    return text


def _time(ms, unit_ms, letter):
    text = format_time(ms, unit_ms)
    if text is None:
        _cannot("times finer than a second")
    return text + letter if text[-1] in DIGITS else text


def looks_like(text):
    try:
        parse(text)
    except PresetError:
        return False
    return True
