# SPDX-License-Identifier: MIT
# The time-control model every notation parses into: stages, per-player controls, a setup.
from micropython import const

# How a stage's increment works (docs/time-controls.md, "Increments and delay").
FISCHER = const(0)  # added when the move starts, the first move included
FISCHER_AFTER = const(1)  # added when the move ends
BRONSTEIN = const(2)  # used time given back when the move ends, at most the increment
DELAY = const(3)  # the clock waits this long before counting down

# What entering (or repeating) a stage does to the time the player has left.
ADD = const(0)  # the stage's duration is added to what is left
SET = const(1)  # what is left is replaced by the stage's duration

# What happens when the time of a stage (its last period) runs out.
NEXT = const(0)  # the overflow runs on into the next stage, silently
SOFT = const(1)  # a soft time-out is recorded, then as NEXT
FLAG = const(2)  # a flag: interim (play goes on in the next stage) or, in the last stage, final

# Largest time the clock accepts anywhere: sums of such values stay small integers on the
# board (30-bit), where 2**30 ms would no longer be one.
MAX_MS = const(0x1FFFFFFF)
MAX_COUNT = const(100000)

MODE_NAMES = ("fischer", "fischer-after", "bronstein", "delay")


class ClockError(ValueError):
    """A setting or a call the clock refuses; the message says what and why."""


def check_ms(value, what, low=0):
    if not isinstance(value, int) or isinstance(value, bool):
        raise ClockError(what + " must be a whole number of milliseconds")
    if value < low:
        raise ClockError("%s must be at least %d ms, not %d" % (what, low, value))
    if value > MAX_MS:
        raise ClockError(
            "%s of %d ms is more than the clock can hold (%d ms, about 6 days)"
            % (what, value, MAX_MS)
        )
    return value


def check_count(value, what, low=0):
    if not isinstance(value, int) or isinstance(value, bool):
        raise ClockError(what + " must be a whole number")
    if value < low or value > MAX_COUNT:
        raise ClockError("%s must be between %d and %d, not %d" % (what, low, MAX_COUNT, value))
    return value


def _check_choice(value, choices, what):
    if value not in choices:
        raise ClockError("%s: unknown value %r" % (what, value))
    return value


class Stage:
    """One stage (phase, period) of a control.

    duration_ms: time the stage gives when entered (each period, for byo-yomi).
    moves: the stage's move quota (0: the rest of the game). Meeting it enters the next
      stage, or repeats this one if it is the last.
    increment_ms, mode, increment_every: the increment or delay, and every how many moves
      it is given (GGS `m2`; Fischer after and Bronstein only).
    periods: how many times the stage's time can run out and start again full (byo-yomi).
    on_enter: ADD or SET when reached by meeting the previous stage's quota.
    on_repeat: ADD or SET when its own quota is met and it is the last stage.
    on_expire: NEXT, SOFT or FLAG when its last period runs out.
    """

    def __init__(
        self,
        duration_ms,
        moves=0,
        increment_ms=0,
        mode=FISCHER_AFTER,
        increment_every=1,
        periods=1,
        on_enter=ADD,
        on_repeat=ADD,
        on_expire=FLAG,
    ):
        self.duration_ms = check_ms(duration_ms, "stage time")
        self.moves = check_count(moves, "move quota")
        self.increment_ms = check_ms(increment_ms, "increment")
        self.mode = _check_choice(mode, (FISCHER, FISCHER_AFTER, BRONSTEIN, DELAY), "mode")
        self.increment_every = check_count(increment_every, "increment interval", 1)
        if increment_every > 1 and mode not in (FISCHER_AFTER, BRONSTEIN):
            raise ClockError("an increment every several moves needs Fischer after or Bronstein")
        self.periods = check_count(periods, "periods", 1)
        if periods > 1 and duration_ms == 0:
            raise ClockError("byo-yomi periods must last longer than 0 ms")
        self.on_enter = _check_choice(on_enter, (ADD, SET), "on_enter")
        self.on_repeat = _check_choice(on_repeat, (ADD, SET), "on_repeat")
        self.on_expire = _check_choice(on_expire, (NEXT, SOFT, FLAG), "on_expire")

    def key(self):
        return (
            self.duration_ms,
            self.moves,
            self.increment_ms,
            self.mode if self.increment_ms else FISCHER_AFTER,
            self.increment_every if self.increment_ms else 1,
            self.periods,
            self.on_enter,
            self.on_repeat if self.moves else ADD,  # without a quota it never repeats
            self.on_expire,
        )

    def is_period(self):
        """True for byo-yomi-like stages, whose display counts the periods left."""
        return self.periods > 1 or (self.moves == 1 and self.on_repeat == SET)

    def __eq__(self, other):
        return isinstance(other, Stage) and self.key() == other.key()

    def __repr__(self):
        return "Stage(%d, moves=%d, inc=%d/%s/%d, periods=%d, enter=%d, repeat=%d, expire=%d)" % (
            self.duration_ms,
            self.moves,
            self.increment_ms,
            MODE_NAMES[self.mode],
            self.increment_every,
            self.periods,
            self.on_enter,
            self.on_repeat,
            self.on_expire,
        )


