# SPDX-License-Identifier: MIT
# What every notation's refusals must say, for the plain tests of both interpreters.
from notation.errors import PresetError, quote
from support import raises


def refused(parse, text, position, words, **options):
    """`parse(text)` refuses at `position` (None: the whole text), quoting the text (as far as
    the message shows it) and saying `words`."""
    error = raises(PresetError, parse, text, **options)
    message = str(error)
    assert error.position == position, message
    if len(text) <= 60:
        assert quote(text) in message, message
    if position is not None:
        assert "at character %d" % (position + 1) in message, message
    assert words in message, message
    return error


def cannot(format, value, label, words):
    """`format(value)` refuses, with no position or text, saying `label` cannot say `words`."""
    error = raises(PresetError, format, value)
    message = str(error)
    assert error.position is None and error.text == "", message
    assert label + " cannot say " in message and words in message, message
    return error
