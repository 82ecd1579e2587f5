# SPDX-License-Identifier: MIT
# The clock app: one explicit state machine from actions and time to a game, frames and tones.
from micropython import const

from app import gestures as act
from app import saved
from app.lights import Lights
from app.presets import Presets
from app.settings import Settings
from app.sounds import Sounds
import ticks
from clock import display
from clock.record import Record
from clock.game import (
    ABORTED,
    ARBITER,
    DONE,
    FLAG_FELL,
    GAME_OVER,
    HALTED,
    OVER,
    PERIOD_USED,
    STAGE_BEGAN,
    TIME,
    Game,
    View,
)
from hal import buttons
from hal.battery import Gauge
from notation.errors import PresetError
from ui.status import INFO_BATTERY, INFO_COUNTERS, Status

# App states: the game's own four (ready, running, paused, over) with an interim flag shown
# while running, and the menus over them. Only ClockApp._enter() changes the state.
S_READY = const(0)
S_RUNNING = const(1)
S_PAUSED = const(2)
S_INTERIM = const(3)  # running, with an interim flag shown
S_OVER = const(4)
S_MENU = const(5)
S_EDIT = const(6)
S_ARBITER = const(7)
S_RESUME = const(8)
S_CONFIRM = const(9)  # a question before something one press must not do: ClockApp._ask
_FIRST_MENU = const(5)  # the states from S_MENU on have a menu on the display
STATE_NAMES = (
    "ready",
    "running",
    "paused",
    "interim",
    "over",
    "menu",
    "edit",
    "arbiter",
    "resume",
    "confirm",
)

# Events told to the listener (the serial channel's state stream).
E_NEW = const(0)
E_START = const(1)
E_PRESS = const(2)
E_PAUSE = const(3)
E_RESUME = const(4)
E_STAGE = const(5)
E_FLAG = const(6)  # an interim flag
E_OVER = const(7)
E_ARBITER = const(8)  # a correction, an undo
EVENT_NAMES = ("new", "start", "press", "pause", "resume", "stage", "flag", "over", "arbiter")

_MAX_SLEEP_MS = const(1000)
_SAVE_EVERY_MS = const(10000)  # a running move is saved this often: a power cut costs at most this
# Both levers at once: the second lever, within this long of a switch, is the same chord and
# does not end the opponent's move at once.
CHORD_MS = const(30)
_BATTERY_EVERY_MS = const(10000)
INFO_MS = const(3000)  # SET while a clock runs shows the counters this long (7-segment modules)
_TICKS_MASK = const(0x3FFFFFFF)  # ticks' wrap, for a diff written out
_TICKS_HALF = const(0x20000000)
_MESSAGES = {HALTED: "HALT", ARBITER: "END", ABORTED: "ABORT"}

# What the end of a pass must do, kept as one mask and set only through ClockApp._need().
_SAVE = const(1)  # the game changed: flush() saves it
_DRAW = const(2)  # changed outside a tick (an action, a new game): the next pass draws
_PLAN = const(4)  # the wake stamp must be worked out again

# What a yes to ClockApp._ask's question does.
_DO_UNDO = const(0)
_DO_NEW_GAME = const(1)
_DO_DISCARD = const(2)  # the saved game offered at boot


