# SPDX-License-Identifier: MIT
# The clock app: the game, the overlays over it, and from actions and time its frames and tones.
from micropython import const

from app import gestures as act
from app import saved
from app.game_store import GameStore
from app.lights import Lights
from app.presets import Presets
from app.settings import Settings
from app.sounds import Sounds
import ticks
from ticks import diff as _ticks_diff
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
    PAUSED,
    PERIOD_USED,
    READY,
    RUNNING,
    STAGE_BEGAN,
    TIME,
    Game,
    View,
)
from hal import buttons
from hal.battery import Gauge
from hal.storage import problem_text
from notation.errors import PresetError
from ui.status import INFO_BATTERY, INFO_COUNTERS, START_HINT, Status

# The clock's state is the game's phase (Game.state(): ready, running, paused, over; "interim"
# is running with a flag shown) and a stack of overlays over it (app.menus: the preset menu, the
# custom preset editor, the arbiter's menu, the resume offer, a question or a note). The phase
# is read from the game, never kept here; the display shows the top overlay, else the clocks.
# The serial protocol names a state by the top overlay's `name` (app.menus), else the phase.
PHASE_NAMES = ("ready", "running", "paused", "over")  # by Game.state()
INTERIM = "interim"

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
_ASLEEP_MS = const(60000)  # switched off, with USB power: the loop wakes for the watchdog only
_SAVE_EVERY_MS = const(10000)  # a running move is saved this often: a power cut costs at most this
# Both levers at once: the second lever, within this long of a switch, is the same chord and
# does not end the opponent's move at once.
CHORD_MS = const(30)
_BATTERY_EVERY_MS = const(10000)
INFO_MS = const(3000)  # SET while a clock runs shows the counters this long (7-segment modules)
_MESSAGES = {HALTED: "HALT", ARBITER: "END", ABORTED: "ABORT"}

# What the end of a pass must do, kept as one mask and set only through ClockApp._need().
_SAVE = const(1)  # the game changed: flush() saves it
_DRAW = const(2)  # changed outside a tick (an action, a new game): the next pass draws
_PLAN = const(4)  # the wake stamp must be worked out again
_RETIRE = const(8)  # a new game: the saved one is not to be offered again (owed after a refusal)
_RETRY_MS = const(5000)  # a write the store refused is tried again this long after
_NO_SAVE = "NO SAVE"  # the status line while the game on flash is behind the clock
_SLOW_SAVE = "SLOW SAVE"  # in play, the slot ring out of erased room: the files take the saves
_TIDY_MS = const(20)  # while no clock runs, the store's erases come this far apart
# The store's word when the saved game did not fit in memory at boot (resume=False): the clock
# plays on, and keeps that game on flash as it was, writing no game over it.
KEPT = "the saved game did not fit in memory: kept on flash, this clock's games not saved"


