# SPDX-License-Identifier: MIT
# SGF time properties: TM (main time) and OT (overtime) as KGS, OGS, CGoban and GoGui write them.
from clock.model import Stage, Control, Setup, ClockError, MAX_MS
from clock.model import FISCHER_AFTER, ADD, SET, NEXT, FLAG
from notation.errors import ZERO_TIME, PresetError, one_control
from notation.scan import DIGITS, Scanner, seconds_text

NAME = "sgf"
_WHITE = " \t\r\n"
_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def parse(text):
    """Properties such as `TM[1800]OT[5x30 byo-yomi]`, or a bare OT value (main time 0)."""
    scan = Scanner(NAME, text)
    if "[" not in text:
        return _build(scan, 0, _overtime(scan, 0, len(text)))
    props = _properties(scan)
    main = 0
    if "TM" in props:
        main = _real(scan, props["TM"][0], props["TM"][1])
    overtime = None
    if "OT" in props:
        overtime = _overtime(scan, props["OT"][0], props["OT"][1])
    if "TM" in props and not main and overtime is None:
        raise PresetError(NAME, text, None, ZERO_TIME)
    return _build(scan, main, overtime)


def _skip(scan):
    while scan.peek() and scan.peek() in _WHITE:
        scan.pos += 1


def _properties(scan):
    """The TM and OT values as (start, end) spans; other well-formed properties are skipped."""
    props = {}
    _skip(scan)
    paren = scan.accept("(")
    _skip(scan)
    if paren:
        scan.expect(";", '";" starting the game\'s first node')
    else:
        scan.accept(";")
    _skip(scan)
    while scan.peek() and scan.peek() in _UPPER:
        at = scan.pos
        while scan.peek() and scan.peek() in _UPPER:
            scan.pos += 1
        name = scan.text[at : scan.pos]
        _skip(scan)
        values = []
        while scan.accept("["):
            values.append(_value(scan))
            _skip(scan)
        if not values:
            scan.fail('"[" opening the value of ' + name)
        if name in ("TM", "OT"):
            if name in props:
                scan.error("the property %s is given twice" % name, at)
            if len(values) > 1:
                scan.error("the property %s takes one value" % name, at)
            props[name] = values[0]
    if paren:
        scan.expect(")", 'a property or ")" closing the game')
        _skip(scan)
    if not scan.at_end():
        scan.fail("a property such as TM[1800] or OT[5x30 byo-yomi]")
    return props


def _value(scan):
    """Skips a value up to its unescaped "]"; returns its span."""
    start = scan.pos
    while True:
        char = scan.peek()
        if not char:
            scan.error('the value has no closing "]"', start - 1)
        scan.pos += 1
        if char == "\\":
            scan.pos += 1
        elif char == "]":
            return start, scan.pos - 1


def _real(scan, start, end):
    """TM: seconds as an SGF real (sign, digits, optional fraction), as milliseconds."""
    scan.pos = start
    _skip(scan)
    if scan.peek() == "-":
        scan.error("TM cannot be negative", scan.pos)
    scan.accept("+")
    at = scan.pos
    ms = scan.seconds_ms("the main time (TM) in seconds")
    _end(scan, end, "the end of TM")
    if ms > MAX_MS:
        scan.error("a main time of %s s is more than the clock can hold" % seconds_text(ms), at)
    return ms


def _end(scan, end, expected):
    _skip(scan)
    if scan.pos != end:
        scan.fail(expected)


def _overtime(scan, start, end):
    """OT as (kind, ms, count, position), or None when empty. Kinds: byo-yomi (count: periods),
    canadian (count: stones), fischer (ms: increment) and simple (ms per move)."""
    scan.pos = start
    _skip(scan)
    if scan.pos == end:
        return None
    at = scan.pos
    run = scan.digits()
    if not run:
        scan.fail("an overtime such as 5x30 byo-yomi, 25/600 Canadian or 30 fischer")
    _skip(scan)
    if scan.accept("xX"):
        count = _count(scan, run, at, "periods")
        _skip(scan)
        time_at = scan.pos
        ms = scan.seconds_ms("the period time in seconds")
        _skip(scan)
        if not (_word(scan, "byo-yomi") or _word(scan, "byoyomi") or _word(scan, "byo yomi")):
            scan.fail('"byo-yomi"')
        kind = "byo-yomi"
    elif scan.accept("/"):
        count = _count(scan, run, at, "stones")
        _skip(scan)
        time_at = scan.pos
        ms = scan.seconds_ms("the block time in seconds")
        _skip(scan)
        if not _word(scan, "canadian"):
            scan.fail('"Canadian"')
        kind = "canadian"
    elif _word(scan, "moves"):
        # GoGui and SmartGo: "25 moves / 10 min" (Canadian).
        count = _count(scan, run, at, "stones")
        _skip(scan)
        scan.expect("/", '"/" after the number of moves')
        _skip(scan)
        time_at = scan.pos
        ms = scan.seconds_ms("the block time")
        _skip(scan)
        if _word(scan, "min"):
            ms *= 60
        elif not _word(scan, "sec"):
            scan.fail('"sec" or "min"')
        kind = "canadian"
    else:
        scan.pos = time_at = at
        ms = scan.seconds_ms("a time in seconds")
        _skip(scan)
        if _word(scan, "fischer"):
            kind = "fischer"
        elif _word(scan, "simple"):
            kind = "simple"
        else:
            scan.fail('"x", "/", "moves", "fischer" or "simple"')
        count = 1
    _end(scan, end, "the end of OT")
    if not ms:
        scan.error("the overtime needs more than 0 seconds", time_at)
    return kind, ms, count, at