class ClockApp:
    def __init__(self, hal, present, screen, now, record=None):
        # Every game writes its record here: set aside first (main.py makes it before its
        # imports), while the heap is in one piece, and kept till the next start.
        self.record = record if record is not None else Record()
        self.hal = hal
        self.screen = screen
        self.plus_minus = buttons.PLUS in present and buttons.MINUS in present
        self.gestures = act.Gestures(present, self.on_action)
        self.settings = Settings(hal.storage)
        self.presets = Presets(hal.storage)
        self.sounds = Sounds(hal.buzzer)
        self.sounds.muted = self.settings.muted
        self.status = Status()
        self.status.muted = self.settings.muted
        self.lights = self.status.lights = Lights(hal.leds, now)
        self.left = View()
        self.right = View()
        self.menu = None  # the open menu of a menu state (_open puts it in)
        self.listener = None  # called as listener(event, stamp) after it happened
        self._switched = now  # stamp of the last switch of the clocks
        self._pending = _DRAW | _PLAN  # what the end of the pass must do: _need() sets it
        self._saved_at = now  # stamp of the last save
        self._wake_at = now  # what next_wake last answered, while _PLAN is clear
        self._battery_at = now
        self._gauge = Gauge()
        self._info_until = now
        self._info = 0  # INFO_COUNTERS or INFO_BATTERY asked for (SET), until _info_until
        self._back = S_READY  # the state a menu or a question goes back to
        self._yes = _DO_UNDO  # what a yes to the open question does
        self._question_until = now
        self._check_battery(now)
        if not 0 <= self.settings.preset < len(self.presets.items):
            self.settings.preset = 0
        resumable = saved.load(hal.storage, self.record)
        self._fresh_game()
        self._offer = resumable
        if resumable is not None:
            self._open(_menus().ResumeMenu(resumable[0], self.presets), S_RESUME, now)

    # --- state -----------------------------------------------------------------------------

    def _need(self, bits):
        """The one place that asks the end of the pass for a save, a frame or a new wake."""
        self._pending |= bits

    def _enter(self, state, stamp):
        """The one place the state changes; what follows from a state is set here."""
        self.state = state
        running = state == S_RUNNING or state == S_INTERIM
        self.gestures.play_at_once = running  # PLAY acts at the press only while a clock runs
        if not running:
            self._info = 0
        self.menu = None  # _open() puts the menu of a menu state in
        self._need(_DRAW | _PLAN)

    def _open(self, menu, state, stamp):
        self._enter(state, stamp)
        self.menu = menu

    def _ask(self, question, do, stamp):
        """A question (menus.Question) on the display: its yes does `do`; any other button, or
        its wait without an answer, goes back to the state the clock was in (a menu's: the
        state it was opened from). The questions' texts live in app.menus, loaded only then."""
        back = self._came_from()
        self._open(question, S_CONFIRM, stamp)
        self._back = back
        self._yes = do
        self._question_until = ticks.add(stamp, question.wait_ms)

    def _came_from(self):
        """The state under a question or the preset menu; else the state itself."""
        state = self.state
        return self._back if state == S_CONFIRM or state == S_MENU or state == S_EDIT else state

    def in_progress(self):
        """A game has begun and not ended (a saved game offered on boot counts)."""
        state = self.state
        if state == S_CONFIRM:
            state = self._back
        return state in (S_RUNNING, S_INTERIM, S_PAUSED, S_ARBITER, S_RESUME)

    def editing_presets(self):
        """The preset menu or the custom preset editor is open on the clock."""
        return self.state == S_MENU or self.state == S_EDIT

    def state_name(self):
        return STATE_NAMES[self.state]

    def open_menu(self):
        """The menu on the display (its title, lines() and selected), or None."""
        return self.menu if self.state >= _FIRST_MENU else None

    # --- games ---------------------------------------------------------------------------

    def preset(self):
        return self.presets.items[self.settings.preset]

    def new_game(self):
        self._fresh_game()
        self._pending &= ~_SAVE  # a save still pending is of the game just dropped
        saved.retire(self.hal.storage)
        self._tell(E_NEW, self.hal.ticks_ms())

    def game_preset_name(self):
        """The name of the game's preset in the list, or None (a saved game's preset since
        deleted)."""
        chosen = self.preset()
        if chosen.spec == self.spec:
            return chosen.name
        return self.presets.name_of(self.spec)

    def choose_preset(self, index):
        """The preset for the next game, stored; the clock shows it at once when no game is in
        progress."""
        self.settings.preset = index
        self.settings.save()
        if not self.in_progress():
            self.new_game()

    def add_preset(self, name, spec):
        """Add a preset, or replace the one of that name; its index. When it replaces the
        chosen preset while the clock is ready, the clock shows its new times. Raises
        PresetError (and OSError when storage fails, the list then as storage has it)."""
        index = self.presets.add(name, spec)
        if self.state == S_READY and index == self.settings.preset:
            self.new_game()
        return index

    def delete_preset(self, index):
        """Delete a preset (not the game in progress's: ValueError); the chosen one follows."""
        chosen = self.settings.preset
        if index == chosen and self.in_progress():
            raise ValueError("the game in progress's preset")
        self.presets.remove(index)
        if index <= chosen:
            self.settings.preset = chosen - 1 if index < chosen else 0
            self.settings.save()
            if index == chosen and self.state == S_READY:
                self.new_game()

    def set_muted(self, muted):
        self.settings.muted = self.sounds.muted = self.status.muted = muted
        self.settings.save()

    def views(self, now):
        """The left and right sides' Views, filled for `now`."""
        self._fill_views(now)
        return self.left, self.right

    def _tell(self, event, stamp):
        if self.listener is not None:
            self.listener(event, stamp)

    def _fresh_game(self):
        try:
            setup = self.preset().setup()
        except PresetError:  # a stored preset this firmware no longer reads: the first one
            self.settings.preset = 0
            setup = self.preset().setup()
        self.game = Game(setup, self.record)
        self.spec = self.preset().spec
        # Controls that differ (Armageddon, handicaps) are shown on their sides before the
        # start, and the first press starts the first player's clock on the side shown.
        self._sides_fixed = not (setup.first == setup.second)
        self.left_player = 0
        self.sounds.forget()
        self._enter(S_READY, self.hal.ticks_ms())

    def _save(self, now):
        saved.save(self.hal.storage, self.spec, self.left_player, self.game, now)
        self._saved_at = now

    def flush(self, now):
        """The end of a pass that did something: save the game if it changed (_SAVE).

        The save comes after the frame that shows the change: a press is on the display first.
        Its stamp was taken in the IRQ, so waiting changes nothing of its timing; a power cut
        in the few ms before the save loses that press alone (the clock resumes from the
        position before it).
        """
        pending = self._pending
        self._pending = _PLAN
        if pending & _SAVE:
            self._save(now)

    def player_on(self, side):
        """The player (0 first, 1 second) whose lever is on `side` (0 left, 1 right)."""
        return self.left_player if side == 0 else 1 - self.left_player

    # --- input ---------------------------------------------------------------------------

    def on_action(self, action, stamp):
        self._need(_DRAW | _PLAN)
        state = self.state
        if not self.plus_minus and state >= _FIRST_MENU:
            # Without PLUS and MINUS, the levers stand in for them in menus.
            if action == act.LEVER_LEFT:
                action = act.MINUS
            elif action == act.LEVER_RIGHT:
                action = act.PLUS
        if action == act.LEVER_LEFT or action == act.LEVER_RIGHT:
            self._lever(0 if action == act.LEVER_LEFT else 1, stamp)
        elif action == act.PLAY:
            self._play(stamp)
        elif action == act.RESET:
            if state == S_READY:
                self.new_game()
            elif state in (S_PAUSED, S_OVER, S_ARBITER, S_RESUME, S_CONFIRM):
                self._ask_new_game(stamp)
        elif state >= _FIRST_MENU:
            self._menu_action(action, stamp)
        elif action == act.SET:
            if state in (S_READY, S_OVER):
                self._open(_menus().PresetMenu(self.presets, self.settings), S_MENU, stamp)
                self._back = state
            elif state == S_PAUSED:
                menu = _menus().ArbiterMenu(self.game, self.left_player, self.plus_minus)
                self._open(menu, S_ARBITER, stamp)
            elif not self._info:  # running: the counters a while; again: the battery; again: hide
                self._info = INFO_COUNTERS
                self._info_until = ticks.add(stamp, INFO_MS)
            elif self._info == INFO_COUNTERS:
                self._info = INFO_BATTERY
                self._info_until = ticks.add(stamp, INFO_MS)
            else:
                self._info = 0
        elif action == act.MINUS and state == S_PAUSED:
            self._ask(_menus().undo_question(self.game, self.left_player), _DO_UNDO, stamp)
        elif (action == act.PLUS or action == act.MINUS) and state == S_READY:
            if self._sides_fixed:
                self.left_player = 1 - self.left_player

    def _ask_new_game(self, stamp):
        self._ask(_menus().new_game_question(self._came_from() == S_OVER), _DO_NEW_GAME, stamp)

    def _undo(self, stamp):
        if self.game.undo(stamp):
            self._need(_SAVE)
            self._tell(E_ARBITER, stamp)

    def _lever(self, side, stamp):
        game = self.game
        if self.state == S_READY:
            # The pressed lever starts the other side's clock: that side moves first; with
            # sides fixed by their controls, the first player's clock starts where it is shown.
            if not self._sides_fixed:
                self.left_player = 0 if side == 1 else 1
            game.start(stamp, 0)
            self.record.spec = self.spec
            self.record.tag = saved.new_tag()
            self._switched = stamp
            self._enter(S_RUNNING, stamp)
            self._need(_SAVE)
            self._tell(E_START, stamp)
        elif self.state in (S_RUNNING, S_INTERIM):
            player = self.player_on(side)
            if ticks.diff(stamp, self._switched) < CHORD_MS:
                return
            changed = game.press(player, stamp)
            if changed & DONE:
                self._switched = stamp
                self._need(_SAVE)
                self._tell(E_PRESS, stamp)
                if changed & STAGE_BEGAN:
                    self.sounds.stage_started(stamp)
                    self._tell(E_STAGE, stamp)
                self.sounds.forget()
            elif changed & GAME_OVER:  # the press came after a flag no tick had seen yet
                self._over(stamp)

    def _play(self, stamp):
        state = self.state
        if state in (S_RUNNING, S_INTERIM):
            changed = self.game.pause(stamp)
            if changed & DONE:
                self._enter(S_PAUSED, stamp)
                self._need(_SAVE)
                self._tell(E_PAUSE, stamp)
            elif changed & GAME_OVER:
                self._over(stamp)
        elif state == S_PAUSED:
            if self.game.resume(stamp):
                left, right = self.views(stamp)
                self._enter(S_INTERIM if left.flagged or right.flagged else S_RUNNING, stamp)
                self.sounds.forget()
                self._need(_SAVE)
                self._tell(E_RESUME, stamp)
        elif self.state >= _FIRST_MENU:
            self._menu_action(act.PLAY, stamp)

    def _menu_action(self, action, stamp):
        outcome = self.menu.act(action, stamp)
        if outcome is None:
            return
        state = self.state
        if state == S_MENU:
            if outcome == "edit":
                self._open(_menus().EditMenu(), S_EDIT, stamp)
                return
            self.set_muted(self.settings.muted)  # the menu's sound line changed the setting
            self._menu_done(outcome != "back", stamp)
        elif state == S_EDIT:
            if outcome != "back":
                self.settings.preset = self.presets.add("Custom", outcome)
                self.settings.save()
            self._menu_done(outcome != "back", stamp)
        elif state == S_CONFIRM:
            self._answered(outcome == "yes", stamp)
        elif state == S_ARBITER:
            self._enter(S_OVER if self.game.state() == OVER else S_PAUSED, stamp)
            self._need(_SAVE)
            self._tell(E_ARBITER, stamp)
        elif state == S_RESUME:
            if outcome == "resume":
                self.spec, self.left_player, self.game = self._offer
                self._offer = None
                self._enter(S_PAUSED, stamp)
            else:
                self._ask(_menus().drop_question(), _DO_DISCARD, stamp)

    def _menu_done(self, chosen, stamp):
        """The preset menu or the editor closed: a finished game's result stays until a new
        game is asked for, and asked again."""
        if self._back != S_OVER:
            self.new_game()
        elif chosen:
            self._ask_new_game(stamp)
        else:
            self._enter(S_OVER, stamp)

    def _answered(self, yes, stamp):
        do = self._yes
        if not yes:
            if do == _DO_DISCARD:
                self._open(_menus().ResumeMenu(self._offer[0], self.presets), S_RESUME, stamp)
            else:
                self._enter(self._back, stamp)
        elif do == _DO_UNDO:
            self._enter(self._back, stamp)
            self._undo(stamp)
        else:
            self._offer = None
            self.new_game()

    # --- time ----------------------------------------------------------------------------

    def tick(self, now):
        """Bring everything up to `now`: flags at their instant, tones, the battery, and what
        runs out (the counters shown, an unanswered question)."""
        self._need(_PLAN)
        self.gestures.poll(now)
        state = self.state
        if self._info and ticks.diff(self._info_until, now) <= 0:
            self._info = 0
            self._need(_DRAW)
        if state == S_CONFIRM and ticks.diff(self._question_until, now) <= 0:
            self._answered(False, now)
            state = self.state
        if state == S_RUNNING or state == S_INTERIM:
            game = self.game
            changed = game.update(now)
            if ticks.diff(now, self._saved_at) >= _SAVE_EVERY_MS:
                self._need(_SAVE)  # the move in progress, as of now
            if changed & GAME_OVER:  # a flag or a limit, at its exact instant
                self._over(now)
            else:
                if changed:
                    self._crossed(changed, now)
                mover = game.turn()
                # The mover's own side: render() then finds it up to date.
                view = self.left if mover == self.left_player else self.right
                self.sounds.observe(mover, game.view(mover, now, view), now)
        self.sounds.update(now)
        if ticks.diff(now, self._battery_at) >= _BATTERY_EVERY_MS:
            self._battery_at = now
            self._check_battery(now)

    def _crossed(self, changed, now):
        """What update() said the mover's time crossed: an interim flag, a stage, a period."""
        sounds = self.sounds
        if changed & FLAG_FELL:  # the flag is what is told, not the stage it led into
            sounds.flag(now)
            if self.state == S_RUNNING:
                self._enter(S_INTERIM, now)
            self._tell(E_FLAG, now)
        elif changed & STAGE_BEGAN:
            sounds.stage_started(now)
            self._tell(E_STAGE, now)
        elif changed & PERIOD_USED:
            sounds.period_used(now)

    def _over(self, now):
        self._enter(S_OVER, now)
        self._need(_SAVE)
        if self.game.reason() == TIME:
            self.sounds.flag(now)
        self._tell(E_OVER, self.game.end_stamp())

    def _check_battery(self, now):
        millivolts = self.hal.battery_mv()
        self.status.battery_low = self._gauge.low(millivolts)
        self.status.battery_percent = self._gauge.percent(millivolts)

    def render(self, now):
        """Set the lights; build the frame and write it to the display only when it changed."""
        self.lights.follow(self, now)
        if self.state >= _FIRST_MENU:
            menu = self.menu
            changed = self.screen.menu(menu.title, menu.lines(), menu.selected, now)
        else:
            self._fill_views(now)
            changed = self.screen.clock(self.left, self.right, self.status)
        if changed:
            self.hal.display.show(self.screen.frame, self.screen.dirty)
        return changed

    def _fill_views(self, now):
        game = self.game
        game.view(self.left_player, now, self.left)
        game.view(1 - self.left_player, now, self.right)
        status = self.status
        state = self.state
        status.paused = state == S_PAUSED
        status.info = self._info
        status.over = state == S_OVER
        status.left_player = self.left_player
        if self.left.flagged_first:
            status.first_flag_side = 0
        elif self.right.flagged_first:
            status.first_flag_side = 1
        else:
            status.first_flag_side = -1
        status.message = _MESSAGES.get(game.reason(), "") if self.state == S_OVER else ""

    def due(self, now):
        """Whether a pass at `now` has anything to do for the app (without an edge or a
        command): next_wake's stamp has come, or something changed since the last pass that
        did something."""
        if self._pending & (_DRAW | _PLAN):
            return True
        return (now - self._wake_at + _TICKS_HALF) & _TICKS_MASK >= _TICKS_HALF  # diff >= 0

    def next_wake(self, now):
        """The stamp of the next instant something is due: no polling for flags or digits.
        Kept until something changes (a tick, an action, a new game, the end of a pass that
        did something): a pass that woke early for nothing asks again for free."""
        if not self._pending & _PLAN:
            return self._wake_at
        wait = _MAX_SLEEP_MS
        state = self.state
        if state == S_RUNNING or state == S_INTERIM:
            game = self.game
            event = game.next_event(now)
            if event is not None:
                wait = _sooner(wait, ticks.diff(event, now))
            left = game.view(self.left_player, now, self.left)
            right = game.view(1 - self.left_player, now, self.right)
            wait = _sooner(wait, _until_shown_change(left))
            wait = _sooner(wait, _until_shown_change(right))
            wait = _sooner(wait, self.sounds.until_next(left if left.running else right))
            wait = _sooner(wait, self.screen.until_blink(left if left.running else right))
            wait = _sooner(wait, max(0, _SAVE_EVERY_MS - ticks.diff(now, self._saved_at)))
        if self._info:
            wait = _sooner(wait, ticks.diff(self._info_until, now))
        if state == S_CONFIRM:
            wait = _sooner(wait, ticks.diff(self._question_until, now))
        if state >= _FIRST_MENU:
            wait = _sooner(wait, self.screen.menu_wait(now))
        wait = _sooner(wait, self.lights.until_edge(now))
        due = self.gestures.due()
        if due is not None:
            wait = _sooner(wait, ticks.diff(due, now))
        due = self.sounds.tone_due()
        if due is not None:
            wait = _sooner(wait, ticks.diff(due, now))
        wake = ticks.add(now, wait if wait > 0 else 0)
        self._wake_at = wake
        self._pending &= ~_PLAN
        return wake


def _menus():
    """The menus module, loaded when a menu first opens: play needs none of it."""
    from app import menus

    return menus


def _sooner(wait, candidate):
    return candidate if 0 <= candidate < wait else wait


def _until_shown_change(view):
    """Milliseconds until any figure of `view` that is moving shows a different text."""
    wait = -1
    if view.running or view.counting_up:
        wait = display.until_change(view.time_ms, view.counting_up)
    if view.running:
        if view.delay_ms > 0:
            wait = _sooner_or(wait, display.until_change(view.delay_ms))
        if view.start_ms > 0:
            wait = _sooner_or(wait, display.until_change(view.start_ms))
        if view.penalty_ms > 0:
            wait = _sooner_or(wait, display.until_change(view.penalty_ms, True))
        if view.reserve_ms >= 0 and view.time_ms == 0:
            wait = _sooner_or(wait, display.until_change(view.reserve_ms))
    return wait


def _sooner_or(wait, candidate):
    if candidate < 0:
        return wait
    return candidate if wait < 0 or candidate < wait else wait
