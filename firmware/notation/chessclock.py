# SPDX-License-Identifier: MIT
# The chess-clock app notation: up to three phases M/T/I ("40/90/30, G/30/30") and option words,
# or as players say them: minutes + seconds a move ("5+3", "40/90+30, 30+30", "15 min + 10 s").
from clock.model import (
    ADD,
    FISCHER,
    FLAG,
    MAX_COUNT,
    MODE_NAMES,
    ClockError,
    Control,
    Setup,
    Stage,
)
from notation.errors import PresetError, one_control, quote
from notation.scan import DIGITS, Scanner
from notation.units import MINUTE, SECOND, format_time, read_time

NAME = "chessclock"
OPTIONS = MODE_NAMES + ("hourglass", "word")
_MAX_PHASES = 3
_PHASE = "a time (minutes, as in 5+3), a number of moves or G"
_INCREMENT = "an increment (seconds, or 1m, 1m30s)"


def parse(text, mode=None, hourglass=False, word=False):
    """`M1/T1/I1, M2/T2/I2, M3/T3/I3 [option words]`, a phase also `[M/]T+I` or `T`; `mode` (a
    MODE_NAMES word) wins over a mode word in the text, hourglass and word are on if given
    either way. A phase without a move count ends with the game, or as `T+I` or `T` before
    another phase, when its time runs out (a flag, then play goes on in the next phase)."""
    scanner = Scanner(NAME, text)
    if mode is not None and mode not in MODE_NAMES:
        raise PresetError(
            NAME, text, None, "unknown mode %s, expected one of %s" % (mode, ", ".join(MODE_NAMES))
        )
    scanner.skip_spaces()
    phases = [_phase(scanner)]
    while True:
        before = scanner.pos
        scanner.skip_spaces()
        comma = scanner.pos
        if not scanner.accept(","):
            scanner.pos = before
            break
        if phases[-1][0] == 0 and not phases[-1][4]:
            scanner.error("nothing may follow a G phase (the rest of the game)", comma)
        if len(phases) == _MAX_PHASES:
            scanner.error("at most %d phases" % _MAX_PHASES, comma)
        scanner.skip_spaces()
        phases.append(_phase(scanner))
    words = _words(scanner)
    if mode is None:
        mode = "fischer"
        for name in MODE_NAMES:
            if name in words:
                mode = name
    return _setup(
        scanner,
        phases,
        MODE_NAMES.index(mode),
        hourglass or "hourglass" in words,
        word or "word" in words,
    )


def _phase(scanner):
    """(moves, duration, increment, start, ends_on_time) of one phase."""
    start = scanner.pos
    if scanner.accept("G"):
        moves = 0
    else:
        run = scanner.digits()
        scanner.pos = start
        if not run or scanner.text[start + len(run) : start + len(run) + 1] != "/":
            duration, increment = _time_plus_increment(scanner, _PHASE)
            return 0, duration, increment, start, True
        moves = scanner.integer("a number of moves")
        if moves == 0:
            scanner.error("a phase needs at least 1 move (G: the rest of the game)", start)
        if moves > MAX_COUNT:
            scanner.error("at most %d moves in a phase" % MAX_COUNT, start)
    scanner.expect("/", '"/" after the number of moves' if moves else '"/" after G')
    duration = read_time(
        scanner, MINUTE, "a time (minutes, or with units as in 1h30m)", spoken=True
    )
    if scanner.accept("/"):
        increment = read_time(scanner, SECOND, _INCREMENT, "ms", spoken=True)
    else:
        increment = _plus_increment(scanner)
    return moves, duration, increment, start, False


def _time_plus_increment(scanner, expected):
    """`T`, `T+I` or `T + I s/move`: minutes (or units) and an increment in seconds."""
    duration = read_time(scanner, MINUTE, expected, spoken=True)
    return duration, _plus_increment(scanner)


