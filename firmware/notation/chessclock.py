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
from notation.scan import DIGITS, Scanner, seconds_text
from notation.units import MINUTE, SECOND, format_time, read_time

NAME = "chessclock"
OPTIONS = MODE_NAMES + ("hourglass", "word")
_MAX_PHASES = 3
_MOST_MOVES = 60  # no event has a longer first quota: "90/40" is 90 min for 40 moves
MOST_MINUTES = 180  # no event gives more at the start (notation.plausible asks about "300+2")
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
    if scanner.accept_word("armageddon "):
        return _armageddon(scanner, mode, hourglass, word)
    spoken = _leading_mode(scanner)
    if spoken:
        phases = [_spoken_phase(scanner)]
    else:
        phases = [_phase(scanner)]
    while not spoken:
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
    words, every = _words(scanner, phases, spoken)
    if every is not None:
        for phase in phases:
            phase[2] = every[1]
        words.append(every[0])
    elif len(phases) > 1 and phases[-1][5] and all(p[2] is None for p in phases[:-1]):
        # "40/90, G/30 +30" as FIDE writes it: the increment is from move 1.
        for phase in phases:
            phase[2] = phases[-1][2]
    if spoken:
        words.append(spoken)
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


def _leading_mode(scanner):
    """The mode of "fischer 10 5" or "bronstein 3 2" (a mode word, the minutes, the seconds),
    or "" for every other form."""
    for name in MODE_NAMES:
        end = scanner.pos + len(name)
        if scanner.text[scanner.pos : end].lower() == name and scanner.text[end : end + 1] == " ":
            scanner.pos = end
            scanner.skip_spaces()
            return name
    return ""


def _spoken_phase(scanner):
    start = scanner.pos
    duration = read_time(scanner, MINUTE, "the minutes, as in fischer 10 5", spoken=True)
    increment = None
    before = scanner.pos
    scanner.skip_spaces()
    if scanner.peek() and scanner.peek() in DIGITS:
        increment = _increment(scanner)
    else:
        scanner.pos = before
    return [0, duration, increment, start, False, False]


def _armageddon(scanner, mode, hourglass, word):
    """ "armageddon 5/4": the first player (White) 5 minutes, the second 4; with "+2" (FIDE's
    tie-break form) each move of both gets 2 s, Fischer unless a mode word says otherwise. The
    second wins a draw, which is for the arbiter: the clock needs only the times."""
    scanner.skip_spaces()
    start = scanner.pos
    first = read_time(scanner, MINUTE, "the first player's minutes, as in armageddon 5/4")
    scanner.expect("/", '"/" and the second player\'s minutes, as in armageddon 5/4')
    second = read_time(scanner, MINUTE, "the second player's minutes, as in armageddon 5/4")
    increment = _plus_increment(scanner) or 0
    words, every = _words(scanner, ())
    modes = [w for w in words if w in MODE_NAMES]
    if every is not None or ((mode is not None or modes) and not increment):
        scanner.error(
            "an armageddon game's increment is written +2, as in armageddon 5/4 +2", start
        )
    if mode is None:
        mode = modes[0] if modes else "fischer"
    controls = []
    for ms in (first, second):
        stage = _stage(scanner, ms, 0, increment, MODE_NAMES.index(mode), start)
        controls.append(Control([stage]))
    return Setup(
        controls[0],
        controls[1],
        hourglass=hourglass or "hourglass" in words,
        word=word or "word" in words,
    )


