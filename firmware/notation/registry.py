# SPDX-License-Identifier: MIT
# Every notation by name: parse with an explicit format, a "name:" prefix, or auto-detection.
from notation.errors import PresetError, refuse_zero_time

# Detection order only breaks ties in messages; a text two notations read differently is refused.
FORMATS = ("chessclock", "go", "arimaa", "ggs", "pcn", "ogs", "pgn", "cutechess", "sgf", "gtp")
MODES = ("fischer", "fischer-after", "bronstein", "delay")

# What phones, word processors and PDFs type for the ASCII a preset is written in: quotes and
# primes for minutes and seconds, the multiplication sign, dashes, spaces that do not break. One
# character for one, so an error's position is the same in the text as typed.
FOLDS = {
    "\u2018": "'",  # left single quotation mark
    "\u2019": "'",  # right single quotation mark (iOS types it for ')
    "\u201b": "'",  # single high-reversed-9 quotation mark
    "\u2032": "'",  # prime (minutes)
    "\u02b9": "'",  # modifier letter prime
    "\u00b4": "'",  # acute accent, typed for an apostrophe
    "\u201c": '"',  # left double quotation mark
    "\u201d": '"',  # right double quotation mark
    "\u201f": '"',  # double high-reversed-9 quotation mark
    "\u2033": '"',  # double prime (seconds)
    "\u02ba": '"',  # modifier letter double prime
    "\u00d7": "x",  # multiplication sign
    "\u2010": "-",  # hyphen
    "\u2011": "-",  # non-breaking hyphen
    "\u2012": "-",  # figure dash
    "\u2013": "-",  # en dash
    "\u2014": "-",  # em dash
    "\u2212": "-",  # minus sign
    "\u00a0": " ",  # no-break space
    "\u2002": " ",  # en space
    "\u2003": " ",  # em space
    "\u2007": " ",  # figure space
    "\u2009": " ",  # thin space
    "\u200a": " ",  # hair space
    "\u202f": " ",  # narrow no-break space
}


def fold(text):
    """`text` with each typographic character of FOLDS as its ASCII form; the same `text` when
    it has none (or is not text)."""
    if not isinstance(text, str):
        return text
    for char in text:
        if char > "~" and char in FOLDS:
            break
    else:
        return text
    return "".join([FOLDS.get(char, char) for char in text])


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
    setup = _reading(name, text, mode, hourglass, word)
    refuse_zero_time(name, text, setup)
    return setup


def _reading(name, text, mode, hourglass, word):
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
    text = fold(text)
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


def detect(text, mode=None, hourglass=False, word=False, names=True):
    """(format, Setup) for a text exactly one notation reads (or all that read it agree), or,
    with `names`, that no notation reads, for the name of a factory preset as the menu shows it.
    A reading far from what events play ("300+2": five hours) is refused with the readings and
    how to say each."""
    text = fold(text)
    readings = []
    claimed = []
    for name in _candidates(mode, hourglass, word):
        if not module(name).looks_like(text):
            continue
        try:
            readings.append((name, _parse_as(name, text, mode, hourglass, word)))
        except PresetError as error:
            claimed.append((name, error))
    if not readings:
        spec = factory_spec(text) if names else None
        if spec is None:
            raise _nearest_error(text, mode, hourglass, word, claimed)
        name, body = split_prefix(spec)
        return name, _parse_as(name, body, mode, hourglass, word)
    name, setup = readings[0]
    for other, other_setup in readings[1:]:
        if other_setup != setup:
            raise PresetError(
                "preset",
                text,
                None,
                "ambiguous: %s and %s read it differently; name the format" % (name, other),
            )
    from notation import plausible

    problem = plausible.doubt(name, text)
    if problem:
        raise PresetError("preset", text, None, problem)
    return name, setup


def factory_spec(text):
    """The text of the factory preset named `text` (any case and spacing), or None: a name the
    clock shows can be typed back."""
    if not isinstance(text, str) or not text.lstrip()[:1].isalpha():
        return None
    wanted = " ".join(text.split()).lower()
    from notation.factory import DEFAULTS

    for name, spec in DEFAULTS:
        if name.lower() == wanted:
            return spec
    return None


def _candidates(mode, hourglass, word):
    if mode is not None or hourglass or word:
        return ("chessclock",)
    return FORMATS


def _nearest_error(text, mode, hourglass, word, claimed):
    """For a text no notation reads: the refusal of the notation that read furthest into it,
    so that a typo gets that notation's positioned message. A notation that claimed the text
    wins a tie, and reads it all when its refusal is about the whole text (an OGS object
    without a field). When none claimed it, a notation that reads it says so (it claims the
    text only with its prefix); a text no notation gets into gets a general message."""
    nearest, furthest = None, 0
    for name, error in claimed:
        reach = len(text) if error.position is None else error.reach
        if nearest is None or reach > furthest:
            nearest, furthest = error, reach
    claimed_names = [name for name, _error in claimed]
    reader = None
    for name in _candidates(mode, hourglass, word):
        if name in claimed_names or (name == "pcn" and _is_toml(text)):
            continue  # TOML reads any text a little way: its refusal says nothing
        try:
            _parse_as(name, text, mode, hourglass, word)
            reader = reader or name
        except PresetError as error:
            if error.position is not None and error.reach > furthest:
                nearest, furthest = error, error.reach
    # "1:30/2:00" is GGS only with its prefix; but a prefix that reads a text another notation
    # got into ("300.5+2", minutes there) would change its meaning: that notation's error then.
    if reader is not None and not claimed and not furthest:
        problem = "only %s reads this, and only with its prefix: %s:%s" % (reader, reader, text)
        return PresetError("preset", text, None, problem)
    return nearest or PresetError(
        "preset",
        text,
        None,
        "no notation recognises this; name one with a prefix such as "
        '"chessclock:" or the format option (%s)' % ", ".join(FORMATS),
    )


def format_as(name, setup):
    """The preset as text in notation `name` (PresetError if that notation cannot say it)."""
    return module(name).format(setup)