class Control:
    """One player's time control: its stages and the limits that apply to every move.

    max_ms: cap on the time left after an increment (OGS `max_time`; 0: none).
    move_limit_ms: longest move allowed, whatever time is left (Arimaa `T`; 0: none).
    move_ms: Arimaa move time `M`, used before the reserve (the first stage's bank); None
      for every other system. reserve_percent (`P`) of the unused move time goes to the
      reserve, and then a reserve above reserve_limit_ms (`L`, 0: no limit) is cut to it:
      after every move charged to the player, the first included.
    An empty stage list means no time control: the clock counts nothing down.
    """

    def __init__(
        self,
        stages,
        max_ms=0,
        move_limit_ms=0,
        move_ms=None,
        reserve_percent=100,
        reserve_limit_ms=0,
    ):
        self.stages = tuple(stages)
        for stage in self.stages:
            if not isinstance(stage, Stage):
                raise ClockError("a control is made of stages")
        if len(self.stages) > 8:
            raise ClockError("at most 8 stages, not %d" % len(self.stages))
        self.max_ms = check_ms(max_ms, "maximum time")
        self.move_limit_ms = check_ms(move_limit_ms, "move time limit")
        if move_ms is not None:
            check_ms(move_ms, "move time")
            if len(self.stages) != 1:
                raise ClockError("Arimaa move time needs exactly one reserve stage")
        self.move_ms = move_ms
        self.reserve_percent = check_count(reserve_percent, "reserve percentage")
        if reserve_percent > 100:
            raise ClockError("reserve percentage must be at most 100, not %d" % reserve_percent)
        self.reserve_limit_ms = check_ms(reserve_limit_ms, "reserve limit")

    def untimed(self):
        return not self.stages

    def key(self):
        arimaa = None
        if self.move_ms is not None:
            arimaa = (self.move_ms, self.reserve_percent, self.reserve_limit_ms)
        return (
            tuple(stage.key() for stage in self.stages),
            self.max_ms,
            self.move_limit_ms,
            arimaa,
        )

    def __eq__(self, other):
        return isinstance(other, Control) and self.key() == other.key()

    def __repr__(self):
        return "Control(%r, max=%d, move_limit=%d, move=%r, reserve=%d%%/%d)" % (
            list(self.stages),
            self.max_ms,
            self.move_limit_ms,
            self.move_ms,
            self.reserve_percent,
            self.reserve_limit_ms,
        )


class Setup:
    """Everything a game needs: each player's control and the options both share.

    hourglass: time charged to the player on move is added to the opponent.
    word: no flag falls; time used past zero accumulates as a penalty.
    start_ms: time allowed for each player's first move, charged to nobody (OGS start
      clock); running out of it ends the game as aborted. 0: none.
    limit_ms, limit_turns: the game halts after this much play, or once both players have
      made this many moves (Arimaa `G`); 0: no limit.
    """

    def __init__(
        self,
        first,
        second=None,
        hourglass=False,
        word=False,
        start_ms=0,
        limit_ms=0,
        limit_turns=0,
    ):
        if second is None:
            second = first
        if not isinstance(first, Control) or not isinstance(second, Control):
            raise ClockError("a setup needs a control for each player")
        self.first = first
        self.second = second
        self.hourglass = bool(hourglass)
        self.word = bool(word)
        self.start_ms = check_ms(start_ms, "start clock")
        self.limit_ms = check_ms(limit_ms, "game time limit")
        self.limit_turns = check_count(limit_turns, "game move limit")

    def control(self, player):
        return self.second if player else self.first

    def key(self):
        return (
            self.first.key(),
            self.second.key(),
            self.hourglass,
            self.word,
            self.start_ms,
            self.limit_ms,
            self.limit_turns,
        )

    def __eq__(self, other):
        return isinstance(other, Setup) and self.key() == other.key()

    def __repr__(self):
        return "Setup(%r, %r, hourglass=%s, word=%s, start=%d, limit=%d ms/%d turns)" % (
            self.first,
            self.second,
            self.hourglass,
            self.word,
            self.start_ms,
            self.limit_ms,
            self.limit_turns,
        )
