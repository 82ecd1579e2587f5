# SPDX-License-Identifier: MIT
# GTP time commands: `time_settings` (GTP 2, Canadian byo-yomi) and KGS's `kgs-time_settings`.
from clock.model import Stage, Control, Setup, ClockError, ADD, SET, NEXT, FLAG, MAX_MS
from notation.errors import PresetError, one_control, refuse_zero_time
from notation.scan import Scanner

NAME = "gtp"
_UNTIMED = "time_settings 0 1 0"


def parse(text):
    """`[id] time_settings MAIN BYO_TIME BYO_STONES` or `[id] kgs-time_settings SYSTEM ...`."""
    scan = Scanner(NAME, text)
    scan.skip_spaces()
    start = scan.pos
    if scan.digits() and scan.peek() in (" ", "\t"):
        scan.skip_spaces()
    else:
        scan.pos = start
    at = scan.pos
    command = _name(scan)
    if command == "time_settings":
        main, byo, stones = _numbers(scan, ("the main time", "the byo-yomi time", "the stones"))
        setup = _time_settings(scan, main, byo, stones)
    elif command == "kgs-time_settings":
        setup = _kgs(scan)
    else:
        scan.fail("the command time_settings or kgs-time_settings", at)
    scan.skip_spaces()
    if scan.peek() == "#":
        scan.pos = len(scan.text)
    while scan.peek() and scan.peek() in "\r\n":
        scan.pos += 1
    scan.end("the end of the command")
    refuse_zero_time(NAME, text, setup)
    return setup


def _name(scan):
    start = scan.pos
    while scan.peek() and scan.peek() not in " \t\r\n#":
        scan.pos += 1
    return scan.text[start : scan.pos]


def _numbers(scan, names):
    """One whole number per name, each after spaces; returns (value, position) pairs."""
    numbers = []
    for name in names:
        if not scan.accept(" \t"):
            scan.fail("a space, then " + name)
        scan.skip_spaces()
        at = scan.pos
        numbers.append((scan.integer(name + " as a whole number"), at))
    return numbers


def _time_settings(scan, main, byo, stones):
    # GTP 2: byo-yomi time > 0 with 0 stones means no time limit; a byo-yomi time of 0 means
    # main time only (absolute), whatever the stones.
    if byo[0] and not stones[0]:
        return Setup(Control([]))
    if not byo[0]:
        return _absolute(scan, main)
    return _overtime(scan, main, byo, stones[0], 1, stones[1])


def _kgs(scan):
    if not scan.accept(" \t"):
        scan.fail("a space, then the time system")
    scan.skip_spaces()
    at = scan.pos
    system = _name(scan)
    if system == "none":
        return Setup(Control([]))
    if system == "absolute":
        return _absolute(scan, _numbers(scan, ("the main time",))[0])
    if system == "byoyomi":
        main, period, periods = _numbers(scan, ("the main time", "the period time", "the periods"))
        return _overtime(scan, main, period, 1, periods[0], periods[1])
    if system == "canadian":
        main, period, stones = _numbers(scan, ("the main time", "the block time", "the stones"))
        return _overtime(scan, main, period, stones[0], 1, stones[1])
    scan.fail("none, absolute, byoyomi or canadian", at)


def _absolute(scan, main):
    try:  # a main time of 0 gives no time at all: parse() refuses it, as every notation does
        return Setup(Control([Stage(main[0] * 1000)]))
    except ClockError as error:
        scan.error(str(error), main[1])


def _overtime(scan, main, period, moves, periods, count_at):
    """An optional main time, then byo-yomi `periods` of `moves` stones each (Canadian: one)."""
    if not period[0]:
        scan.error("the byo-yomi period must last more than 0 seconds", period[1])
    if not moves or not periods:
        scan.error("there must be at least one stone or period", count_at)
    stages = []
    try:
        if main[0]:
            stages.append(Stage(main[0] * 1000, on_expire=NEXT))
    except ClockError as error:
        scan.error(str(error), main[1])
    try:
        ms = period[0] * 1000
        stages.append(Stage(ms, moves=moves, periods=periods, on_enter=SET, on_repeat=SET))
        return Setup(Control(stages))
    except ClockError as error:
        scan.error(str(error), count_at if ms <= MAX_MS else period[1])


def _refuse(problem):
    raise PresetError(NAME, "", None, "GTP cannot say " + problem)


def _seconds(ms):
    if ms % 1000:
        _refuse("a time that is not a whole number of seconds")
    return ms // 1000


def format(setup):
    """`time_settings` when it can say the setup, else `kgs-time_settings byoyomi`."""
    control = one_control(setup, _refuse)
    stages = list(control.stages)
    if not stages:
        return _UNTIMED
    main = 0
    first = stages[0]
    if first.on_enter == ADD:
        stages.pop(0)
        last = FLAG if not stages else NEXT
        if first.on_repeat != ADD or first.on_expire != last or first.periods != 1:
            _refuse("this main time")
        if first.moves or first.increment_ms or not first.duration_ms:
            _refuse("a main time with a move quota, an increment or no time")
        main = _seconds(first.duration_ms)
        if not stages:
            return "time_settings %d 0 0" % main
    if len(stages) != 1:
        _refuse("more than a main time and one byo-yomi")
    stage = stages[0]
    if stage.on_enter != SET or stage.on_repeat != SET or stage.on_expire != FLAG:
        _refuse("this byo-yomi")
    if stage.increment_ms or not stage.moves or not stage.duration_ms:
        _refuse("a byo-yomi with an increment, without stones or without time")
    period = _seconds(stage.duration_ms)
    if stage.periods == 1:
        return "time_settings %d %d %d" % (main, period, stage.moves)
    if stage.moves != 1:
        _refuse("Canadian byo-yomi with several periods")
    return "kgs-time_settings byoyomi %d %d %d" % (main, period, stage.periods)


def looks_like(text):
    if not isinstance(text, str):
        return False
    words = text.split()
    if words and words[0].isdigit():
        words = words[1:]
    return bool(words) and words[0] in ("time_settings", "kgs-time_settings")
