# SPDX-License-Identifier: MIT
# OGS (online-go.com) time_control objects: its six systems, with times in seconds.
from clock.model import FISCHER_AFTER, FLAG, MAX_COUNT, MAX_MS, NEXT, SET
from clock.model import ClockError, Control, Setup, Stage
from notation.errors import PresetError, refuse_zero_time
from notation.pcn import load, show

NAME = "ogs"

SYSTEMS = ("fischer", "byoyomi", "simple", "canadian", "absolute", "none")
# Each system's fields, in the seed's order; the counts are plain numbers, the rest seconds.
FIELDS = {
    "fischer": ("initial_time", "time_increment", "max_time"),
    "byoyomi": ("main_time", "period_time", "periods"),
    "simple": ("per_move",),
    "canadian": ("main_time", "period_time", "stones_per_period"),
    "absolute": ("total_time",),
    "none": (),
}
_COUNTS = ("periods", "stones_per_period")
# A zero total_time or per_move gives no time at all: parse() refuses that as every notation
# does, with the same message.
_MAY_BE_ZERO = ("main_time", "time_increment", "total_time", "per_move")
# Keys OGS sends alongside that say nothing the clock runs on (challenge limits, speed class,
# the correspondence weekend pause).
_IGNORED = ("system", "time_control", "speed", "pause_on_weekend", "pause_on_weekends")
_IGNORED_BY_SYSTEM = {
    "byoyomi": ("periods_min", "periods_max"),
    "canadian": ("stones_per_period_min", "stones_per_period_max"),
}


def parse(text):
    """A time_control object, e.g. {"time_control": "byoyomi", "main_time": 600, ...}."""
    setup = from_object(load(text, NAME, "JSON"), text)
    refuse_zero_time(NAME, text, setup)
    return setup


def from_object(tc, text, numbers=None):
    """The Setup of a decoded time_control object; `numbers` as number_table(text)."""
    if numbers is None:
        numbers = number_table(text)
    system = system_of(tc, text)
    return Setup(_control(system, _values(tc, system, text, numbers), text))


def system_of(tc, text):
    if not isinstance(tc, dict):
        fail(text, "expected a time_control object, found " + show(tc))
    name = tc.get("time_control", tc.get("system"))
    if "time_control" in tc and "system" in tc and tc["system"] != name:
        fail(text, "time_control %s and system %s disagree" % (show(name), show(tc["system"])))
    if name is None:
        fail(text, 'missing "time_control" (or "system"): one of ' + ", ".join(SYSTEMS))
    if not isinstance(name, str) or name not in FIELDS:
        fail(text, "time_control: expected one of %s, found %s" % (", ".join(SYSTEMS), show(name)))
    return name


def _values(tc, system, text, numbers):
    fields = FIELDS[system]
    allowed = fields + _IGNORED + _IGNORED_BY_SYSTEM.get(system, ())
    unknown = ['"%s"' % key for key in sorted(tc) if key not in allowed]
    if unknown:
        plural = "s" if len(unknown) > 1 else ""
        fail(text, "unknown key%s %s for %s" % (plural, ", ".join(unknown), system))
    values = {}
    for key in fields:
        if key not in tc:
            fail(text, '%s needs "%s"' % (system, key))
        value = tc[key]
        if key in _COUNTS:
            if not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= MAX_COUNT:
                expected = "a whole number from 1 to %d" % MAX_COUNT
                fail(text, "%s: expected %s, found %s" % (key, expected, show(value)))
            values[key] = value
            continue
        ms = seconds_ms(value, numbers)
        low = 0 if key in _MAY_BE_ZERO else 1
        if ms is None or ms < low:
            expected = "seconds >= 0" if low == 0 else "more than 0 seconds"
            fail(text, "%s: expected %s, found %s" % (key, expected, show(value)))
        if ms > MAX_MS:
            fail(text, "%s: %s seconds is more than the clock can hold" % (key, show(value)))
        values[key] = ms
    return values


def _control(system, v, text=""):
    """The mapping of each system (its values in ms) onto the clock model."""
    try:
        if system == "fischer":
            stage = Stage(v["initial_time"], increment_ms=v["time_increment"], mode=FISCHER_AFTER)
            return Control([stage], max_ms=v["max_time"])
        if system == "simple":
            return Control([Stage(v["per_move"], moves=1, on_enter=SET, on_repeat=SET)])
        if system == "absolute":
            return Control([Stage(v["total_time"])])
        if system == "none":
            return Control([])
        stages = []
        if v["main_time"]:
            stages.append(Stage(v["main_time"], on_expire=NEXT))
        if system == "byoyomi":
            moves, periods = 1, v["periods"]
        else:
            moves, periods = v["stones_per_period"], 1
        stages.append(
            Stage(
                v["period_time"],
                moves=moves,
                periods=periods,
                on_enter=SET,
                on_repeat=SET,
                on_expire=FLAG,
            )
        )
        return Control(stages)
    except ClockError as error:
        fail(text, str(error))


