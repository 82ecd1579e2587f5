# The running-side lights: each side's light mode from the app's state, and its level at any stamp.
#
# Running (an interim flag too): the running side ON, the other OFF. Paused, in the arbiter's
# menu, after an undo: the side on move SLOW. Over on time: the side that flagged first FAST.
# Ready, menus, an end by the arbiter or a limit: both OFF. A blink starts lit at the stamp its
# mode began, so the level at any `now` is known without keeping time, and so is the next edge.
from micropython import const

from clock import ticks
from clock.game import PAUSED, RUNNING, TIME

OFF = const(0)
ON = const(1)
SLOW = const(2)  # 500 ms lit, 500 ms dark
FAST = const(3)  # 125 ms lit, 125 ms dark
MODE_NAMES = ("off", "on", "slow", "fast")
_SLOW_MS = const(500)
_FAST_MS = const(125)

# What an app state shows, by its name in the app's STATE_NAMES.
_DARK = const(0)
_RUN = const(1)  # the side on move ON
_STAND = const(2)  # the clocks stand: the side on move SLOW
_END = const(3)  # over: on time, the side that flagged first FAST
_GAME = const(4)  # a state not named here: as the game's own state says
_KINDS = {
    "ready": _DARK,
    "running": _RUN,
    "interim": _RUN,
    "paused": _STAND,
    "arbiter": _STAND,
    "over": _END,
    "menu": _DARK,
    "edit": _DARK,
    "resume": _DARK,
}


def modes(kind, on_move, flagged):
    """The two sides' modes packed as left | right << 2, for a state of `kind`, the side on
    move `on_move` (0 left, 1 right) and the side that flagged first on a loss on time
    (`flagged`, -1 none)."""
    if kind == _RUN:
        return ON << 2 * on_move
    if kind == _STAND:
        return SLOW << 2 * on_move
    if kind == _END and flagged >= 0:
        return FAST << 2 * flagged
    return 0


def level(mode, since, now):
    """Whether a light in `mode`, since stamp `since`, is lit at `now`."""
    if mode < SLOW:
        return mode == ON
    half = _SLOW_MS if mode == SLOW else _FAST_MS
    return ticks.diff(now, since) // half % 2 == 0


def until_edge(mode, since, now):
    """Milliseconds from `now` until a light in `mode` since `since` turns on or off; -1:
    never (steady)."""
    if mode < SLOW:
        return -1
    half = _SLOW_MS if mode == SLOW else _FAST_MS
    return half - ticks.diff(now, since) % half


class Lights:
    """The app's two lights on `leds` (hal.leds). follow() takes the modes from the app and
    writes the levels; `left` and `right` are the modes, `since` when they began, `left_lit`
    and `right_lit` the levels written. Allocates nothing after construction."""

    def __init__(self, leds, state_names, now=0):
        self.leds = leds
        self._kinds = bytes([_KINDS.get(name, _GAME) for name in state_names])
        self.left = OFF
        self.right = OFF
        self.since = now
        self.left_lit = False
        self.right_lit = False

    def follow(self, app, now):
        """Bring the modes up to the app's state and the levels up to `now`."""
        game = app.game
        left_player = app.left_player
        kind = self._kinds[app.state]
        if kind == _GAME:
            kind = game.state()
            kind = _RUN if kind == RUNNING else _STAND if kind == PAUSED else _DARK
        flagged = -1
        if kind == _END and game.reason() == TIME and game.first_flag() >= 0:
            flagged = 0 if game.first_flag() == left_player else 1
        packed = modes(kind, 0 if game.turn() == left_player else 1, flagged)
        if packed != self.left | self.right << 2:
            self.left = packed & 3
            self.right = packed >> 2
            self.since = now
        self.left_lit = level(self.left, self.since, now)
        self.right_lit = level(self.right, self.since, now)
        self.leds.set(self.left_lit, self.right_lit)

    def until_edge(self, now):
        """Milliseconds from `now` until a light turns on or off; -1: neither blinks."""
        left = until_edge(self.left, self.since, now)
        right = until_edge(self.right, self.since, now)
        if left < 0 or 0 <= right < left:
            return right
        return left

    def text(self):
        """The lights as the simulator's script names them: "none", "left", "right:slow",
        "left+right" (a blinking one with its mode). Allocates: for the desktop."""
        parts = []
        for name, mode in (("left", self.left), ("right", self.right)):
            if mode == ON:
                parts.append(name)
            elif mode != OFF:
                parts.append(name + ":" + MODE_NAMES[mode])
        return "+".join(parts) or "none"
