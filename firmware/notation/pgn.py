# SPDX-License-Identifier: MIT
# PGN TimeControl tag values (PGN standard 9.6.1) with the common `=`, `S`, `B` and `+Nd` extensions.
from clock.model import (
    Stage,
    Control,
    Setup,
    ClockError,
    FISCHER,
    FISCHER_AFTER,
    BRONSTEIN,
    DELAY,
    ADD,
    FLAG,
)
from notation.errors import PresetError, refuse_zero_time
from notation.scan import DIGITS, Scanner, seconds_text

NAME = "pgn"
_TAG = "TimeControl"
_MARKS = {FISCHER_AFTER: "+", DELAY: "S", BRONSTEIN: "B"}
# `0+N` (increment only, as lichess writes it) starts each side with N, at least this.
_LEAST_START_MS = 3000
# Unprefixed, only texts with a sign of PGN are PGN: "5+3" and "40/90" are a player's minutes.
_SIGNS = ":*=SBd"


def parse(text):
    """A TimeControl value (`40/7200:3600`, `300+2=180+2`, `*180`, `-`) or the whole tag; a
    delay also as `300+5d` (the same as `300S5`)."""
    scan = Scanner(NAME, text)
    scan.skip_spaces()
    wrapped = scan.accept("[")
    if wrapped:
        scan.skip_spaces()
        if scan.text[scan.pos : scan.pos + len(_TAG)] != _TAG:
            scan.fail('the tag name "TimeControl"')
        scan.pos += len(_TAG)
        scan.skip_spaces()
        scan.expect('"', "a quote opening the tag value")
    first, sand = _side(scan)
    second, second_sand = first, sand
    equals = scan.pos
    if scan.accept("="):
        second, second_sand = _side(scan)
        if sand != second_sand:
            scan.error('a sandclock ("*") needs a sandclock for the other player too', equals)
    if wrapped:
        scan.expect('"', '":", "=" or the quote closing the tag value')
        scan.skip_spaces()
        scan.expect("]", '"]" closing the tag')
    scan.end('":", "=" or the end of the time control')
    setup = Setup(first, second, hourglass=sand)
    refuse_zero_time(NAME, text, setup)
    return setup


