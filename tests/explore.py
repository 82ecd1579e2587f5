# SPDX-License-Identifier: MIT
# The app's reachable states, walked: from every state reached, every input; the invariants
# checked after each step. Plain Python: the unix port runs it as CPython does.
#
# A state is identified by what decides the app's next moves (the overlays and what they show,
# the game's phase, plies, flags and result, the choice, the sound), not by its times: the
# walk is breadth first over those, each new one explored once, up to a depth. A path of inputs
# is replayed from a fresh clock (everything is deterministic in virtual time), so no state is
# ever copied. Invariants after every step:
#   - no step raises (the loop's render() and tick() included);
#   - a result (a flag, an arbiter's end, a limit) stands until a confirmed new game: SET on
#     "New game?" or the serial NEW; a power cut and restart brings it back as it was;
#   - a game that is not running changes its times only by a correction, a resume or a start
#     (each tells the listener) or a new game;
#   - at each new state, what the app stored restores: a restart on a copy of the files shows
#     the same presets, choice and sound, the game in progress offered with its saved position
#     (a paused one exactly), a finished game's result as it was.
from clock.game import OVER, PAUSED, READY, RUNNING, View
from fakes.fake_fs import FakeFs
from hal import buttons as b
from harness import FULL, MINIMAL
from serial_fakes import SerialClock
from sim.hal_base import KeptDisplay
from support import parsers_kept

QUICK = "chessclock:2/10s, G/10s"  # an interim flag at 10 s, the end at 20 s
E_START, E_RESUME, E_ARBITER = 1, 4, 8  # app.clock_app's events that change a waiting game's times
CONFIRMING = ("New game?", "Drop the saved game?")

# The inputs: (name, kind, argument). Kinds: a button held so long (ms), a wait (ms, or 0:
# to the app's next wake), a command line, a power cut, the supply (True: on battery, then the
# 10 s the app takes to notice).
TAP = 80
FULL_INPUTS = (
    ("lever L", "button", (b.LEFT, TAP)),
    ("lever R", "button", (b.RIGHT, TAP)),
    ("PLAY", "button", (b.PLAY, TAP)),
    ("SET", "button", (b.SET, TAP)),
    ("PLUS", "button", (b.PLUS, TAP)),
    ("MINUS", "button", (b.MINUS, TAP)),
    ("SET touched 15 ms", "button", (b.SET, 15)),
    ("SET held 1.2 s", "button", (b.SET, 1200)),
    ("SET held 2.7 s", "button", (b.SET, 2700)),
    ("SET held 5.5 s", "button", (b.SET, 5500)),
    ("PLUS held 1.5 s", "button", (b.PLUS, 1500)),
    ("wait for the next wake", "wait", 0),
    ("wait 3.5 s", "wait", 3500),
    ("wait 12 s", "wait", 12000),
    ("PRESET USE 1", "serial", "PRESET USE 1"),
    ("PRESET USE 17", "serial", "PRESET USE 17"),
    ("NEW", "serial", "NEW"),
    ("PRESET ADD", "serial", "PRESET ADD Club = 3+2"),
    ("PRESET DEL 1", "serial", "PRESET DEL 1"),
    ("SET MUTE ON", "serial", "SET MUTE ON"),
    ("power cut", "cut", None),
    ("USB out", "supply", True),
    ("USB in", "supply", False),
)
# Where the walks start besides a fresh clock: a game paused after two plies, a game over on
# time, a game offered back after a power cut (input names both boards have).
SEEDS = (
    (),
    ("lever R", "lever L", "lever R", "PLAY"),
    ("lever R", "wait 12 s", "wait 12 s"),
    ("lever R", "lever L", "power cut"),
)
MINIMAL_INPUTS = (
    ("lever L", "button", (b.LEFT, TAP)),
    ("lever R", "button", (b.RIGHT, TAP)),
    ("PLAY", "button", (b.PLAY, TAP)),
    ("PLAY touched 15 ms", "button", (b.PLAY, 15)),
    ("PLAY held 1.2 s", "button", (b.PLAY, 1200)),
    ("PLAY held 2.7 s", "button", (b.PLAY, 2700)),
    ("PLAY held 5.5 s", "button", (b.PLAY, 5500)),
    ("wait for the next wake", "wait", 0),
    ("wait 12 s", "wait", 12000),
    ("NEW", "serial", "NEW"),
    ("power cut", "cut", None),
    ("USB out", "supply", True),
)


