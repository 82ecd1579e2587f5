# SPDX-License-Identifier: MIT
# Preset notations: parsers into the clock model, formatters back out, and detection.
import gc
import sys

from notation.errors import PresetError

# On the board the collector runs around a parse so the parser loads into whole free space and
# leaves it whole; on the desktop a collection costs far more than it gives back.
_SMALL_HEAP = sys.implementation.name == "micropython"


def parse(text):
    """A Setup from preset text, for the board: the parsers leave memory when they are done (a
    parser and its helpers take more RAM than the running game). Raises PresetError."""
    if _SMALL_HEAP:
        gc.collect()
    from notation import registry

    try:
        return registry.parse(text)
    finally:
        forget()


def prefixed(text):
    """`text` with the name of the notation that reads it in front ("5+3" ->
    "chessclock:5+3"; a factory preset's name -> that preset's text), as a stored preset keeps
    it: a later firmware that reads an unprefixed text differently still reads it the same.
    Typographic quotes, primes, dashes and spaces come back as their ASCII forms
    (registry.fold). Raises PresetError as parse() does."""
    if _SMALL_HEAP:
        gc.collect()
    from notation import registry

    try:
        text = registry.fold(text)  # stored and sent as ASCII
        name, body = registry.split_prefix(text)
        if name is not None:
            registry.parse(text)
            return text
        try:
            return registry.detect(text, names=False)[0] + ":" + text
        except PresetError:
            named = registry.factory_spec(text)  # "Blitz 5+3": the factory preset's own text
            if named is None:
                raise
            return named
    finally:
        forget()


def forget():
    """Unload every notation module but `errors`, whose PresetError the app catches."""
    package = sys.modules[__name__]
    prefix = __name__ + "."
    for name in list(sys.modules):
        if name.startswith(prefix) and name != prefix + "errors":
            del sys.modules[name]
            short = name[len(prefix) :]
            if hasattr(package, short):
                delattr(package, short)
    if _SMALL_HEAP:
        gc.collect()
