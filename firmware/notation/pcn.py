# SPDX-License-Identifier: MIT
# PCN (Sashité Portable Chess Notation) time control: JSON period lists and game records.
import json

from clock.model import ADD, FISCHER, FISCHER_AFTER, FLAG, MAX_COUNT, MAX_MS, NEXT, SET
from clock.model import ClockError, Control, Setup, Stage
from notation.errors import PresetError

NAME = "pcn"
_PERIOD_KEYS = ("duration_ms", "increment_ms", "plies")
_MS = "a whole number of milliseconds >= 0"


def parse(text):
    """A JSON array of periods, or a PCN document or record (an object; no "periods": untimed)."""
    return setup_from(load(text, NAME, "JSON"), text)


def parse_record(text):
    """A whole PCN game record: (setup, each ply's elapsed_ms or None, {"first": name, ...})."""
    return record_from(load(text, NAME, "JSON"), text)


def load(text, notation, form):
    """The value of a JSON text, or PresetError naming `notation`; ogs uses it too."""
    if not isinstance(text, str):
        raise PresetError(notation, str(text), None, "a preset must be text")
    try:
        return json.loads(text)
    except Exception as error:  # ValueError, and CPython's RecursionError on deep nesting
        # CPython says where; MicroPython does not, so the position stays None on both.
        where = ""
        if hasattr(error, "colno") and hasattr(error, "msg"):
            where = " (%s at line %d, column %d)" % (error.msg, error.lineno, error.colno)
        raise PresetError(notation, text, None, "not valid %s%s" % (form, where))


def setup_from(doc, text):
    """The Setup of a decoded PCN value (list of periods, or document); TOML shares it."""
    if isinstance(doc, list):
        periods = doc
    elif isinstance(doc, dict):
        for key in ("duration_ms", "increment_ms"):
            if key in doc:  # a period written without its list would read as untimed
                _fail(text, "%s belongs in a period, inside periods: [{...}]" % key)
        if "periods" not in doc:
            return Setup(Control([]))
        periods = doc["periods"]
        if not isinstance(periods, list):
            _fail(text, "periods: expected an array of periods, found " + show(periods))
    else:
        _fail(text, "expected an array of periods or a PCN document, found " + show(doc))
    if not periods:
        _fail(text, "periods: expected at least one period")
    if len(periods) > 8:
        _fail(text, "periods: at most 8 periods, found %d" % len(periods))
    last = len(periods) - 1
    stages = [_stage(period, i, i == last, text) for i, period in enumerate(periods)]
    try:
        return Setup(Control(stages))
    except ClockError as error:
        _fail(text, str(error))


def _stage(period, i, last, text):
    where = "periods[%d]" % i
    if not isinstance(period, dict):
        _fail(
            text,
            '%s: expected an object such as {"duration_ms": 60000}, found %s'
            % (where, show(period)),
        )
    for key in sorted(period):
        if key not in _PERIOD_KEYS:
            _fail(
                text,
                '%s: unknown key "%s" (a period has duration_ms, increment_ms, plies)'
                % (where, key),
            )
    if "duration_ms" not in period:
        _fail(text, where + ".duration_ms: missing (every period needs its time)")
    duration = whole(period["duration_ms"], where + ".duration_ms", _MS, 0, MAX_MS, text)
    increment = 0
    if "increment_ms" in period:
        increment = whole(period["increment_ms"], where + ".increment_ms", _MS, 0, MAX_MS, text)
    plies = 0
    if "plies" in period:
        plies = whole(
            period["plies"], where + ".plies", "a whole number of plies >= 1", 1, MAX_COUNT, text
        )
    return _stage_of(duration, increment, plies, last)


def _stage_of(duration, increment, plies, last):
    # docs/time-controls.md "PCN periods": a quota met adds the next period, the last one resets.
    return Stage(
        duration,
        moves=plies,
        increment_ms=increment,
        mode=FISCHER_AFTER,
        on_enter=ADD,
        on_repeat=SET,
        on_expire=FLAG if last else NEXT,
    )


def whole(value, where, expected, low, high, text):
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        _fail(text, "%s: expected %s, found %s" % (where, expected, show(value)))
    if value > high:
        _fail(text, "%s: %d is more than the clock can hold (at most %d)" % (where, value, high))
    return value


