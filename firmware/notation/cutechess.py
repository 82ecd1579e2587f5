# SPDX-License-Identifier: MIT
# cutechess-cli time controls: `tc=[moves/][hg]time[+increment]`, `tc=inf` and `st=seconds`.
from clock.model import Stage, Control, Setup, ClockError, FISCHER, ADD, SET, FLAG
from notation.errors import ZERO_TIME, PresetError
from notation.scan import DIGITS, Scanner, seconds_text

NAME = "cutechess"

# Since cutechess 1.2 (PR #579) the clock starts at time + increment and gains the increment
# after every move: the increment is usable during each move, the first included.
_MODE = FISCHER


def parse(text):
    """`tc=40/60+0.5`, `tc=40/1:30+1`, `tc=hg300`, `tc=inf` or `st=5` (the `tc=` is optional)."""
    scan = Scanner(NAME, text)
    scan.skip_spaces()
    if _word(scan, "st="):
        at = scan.pos
        ms = scan.seconds_ms("the time per move in seconds")
        scan.end()
        if not ms:
            raise PresetError(NAME, text, None, ZERO_TIME)
        return Setup(_control(scan, at, ms, moves=1, on_enter=SET, on_repeat=SET))
    _word(scan, "tc=")
    if _word(scan, "inf"):
        scan.end()
        return Setup(Control([]))
    start = scan.pos
    moves = 0
    run = scan.digits()
    if run and scan.peek() == "/":
        moves = int(run)
        scan.pos += 1
    else:
        scan.pos = start
    hourglass = _word(scan, "hg")
    at = scan.pos
    ms = _time(scan)
    increment = 0
    if scan.accept("+"):
        increment = scan.seconds_ms("the increment in seconds")
    scan.end('"+" and an increment, or the end of the time control')
    if not ms and not increment:
        raise PresetError(NAME, text, None, ZERO_TIME)
    if not ms:
        scan.error("the time per control must be more than 0 seconds", at)
    if hourglass and (moves or increment):
        scan.error("an hourglass (hg) takes no move count and no increment", start)
    control = _control(scan, start, ms, moves=moves, increment_ms=increment, mode=_MODE)
    return Setup(control, hourglass=hourglass)


def _word(scan, word):
    if scan.text[scan.pos : scan.pos + len(word)] == word:
        scan.pos += len(word)
        return True
    return False


def _time(scan):
    """Seconds, or minutes:seconds."""
    start = scan.pos
    run = scan.digits()
    if run and scan.peek() == ":":
        if len(run) > 9:
            scan.error("the number %s is too large" % run, start)
        scan.pos += 1
        return int(run) * 60000 + scan.seconds_ms("seconds after the colon")
    scan.pos = start
    return scan.seconds_ms("a time in seconds or minutes:seconds")


def _control(scan, position, ms, **fields):
    try:
        return Control([Stage(ms, **fields)])
    except ClockError as error:
        scan.error(str(error), position)


def _refuse(problem):
    raise PresetError(NAME, "", None, "cutechess-cli cannot say " + problem)


def format(setup):
    """The canonical option: `tc=40/60+0.5`, `tc=hg300`, `st=5` or `tc=inf`."""
    if setup.word or setup.start_ms or setup.limit_ms or setup.limit_turns:
        _refuse("Word, a start clock or a game limit")
    if setup.first != setup.second:
        _refuse("different controls for the two players in one option")
    control = setup.first
    if control.max_ms or control.move_limit_ms or control.move_ms is not None:
        _refuse("a maximum time, a move time limit or an Arimaa move time")
    if control.untimed():
        if setup.hourglass:
            _refuse("an untimed hourglass")
        return "tc=inf"
    if len(control.stages) != 1:
        _refuse("more than one stage")
    stage = control.stages[0]
    if stage.periods != 1 or stage.on_expire != FLAG or not stage.duration_ms:
        _refuse("byo-yomi periods, a soft time-out or a time of 0 seconds")
    time = seconds_text(stage.duration_ms)
    if stage.on_enter == SET and stage.on_repeat == SET:
        if stage.moves != 1 or stage.increment_ms or setup.hourglass:
            _refuse("a time that is set again other than a fixed time per move")
        return "st=" + time
    if stage.on_enter != ADD or stage.on_repeat != ADD:
        _refuse("a stage that replaces the time left")
    if setup.hourglass:
        if stage.moves or stage.increment_ms:
            _refuse("an hourglass with a move count or an increment")
        return "tc=hg" + time
    text = "tc=" + ("%d/" % stage.moves if stage.moves else "") + time
    if stage.increment_ms:
        if stage.mode != _MODE or stage.increment_every != 1:
            _refuse("an increment other than one added before every move")
        text += "+" + seconds_text(stage.increment_ms)
    return text


def looks_like(text):
    if not isinstance(text, str):
        return False
    text = text.strip()
    return text.startswith("tc=") or text.startswith("st=") or text == "inf"
