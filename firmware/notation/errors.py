# SPDX-License-Identifier: MIT
# The one error every notation parser raises: which notation, what text, where, what was expected.
from clock.model import ClockError, Setup


class PresetError(ClockError):
    """An invalid preset. `position` counts characters from 0 into `text` (None: whole text);
    `reach`, how far the notation read before it refused (at least `position`)."""

    def __init__(self, notation, text, position, problem, reach=0):
        self.notation = notation
        self.text = text
        self.position = position
        self.reach = max(reach, position or 0)
        self.problem = problem
        super().__init__(describe(notation, text, position, problem))


def describe(notation, text, position, problem):
    shown = text if len(text) <= 60 else text[:57] + "..."
    # "preset" names no notation: the message starts 'preset "..."', not 'preset preset'.
    head = "preset" if notation == "preset" else notation + " preset"
    problem = problem.replace("\n", "\\n").replace("\r", "\\r")  # one line, always
    if position is None:
        return "%s %s: %s" % (head, quote(shown), problem)
    return "%s %s, at character %d: %s" % (head, quote(shown), position + 1, problem)


ZERO_TIME = "no time to play: a control needs a time, an increment or a move time above 0"


def refuse_zero_time(notation, text, setup):
    """Refuse a setup in which a player can never have any time (untimed is fine)."""
    for control in (setup.first, setup.second):
        if not control.stages or control.move_ms:
            continue
        for stage in control.stages:
            if stage.duration_ms or stage.increment_ms:
                break
        else:
            raise PresetError(notation, text, None, ZERO_TIME)


def quote(text):
    """The text in quotes, on one line: a refusal is always one line."""
    return '"' + text.replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r") + '"'


def one_control(setup, cannot, options=False):
    """The control of a notation that says one control for both players and nothing more:
    `cannot(what)` raises for anything else (hourglass and Word pass when `options`)."""
    if not isinstance(setup, Setup):
        cannot("anything but a Setup")
    if setup.second != setup.first:
        cannot("different controls for the two players")
    if not options and (setup.hourglass or setup.word):
        cannot("an hourglass or Word (the penalty word)")
    if setup.start_ms or setup.limit_ms or setup.limit_turns:
        cannot("a start clock or a game limit")
    control = setup.first
    if control.max_ms or control.move_limit_ms or control.move_ms is not None:
        cannot("a maximum time, a move time limit or an Arimaa move time")
    return control
