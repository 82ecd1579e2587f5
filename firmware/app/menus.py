# SPDX-License-Identifier: MIT
# The overlays: the preset menu, the custom preset editor, arbiter corrections, the resume offer,
# questions and notes. Loaded only when one opens: play needs none of it.
#
# An overlay lies over the game on the app's stack (ClockApp.push). The display shows the top
# one: its `title`, `lines()` and `selected` (-1: none). The top one takes every button as
# act(app, action, stamp) and acts on the app; closing it (app.close) shows exactly what lay
# under it. `name` is the clock's state over serial while it is on top; `until` the stamp at
# which it closes by itself (None: it stays); repeats() whether PLUS or MINUS held down steps on
# (never where a second press is a yes).
from app import gestures as act
from app.presets import PresetError
from clock import display
from clock.game import OVER, View
from clock.model import MODE_NAMES
from hal.storage import problem_text

_WINDOW = 5
QUESTION_MS = 10000  # a question not answered in this long is a no
NOTE_MS = 3000  # a note ("Nothing to undo") stays this long
_VIEW = View()  # scratch for the arbiter's figures


def _window(items, selected):
    """Up to five lines around the selection, and the selection's place among them."""
    start = max(0, min(selected - 2, len(items) - _WINDOW))
    return items[start : start + _WINDOW], selected - start


class PresetMenu:
    name = "menu"
    title = "Presets"
    until = None
    FACTORY = "Factory presets"
    CONFIRM = "Erase list? SET: yes"  # in place of FACTORY once SET was pressed on it

    def __init__(self, presets, settings, chosen):
        self.presets = presets
        self.settings = settings
        self.index = chosen
        self.selected = 0
        self.confirming = False  # SET on "Factory presets" asked; a second SET erases the list

    def _items(self):
        names = [preset.name for preset in self.presets.items]
        names.append("Sound: " + ("off" if self.settings.muted else "on"))
        names.append("Custom...")
        names.append(self.CONFIRM if self.confirming else self.FACTORY)
        return names

    def lines(self):
        items = self._items()
        self.index %= len(items)
        lines, self.selected = _window(items, self.index)
        return lines

    def repeats(self):
        """PLUS or MINUS held scrolls on."""
        return True

    def act(self, app, action, stamp):
        count = len(self.presets.items)
        confirming = self.confirming
        self.confirming = False
        index = self.index % (count + 3)
        if action == act.PLUS or action == act.MINUS:
            self.index = (index + (1 if action == act.PLUS else -1)) % (count + 3)
        elif action == act.PLAY:
            if not confirming:  # PLAY drops the question first
                app.close(self)
        elif action != act.SET:
            pass
        elif index < count:
            _chosen(app, self, self.presets.items[index].name, stamp)
        elif index == count:
            _stored(app, stamp, app.set_muted, not self.settings.muted)
        elif index == count + 1:
            app.push(EditMenu(self), stamp)
        elif not confirming:
            self.confirming = True
        elif _stored(app, stamp, _factory, app):
            app.close(self)
            _after_choice(app, stamp)


class EditMenu:
    """A custom preset on the clock itself: minutes, increment and mode, as `G/min/inc mode`.
    PLAY goes back to the preset menu under it (`under`); SET on the last field stores it."""

    name = "edit"
    title = "Custom preset"
    until = None
    _FIELDS = ("Minutes", "Increment s", "Mode")

    def __init__(self, under, minutes=5, increment=3, mode=0):
        self.under = under
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

    def repeats(self):
        return True

    def spec(self):
        minutes, increment, mode = self.values
        return "chessclock:G/%d/%d %s" % (minutes, increment, MODE_NAMES[mode])

    def act(self, app, action, stamp):
        field = self.selected
        if action == act.PLAY:
            app.close(self)
            return
        if action == act.SET:
            if field == len(self._FIELDS) - 1:
                _custom(app, self.under, self.spec(), stamp)
            else:
                self.selected = field + 1
            return
        step = 1 if action == act.PLUS else -1 if action == act.MINUS else 0
        if field == 0:
            self.values[0] = min(600, max(1, self.values[0] + step))
        elif field == 1:
            self.values[1] = min(600, max(0, self.values[1] + step))
        else:
            self.values[2] = (self.values[2] + step) % len(MODE_NAMES)