class SendingDisplay(KeptDisplay):
    """The kept frame on a display whose send() returns while its bytes go out (DMA, as the I2C
    OLED boards have it): the app sends a press's bands first and other frames unwaited."""

    overlaps = True

    def send(self, frame, dirty=None):
        self.show(frame, dirty)


class Walk:
    """One path of inputs played on one clock, checking each step; `display` makes the HAL's
    display (None: the kept frame)."""

    def __init__(self, present, screen_class, display=None):
        self.present = present
        self.screen_class = screen_class
        self.display = display
        self.fs = FakeFs()
        self.now = 1000
        self.clock = self._boot()
        app = self.clock.app
        app.choose_preset(app.add_preset("Quick", QUICK))  # number 17
        self.clock.run_until(self._later(100))

    def _boot(self):
        screen = None if self.screen_class is None else self.screen_class()
        clock = SerialClock(
            present=self.present, screen=screen, fs=self.fs, start=self.now, display=self.display
        )
        self.events = []
        told = clock.app.listener

        def listen(event, stamp):
            self.events.append(event)
            told(event, stamp)

        clock.app.listener = listen
        return clock

    def _later(self, ms):
        self.now += ms
        return self.now

    def step(self, name, kind, argument):
        """Play one input and check the invariants; AssertionError names what broke."""
        before = Facts(self.clock)
        del self.events[:]
        clock = self.clock
        if kind == "button":
            button, hold = argument
            clock.press(button, self._later(10), hold)
            clock.run_until(self._later(hold + 200))
        elif kind == "wait":
            if argument:
                clock.run_until(self._later(argument))
            else:
                wake = clock.app.next_wake(self.now)
                self.now = max(self.now + 1, wake)
                clock.run_until(self.now)
        elif kind == "serial":
            clock.ask(argument)
            clock.run_until(self._later(200))
        elif kind == "supply":
            clock.hal.battery_powered = argument
            clock.run_until(self._later(10200))
        else:
            battery = clock.hal.battery_powered
            self.now += 5000
            self.clock = self._boot()
            self.clock.hal.battery_powered = battery
            self.clock.run_until(self._later(100))
        after = Facts(self.clock)
        # A game goes only by a yes to a question that asked for it, or by NEW over serial.
        confirmed = argument == "NEW" or before.question in CONFIRMING
        after.check_after(before, name, kind, confirmed, self.events)

    def check_restart(self):
        """What the app stored restores, on a copy of the files."""
        app = self.clock.app
        copy = SerialClock(present=self.present, fs=self.fs.copy(), start=self.now + 5000)
        again = copy.app
        if again.store.from_slots:
            FROM_SLOTS[0] += 1  # a running game's restart, read from the slot ring
        assert [(p.name, p.spec) for p in again.presets.items] == [
            (p.name, p.spec) for p in app.presets.items
        ], "the preset list restores"
        assert again.chosen_index() == app.chosen_index(), "the choice restores"
        assert again.settings.muted == app.settings.muted, "the sound restores"
        game, restored = app.game, again.game
        state = game.state()
        if state == READY:
            assert restored.state() == READY, "a ready clock restarts ready"
        elif state == OVER:
            assert restored.state() == OVER and again.top() is None, "a result restores"
            assert restored.reason() == game.reason() and restored.loser() == game.loser()
            assert restored.end_stamp() == game.end_stamp()
            assert times(restored) == times(game), "a result restores with its times"
        else:
            assert again.state_name() == "resume", "a game in progress is offered"
            assert restored.plies() == game.plies() and restored.turn() == game.turn()
            if state == PAUSED:
                assert restored.snapshot() == game.snapshot(), "a paused game restores exactly"