def seconds_ms(value, numbers):
    """A number of seconds as whole ms (None if it is not a number; negative ones stay negative).

    A fraction with at most 3 decimals in the JSON text is exact: `numbers` maps the float
    json gave to the ms its digits say (single-precision floats on the board cannot hold
    86400.123 exactly). Other fractions are rounded to the nearest ms.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, int):
        return value * 1000
    if value != value:  # NaN
        return None
    if value < 0:
        return -1
    if value >= MAX_MS:  # surely too many ms, infinity included
        return MAX_MS + 1
    exact = numbers.get(value)
    return exact if exact is not None else int(value * 1000 + 0.5)


def number_table(text):
    """{float: exact ms} for each number with a fraction or exponent in a JSON text."""
    table = {}
    i, end = 0, len(text)
    while i < end:
        char = text[i]
        if char == '"':
            i += 1
            while i < end and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
        elif char in "-0123456789":
            start = i
            while i < end and text[i] in "-+.eE0123456789":
                i += 1
            token = text[start:i]
            ms = _decimal_ms(token)
            if ms is None:
                continue
            try:
                key = float(token)
            except ValueError:  # a number only MicroPython's lenient json reads
                continue
            table[key] = ms if table.get(key, ms) == ms else None  # None: two readings
        else:
            i += 1
    return table


def _decimal_ms(token):
    """Exact ms of a JSON number with a fraction or exponent, rounded half up; None if not one."""
    mantissa, exponent = token.lower(), 0
    if "e" in mantissa:
        mantissa, tail = mantissa.split("e", 1)
        try:
            exponent = int(tail)
        except ValueError:
            return None
    elif "." not in mantissa:
        return None
    point = mantissa.find(".")
    whole, fraction = (mantissa, "") if point < 0 else (mantissa[:point], mantissa[point + 1 :])
    sign = -1 if whole.startswith("-") else 1
    digits = whole.lstrip("-") + fraction
    scale = exponent - len(fraction) + 3
    if not digits.isdigit() or len(digits) > 30 or not -40 < scale < 20:
        return None
    if scale >= 0:
        return sign * int(digits) * 10**scale
    unit = 10**-scale
    return sign * ((2 * int(digits) + unit) // (2 * unit))


def format(setup):
    """The canonical time_control object, in whole seconds, its keys in the seed's order."""
    control = _single_control(setup)
    system, v = _shape(control)
    if not _control(system, v) == control:
        refuse("this control: %r" % control)
    parts = ['"time_control":"%s"' % system]
    for key in FIELDS[system]:
        if key in _COUNTS:
            parts.append('"%s":%d' % (key, v[key]))
        elif v[key] % 1000:
            refuse("%d ms: its times are whole seconds" % v[key])
        else:
            parts.append('"%s":%d' % (key, v[key] // 1000))
    return "{" + ",".join(parts) + "}"


def _single_control(setup):
    if not isinstance(setup, Setup):
        refuse("something that is not a Setup")
    if not setup.first == setup.second:
        refuse("different controls for the two players")
    if setup.hourglass or setup.word or setup.start_ms or setup.limit_ms or setup.limit_turns:
        refuse("hourglass, word, a start clock or a game limit")
    control = setup.first
    if control.move_limit_ms or control.move_ms is not None:
        refuse("Arimaa move times or limits")
    return control


def _shape(control):
    """The system and values a control would come from; _control() checks the guess."""
    stages = control.stages
    if not stages:
        return "none", {}
    last = stages[-1]
    if len(stages) == 1 and last.moves == 0:
        if last.increment_ms or control.max_ms:
            if not control.max_ms:
                refuse("a Fischer increment without a maximum time (max_time)")
            values = {"initial_time": last.duration_ms, "time_increment": last.increment_ms}
            values["max_time"] = control.max_ms
            return "fischer", values
        return "absolute", {"total_time": last.duration_ms}
    main = stages[0].duration_ms if len(stages) == 2 else 0
    values = {"main_time": main, "period_time": last.duration_ms}
    if last.moves == 1:
        if len(stages) == 1 and last.periods == 1:
            return "simple", {"per_move": last.duration_ms}
        values["periods"] = last.periods
        return "byoyomi", values
    values["stones_per_period"] = last.moves
    return "canadian", values


def looks_like(text):
    if not isinstance(text, str) or not text.strip().startswith("{"):
        return False
    if '"time_control"' not in text and '"system"' not in text:
        return False
    for system in SYSTEMS:
        if '"%s"' % system in text:
            return True
    return False


def refuse(what):
    raise PresetError(NAME, "", None, "OGS cannot say " + what)


def fail(text, problem):
    raise PresetError(NAME, text, None, problem)