class ArbiterMenu:
    """Corrections in a pause: each player's time (minutes, seconds) and move counter, undo,
    ending the game. SET moves to the next field, PLUS and MINUS change it (each change is
    saved as it is made), PLAY is done. With `digits` (the 7-segment board, which shows only
    the selected line) that line is the value being corrected, laid out on the two modules."""

    name = "arbiter"
    title = "Arbiter"
    until = None
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

    def __init__(self, game, left_player, plus_minus=True, digits=False):
        self.game = game
        self.left_player = left_player
        self.field = 0
        self.digits = digits
        self.selected = 4 if digits else 2
        self.note = "SET next, PLAY done" if plus_minus else "levers -/+, PLAY done"
        self.plus_minus = plus_minus
        self.asking = 0  # the action (PLUS or MINUS) that asked about undo or the end, or 0

    def _asked(self):
        """The question on undo or the end, as the pause's undo asks it."""
        if self.field == self._UNDO:
            return "Undo ply %d?" % self.game.plies()
        return "End the game?"

    def _yes(self):
        if self.plus_minus:
            return ("PLUS" if self.asking == act.PLUS else "MINUS") + " again: yes"
        return ("right" if self.asking == act.PLUS else "left") + " lever again: yes"

    def _field_line(self):
        field = self.field
        if field == self._UNDO and not self.game.can_undo():
            return "Nothing to undo"
        if not self.asking:
            return self._FIELDS[field]
        return self._asked()

    def _player(self, side):
        return self.left_player if side == 0 else 1 - self.left_player

    def repeats(self):
        """A time or a move counter steps on while PLUS or MINUS is held; undo and the end ask,
        and their yes is a second press, never a held one."""
        return self.field < self._UNDO

    def lines(self):
        game = self.game
        figures = []
        for side in (0, 1):
            view = game.view(self._player(side), 0, _VIEW)
            figures.append(
                "%s %s #%d" % ("L" if side == 0 else "R", display.text(view.time_ms), view.moves)
            )
        lines = figures + [self._field_line(), self._yes() if self.asking else self.note]
        if self.digits:
            lines.append(self._modules())
        return lines

    def _modules(self):
        """The selected line on the 7-segment board: the side being corrected on its own module
        (its time to the unit PLUS and MINUS change, or its moves), what changes on the other
        ("Min", "SEC", or the hours when the seconds of an hour or more are shown); the
        question or the field's name for undo and the end."""
        field = self.field
        if field >= self._UNDO:
            line = self._field_line()
            return line + " " + self._yes() if self.asking else line
        side = (field // 2) if field < 4 else field - 4
        view = self.game.view(self._player(side), 0, _VIEW)
        if field >= 4:
            own, other = "n%3d" % min(view.moves, 999), "    "
        else:
            seconds = view.time_ms // 1000
            hours = seconds // 3600
            if field % 2 == 0 and hours:
                own, other = "%2d:%02d" % (min(hours, 99), seconds // 60 % 60), " Min"
            else:
                own = "%02d:%02d" % (seconds // 60 % 60 if hours else seconds // 60, seconds % 60)
                other = " SEC" if field % 2 else " Min"
                if hours and field % 2:
                    other = "%3dh" % hours
        return own + other if side == 0 else other + own

    def act(self, app, action, stamp):
        asking = self.asking
        self.asking = 0
        if action == act.PLAY:
            if not asking:  # PLAY drops the question first
                app.close(self)
            return
        if action == act.SET:
            if not asking:
                self.field = (self.field + 1) % len(self._FIELDS)
            return
        if action != act.PLUS and action != act.MINUS:
            return
        sign = 1 if action == act.PLUS else -1
        game = self.game
        field = self.field
        if field >= self._UNDO:
            # Taking back a move or ending the game asks first: the same button again does it.
            if field == self._UNDO and not game.can_undo():
                return
            if not asking:
                self.asking = action
                return
            if action != asking:  # the other one is a no
                return
        if field < 4:
            player = self._player(field // 2)
            game.adjust_time(player, sign * (60000 if field % 2 == 0 else 1000))
            app.corrected(stamp)
        elif field < 6:
            player = self._player(field - 4)
            game.set_moves(player, max(0, game.moves(player) + sign))
            app.corrected(stamp)
        elif field == self._UNDO:
            app.undo(stamp)
        else:
            app.close(self)
            app.end_by_arbiter(stamp)


class Question:
    """A question before something that cannot be taken back, or a note (`yes` None): the
    action `yes` answers yes and calls on_yes(stamp), any other is a no; `wait_ms` without an
    answer is a no too. Either way it closes first."""

    name = "confirm"
    selected = -1

    def __init__(self, title, lines, yes, on_yes=None, wait_ms=QUESTION_MS):
        self.title = title
        self._lines = lines
        self.yes = yes
        self.on_yes = on_yes
        self.wait_ms = wait_ms
        self.until = None  # set by the app as it shows the question

    def lines(self):
        return self._lines

    def repeats(self):
        return False

    def act(self, app, action, stamp):
        app.close(self)
        if action == self.yes and self.yes is not None:
            self.on_yes(stamp)


class ResumeMenu:
    """A saved game found at boot, lying paused under this: resume it or drop it. Named by its
    preset's name where the list still holds a preset of that text, else by the text itself."""

    name = "resume"
    title = "Resume game?"
    selected = -1
    until = None

    def __init__(self, spec, presets):
        self.spec = spec
        self.name_shown = presets.name_of(spec) or spec

    def lines(self):
        return [self.name_shown[:21], "SET/PLAY: resume", "MINUS: drop it"]

    def repeats(self):
        return False

    def act(self, app, action, stamp):
        if action == act.SET or action == act.PLAY:
            app.close(self)
        elif action == act.MINUS:
            app.push(drop_question(app.new_game), stamp)


def note(title, lines):
    """A note that goes by itself (or with any button)."""
    return Question(title, lines, None, None, NOTE_MS)


def undo_question(game, left_player, on_yes):
    """MINUS in a pause: the ply a second MINUS takes back, or a note that there is none."""
    if not game.can_undo():
        return note("Nothing to undo", ["no press to take back"])
    side = "left" if game.turn() != left_player else "right"
    return Question(
        "Undo ply %d?" % game.plies(),
        ["MINUS again: yes", "other key: no", "(the %s press)" % side],
        act.MINUS,
        on_yes,
    )


def new_game_question(over, on_yes):
    """Before a new game: what it loses, a finished game's result (`over`) or the game."""
    lost = "the result is cleared" if over else "this game is dropped"
    return Question("New game?", ["SET: yes", "other key: no", lost], act.SET, on_yes)


def drop_question(on_yes):
    """The saved game offered at boot, before it is dropped."""
    return Question(
        "Drop the saved game?", ["MINUS again: yes", "other key: no"], act.MINUS, on_yes
    )


def store_note(problem):
    """A write the store refused: nothing changed."""
    return note("Not saved", [problem, "nothing changed"])


# --- what the preset menu does with the app: each write stored first, a refusal noted ---------


def _stored(app, stamp, write, *args):
    """write(*args), which stores something and changes it only once stored; a refusal is shown
    as a note. True when the store took it."""
    try:
        write(*args)
    except OSError as error:
        app.store_problem = problem = problem_text(error)
        app.push(store_note(problem), stamp)
        return False
    return True


def _chosen(app, menu, name, stamp):
    """A preset chosen in the menu: stored, then a new game on it (asked first over a finished
    game's result)."""
    if _stored(app, stamp, app.settings.store, app.settings.muted, name):
        app.close(menu)
        _after_choice(app, stamp)


def _custom(app, menu, spec, stamp):
    """The editor's preset, stored as "Custom" (replacing the last) and chosen; `menu`, the
    preset menu under the editor, closes with it."""
    try:
        app.presets.add("Custom", spec, True)
    except PresetError:  # the list is full
        app.push(note("List full", ["40 presets at most:", "delete one first"]), stamp)
        return
    except OSError as error:
        app.store_problem = problem = problem_text(error)
        app.push(store_note(problem), stamp)
        return
    _chosen(app, menu, "Custom", stamp)


def _factory(app):
    """The factory presets, the first chosen (OSError: the list as it was)."""
    app.presets.reset_to_defaults()
    app.settings.store(app.settings.muted, app.presets.items[0].name)


def _after_choice(app, stamp):
    if app.game.state() == OVER:
        app.ask_new_game(stamp)
    else:
        app.new_game(stamp)
