# SPDX-License-Identifier: MIT
# Menus: the preset list, the custom preset editor, arbiter corrections, resuming a saved game.
from app import gestures as act
from clock import display
from clock.game import OVER, View
from clock.model import MODE_NAMES

_WINDOW = 5
QUESTION_MS = 10000  # a question not answered in this long is a no
NOTE_MS = 3000  # a note ("Nothing to undo") stays this long
_VIEW = View()  # scratch for the arbiter's figures


def _window(items, selected):
    """Up to five lines around the selection, and the selection's place among them."""
    start = max(0, min(selected - 2, len(items) - _WINDOW))
    return items[start : start + _WINDOW], selected - start


class PresetMenu:
    title = "Presets"
    FACTORY = "Factory presets"
    CONFIRM = "Erase list? SET: yes"  # in place of FACTORY once SET was pressed on it

    def __init__(self, presets, settings):
        self.presets = presets
        self.settings = settings
        self.index = settings.preset
        self.selected = 0
        self.confirming = False  # SET on "Factory presets" asked; a second SET erases the list

    def _items(self):
        names = [preset.name for preset in self.presets.items]
        names.append("Sound: " + ("off" if self.settings.muted else "on"))
        names.append("Custom...")
        names.append(self.CONFIRM if self.confirming else self.FACTORY)
        return names

    def lines(self):
        lines, self.selected = _window(self._items(), self.index)
        return lines

    def act(self, action, stamp):
        count = len(self.presets.items)
        confirming = self.confirming
        self.confirming = False
        if action == act.PLUS or action == act.MINUS:
            step = 1 if action == act.PLUS else -1
            self.index = (self.index + step) % (count + 3)
        elif action == act.PLAY:
            return None if confirming else "back"  # PLAY drops the question first
        elif action == act.SET:
            if self.index < count:
                self.settings.preset = self.index
                return "chosen"
            if self.index == count:
                self.settings.muted = not self.settings.muted
                self.settings.save()
                return None
            if self.index == count + 1:
                return "edit"
            if not confirming:
                self.confirming = True
                return None
            self.presets.reset_to_defaults()
            self.settings.preset = 0
            return "chosen"
        return None


class EditMenu:
    """A custom preset on the clock itself: minutes, increment and mode, as `G/min/inc mode`."""

    title = "Custom preset"
    _FIELDS = ("Minutes", "Increment s", "Mode")

    def __init__(self, minutes=5, increment=3, mode=0):
        self.values = [minutes, increment, mode]
        self.selected = 0

    def lines(self):
        minutes, increment, mode = self.values
        return [
            "Minutes: %d" % minutes,
            "Increment: %d s" % increment,
            "Mode: " + MODE_NAMES[mode],
            "SET next, PLAY cancel",
        ]

    def spec(self):
        minutes, increment, mode = self.values
        return "chessclock:G/%d/%d %s" % (minutes, increment, MODE_NAMES[mode])

    def act(self, action, stamp):
        field = self.selected
        if action == act.PLAY:
            return "back"
        if action == act.SET:
            if field == len(self._FIELDS) - 1:
                return self.spec()
            self.selected = field + 1
            return None
        step = 1 if action == act.PLUS else -1 if action == act.MINUS else 0
        if field == 0:
            self.values[0] = min(600, max(1, self.values[0] + step))
        elif field == 1:
            self.values[1] = min(600, max(0, self.values[1] + step))
        else:
            self.values[2] = (self.values[2] + step) % len(MODE_NAMES)
        return None