def _phase(scanner):
    """[moves, duration, increment or None, start, ends_on_time, increment after "+"] of one
    phase."""
    start = scanner.pos
    if scanner.accept("G") or scanner.accept_word("SD"):
        moves = 0
    else:
        run = scanner.digits()
        scanner.pos = start
        if not run or scanner.text[start + len(run) : start + len(run) + 1] != "/":
            duration, increment = _time_plus_increment(scanner, _PHASE)
            return [0, duration, increment, start, True, increment is not None]
        moves = scanner.integer("a number of moves")
        if moves == 0:
            scanner.error("a phase needs at least 1 move (G: the rest of the game)", start)
    scanner.expect("/", '"/" after the number of moves' if moves else '"/" after G')
    at = scanner.pos
    duration = read_time(
        scanner, MINUTE, "a time (minutes, or with units as in 1h30m)", spoken=True
    )
    if _MOST_MOVES < moves <= MOST_MINUTES and scanner.text[at : scanner.pos].isdigit():
        minutes = duration // MINUTE
        if 0 < minutes <= _MOST_MOVES:
            # "90/40": no event has a quota of 90 moves; its author means 90 min for 40 moves.
            moves, duration = minutes, moves * MINUTE
    if moves > MAX_COUNT:
        scanner.error("at most %d moves in a phase" % MAX_COUNT, start)
    if scanner.accept("/"):
        increment = read_time(scanner, SECOND, _INCREMENT, "ms", spoken=True)
        return [moves, duration, increment, start, False, False]
    increment = _plus_increment(scanner)
    return [moves, duration, increment, start, False, increment is not None]


def _time_plus_increment(scanner, expected):
    """`T`, `T+I`, `T|I` or `T + I s/move`: minutes (or units) and an increment in seconds."""
    duration = read_time(scanner, MINUTE, expected, spoken=True)
    return duration, _plus_increment(scanner)


def _plus_increment(scanner):
    """The increment of ` + I`, `|I`, `+I/move` or `+ I per move` if one comes next, else
    None."""
    before = scanner.pos
    scanner.skip_spaces()
    if not scanner.accept("+|"):
        scanner.pos = before
        return None
    scanner.skip_spaces()
    increment = _increment(scanner)
    before = scanner.pos
    scanner.skip_spaces()
    if scanner.accept("/"):
        scanner.skip_spaces()
        if not scanner.accept_word("move") or scanner.peek().isalpha():
            scanner.pos = before
    elif not scanner.accept_word("per move") or scanner.peek().isalpha():
        scanner.pos = before
    return increment


def _increment(scanner):
    """Seconds (`30`, `0.5`, `30"`) or a time with units (`1m30s`, `30 sec`)."""
    start = scanner.pos
    scanner.digits()
    decimal = scanner.peek() == "."
    scanner.pos = start
    if not decimal:
        return read_time(scanner, SECOND, _INCREMENT, "ms", spoken=True)
    increment = scanner.seconds_ms(_INCREMENT)
    before = scanner.pos
    scanner.skip_spaces()
    for unit in ('"', "seconds", "second", "secs", "sec", "s"):
        if scanner.accept_word(unit) and not scanner.peek().isalpha():
            return increment
        scanner.pos = before
        scanner.skip_spaces()
    scanner.pos = before
    return increment


def _words(scanner, phases, spoken=""):
    """(the option words after the phases, each once, at most one of them a mode, none when
    the text began with one (`spoken`); the increment or delay a US control gives every phase,
    as (mode, ms), or None): "G/45 d5", "G/30;d5", "G/60;inc30"."""
    words = []
    every = None
    mode_given = bool(spoken)
    if phases:
        before = scanner.pos
        scanner.skip_spaces()
        if not scanner.accept(";"):
            scanner.pos = before
    while True:
        before = scanner.pos
        scanner.skip_spaces()
        if scanner.at_end():
            return words, every
        after_number = before > 0 and scanner.text[before - 1] in DIGITS
        if scanner.pos == before and scanner.text[before - 1] != ";":
            unit = "a unit (h, min, s), " if after_number else ""
            scanner.fail(unit + '",", a space and an option word, or the end')
        start = scanner.pos
        if phases and _every_phase(scanner):
            if every is not None or mode_given:
                scanner.error("only one increment, delay or mode may be given", start)
            for phase in phases:
                if phase[2] is not None:
                    scanner.error(
                        "an increment is given for a phase already, at character %d"
                        % (phase[3] + 1),
                        start,
                    )
            delay = scanner.text[start] in "dD"
            every = ("delay" if delay else "fischer", _every_ms(scanner, delay))
            mode_given = True
            continue
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


