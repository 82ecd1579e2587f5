# SPDX-License-Identifier: MIT
# PCN time control written in TOML (CPython only, through tomllib); the checks are pcn.py's.
from notation import pcn
from notation.errors import PresetError

NAME = "pcn-toml"  # errors still name the notation "pcn": TOML is one of PCN's two forms


def parse(text):
    """`[[periods]]` tables, alone or in a whole PCN document; none at all: untimed."""
    return pcn.setup_from(_load(text), text)


def parse_record(text):
    """A whole PCN game record in TOML: as pcn.parse_record."""
    return pcn.record_from(_load(text), text)


def _load(text):
    if not isinstance(text, str):
        raise PresetError(pcn.NAME, str(text), None, "a preset must be text")
    import tomllib  # here, not at the top: the module must still compile with mpy-cross

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        position = None
        cut = message.rfind(" (at ")
        if cut >= 0:
            position = _position(text, message[cut + 5 : -1])
            message = message[:cut]
        raise PresetError(pcn.NAME, text, position, "not valid TOML: " + message)
    except (RecursionError, ValueError) as error:  # too deep; an integer of thousands of digits
        raise PresetError(pcn.NAME, text, None, "not valid TOML: %s" % (error or "too deep"))


def _position(text, where):
    """tomllib's "line L, column C" (both from 1) or "end of document" as a 0-based index."""
    if where == "end of document":
        return len(text)
    try:
        line, column = where.split(", ")
        line = int(line[len("line ") :])
        column = int(column[len("column ") :])
    except ValueError:
        return None
    start = 0
    for _ in range(line - 1):
        start = text.find("\n", start) + 1
        if not start:
            return None
    return start + column - 1


def format(setup):
    """One `[[periods]]` table per period; no time control is the empty document."""
    lines = []
    for duration, increment, plies in pcn.periods_of(setup):
        lines.append("[[periods]]")
        lines.append("duration_ms = %d" % duration)
        if increment:
            lines.append("increment_ms = %d" % increment)
        if plies:
            lines.append("plies = %d" % plies)
    return "\n".join(lines) + "\n" if lines else ""


def looks_like(text):
    if not isinstance(text, str):
        return False
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            return line in ("[[periods]]", "[[plies]]", "[setup]", "[meta]") or line.startswith(
                ("[sides", "duration_ms =", "duration_ms=")
            )
    return False