class ClockApp:
    hall = None  # app.hall's Hall, once the clock has a board number, a command or a link
    net_note = ""  # a Wi-Fi clock's word for the status line (app.hall_net: NET, NO NET)

    def __init__(self, hal, present, screen, now, record=None, resume=True):
        # Every game writes its record here: set aside first (main.py makes it before its
        # imports), while the heap is in one piece, and kept till the next start.
        self.record = record if record is not None else Record()
        self.hal = hal
        self.screen = screen
        self.plus_minus = buttons.PLUS in present and buttons.MINUS in present
        self.gestures = act.Gestures(present, self.on_action, self._play_at_once, self._repeats)
        # A screen whose ready screen changes by itself (the 7-segment modules' start hint).
        self._hint_wait = getattr(screen, "until_hint", None)
        self.settings = Settings(hal.storage)
        self.presets = Presets(hal.storage)
        self.sounds = Sounds(hal.buzzer)
        self.sounds.muted = self.settings.muted
        self.status = Status()
        self.status.muted = self.settings.muted
        self.lights = self.status.lights = Lights(hal.leds, now)
        self.left = View()
        self.right = View()
        self.overlays = []  # what lies over the game, the top one last (app.menus)
        self.listener = None  # called as listener(event, stamp) after it happened
        self.store_problem = (
            None  # what the store said when it last refused a write, till one it takes
        )
        self._owed = 0  # _SAVE, _RETIRE: writes the store refused, tried again from _retry_at
        self._retry_at = now
        self._switched = now  # stamp of the last switch of the clocks
        self._pending = _DRAW | _PLAN  # what the end of the pass must do: _need() sets it
        self._saved_at = now  # stamp of the last save
        self._wake_at = now  # what next_wake last answered, while _PLAN is clear
        self._battery_at = now
        self._gauge = getattr(hal, "gauge", None) or Gauge()  # the board's cells and current
        self.asleep = False  # switched off by the OFF hold: dark until a lever or PLAY
        self._dark = False  # the HAL is in standby
        # Bound once (a bound method taken in the loop is an allocation): the supply, and the
        # display's dimmer face where it has one.
        self._on_battery = getattr(hal, "on_battery", None)
        self._power_save = getattr(hal.display, "power_save", None)
        # A display whose send() returns while its bytes go out gets a press's bands first.
        self._early = getattr(hal.display, "overlaps", False) and hasattr(self.screen, "marks")
        # A driver that can lose its panel (hal/rp2040/ssd1306.py) says so in `failing`: each
        # render then gives it the frame, changed or not, to try again with.
        self._can_fail = hasattr(hal.display, "failing")
        self._info_until = now
        self._info = 0  # INFO_COUNTERS or INFO_BATTERY asked for (SET), until _info_until
        self._check_battery(now)
        settings = self.settings
        if settings.chosen is None and 0 <= settings.legacy_index < len(self.presets.items):
            settings.chosen = self.presets.items[settings.legacy_index].name
        # The game's saves: the flash slot ring in play where the HAL has one (hal/slots.py).
        slots = getattr(hal, "slots", None)
        self.store = GameStore(hal.storage, slots, None if slots is None else hal.feed)
        # resume=False: a boot that ran out of memory reading the saved game (main.py) leaves
        # it on flash untouched (the files and the ring); this clock writes no game over it,
        # erases none of the ring, and says so (KEPT).
        self.kept = not resume
        offer = self.store.load(self.record) if resume else None
        if self.kept:
            self._owed = _SAVE
            self.store_problem = KEPT
        elif self.store.from_slots:
            self._need(_SAVE)  # to the files at once: the ring's blocks are then erased
        if offer is None:
            self._fresh_game()
        else:
            self.spec, self.left_player, self.game = offer
            self._sides_fixed = True
            if self.game.state() != OVER:  # it lies paused under the offer: resuming is closing it
                self.push(_menus().ResumeMenu(self.spec, self.presets), now)

    # --- state -----------------------------------------------------------------------------

    def _need(self, bits):
        """The one place that asks the end of the pass for a save, a frame or a new wake."""
        self._pending |= bits

    def top(self):
        """The overlay on the display, or None: the clocks are."""
        overlays = self.overlays
        return overlays[-1] if overlays else None

    def push(self, overlay, stamp):
        """Show `overlay` over what is there; a question's wait starts at `stamp`."""
        wait = getattr(overlay, "wait_ms", None)
        if wait is not None:
            overlay.until = ticks.add(stamp, wait)
        self.overlays.append(overlay)
        self._need(_DRAW | _PLAN)

    def close(self, overlay):
        """Close `overlay` and whatever lies over it: what lay under it shows again."""
        overlays = self.overlays
        for index in range(len(overlays)):
            if overlays[index] is overlay:
                del overlays[index:]
                break
        self._need(_DRAW | _PLAN)

    def _play_at_once(self):
        """PLAY acts at the press (the minimal board) only while a clock runs."""
        return self.game.state() == RUNNING and not self.overlays

    def _repeats(self, action):
        """Whether `action` held down acts again: PLUS and MINUS (the levers, on a board without
        them) where the overlay on top steps through values, never over the clocks."""
        overlays = self.overlays
        if not overlays or (action <= act.LEVER_RIGHT and self.plus_minus):
            return False
        return overlays[-1].repeats()

    def state_name(self, now=None):
        """The clock's state as the serial protocol names it: the top overlay's, else the
        phase's ("interim": running with a flag shown); "off" while switched off."""
        if self.asleep:
            return "off"
        top = self.top()
        if top is not None:
            return top.name
        state = self.game.state()
        if state == RUNNING:
            left, right = self.views(self.hal.ticks_ms() if now is None else now)
            if left.flagged or right.flagged:
                return INTERIM
        return PHASE_NAMES[state]

    def in_progress(self):
        """A game has begun and not ended (a saved game offered on boot counts)."""
        state = self.game.state()
        return state == RUNNING or state == PAUSED

    def editing_presets(self):
        """The preset menu or the custom preset editor is open on the clock."""
        for overlay in self.overlays:
            if overlay.name == "menu" or overlay.name == "edit":
                return True
        return False

    def open_menu(self):
        """The overlay on the display (its title, lines() and selected), or None."""
        return self.top()

    # --- games ---------------------------------------------------------------------------

    def chosen_index(self):
        """The chosen preset's place in the list (the first when its name is not there)."""
        chosen = self.settings.chosen
        index = -1 if chosen is None else self.presets.index_of(chosen)
        return index if index >= 0 else 0

    def preset(self):
        return self.presets.items[self.chosen_index()]

    def new_game(self, stamp=None):
        """A new game on the chosen preset: what was on the clock (a game, a result, the
        overlays over them) goes, and the saved game is no longer offered."""
        self.overlays = []
        self._fresh_game()
        self._pending &= ~_SAVE  # a save still pending is of the game just dropped
        self._owed &= ~_SAVE
        self._retire()
        self._tell(E_NEW, self.hal.ticks_ms() if stamp is None else stamp)

    def game_preset_name(self):
        """The name of the game's preset in the list, or None (a saved game's preset since
        deleted)."""
        chosen = self.preset()
        if chosen.spec == self.spec:
            return chosen.name
        return self.presets.name_of(self.spec)

    def choose_preset(self, index):
        """The preset for the next game, stored (OSError: nothing changes). A clock with no game
        and no result on it shows it at once; a result stays until a new game is asked for."""
        self.settings.store(self.settings.muted, self.presets.items[index].name)
        if self.game.state() == READY:
            self.new_game()

    def add_preset(self, name, spec, replace=False):
        """Add a preset, or with `replace` replace the one of that name; its index. When it
        replaces the chosen preset while the clock is ready, the clock shows its new times.
        Raises PresetError (a name already there without `replace` too) and OSError when the
        store refuses, the list then as it was."""
        index = self.presets.add(name, spec, replace)
        if self.game.state() == READY and index == self.chosen_index():
            self.new_game()
        return index

    def delete_preset(self, index):
        """Delete a preset (not the game in progress's: ValueError); OSError when the store
        refuses, the list then as it was. Deleting the chosen one chooses the first."""
        chosen = self.chosen_index()
        if index == chosen and self.in_progress():
            raise ValueError("the game in progress's preset")
        self.presets.remove(index)
        if index == chosen:
            try:
                self.settings.store(self.settings.muted, self.presets.items[0].name)
            except OSError:  # the name stored is gone from the list, which reads as the first
                pass
            if self.game.state() == READY:
                self.new_game()

    def set_muted(self, muted):
        """Sound off or on, stored (OSError: nothing changes)."""
        self.settings.store(muted, self.settings.chosen)
        self.sounds.muted = self.status.muted = muted

    def views(self, now):
        """The left and right sides' Views, filled for `now`."""
        self._fill_views(now)
        return self.left, self.right

    def _tell(self, event, stamp):
        if self.listener is not None:
            self.listener(event, stamp)

    def _fresh_game(self):
        preset = self.preset()
        try:
            setup = preset.setup()
        except PresetError:  # a stored preset this firmware no longer reads: the first one
            preset = self.presets.items[0]
            self.settings.chosen = preset.name
            setup = preset.setup()
        self.game = Game(setup, self.record)
        self.spec = preset.spec
        # Controls that differ (Armageddon, handicaps) are shown on their sides before the
        # start, and the first press starts the first player's clock on the side shown.
        self._sides_fixed = not (setup.first == setup.second)
        self.left_player = 0
        self._info = 0
        self.sounds.forget()
        self._need(_DRAW | _PLAN)

    def player_on(self, side):
        """The player (0 first, 1 second) whose lever is on `side` (0 left, 1 right)."""
        return self.left_player if side == 0 else 1 - self.left_player

    # --- what overlays ask of the game --------------------------------------------------

    def corrected(self, stamp):
        """An arbiter's correction was made: saved at the end of the pass, and told."""
        self._need(_SAVE)
        self._tell(E_ARBITER, stamp)

    def undo(self, stamp):
        if self.game.undo(stamp):
            self.corrected(stamp)

    def end_by_arbiter(self, stamp):
        if self.game.end_by_arbiter(stamp) & GAME_OVER:
            self._over(stamp)

    def ask_new_game(self, stamp):
        menus = _menus()
        self.push(menus.new_game_question(self.game.state() == OVER, self.new_game), stamp)

    # --- the game on flash ---------------------------------------------------------------

    def _retire(self):
        if self.kept:  # no game of this clock's goes to flash, a new one's neither: NO SAVE
            self._owed |= _SAVE
            return
        refused = self.store.retire()
        if refused is None:
            self._paid(_RETIRE)
        else:
            self._owe(_RETIRE, refused, self.hal.ticks_ms())

    def _save(self, now):
        self._saved_at = now  # a refused save is tried again at the next save, or the retry
        if self.kept:
            return
        refused = self.store.save(self.spec, self.left_player, self.game, now)
        if refused is None:
            self._paid(_SAVE | _RETIRE)  # the file now holds this game: nothing older is offered
        else:
            self._owe(_SAVE, refused, now)

    def _owe(self, bit, error, now):
        """The store refused a write of the game: say so, and try again in a while. A clock
        that runs goes on exactly: only the copy on flash is behind."""
        first = not self._owed or self.asleep
        self.asleep = False  # switched off with its game not stored: on again, to say so
        self._owed |= bit
        self._retry_at = ticks.add(now, _RETRY_MS)
        self.store_problem = problem_text(error)
        self._need(_DRAW | _PLAN)
        if first and self.game.state() != RUNNING:
            self.push(_menus().store_note(self.store_problem), now)

    def _paid(self, bits):
        if self._owed:
            self._owed &= ~bits
            self._need(_DRAW | _PLAN)
        if not self._owed:
            self.store_problem = None

    def save_now(self, now):
        """Save the game in progress as of `now`, not waiting for the next 10 s save (the page
        whose tab is hidden or closed: a reload then gives no time back)."""
        if self.in_progress():
            self._save(now)
            self._pending &= ~_SAVE

    def flush(self, now):
        """The end of a pass that did something: save the game if it changed (_SAVE), or try
        again what the store refused.

        The save comes after the frame that shows the change: a press is on the display first.
        Its stamp was taken in the IRQ, so waiting changes nothing of its timing; a power cut
        in the few ms before the save loses that press alone (the clock resumes from the
        position before it).
        """
        pending = self._pending
        self._pending = _PLAN | pending & _DRAW  # a frame still owed is render()'s to clear
        if pending & _RETIRE:
            self._retire()
        if pending & _SAVE:
            self._save(now)

    def tidy(self, now):
        """The store's upkeep, an erase at most, while no clock runs (Runner.step, at the end
        of a pass): erased slots for the next run of play."""
        if self.game.state() != RUNNING and not self.kept and self.store.untidy():
            self.store.tidy()
            self._need(_PLAN)

    # --- input ---------------------------------------------------------------------------

    def on_action(self, action, stamp):
        # A lever's way through here is kept short: each frame above 11 words of state is taken
        # from the heap on MicroPython, at a cost the press would pay.
        self._pending |= _DRAW | _PLAN
        if self.overlays or action >= act.RESET or self.asleep:
            self._over_the_game(action, stamp)
        elif action == act.LEVER_LEFT or action == act.LEVER_RIGHT:
            self._lever(0 if action == act.LEVER_LEFT else 1, stamp)
        elif action == act.PLAY:
            self._play(stamp)
        elif action == act.SET:
            self._set(stamp)
        else:
            state = self.game.state()
            if action == act.MINUS and state == PAUSED:
                self.push(_menus().undo_question(self.game, self.left_player, self.undo), stamp)
            elif state == READY and self._sides_fixed:  # PLUS or MINUS: swap the sides
                self.left_player = 1 - self.left_player

    def _over_the_game(self, action, stamp):
        """An action with an overlay open, the reset and off gestures, or any action while the
        clock is off: the top overlay takes it, or the clock switches off or on."""
        if self.asleep:
            if action <= act.PLAY:  # a lever or PLAY: what woke a dormant chip
                self.asleep = False
            return
        if action == act.OFF:
            self._switch_off()
            return
        top = self.top()
        if top is not None and not self.plus_minus:
            # Without PLUS and MINUS, the levers stand in for them over the clocks.
            if action == act.LEVER_LEFT:
                action = act.MINUS
            elif action == act.LEVER_RIGHT:
                action = act.PLUS
        if action == act.RESET:
            self._reset(top, stamp)
        else:
            top.act(self, action, stamp)

    def _reset(self, top, stamp):
        """The reset gesture (SET held): a new game where nothing is lost, else asked first;
        nothing while a clock runs or a preset menu is open. Over a question it asks instead."""
        if top is not None:
            if top.name == "menu" or top.name == "edit":
                return
            if top.name == "confirm":
                self.close(top)
        state = self.game.state()
        if state == RUNNING:
            return
        if state == READY and not self.overlays:
            self.new_game(stamp)
        else:
            self.ask_new_game(stamp)

    def _switch_off(self):
        """The OFF hold (SET, or PLAY without SET, held 5 s): the game saved, the display and
        lights dark and, on battery, the chip dormant until a lever or PLAY. Never while a clock
        runs (pause first); the question the reset hold asked on the way is dropped."""
        if self.game.state() == RUNNING:
            return
        top = self.top()
        if top is not None and top.name == "confirm":
            self.close(top)
        self.asleep = True
        self._info = 0
        if self.in_progress():
            self._need(_SAVE)

    def _set(self, stamp):
        state = self.game.state()
        if state == READY or state == OVER:
            self.push(_menus().PresetMenu(self.presets, self.settings, self.chosen_index()), stamp)
        elif state == PAUSED:
            digits = getattr(self.screen, "CELLS", 0) > 0  # the 7-segment modules
            menu = _menus().ArbiterMenu(self.game, self.left_player, self.plus_minus, digits)
            self.push(menu, stamp)
        elif not self._info:  # running: the counters a while; again: the battery; again: hide
            self._info = INFO_COUNTERS
            self._info_until = ticks.add(stamp, INFO_MS)
        elif self._info == INFO_COUNTERS:
            self._info = INFO_BATTERY
            self._info_until = ticks.add(stamp, INFO_MS)
        else:
            self._info = 0

    def _lever(self, side, stamp):
        game = self.game
        state = game.state()
        if state == READY:
            # The pressed lever starts the other side's clock: that side moves first; with
            # sides fixed by their controls, the first player's clock starts where it is shown.
            if not self._sides_fixed:
                self.left_player = 0 if side == 1 else 1
            game.start(stamp, 0)
            self.record.spec = self.spec
            self.record.tag = saved.new_tag()
            self._switched = stamp
            self._need(_SAVE)
            self._tell(E_START, stamp)
        elif state == RUNNING:
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
        game = self.game
        state = game.state()
        if state == RUNNING:
            changed = game.pause(stamp)
            if changed & DONE:
                self._info = 0
                self._need(_SAVE)
                self._tell(E_PAUSE, stamp)
            elif changed & GAME_OVER:
                self._over(stamp)
        elif state == PAUSED:
            if game.resume(stamp):
                self.sounds.forget()
                self._need(_SAVE)
                self._tell(E_RESUME, stamp)

    # --- time ----------------------------------------------------------------------------

    def tick(self, now):
        """Bring everything up to `now`: flags at their instant, tones, the battery, and what
        runs out (the counters shown, an unanswered question, a refused write's wait)."""
        self._need(_PLAN)
        self.gestures.poll(now)
        if self._info and ticks.diff(self._info_until, now) <= 0:
            self._info = 0
            self._need(_DRAW)
        overlays = self.overlays
        if overlays:
            top = overlays[-1]
            if top.until is not None and ticks.diff(top.until, now) <= 0:
                self.close(top)  # a question not answered is a no; a note goes
        game = self.game
        if game.state() == RUNNING:
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
        if self._owed and ticks.diff(now, self._retry_at) >= 0:
            self._retry_at = ticks.add(now, _RETRY_MS)
            self._need(self._owed)
        self.sounds.update(now)
        if ticks.diff(now, self._battery_at) >= _BATTERY_EVERY_MS:
            self._battery_at = now
            self._check_battery(now)

    def _crossed(self, changed, now):
        """What update() said the mover's time crossed: an interim flag, a stage, a period."""
        sounds = self.sounds
        if changed & FLAG_FELL:  # the flag is what is told, not the stage it led into
            sounds.flag(now)
            self._need(_DRAW)
            self._tell(E_FLAG, now)
        elif changed & STAGE_BEGAN:
            sounds.stage_started(now)
            self._tell(E_STAGE, now)
        elif changed & PERIOD_USED:
            sounds.period_used(now)

    def _over(self, now):
        self._info = 0
        self._need(_SAVE | _DRAW | _PLAN)
        if self.game.reason() == TIME:
            self.sounds.flag(now)
        self._tell(E_OVER, self.game.end_stamp())

    def _check_battery(self, now):
        millivolts = self.hal.battery_mv()
        status = self.status
        low = self._gauge.low(millivolts)
        percent = self._gauge.percent(millivolts)
        if low != status.battery_low or percent != status.battery_percent:
            status.battery_low = low
            status.battery_percent = percent
            self._need(_DRAW)
        on_battery = self._on_battery
        battery = on_battery is not None and on_battery()
        if battery != status.on_battery:
            # On battery the faces and lights cost less: the OLED's contrast, the TM1637's
            # brightness (ui/seg7.py), a running light's flash (app/lights.py).
            status.on_battery = battery
            self.lights.battery(battery)
            if self._power_save is not None:
                self._power_save(battery)
            self._need(_DRAW | _PLAN)

    def render(self, now, press=False):
        """Set the lights; build the frame and write it to the display only when it changed.
        For a lever's `press` the screen may leave a slow part to the next render (owed).
        Switched off, nothing is drawn: the HAL is put in standby once, and out of it at the
        first render after the wake."""
        if self.asleep or self._dark:
            if self.asleep == self._dark:
                return False
            self._dark = self.asleep
            self.hal.standby(self.asleep)
            if self.asleep:
                return False
            self._need(_PLAN)
        self._pending &= ~_DRAW  # drawn: owes_frame() says whether anything changed since
        self.lights.follow(self, now)
        overlays = self.overlays
        screen = self.screen
        if overlays:
            top = overlays[-1]
            changed = screen.menu(top.title, top.lines(), top.selected, now)
        else:
            sent = False
            if press and self._early:
                # The bands go out while the views and the digits are built: they need only the
                # side on move (a View's `running`), so the press shows sooner.
                game = self.game
                turn = game.turn() if game.state() == RUNNING else -1
                left = self.left_player
                if screen.marks(turn == left, turn == 1 - left, self.status):
                    self.hal.display.send(screen.frame, screen.dirty)
                    sent = True
            self._fill_views(now)
            changed = screen.clock(self.left, self.right, self.status, press) or sent
            if screen.deferred:
                self._pending |= _DRAW
        if not changed and self._can_fail and self.hal.display.failing:
            changed = True  # the picture the panel lost, at each pass till it shows again
        if changed:
            if self._early and not press:
                # Goes out while the pass goes on (a press then waits for no tick's bytes);
                # the HAL waits for it before a sleep, the next show() before its own.
                self.hal.display.send(screen.frame, screen.dirty)
            else:
                self.hal.display.show(screen.frame, screen.dirty)  # waits for what send() began
        return changed

    def display_health(self):
        """{"showing", "lost", "recovered", "failed_writes"} as the display's driver counts
        them (whether the panel takes the frame, the times it stopped and came back, the writes
        that failed), or None for a display that cannot fail (a desktop HAL's, SPI's)."""
        health = getattr(self.hal.display, "health", None)
        if health is None:
            return None
        showing, lost, recovered, errors = health()
        return {"showing": showing, "lost": lost, "recovered": recovered, "failed_writes": errors}

    def owes_frame(self):
        """Whether something changed since the last render() that a render at the same instant
        would show: an action, a new game, a flag, an overlay, the battery figure. (What a
        running clock shows changes with `now` alone.)"""
        return self._pending & _DRAW != 0

    def _fill_views(self, now):
        game = self.game
        game.view(self.left_player, now, self.left)
        game.view(1 - self.left_player, now, self.right)
        status = self.status
        state = game.state()
        status.paused = state == PAUSED
        status.info = self._info
        status.over = state == OVER
        status.left_player = self.left_player
        if self.left.flagged_first:
            status.first_flag_side = 0
        elif self.right.flagged_first:
            status.first_flag_side = 1
        else:
            status.first_flag_side = -1
        status.now = now
        if self._owed & _SAVE:
            status.message = _NO_SAVE
        elif state == OVER:
            status.message = _MESSAGES.get(game.reason(), "")
        elif state == READY:
            # How to start; a Wi-Fi clock says instead whether it is on its hall's broker,
            # which an arbiter checks before the round.
            status.message = self.net_note or START_HINT
        elif state == PAUSED:
            status.message = ""
        else:
            status.message = _SLOW_SAVE if self.store.slow else self.net_note

    def due(self, now):
        """Whether a pass at `now` has anything to do for the app (without an edge or a
        command): next_wake's stamp has come, or something changed since the last pass that
        did something."""
        if self._pending & (_DRAW | _PLAN):
            return True
        return _ticks_diff(now, self._wake_at) >= 0

    def next_wake(self, now):
        """The stamp of the next instant something is due: no polling for flags or digits.
        Kept until something changes (a tick, an action, a new game, the end of a pass that
        did something): a pass that woke early for nothing asks again for free."""
        if not self._pending & _PLAN:
            return self._wake_at
        if self.asleep:  # only a lever or PLAY; the HAL waits dormant on battery
            self._wake_at = ticks.add(now, _ASLEEP_MS)
            self._pending &= ~_PLAN
            return self._wake_at
        wait = _MAX_SLEEP_MS
        if self.status.on_battery:
            # On battery nothing but the next look at the supply needs a pass that nothing else
            # asked for (each wake costs the crystal's start and a pass at 125 MHz); a pass
            # within the second takes the look too.
            wait = max(wait, _BATTERY_EVERY_MS - ticks.diff(now, self._battery_at))
        game = self.game
        if game.state() == RUNNING:
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
        else:
            if not self.kept and self.store.untidy():
                wait = _sooner(wait, _TIDY_MS)
            if self._hint_wait is not None and not self.overlays and game.state() == READY:
                wait = _sooner(wait, self._hint_wait(self.status, now))
        if self._info:
            wait = _sooner(wait, ticks.diff(self._info_until, now))
        overlays = self.overlays
        if overlays:
            until = overlays[-1].until
            if until is not None:
                wait = _sooner(wait, max(0, ticks.diff(until, now)))
            wait = _sooner(wait, self.screen.menu_wait(now))
        if self._owed:
            wait = _sooner(wait, max(0, ticks.diff(self._retry_at, now)))
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


def built(hal, present, screen, record, free):
    """The app at boot, the saved game offered back. Where reading the saved game runs out of
    memory (the stock path's heap: its modules are compiled into RAM), free(tries_left) makes
    room (main.py: the floor freed, a collection) and it is read again; at the last try the
    clock starts on a new game and leaves the saved one on flash as it was (resume=False,
    KEPT). A MemoryError even then is raised."""
    for tries in (2, 1, 0):
        try:
            return ClockApp(hal, present, screen, hal.ticks_ms(), record, tries > 0)
        except MemoryError:
            if not tries:
                raise
        free(tries - 1)


def _menus():
    """The menus module, loaded when a menu first opens: play needs none of it."""
    from app import menus

    return menus


def _sooner(wait, candidate):
    return candidate if 0 <= candidate < wait else wait


def _until_shown_change(view):
    """Milliseconds until any figure of `view` that is moving shows a different text."""
    wait = -1
    if (view.running or view.counting_up) and not (view.running and view.delay_ms > 0):
        # (while a delay runs the time waits for it: its end is the game's next event)
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