class ArbiterMenu:
    """Corrections in a pause: each player's time (minutes, seconds) and move counter, undo,
    ending the game. SET moves to the next field, PLUS and MINUS change it, PLAY is done."""

    title = "Arbiter"
    _FIELDS = (
        "Left time +-1 min",
        "Left time +-1 s",
        "Right time +-1 min",
        "Right time +-1 s",
        "Left moves +-1",
        "Right moves +-1",
        "Undo last press",
        "End the game",
    )

    _UNDO = 6
    _END = 7

    def __init__(self, game, left_player, plus_minus=True):
        self.game = game
        self.left_player = left_player
        self.field = 0
        self.selected = 2
        self.note = "SET next, PLAY done" if plus_minus else "levers -/+, PLAY done"
        self.asking = False  # PLUS or MINUS on undo or end asked; PLUS again does it

    def _field_line(self):
        field = self.field
        if field == self._UNDO and not self.game.can_undo():
            return "Nothing to undo"
        if not self.asking:
            return self._FIELDS[field]
        if field == self._UNDO:
            return "Undo ply %d? +: yes" % self.game.plies()
        return "End the game? +: yes"

    def _player(self, side):
        return self.left_player if side == 0 else 1 - self.left_player

    def lines(self):
        game = self.game
        figures = []
        for side in (0, 1):
            view = game.view(self._player(side), 0, _VIEW)
            figures.append(
                "%s %s #%d" % ("L" if side == 0 else "R", display.text(view.time_ms), view.moves)
            )
        return figures + [self._field_line(), self.note]

    def act(self, action, stamp):
        asking = self.asking
        self.asking = False
        if action == act.PLAY:
            return None if asking else "done"  # PLAY drops the question first
        if action == act.SET:
            if not asking:
                self.field = (self.field + 1) % len(self._FIELDS)
            return None
        if action != act.PLUS and action != act.MINUS:
            return None
        sign = 1 if action == act.PLUS else -1
        game = self.game
        field = self.field
        if field >= self._UNDO:
            # Taking back a move or ending the game asks first: PLUS again does it.
            if field == self._UNDO and not game.can_undo():
                return None
            if not asking:
                self.asking = True
                return None
            if sign < 0:
                return None
        if field < 4:
            player = self._player(field // 2)
            game.adjust_time(player, sign * (60000 if field % 2 == 0 else 1000))
        elif field < 6:
            player = self._player(field - 4)
            game.set_moves(player, max(0, game.moves(player) + sign))
        elif field == 6:
            game.undo(stamp)
        elif game.end_by_arbiter(stamp) or game.state() == OVER:
            return "done"
        return None


class Question:
    """A question before something that cannot be taken back, or a note (`yes` None): the
    action `yes` answers yes, any other no; `wait_ms` without an answer is a no too."""

    selected = -1

    def __init__(self, title, lines, yes, wait_ms=QUESTION_MS):
        self.title = title
        self._lines = lines
        self.yes = yes
        self.wait_ms = wait_ms

    def lines(self):
        return self._lines

    def act(self, action, stamp):
        return "yes" if action == self.yes and self.yes is not None else "no"


class ResumeMenu:
    """A saved game found at boot: resume it or start a new one. Named by its preset's name
    where the list still holds a preset of that text, else by the text itself."""

    title = "Resume game?"
    selected = -1

    def __init__(self, spec, presets):
        self.spec = spec
        self.name = presets.name_of(spec) or spec

    def lines(self):
        return [self.name[:21], "SET/PLAY: resume", "MINUS: drop it"]

    def act(self, action, stamp):
        if action == act.SET or action == act.PLAY:
            return "resume"
        if action == act.MINUS:
            return "discard"
        return None


def undo_question(game, left_player):
    """MINUS in a pause: the ply a second MINUS takes back, or a note that there is none."""
    if not game.can_undo():
        return Question("Nothing to undo", ["no press to take back"], None, NOTE_MS)
    side = "left" if game.turn() != left_player else "right"
    return Question(
        "Undo ply %d?" % game.plies(),
        ["MINUS again: yes", "other key: no", "(the %s press)" % side],
        act.MINUS,
    )


def new_game_question(over):
    """Before a new game: what it loses, a finished game's result (`over`) or the game."""
    lost = "the result is cleared" if over else "this game is dropped"
    return Question("New game?", ["SET: yes, PLAY: no", lost], act.SET)


def drop_question():
    """The saved game offered at boot, before it is dropped."""
    return Question("Drop the saved game?", ["MINUS again: yes", "SET/PLAY: no"], act.MINUS)