def _every_phase(scanner):
    """True, after the letters, at a US delay `d5` or increment `inc30`."""
    start = scanner.pos
    for letters in ("inc", "d"):
        if scanner.accept_word(letters):
            scanner.skip_spaces()
            if scanner.peek() and scanner.peek() in DIGITS:
                return True
        scanner.pos = start
    return False


def _every_ms(scanner, delay):
    start = scanner.pos
    ms = _increment(scanner)
    if not ms:
        scanner.error("a delay or increment of 0 says nothing; leave it out", start)
    if scanner.peek() not in ("", " ", "\t"):
        scanner.fail("a space, an option word or the end")
    return ms


def _setup(scanner, phases, mode, hourglass, word):
    stages = []
    for moves, duration, increment, start, _ends_on_time, _plus in phases:
        stages.append(_stage(scanner, duration, moves, increment or 0, mode, start))
    return Setup(Control(stages), hourglass=hourglass, word=word)


def _stage(scanner, duration, moves, increment, mode, start):
    try:
        return Stage(
            duration,
            moves=moves,
            increment_ms=increment,
            mode=mode,
            on_enter=ADD,
            on_repeat=ADD,
            on_expire=FLAG,
        )
    except ClockError as error:
        scanner.error(str(error), start)


def _cannot(what):
    raise PresetError(NAME, "", None, "chessclock cannot say " + what)


def format(setup):
    """The canonical text for `setup`: phases joined by ", ", then the option words."""
    if isinstance(setup, Setup) and setup.first != setup.second:
        return _format_armageddon(setup)
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
    # A "+" increment on the last phase alone would be read as from move 1: "/0" says none.
    fine = stages[-1].increment_ms % SECOND
    for stage in stages:
        phases.append(_format_stage(stage, plus_form, fine and len(stages) > 1))
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


def _format_stage(stage, plus_form, zero_said):
    if stage.periods > 1:
        _cannot("byo-yomi periods")
    if stage.on_enter != ADD or stage.on_repeat != ADD:
        _cannot("a phase that replaces the time left")
    if stage.on_expire != FLAG:
        _cannot("a time-out that does not flag")
    if stage.increment_ms and stage.increment_every > 1:
        _cannot("an increment every several moves")
    duration = format_time(stage.duration_ms, MINUTE)
    if duration is None:
        _cannot("times finer than a second")
    increment = seconds_text(stage.increment_ms)
    if plus_form and not stage.moves:
        return "%s+%s" % (duration, increment)
    if _MOST_MOVES < stage.moves <= MOST_MINUTES and duration.isdigit():
        duration += "m"  # "90/40" would read as 90 min for 40 moves
    text = "%s/%s" % (stage.moves or "G", duration)
    if stage.increment_ms % SECOND:
        text += "+" + increment  # "+0.5": the M/T/I form takes whole seconds
    elif stage.increment_ms or zero_said:
        text += "/" + increment
    return text


_NOT_ARMAGEDDON = "different controls for the two players, but for armageddon 5/4 +2"


def _format_armageddon(setup):
    times = []
    increments = []
    for control in (setup.first, setup.second):
        stages = control.stages
        if len(stages) != 1 or stages[0].moves:
            _cannot(_NOT_ARMAGEDDON)
        stage = stages[0]
        times.append(format_time(stage.duration_ms, MINUTE))
        increments.append((stage.increment_ms, stage.mode if stage.increment_ms else FISCHER))
    if increments[0] != increments[1]:
        _cannot(_NOT_ARMAGEDDON)
    words = ["armageddon %s/%s" % (times[0], times[1])]
    increment, mode = increments[0]
    if increment:
        words.append("+" + seconds_text(increment))
        if mode != FISCHER:
            words.append(MODE_NAMES[mode])
    if setup.hourglass:
        words.append("hourglass")
    if setup.word:
        words.append("word")
    text = " ".join(words)
    if None in times or parse(text) != setup:
        _cannot("this control")
    return text


def looks_like(text):
    try:
        parse(text)
    except PresetError:
        return False
    return True