class Facts:
    """What a step must keep: the phase, the result, the times of a game that waits."""

    def __init__(self, clock):
        app = clock.app
        game = app.game
        self.game = game
        self.phase = game.state()
        self.result = (game.reason(), game.loser(), game.end_stamp())
        self.times = times(game) if self.phase != RUNNING else None
        top = app.top()
        self.question = top.title if top is not None and top.name == "confirm" else None
        self.name = app.state_name(clock.hal.now)
        app.render(clock.hal.now)  # never raises, whatever is on the display

    def check_after(self, before, name, kind, confirmed, events):
        where = "%s, from %s" % (name, before.name)
        if before.phase == OVER and not confirmed:
            assert self.phase == OVER, "%s: the result was cleared" % where
            assert self.result == before.result, "%s: the result changed" % where
            assert self.times == before.times, "%s: a finished game's times changed" % where
        if kind == "cut":
            if before.phase == PAUSED:
                assert self.times == before.times, "%s: a paused game came back changed" % where
            return
        if self.game is not before.game:
            assert before.phase == READY or confirmed, "%s: a game was dropped unasked" % where
            return
        charged = E_START in events or E_RESUME in events or E_ARBITER in events
        if before.times is not None and self.times is not None and not charged:
            assert self.times == before.times, "%s: the times changed in a %s game" % (
                where,
                ("ready", "running", "paused", "over")[before.phase],
            )


def times(game):
    view = View()
    first = game.view(0, 0, view).time_ms
    return first, game.view(1, 0, view).time_ms


def key(clock):
    """What identifies a state for the walk: not its times."""
    app = clock.app
    game = app.game
    top = app.top()
    shown = None
    if top is not None:
        if top.name == "arbiter":
            shown = (top.field, top.asking, game.can_undo())
        elif top.name == "menu":
            shown = (top.index, top.confirming)
        elif top.name == "edit":
            shown = (top.selected, top.values[2])
        else:
            shown = top.title
    left, right = app.views(clock.hal.now)
    return (
        tuple([overlay.name for overlay in app.overlays]),
        shown,
        game.state(),
        min(game.plies(), 2),
        game.can_undo(),
        game.reason(),
        left.flagged,
        right.flagged,
        app.chosen_index(),
        len(app.presets.items),
        app.settings.muted,
        app.asleep,
        app.status.on_battery,
    )


FROM_SLOTS = [0]  # restarts whose game came back from the slot ring (app/game_store.py)


def walk(
    present=FULL,
    inputs=FULL_INPUTS,
    screen_class=None,
    depth=4,
    seeds=((),),
    limit=100000,
    display=None,
):
    """Breadth first, each new state explored once, up to `depth` inputs from one of the
    `seeds` (paths of input names from a fresh clock: the walk starts where they lead, so it
    reaches deep states for the price of shallow ones) and `limit` states, on a HAL whose
    display `display` makes (None: the kept frame). Returns (states, transitions, deepest)."""
    return parsers_kept(_walk, present, inputs, screen_class, depth, seeds, limit, display)


def _walk(present, inputs, screen_class, depth, seeds, limit, display):
    names = [name for name, _kind, _argument in inputs]
    seen = {}
    frontier = []
    for seed in seeds:
        route = tuple([names.index(name) for name in seed])
        walker, found = _played(present, screen_class, inputs, route, display)
        if found not in seen:
            seen[found] = 0
            walker.check_restart()
            frontier.append(route)
    transitions = 0
    deepest = 0
    for level in range(depth):
        following = []
        for path in frontier:
            for index in range(len(inputs)):
                route = path + (index,)
                walker, found = _played(present, screen_class, inputs, route, display)
                transitions += 1
                if found in seen or len(seen) >= limit:
                    continue
                seen[found] = level + 1
                deepest = level + 1
                walker.check_restart()
                following.append(route)
        frontier = following
    return len(seen), transitions, deepest


def _played(present, screen_class, inputs, route, display):
    """(the walker after `route`, its state's key); AssertionError naming the route when a step
    broke an invariant or raised."""
    walker = Walk(present, screen_class, display)
    try:
        for step in route:
            walker.step(*inputs[step])
        return walker, key(walker.clock)
    except Exception as error:  # a broken invariant, or a crash: say the path
        raise AssertionError(
            "%s %s after: %s"
            % (type(error).__name__, error, " / ".join([inputs[s][0] for s in route]))
        )
