# SPDX-License-Identifier: MIT
# What the PGN and SGF annotators share: the error, where in the text, which game, the edits.
SPACE = " \t\r\n\f\v\ufeff"


class AnnotateError(ValueError):
    """Input annotate cannot use, saying what and where."""


def shown(text):
    """Text for a message, whatever bytes the file had."""
    return text.encode("ascii", "backslashreplace").decode()


def line_of(text, at):
    return text.count("\n", 0, at) + 1


def pick(games, number, name, kind):
    if not games:
        raise AnnotateError("%s holds no %s game" % (name, kind))
    if number is None:
        if len(games) > 1:
            raise AnnotateError(
                "%s holds %d games: say which with --game N (1 to %d)"
                % (name, len(games), len(games))
            )
        number = 1
    if not 1 <= number <= len(games):
        raise AnnotateError(
            "%s holds %d game%s: there is no game %d"
            % (name, len(games), "s" if len(games) > 1 else "", number)
        )
    return games[number - 1]


def edited(text, edits):
    """The text with each (start, end, replacement) made; they never overlap."""
    parts, at = [], 0
    for start, end, replacement in sorted(edits):
        parts += [text[at:start], replacement]
        at = end
    return "".join(parts) + text[at:]