def record_from(doc, text):
    if not isinstance(doc, dict):
        _fail(text, "expected a PCN game record (an object), found " + show(doc))
    setup = setup_from(doc, text)
    plies = doc.get("plies", [])
    if not isinstance(plies, list):
        _fail(text, "plies: expected an array of plies, found " + show(plies))
    elapsed = []
    for i, ply in enumerate(plies):
        if not isinstance(ply, dict):
            _fail(text, "plies[%d]: expected an object, found %s" % (i, show(ply)))
        if "elapsed_ms" in ply:
            where = "plies[%d].elapsed_ms" % i
            elapsed.append(whole(ply["elapsed_ms"], where, _MS, 0, MAX_MS, text))
        else:
            elapsed.append(None)
    sides = doc.get("sides", {})
    if not isinstance(sides, dict):
        _fail(text, "sides: expected an object, found " + show(sides))
    names = {}
    for side in ("first", "second"):
        player = sides.get(side, {})
        if not isinstance(player, dict):
            _fail(text, "sides.%s: expected an object, found %s" % (side, show(player)))
        name = player.get("name")
        if name is not None and not isinstance(name, str):
            _fail(text, "sides.%s.name: expected text, found %s" % (side, show(name)))
        names[side] = name
    return setup, elapsed, names


def periods_of(setup, notation=NAME):
    """(duration_ms, increment_ms, plies) per period of a Setup PCN can say; [] when untimed."""

    def refuse(what):
        raise PresetError(notation, "", None, "PCN cannot say " + what)

    if not isinstance(setup, Setup):
        refuse("something that is not a Setup")
    if setup.first != setup.second:
        refuse("different controls for the two players (its periods are match-wide)")
    options = (
        ("hourglass", setup.hourglass),
        ("word (penalty time)", setup.word),
        ("a start clock", setup.start_ms),
        ("a game time limit", setup.limit_ms or setup.limit_turns),
    )
    for what, used in options:
        if used:
            refuse(what)
    control = setup.first
    if control.max_ms:
        refuse("a maximum time")
    if control.move_limit_ms or control.move_ms is not None:
        refuse("Arimaa move times or limits")
    periods = []
    last = len(control.stages) - 1
    for i, stage in enumerate(control.stages):
        duration, increment, plies = stage.duration_ms, stage.increment_ms, stage.moves
        if not stage == _stage_of(duration, increment, plies, i == last):
            refuse(
                "stage %d, %r: only Fischer-after banks, quotas and per-ply caps" % (i + 1, stage)
            )
        periods.append((duration, increment, plies))
    return periods


def after_the_move(setup):
    """The setup with each Fischer increment given after the move, as PCN, PGN and SGF say
    it: after every ply both leave the same time (a game record's, docs/records.md). A stage
    without a quota never repeats, so how it would (PCN's SET) is made ADD, which is what the
    formatters look for."""

    def control(old):
        stages = []
        for stage in old.stages:
            mode = stage.mode
            if mode == FISCHER and stage.increment_ms and stage.increment_every == 1:
                mode = FISCHER_AFTER
            stages.append(
                Stage(
                    stage.duration_ms,
                    stage.moves,
                    stage.increment_ms,
                    mode,
                    stage.increment_every,
                    stage.periods,
                    stage.on_enter,
                    stage.on_repeat if stage.moves else ADD,
                    stage.on_expire,
                )
            )
        return Control(
            stages,
            old.max_ms,
            old.move_limit_ms,
            old.move_ms,
            old.reserve_percent,
            old.reserve_limit_ms,
        )

    return Setup(
        control(setup.first),
        control(setup.second),
        setup.hourglass,
        setup.word,
        setup.start_ms,
        setup.limit_ms,
        setup.limit_turns,
    )


def format(setup):
    """Compact JSON: an array of periods, or {} for no time control (PCN omits the periods)."""
    periods = periods_of(setup)
    if not periods:
        return "{}"
    items = []
    for duration, increment, plies in periods:
        item = '{"duration_ms":%d' % duration
        if increment:
            item += ',"increment_ms":%d' % increment
        if plies:
            item += ',"plies":%d' % plies
        items.append(item + "}")
    return "[" + ",".join(items) + "]"


def looks_like(text):
    if not isinstance(text, str):
        return False
    body = text.strip()
    if body == "{}":
        return True
    if not body or body[0] not in "[{":
        return False
    if '"duration_ms"' in body:
        return True
    return body[0] == "{" and '"time_control"' not in body and '"plies"' in body


def show(value):
    """A short rendering of a decoded value for a message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"%s"' % (value if len(value) <= 20 else value[:17] + "...")
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    shown = str(value)
    return shown if len(shown) <= 20 else shown[:17] + "..."


def _fail(text, problem):
    raise PresetError(NAME, text, None, problem)
