# The one error every notation parser raises: which notation, what text, where, what was expected.
from clock.model import ClockError


class PresetError(ClockError):
    """An invalid preset. `position` counts characters from 0 into `text` (None: whole text)."""

    def __init__(self, notation, text, position, problem):
        self.notation = notation
        self.text = text
        self.position = position
        self.problem = problem
        super().__init__(describe(notation, text, position, problem))


def describe(notation, text, position, problem):
    shown = text if len(text) <= 60 else text[:57] + "..."
    if position is None:
        return "%s preset %s: %s" % (notation, quote(shown), problem)
    return "%s preset %s, at character %d: %s" % (notation, quote(shown), position + 1, problem)


def quote(text):
    return '"' + text.replace('"', '\\"') + '"'