def _plus_increment(scanner):
    """The increment of ` + I`, `+I/move` or `+ I per move` if one comes next, else 0."""
    before = scanner.pos
    scanner.skip_spaces()
    if not scanner.accept("+"):
        scanner.pos = before
        return 0
    scanner.skip_spaces()
    increment = read_time(scanner, SECOND, _INCREMENT, "ms", spoken=True)
    if not scanner.accept_word("/move"):
        before = scanner.pos
        scanner.skip_spaces()
        if not scanner.accept_word("per move") or scanner.peek().isalpha():
            scanner.pos = before
    return increment


def _words(scanner):
    """The option words after the phases, each once, at most one of them a mode."""
    words = []
    mode_given = False
    while True:
        before = scanner.pos
        scanner.skip_spaces()
        if scanner.at_end():
            return words
        after_number = before > 0 and scanner.text[before - 1] in DIGITS
        if scanner.pos == before:
            unit = "a unit (h, min, s), " if after_number else ""
            scanner.fail(unit + '",", a space and an option word, or the end')
        start = scanner.pos
        while scanner.peek() not in ("", " ", "\t"):
            scanner.pos += 1
        found = scanner.text[start : scanner.pos]
        if found not in OPTIONS:
            unit = ""
            if after_number and found[0].isalpha():
                unit = " (or a unit after the number: h, min, s)"
            scanner.error(
                "unknown option %s, expected one of %s%s"
                % (quote(found), ", ".join(OPTIONS), unit),
                start,
            )
        if found in words:
            scanner.error("the option %s is given twice" % found, start)
        if found in MODE_NAMES:
            if mode_given:
                scanner.error("only one mode may be given", start)
            mode_given = True
        words.append(found)


def _setup(scanner, phases, mode, hourglass, word):
    stages = []
    for moves, duration, increment, start, _ends_on_time in phases:
        try:
            stages.append(
                Stage(
                    duration,
                    moves=moves,
                    increment_ms=increment,
                    mode=mode,
                    on_enter=ADD,
                    on_repeat=ADD,
                    on_expire=FLAG,
                )
            )
        except ClockError as error:
            scanner.error(str(error), start)
    return Setup(Control(stages), hourglass=hourglass, word=word)


def _cannot(what):
    raise PresetError(NAME, "", None, "chessclock cannot say " + what)


def format(setup):
    """The canonical text for `setup`: phases joined by ", ", then the option words."""
    control = one_control(setup, _cannot, options=True)
    stages = control.stages
    if not stages:
        _cannot("an untimed game")
    if len(stages) > _MAX_PHASES:
        _cannot("more than %d phases" % _MAX_PHASES)
    modes = []
    phases = []
    # A phase that ends when its time runs out reads T+I; the game's last phase then too.
    plus_form = False
    for stage in stages[:-1]:
        plus_form = plus_form or stage.moves == 0
    for stage in stages:
        phases.append(_format_stage(stage, plus_form))
        if stage.increment_ms and stage.mode not in modes:
            modes.append(stage.mode)
    if len(modes) > 1:
        _cannot("different increment modes in different phases")
    words = [", ".join(phases)]
    if modes and modes[0] != FISCHER:
        words.append(MODE_NAMES[modes[0]])
    if setup.hourglass:
        words.append("hourglass")
    if setup.word:
        words.append("word")
    text = " ".join(words)
    if parse(text) != setup:
        _cannot("this control")
    return text


def _format_stage(stage, plus_form):
    if stage.periods > 1:
        _cannot("byo-yomi periods")
    if stage.on_enter != ADD or stage.on_repeat != ADD:
        _cannot("a phase that replaces the time left")
    if stage.on_expire != FLAG:
        _cannot("a time-out that does not flag")
    if stage.increment_ms and stage.increment_every > 1:
        _cannot("an increment every several moves")
    duration = format_time(stage.duration_ms, MINUTE)
    if duration is None or stage.increment_ms % SECOND:
        _cannot("times finer than a second")
    if plus_form and not stage.moves:
        return "%s+%d" % (duration, stage.increment_ms // SECOND)
    text = "%s/%s" % (stage.moves or "G", duration)
    if stage.increment_ms:
        text += "/%d" % (stage.increment_ms // SECOND)
    return text


def looks_like(text):
    try:
        parse(text)
    except PresetError:
        return False
    return True