def _count(scan, run, at, what):
    if len(run) > 6 or not int(run):
        scan.error("the number of %s must be between 1 and 100000" % what, at)
    return int(run)


def _word(scan, word):
    end = scan.pos + len(word)
    if scan.text[scan.pos : end].lower() == word:
        scan.pos = end
        return True
    return False


def _build(scan, main, overtime):
    """The setup for a main time (ms, already checked) and a parsed OT (or None)."""
    if overtime is None:
        if not main:
            problem = "no time control is stated: TM is 0 or missing and OT is empty"
            raise PresetError(NAME, scan.text, None, problem)
        return Setup(Control([Stage(main)]))
    kind, ms, count, at = overtime
    if kind == "fischer" and not main:
        scan.error("Fischer needs a main time (TM) of more than 0 seconds", at)
    try:
        if kind == "fischer":
            stages = [Stage(main, increment_ms=ms, mode=FISCHER_AFTER)]
        else:
            moves, periods = (1, count) if kind == "byo-yomi" else (count, 1)
            stages = [Stage(main, on_expire=NEXT)] if main else []
            stages.append(Stage(ms, moves=moves, periods=periods, on_enter=SET, on_repeat=SET))
        return Setup(Control(stages))
    except ClockError as error:
        scan.error(str(error), at)


def _refuse(problem):
    raise PresetError(NAME, "", None, "SGF cannot say " + problem)


def format(setup):
    """`TM[..]` alone (absolute), or `TM[..]OT[..]` with byo-yomi, Canadian or Fischer."""
    control = one_control(setup, _refuse)
    stages = list(control.stages)
    if not stages:
        _refuse("a game without time control")
    main = 0
    if len(stages) == 2 or (len(stages) == 1 and stages[0].on_enter == ADD):
        stage = stages.pop(0)
        if not _plain(stage, ADD) or stage.moves or not stage.duration_ms:
            _refuse("this main time")
        main = stage.duration_ms
        if not stages:
            if stage.on_expire != FLAG:
                _refuse("a main time that runs on into nothing")
            if not stage.increment_ms:
                return "TM[%s]" % seconds_text(main)
            if stage.mode != FISCHER_AFTER or stage.increment_every != 1:
                _refuse("an increment other than Fischer added after every move")
            return "TM[%s]OT[%s Fischer]" % (
                seconds_text(main),
                seconds_text(stage.increment_ms),
            )
        if stage.on_expire != NEXT or stage.increment_ms:
            _refuse("a main time with an increment or a flag before the overtime")
    if len(stages) != 1:
        _refuse("more than a main time and one overtime")
    stage = stages[0]
    if not _plain(stage, SET) or stage.on_expire != FLAG or stage.increment_ms:
        _refuse("this overtime")
    if not stage.moves or not stage.duration_ms:
        _refuse("an overtime without stones or without time")
    period = seconds_text(stage.duration_ms)
    if stage.moves == 1:
        overtime = "%dx%s byo-yomi" % (stage.periods, period)
    elif stage.periods == 1:
        overtime = "%d/%s Canadian" % (stage.moves, period)
    else:
        _refuse("Canadian overtime with several periods")
    return "TM[%s]OT[%s]" % (seconds_text(main), overtime)


def _plain(stage, enter):
    return (
        stage.on_enter == enter
        and stage.on_repeat == enter
        and (stage.periods == 1 or enter == SET)
    )


def looks_like(text):
    if not isinstance(text, str):
        return False
    if "TM[" in text or "OT[" in text:
        return True
    lowered = text.lower()
    for word in ("byo-yomi", "byoyomi", "canadian", "fischer"):
        if word in lowered and "[" not in text:
            return True
    return False
