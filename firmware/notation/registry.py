# Every notation by name: parse with an explicit format, a "name:" prefix, or auto-detection.
from notation.errors import PresetError

# Detection order only breaks ties in messages; a text two notations read differently is refused.
FORMATS = ("chessclock", "arimaa", "ggs", "pcn", "ogs", "pgn", "cutechess", "sgf", "gtp")
MODES = ("fischer", "fischer-after", "bronstein", "delay")


def module(name):
    """The notation's module, imported on first use (the board keeps only what it needs)."""
    if name not in FORMATS:
        raise PresetError(
            "preset", name, None, "unknown format; known formats: " + ", ".join(FORMATS)
        )
    return __import__("notation." + name, None, None, ("parse",))


def split_prefix(text):
    """'chessclock:40/90' -> ('chessclock', '40/90'); no known prefix -> (None, text)."""
    head, colon, rest = text.partition(":")
    name = head.strip().lower()
    if colon and name in FORMATS:
        return name, rest.strip()
    return None, text


def _parse_as(name, text, mode, hourglass, word):
    if name == "pcn" and _is_toml(text):
        from notation import pcn_toml

        try:
            return pcn_toml.parse(text)
        except ImportError:  # no tomllib on the board
            raise PresetError("pcn", text, None, "PCN in TOML is read on the desktop; send JSON")
    if name == "chessclock":
        return module(name).parse(text, mode=mode, hourglass=hourglass, word=word)
    setup = module(name).parse(text)
    if mode is not None or hourglass or word:
        raise PresetError(
            name, text, None, "--mode, --hourglass and --word belong to the chessclock notation"
        )
    return setup


def _is_toml(text):
    body = text.lstrip()
    return body.startswith("[[") or (body != "" and body[0] not in "[{")


def parse(text, format="auto", mode=None, hourglass=False, word=False):
    """A Setup from preset text. Raises PresetError saying what is wrong and where."""
    if not isinstance(text, str):
        raise PresetError("preset", str(text), None, "a preset must be text")
    if mode is not None and mode not in MODES:
        raise PresetError("preset", mode, None, "unknown mode; known modes: " + ", ".join(MODES))
    prefixed, body = split_prefix(text)
    if format not in ("auto", None):
        if prefixed is not None and prefixed != format:
            raise PresetError(format, text, 0, "the text says it is %s" % prefixed)
        return _parse_as(format, body if prefixed else text, mode, hourglass, word)
    if prefixed is not None:
        return _parse_as(prefixed, body, mode, hourglass, word)
    return detect(text, mode, hourglass, word)[1]


def detect(text, mode=None, hourglass=False, word=False):
    """(format, Setup) for a text exactly one notation reads (or all that read it agree)."""
    readings = []
    first_error = None
    for name in FORMATS:
        if name != "chessclock" and (mode is not None or hourglass or word):
            continue
        if not module(name).looks_like(text):
            continue
        try:
            readings.append((name, _parse_as(name, text, mode, hourglass, word)))
        except PresetError as error:
            if first_error is None:
                first_error = error
    if not readings:
        if first_error is not None:
            raise first_error
        raise PresetError(
            "preset",
            text,
            None,
            "no notation recognises this; name one with a prefix such as "
            '"chessclock:" or the format option (%s)' % ", ".join(FORMATS),
        )
    name, setup = readings[0]
    for other, other_setup in readings[1:]:
        if other_setup != setup:
            raise PresetError(
                "preset",
                text,
                None,
                "ambiguous: %s and %s read it differently; name the format" % (name, other),
            )
    return name, setup


def format_as(name, setup):
    """The preset as text in notation `name` (PresetError if that notation cannot say it)."""
    return module(name).format(setup)