def _side(scan):
    """One player's control; returns (control, is_sandclock)."""
    start = scan.pos
    if not scan.peek() or scan.peek() in '="':
        scan.fail("a time control such as 40/7200:3600, 300+2 or -")
    if scan.accept("?"):
        scan.error('the time control is unknown ("?"), so the clock cannot run it', start)
    if scan.accept("-"):
        return Control([]), False
    if scan.accept("*"):
        # The sand of both chambers: each player starts with half of it.
        ms = scan.seconds_ms("the sandclock time in seconds")
        if ms % 2:
            scan.error("a sandclock's time must halve into whole milliseconds", start + 1)
        if scan.peek() == ":":
            scan.error('a sandclock ("*") must be the only period', scan.pos)
        return _control(scan, [_stage(scan, start, ms // 2)], start), True
    stages = []
    mode = None
    while True:
        field = scan.pos
        stage = _field(scan, not stages)
        if stage.increment_ms:
            if mode is not None and stage.mode != mode:
                scan.error("every period must use the same kind of increment", field)
            mode = stage.mode
        stages.append(stage)
        if scan.peek() != ":":
            break
        if not stage.moves:
            scan.error("a period for the rest of the game (no move count) must be the last", field)
        scan.pos += 1
    if not stages[0].duration_ms:
        for stage in stages:
            if stage.duration_ms or stage.increment_ms:
                scan.error("the first period must give more than 0 seconds", start)
    return _control(scan, stages, start), False


def _field(scan, first):
    start = scan.pos
    moves = 0
    run = scan.digits()
    if scan.peek() == "/":
        if not run:
            scan.fail("a number of moves")
        if int(run) == 0:
            scan.error("the move count must be at least 1", start)
        moves = int(run)
        scan.pos += 1
    else:
        scan.pos = start
    at = scan.pos
    ms = scan.seconds_ms("a number of seconds")
    increment, mode = 0, FISCHER_AFTER
    if scan.accept("+"):
        increment = scan.seconds_ms("the increment in seconds")
        if scan.accept("d"):  # "300+5d", as lichess-like text writes a delay
            mode = DELAY
    delay = scan.accept("SB")
    if delay:
        if increment:
            scan.error("a period cannot have both an increment and a delay", scan.pos - 1)
        increment = scan.seconds_ms("the delay in seconds")
        mode = DELAY if delay == "S" else BRONSTEIN
    if first and ms == 0 and increment:
        if delay:
            scan.error("the first period must give more than 0 seconds", at)
        ms = max(increment, _LEAST_START_MS)
    return _stage(scan, start, ms, moves=moves, increment_ms=increment, mode=mode)


def _stage(scan, position, ms, **fields):
    try:
        return Stage(ms, **fields)
    except ClockError as error:
        scan.error(str(error), position)


def _control(scan, stages, position):
    try:
        return Control(stages)
    except ClockError as error:
        scan.error(str(error), position)


def _refuse(problem):
    raise PresetError(NAME, "", None, "PGN cannot say " + problem)


def format(setup):
    """The canonical TimeControl value, with `=` when the players' controls differ."""
    if setup.word or setup.start_ms or setup.limit_ms or setup.limit_turns:
        _refuse("Word, a start clock or a game limit")
    if setup.hourglass:
        first, second = _sandclock(setup.first), _sandclock(setup.second)
    else:
        first, second = _control_text(setup.first), _control_text(setup.second)
    return first if setup.first == setup.second else first + "=" + second


def _sandclock(control):
    _check_limits(control)
    stages = control.stages
    if len(stages) != 1 or not _plain(stages[0]) or stages[0].moves or stages[0].increment_ms:
        _refuse("a sandclock other than one period for the whole game")
    if not stages[0].duration_ms:
        _refuse("a sandclock of 0 seconds")
    return "*" + seconds_text(2 * stages[0].duration_ms)


def _check_limits(control):
    if control.max_ms or control.move_limit_ms or control.move_ms is not None:
        _refuse("a maximum time, a move time limit or an Arimaa move time")


def _plain(stage):
    return (
        stage.periods == 1
        and stage.on_enter == ADD
        and stage.on_repeat == ADD
        and stage.on_expire == FLAG
    )


def _control_text(control):
    _check_limits(control)
    if control.untimed():
        return "-"
    fields = []
    mode = None
    last = len(control.stages) - 1
    for index, stage in enumerate(control.stages):
        if not _plain(stage):
            _refuse("byo-yomi periods, a period that replaces the time left or a soft time-out")
        if index == 0 and not stage.duration_ms:
            _refuse("a first period of 0 seconds")
        if not stage.moves and index != last:
            _refuse("a period for the rest of the game followed by another")
        field = ("%d/" % stage.moves if stage.moves else "") + seconds_text(stage.duration_ms)
        if stage.increment_ms:
            if stage.mode == FISCHER or stage.increment_every != 1:
                _refuse("an increment added before the move or every several moves")
            if mode is not None and stage.mode != mode:
                _refuse("periods with different kinds of increment")
            mode = stage.mode
            field += _MARKS[stage.mode] + seconds_text(stage.increment_ms)
        fields.append(field)
    return ":".join(fields)


def looks_like(text):
    if not isinstance(text, str):
        return False
    text = text.strip()
    if text.startswith("[" + _TAG) or text in ("?", "-"):
        return True
    if not text or text[0] not in DIGITS + "*-":
        return False
    signed = False
    for char in text:
        if char not in DIGITS + "/+:*=SBd.-":
            return False
        signed = signed or char in _SIGNS
    return signed
