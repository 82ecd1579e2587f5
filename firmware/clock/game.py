# SPDX-License-Identifier: MIT
# A two-player game on a Setup: presses, pauses, flags, arbiter functions and undo, from timestamps.
#
# A Game holds its whole state in one flat list of small integers, Game._values:
#   [0, _PLAYER)          the first player's slot: _STAGE, _LEFT, ... (the indices below)
#   [_PLAYER, _SCRATCH)   the second player's slot, laid out the same
#   [_SCRATCH, _TURN)     scratch: a what-if run (Game._what_if) charges a copy of a player's
#                         slot here, to see what their move would do, their own slot untouched
#   [_TURN, _SIZE)        the game-wide values: turn, state, stamps, outcome, ...
# A player's value X is at `slot + X`, where slot = player * _PLAYER.
# Flat, because a snapshot is then a copy of the list and a restore a check and a copy back;
# undo keeps the list as before the last press, copied whole into a list made once (no
# allocation per press); and an index into a list is about the fastest read MicroPython has.
#
# Time: nothing in the list runs. The move in progress has run _USED, plus since _RUN_START
# while the game runs (a pause or update() folds that into _USED and moves _RUN_START on).
# The mover's slot holds their figures as at the start of the move, or as of _BASE: the
# elapsed time already charged to them (settled in a pause for an edit). A move is charged only
# what it runs past _PRE, its time before the stage time runs (a delay, Arimaa move time, the
# start clock).
from micropython import const

import ticks
from ticks import diff as _ticks_diff
from clock.model import (
    ADD,
    BRONSTEIN,
    DELAY,
    FISCHER,
    FISCHER_AFTER,
    FLAG,
    MAX_MS,
    SOFT,
    ClockError,
    Setup,
    check_count,
    check_ms,
)

# Game states.
READY = const(0)
RUNNING = const(1)
PAUSED = const(2)
OVER = const(3)
STATE_NAMES = ("ready", "running", "paused", "over")

# Outcomes.
PLAYING = const(0)
TIME = const(1)  # the loser ran out of time (or past the move limit)
HALTED = const(2)  # a game limit stopped the game
ARBITER = const(3)  # the arbiter ended the game
ABORTED = const(4)  # the start clock ran out before a first move
REASON_NAMES = ("playing", "time", "halted", "arbiter", "aborted")

# What a call changed, as bits: press, update, start, pause, resume, undo and the arbiter's
# functions return them, built where the core meets each change; several may come together
# (DONE | STAGE_BEGAN | SECOND: the second player's press met a quota). 0: nothing happened.
DONE = const(1)  # the call did what it was asked (a press taken, a pause made, ...)
STAGE_BEGAN = const(2)  # the player began their next stage: a quota met, or a stage's time up
PERIOD_USED = const(4)  # a period (byo-yomi) ran out and the next one began
BLOCK_RENEWED = const(8)  # the last stage's quota met: its time again (a Canadian block)
SOFT_TIMEOUT = const(16)  # a stage ended in a soft time-out (GGS)
FLAG_FELL = const(32)  # a flag fell: an interim one, or with GAME_OVER the final one
GAME_OVER = const(64)  # the game ended in this call (reason() says why)
SECOND = const(128)  # the bits are about the second player (1); without it, the first (0)

# What a game's Record (clock.record) is told, as its entries' kinds.
NOTE_PLY = const(0)
NOTE_UNDO = const(1)
NOTE_ADJUST = const(2)
NOTE_SET_TIME = const(3)
NOTE_SET_MOVES = const(4)
NOTE_END = const(5)
STAGE_UNIT = const(0x40000)  # a record's count field: stage * STAGE_UNIT + 1 + the count shown

# Marks a player collects.
MARK_SOFT = const(1)  # a soft time-out
MARK_FLAG = const(2)  # a flag fell (interim, or final when the game is over on time)

# A player's slot (see the top of the file).
_STAGE = const(0)  # index of the current stage
_LEFT = const(1)  # time left in the stage (or period) at the start of the move in progress
_PERIODS = const(2)  # periods left in the stage, the one in use included
_IN_STAGE = const(3)  # moves made toward the stage's quota
_MOVES = const(4)  # moves made in the game
_PENALTY = const(5)  # time used past zero (Word)
_MARKS = const(6)
_SPENT = const(7)  # time spent since the last increment (increments every several moves)
_PRE = const(8)  # time the move may use before the stage time runs: delay, move time, start clock
_BASE = const(9)  # elapsed time of the move in progress already charged
_PLAYER = const(10)

_SCRATCH = const(20)

# The game-wide values.
_TURN = const(30)
_STATE = const(31)
_RUN_START = const(32)  # stamp from which the move in progress is running
_USED = const(33)  # elapsed time of the move in progress before _RUN_START
_PLAYED = const(34)  # time played in the game before the move in progress
_PLIES = const(35)
_REASON = const(36)
_LOSER = const(37)
_FIRST_FLAG = const(38)  # who flagged first, or -1
_END_STAMP = const(39)
_CAN_UNDO = const(40)
_SIZE = const(41)

_NO_END = const(-1)
_IN_PENALTY = const(-2)


# What of a View Game.view filled moves on with `now` until the game changes (View._follow),
# from the move's elapsed time; `past` is the part of it past pre (elapsed - pre, or 0).
_STILL = const(0)  # nothing: the game is not running, or this side waits
_UP = const(1)  # time_ms = anchor + past: untimed on move, an hourglass waiting
_START = const(2)  # the start clock: start_ms = pre - elapsed
_DOWN = const(3)  # time_ms = anchor - past
_DELAY = const(4)  # delay_ms = pre - elapsed, and time_ms as _DOWN
_MOVE_TIME = const(5)  # Arimaa: time_ms = pre - elapsed, and reserve_ms as _DOWN

# A control's plan (Game._plans): its kind, then per stage the time a move may use first (Arimaa
# move time, a delay), the Fischer increment given as a move begins, and the increment given
# as it ends (Fischer after, Bronstein).
_UNTIMED = const(0)
_TIMED = const(1)
_BARE = const(2)  # timed, and only the stage time can end a move: no start clock, no limit
_PRE_AT = const(1)  # + 3 * stage
_FISCHER_AT = const(2)
_GAIN_AT = const(3)


class _Slicer:
    def __getitem__(self, key):
        return key


# The slice of a whole list, made once: `a[_WHOLE] = b` copies b into a, allocating nothing
# (a `[:]` written out makes a new slice object each time).
_WHOLE = _Slicer()[:]

# Every change of any game takes a new even number (Game._changed): a View remembers the
# number (plus the player) it was filled at, and is up to date while the game still has it.
_version = 0


class View:
    """What one side's display shows; filled in place by Game.view(), and only by it: a View
    it filled before, it brings up to date by rewriting the figures that run."""

    def __init__(self):
        self.time_ms = 0  # main figure: stage time, current period or block, Arimaa move time
        self.counting_up = False  # untimed, or gaining in an hourglass
        self.delay_ms = 0  # delay left before the time runs (simple delay)
        self.start_ms = -1  # start clock left, or -1
        self.reserve_ms = -1  # Arimaa reserve, or -1
        self.stage = 0
        self.periods_left = -1
        self.moves_left = -1
        self.penalty_ms = 0
        self.moves = 0
        self.soft_timeout = False
        self.flagged = False
        self.flagged_first = False
        self.running = False
        # While nothing shown here can change without the game changing: a number that stays
        # the same exactly as long (the game's version and the player); -1 while figures run.
        # A display compares it with the one it drew to skip the side.
        self.fixed = -1
        # Game.view's own: which game version and player filled it, and how to bring it up to
        # a later `now` without starting over (see Game.view). Nothing else writes them.
        self._filled = -1
        self._follow = _STILL
        self._anchor = 0
        self._since = 0
        self._pre = 0


_TICKS_MASK = const(0x3FFFFFFF)  # the largest stamp (ticks.is_stamp)


def _is_stamp(value):
    """ticks.is_stamp without its isinstance() call, which costs more than the rest."""
    try:
        return value & _TICKS_MASK == value  # a TypeError for what is no whole number
    except TypeError:
        return False


def _plan(setup, control, short_ways):
    """What a move of `control` needs at once, in one tuple (see Game.__init__)."""
    if not control.stages:
        return (_UNTIMED,)
    bare = short_ways and not (setup.start_ms or setup.limit_ms or control.move_limit_ms)
    plan = [_BARE if bare else _TIMED]
    for stage in control.stages:
        mode = stage.mode
        increment = stage.increment_ms
        if control.move_ms is not None:
            plan.append(control.move_ms)
        else:
            plan.append(increment if mode == DELAY else 0)
        plan.append(increment if mode == FISCHER else 0)
        plan.append(increment if mode == FISCHER_AFTER or mode == BRONSTEIN else 0)
    return tuple(plan)


def _counts(control):
    return tuple([-1 if stage.is_period() else stage.moves for stage in control.stages])


class Game:
    # False: every move takes the general way (a what-if run), never the short ways press(),
    # update() and view() take while only the stage time can end it. Read once, by __init__:
    # tests/core/twins.py plays each game both ways and compares.
    short_ways = True

    def __init__(self, setup, record=None):
        if not isinstance(setup, Setup):
            raise ClockError("a game needs a Setup")
        self.setup = setup
        # A clock.record.Record the game writes from its start on (None: no record kept).
        self.record = record
        self._controls = (setup.first, setup.second)
        # Per player, what press() and update() read at once: while only the stage time can
        # end a move (_BARE) and it has not run out, they need no what-if run.
        short = self.short_ways
        self._plans = (_plan(setup, setup.first, short), _plan(setup, setup.second, short))
        # Per player, per stage, what the display counts beside the time (the record's count):
        # -1 the periods left, N > 0 the moves left to a quota of N, 0 nothing.
        self._counts = (_counts(setup.first), _counts(setup.second))
        self._values = [0] * _SIZE
        self._before_press = [0] * _SIZE
        # The outcome of the end the last _run found (TIME, HALTED, ABORTED), or PLAYING.
        self._ending = PLAYING
        # What update() last told of the player on move (their stage, periods left and marks
        # as of then): it tells each change once.
        self._told_stage = 0
        self._told_periods = 0
        self._told_marks = 0
        self._version = 0
        self._event_version = -1  # next_event's last answer: the version and `now` it was for
        self._event_from = 0
        self._event_at = 0
        self.reset()

    def _changed(self):
        global _version
        _version = (_version + 2) & 0x3FFFFFFE
        self._version = _version

    # --- state ---------------------------------------------------------------------------

    def reset(self):
        self._changed()
        values = self._values
        for i in range(_SIZE):
            values[i] = 0
        for player in (0, 1):
            stages = self._controls[player].stages
            if stages:
                values[player * _PLAYER + _LEFT] = stages[0].duration_ms
                values[player * _PLAYER + _PERIODS] = stages[0].periods
        values[_STATE] = READY
        values[_LOSER] = -1
        values[_FIRST_FLAG] = -1
        self._tell_from(0)

    def _tell_from(self, player):
        """update() tells changes of `player` from their stored state on (a move begins)."""
        values = self._values
        slot = player * _PLAYER
        self._told_stage = values[slot + _STAGE]
        self._told_periods = values[slot + _PERIODS]
        self._told_marks = values[slot + _MARKS]

    def state(self):
        return self._values[_STATE]

    def turn(self):
        """The player whose move is in progress (0 first, 1 second)."""
        return self._values[_TURN]

    def reason(self):
        return self._values[_REASON]

    def loser(self):
        return self._values[_LOSER]

    def first_flag(self):
        return self._values[_FIRST_FLAG]

    def end_stamp(self):
        return self._values[_END_STAMP]

    def plies(self):
        return self._values[_PLIES]

    def moves(self, player):
        return self._values[player * _PLAYER + _MOVES]

    def stage_state(self, player):
        """(stage, time left at the start of the move in progress, periods left, moves made
        toward the stage's quota): the stored figures, before the move in progress."""
        slot = player * _PLAYER
        values = self._values
        return (
            values[slot + _STAGE],
            values[slot + _LEFT],
            values[slot + _PERIODS],
            values[slot + _IN_STAGE],
        )

    def can_undo(self):
        return self._values[_CAN_UNDO] == 1

    def snapshot(self, now=None):
        """The whole game state as a list of small integers (for saving), without the state
        before the last press: a game restored from it has no press to undo.

        Given `now`, a running move is written as of `now` (its time so far, restarted at
        `now`): the same game, whose saved time after a power cut is what had run at `now`.
        """
        saved = list(self._values)
        saved[_CAN_UNDO] = 0  # the state before the last press is not in it: nothing to undo
        if now is not None and saved[_STATE] == RUNNING:
            saved[_USED] = self.elapsed(now)
            saved[_RUN_START] = now
        return saved

    def restore(self, saved):
        """Take a snapshot() back; ClockError (and nothing changed) if it cannot be this game's.
        The game restored has no press to undo."""
        if len(saved) != _SIZE:
            raise ClockError("a saved game of another shape")
        for i in range(_SIZE):
            value = saved[i]
            if i == _RUN_START or i == _END_STAMP:  # stamps: anywhere in the 30-bit cycle
                if not ticks.is_stamp(value) and value != _NO_END:
                    raise ClockError("a saved game with a bad timestamp")
            elif not isinstance(value, int) or not -MAX_MS <= value <= MAX_MS:
                raise ClockError("a saved game holds small whole numbers only")
        for player in (0, 1):
            slot = player * _PLAYER
            stages = self._controls[player].stages
            if stages:
                stage = saved[slot + _STAGE]
                if (
                    not 0 <= stage < len(stages)
                    or not 1 <= saved[slot + _PERIODS] <= stages[stage].periods
                ):
                    raise ClockError("a saved game in a stage this preset does not have")
            if saved[slot + _LEFT] < 0 or saved[slot + _MOVES] < 0 or saved[slot + _IN_STAGE] < 0:
                raise ClockError("a saved game with negative times or counts")
        if not 0 <= saved[_STATE] <= OVER or saved[_TURN] not in (0, 1):
            raise ClockError("a saved game in no known state")
        if not ticks.is_stamp(saved[_RUN_START]) or saved[_USED] < 0:
            raise ClockError("a saved game with a bad timestamp")
        self._changed()
        for i in range(_SIZE):
            self._values[i] = saved[i]
        self._values[_CAN_UNDO] = 0  # as snapshot() writes it (older firmware saved it set)
        self._tell_from(saved[_TURN])

    def freeze(self):
        """After a restore on boot: a game that was running waits, paused, with its times as
        of the last press or pause (the timestamps of another boot mean nothing now)."""
        values = self._values
        if values[_STATE] == RUNNING:
            self._changed()
            values[_STATE] = PAUSED

    # --- time -----------------------------------------------------------------------------

    def elapsed(self, now):
        """Elapsed time of the move in progress at `now`."""
        values = self._values
        if values[_STATE] != RUNNING:
            return values[_USED]
        elapsed = values[_USED] + ticks.diff(now, values[_RUN_START])
        if elapsed < 0:
            return 0
        return elapsed if elapsed < MAX_MS else MAX_MS

    def _what_if(self, player, elapsed):
        """_run on a copy of `player`'s slot in _SCRATCH: what their move would have done by
        `elapsed`, their own slot left as it is. Returns _run's end."""
        values = self._values
        slot = player * _PLAYER
        for i in range(_PLAYER):
            values[_SCRATCH + i] = values[slot + i]
        return self._run(_SCRATCH, player, elapsed)

    def _run(self, slot, player, elapsed):
        """Charge the player whose values are at `slot` for a move lasting `elapsed` so far.

        Returns the elapsed time at which this move ends the game, _IN_PENALTY when Word has
        taken over, or _NO_END; the outcome of that end goes to _ending. What the run crossed
        (periods, stages, marks) stays in the values, where _news() finds it.
        """
        values = self._values
        control = self._controls[player]
        stages = control.stages
        end = _NO_END
        reason = PLAYING
        setup = self.setup
        start_ms = setup.start_ms
        if start_ms and values[slot + _MOVES] == 0:
            if elapsed > start_ms:
                end = start_ms + 1
                reason = ABORTED
        elif stages:
            pre = values[slot + _PRE]
            base = values[slot + _BASE]
            charge = (elapsed - pre if elapsed > pre else 0) - (base - pre if base > pre else 0)
            values[slot + _BASE] = elapsed
            left = values[slot + _LEFT] - charge
            while left < 0:
                index = values[slot + _STAGE]
                stage = stages[index]
                periods = values[slot + _PERIODS]
                if periods > 1:
                    used = (stage.duration_ms - 1 - left) // stage.duration_ms
                    if used > periods - 1:
                        used = periods - 1
                    values[slot + _PERIODS] = periods - used
                    left += used * stage.duration_ms
                    continue
                last = index == len(stages) - 1
                if setup.word and (last or stage.on_expire == FLAG):
                    penalty = values[slot + _PENALTY] - left
                    values[slot + _PENALTY] = penalty if penalty < MAX_MS else MAX_MS
                    left = 0
                    end = _IN_PENALTY
                    break
                if stage.on_expire == SOFT:
                    values[slot + _MARKS] |= MARK_SOFT
                if last:
                    values[slot + _MARKS] |= MARK_FLAG
                    end = elapsed + left + 1
                    reason = TIME
                    left = 0
                    break
                if stage.on_expire == FLAG:
                    values[slot + _MARKS] |= MARK_FLAG
                values[slot + _STAGE] = index + 1
                stage = stages[index + 1]
                values[slot + _PERIODS] = stage.periods
                values[slot + _IN_STAGE] = 0
                left += stage.duration_ms
            values[slot + _LEFT] = left
        limit = control.move_limit_ms
        if limit and elapsed > limit and (end < 0 or limit + 1 < end):
            end = limit + 1
            reason = TIME
        limit = setup.limit_ms
        if limit:
            limit -= values[_PLAYED]
            if elapsed > limit and (end < 0 or limit + 1 < end):
                end = limit + 1
                reason = HALTED
        self._ending = reason
        return end

    def _begin_move(self, player):
        # press() has this written out (its frame is too big to call cheaply): the two must agree.
        values = self._values
        slot = player * _PLAYER
        values[slot + _BASE] = 0
        plan = self._plans[player]
        if plan[0] == _UNTIMED:
            values[slot + _PRE] = 0
            return
        stage_at = 3 * values[slot + _STAGE]
        start_ms = self.setup.start_ms
        values[slot + _PRE] = (
            start_ms if start_ms and values[slot + _MOVES] == 0 else plan[_PRE_AT + stage_at]
        )
        fischer = plan[_FISCHER_AT + stage_at]
        if fischer:
            self._add_time(slot, player, fischer)

    def _add_time(self, slot, player, amount):
        values = self._values
        left = values[slot + _LEFT] + amount
        cap = self._controls[player].max_ms
        if cap and left > cap:
            left = cap
        values[slot + _LEFT] = left if left < MAX_MS else MAX_MS

    def _quota_met(self, slot, player, index):
        """The player at `slot` met the move quota of stage `index`: the next stage, or this one
        again if it is the last."""
        values = self._values
        stages = self._controls[player].stages
        values[slot + _IN_STAGE] = 0
        if index + 1 < len(stages):
            stage = stages[index + 1]
            values[slot + _STAGE] = index + 1
            values[slot + _PERIODS] = stage.periods
            add_or_set = stage.on_enter
            began = STAGE_BEGAN
        else:
            stage = stages[index]
            add_or_set = stage.on_repeat
            began = BLOCK_RENEWED
        if add_or_set != ADD:
            values[slot + _LEFT] = 0
        self._add_time(slot, player, stage.duration_ms)
        return began

    def _finish(self, reason, loser, stamp):
        self._changed()
        values = self._values
        values[_STATE] = OVER
        values[_REASON] = reason
        values[_LOSER] = loser
        values[_END_STAMP] = stamp
        values[_CAN_UNDO] = 0
        if reason == TIME and values[_FIRST_FLAG] < 0:
            values[_FIRST_FLAG] = loser
        self._note(NOTE_END, loser if loser >= 0 else values[_TURN], values[_USED], reason)

    def _note(self, kind, player, at, amount):
        """Tell the record (if any) what happened, with both sides' figures as the display
        shows them now (the move in progress charged as far as it has run). Before the game
        starts, the record is still the last game's: nothing is told. press() has the ply's
        case written out: the two must agree."""
        record = self.record
        if record is None or record.owner is not self:
            return
        values = self._values
        first = 0
        second = _PLAYER
        state = values[_STATE]
        if kind != NOTE_PLY and (state == RUNNING or state == PAUSED):
            self._what_if(values[_TURN], values[_USED])
            if values[_TURN]:
                second = _SCRATCH
            else:
                first = _SCRATCH
        record.put(
            kind * 2 + player,
            at,
            amount,
            values[first + _LEFT],
            values[second + _LEFT],
            self._count(0, first),
            self._count(1, second),
        )

    def _count(self, player, slot):
        """A record's count field for `player`'s values at `slot`."""
        counts = self._counts[player]
        if not counts:
            return 0
        values = self._values
        index = values[slot + _STAGE]
        quota = counts[index]
        if quota < 0:
            return index * STAGE_UNIT + values[slot + _PERIODS] + 1
        if quota:
            return index * STAGE_UNIT + quota - values[slot + _IN_STAGE] + 1
        return index * STAGE_UNIT

    def _note_flags(self, player):
        values = self._values
        if values[_FIRST_FLAG] < 0 and values[player * _PLAYER + _MARKS] & MARK_FLAG:
            values[_FIRST_FLAG] = player

    # --- play -----------------------------------------------------------------------------

    def start(self, now, player):
        """Start the game with `player` to move first: DONE, or 0 if it has started already."""
        values = self._values
        if values[_STATE] != READY or not ticks.is_stamp(now):
            return self._refuse_stamp(now)
        self._changed()
        values[_TURN] = player
        values[_STATE] = RUNNING
        values[_RUN_START] = now
        self._begin_move(player)
        self._tell_from(player)
        record = self.record
        if record is not None:
            record.clear()
            record.owner = self
        return DONE

    def _refuse_stamp(self, now):
        if not ticks.is_stamp(now):
            raise ClockError("a timestamp is a whole number from 0 to 2**30 - 1")
        return 0

    def _news(self, player):
        """What the what-if run in _SCRATCH crossed of `player` that update() has not told yet."""
        values = self._values
        stage = values[_SCRATCH + _STAGE]
        periods = values[_SCRATCH + _PERIODS]
        marks = values[_SCRATCH + _MARKS]
        bits = 0
        told_periods = self._told_periods
        if stage != self._told_stage:
            bits = STAGE_BEGAN
            told_periods = self._controls[player].stages[stage].periods  # as the stage began
        if periods < told_periods:
            bits |= PERIOD_USED
        new_marks = marks & ~self._told_marks
        if new_marks & MARK_SOFT:
            bits |= SOFT_TIMEOUT
        if new_marks & MARK_FLAG:
            bits |= FLAG_FELL
        self._told_stage = stage
        self._told_periods = periods
        self._told_marks = marks
        return bits | SECOND if bits and player else bits

    def update(self, now):
        """Bring the game up to `now`: ends it at the exact instant a flag or limit fell.

        Returns what changed of the player on move since the last call told it (STAGE_BEGAN,
        PERIOD_USED, SOFT_TIMEOUT, an interim FLAG_FELL, each once), and GAME_OVER (with FLAG_FELL when
        they lost on time) when the game ended in this call; 0 when nothing did.
        """
        values = self._values
        if values[_STATE] != RUNNING:
            return 0
        if not _is_stamp(now):
            self._refuse_stamp(now)
        elapsed = values[_USED] + _ticks_diff(now, values[_RUN_START])
        if elapsed < 0:
            elapsed = 0
        elif elapsed > MAX_MS:
            elapsed = MAX_MS
        values[_USED] = elapsed
        values[_RUN_START] = now
        player = values[_TURN]
        if self._plans[player][0] == _BARE:  # has the stage time, alone, run out?
            slot = player * _PLAYER
            pre = values[slot + _PRE]
            base = values[slot + _BASE]
            if values[slot + _LEFT] + (base - pre if base > pre else 0) >= (
                elapsed - pre if elapsed > pre else 0
            ):
                return 0
        end = self._what_if(player, elapsed)
        if end < 0 or end > elapsed:
            return self._news(player)
        reason = self._ending
        self._what_if(player, end)  # the move up to its end, no further
        bits = self._news(player) | GAME_OVER | (FLAG_FELL if reason == TIME else 0)
        slot = player * _PLAYER
        for i in range(_PLAYER):  # the run to the end becomes the player's own
            values[slot + i] = values[_SCRATCH + i]
        self._note_flags(player)
        values[_USED] = end
        values[_PLAYED] += end
        self._finish(reason, player if reason == TIME else -1, ticks.add(now, end - elapsed))
        return bits | SECOND if player else bits

    def press(self, player, now):
        """The lever of `player` was pressed at `now`: their move ends, the other's starts.

        Before the game starts either lever starts the other side's clock. Returns what
        changed: DONE for a press taken, with STAGE_BEGAN or BLOCK_RENEWED when the move met a
        quota, and what update() had not told yet of the move; or update()'s bits without
        DONE when the press came after the game had ended (a flag not yet noticed); 0 when
        the press does nothing.
        """
        values = self._values
        if player != 0 and player != 1:
            raise ClockError("a player is 0 (first) or 1 (second)")
        if values[_STATE] != RUNNING or values[_TURN] != player or not _is_stamp(now):
            if values[_STATE] == READY:
                return self.start(now, 1 - player)
            return self._refuse_stamp(now)
        elapsed = values[_USED] + _ticks_diff(now, values[_RUN_START])
        if elapsed < 0:
            elapsed = 0
        elif elapsed > MAX_MS:
            elapsed = MAX_MS
        slot = player * _PLAYER
        pre = values[slot + _PRE]
        base = values[slot + _BASE]
        charged = elapsed - pre if elapsed > pre else 0
        left = values[slot + _LEFT] - charged + (base - pre if base > pre else 0)
        # The short way: only the stage time could have run out, and it has not.
        plain = left >= 0 and self._plans[player][0] == _BARE
        bits = DONE
        if not plain:
            bits |= self.update(now)
            if values[_STATE] != RUNNING:
                return bits & ~DONE
        self._changed()
        values[_USED] = elapsed
        values[_RUN_START] = now
        self._before_press[_WHOLE] = values
        if plain:
            values[slot + _BASE] = elapsed
            values[slot + _LEFT] = left
        else:
            self._run(slot, player, elapsed)
            self._note_flags(player)
        # The move is over: increments, and on through quotas.
        moves = values[slot + _MOVES] + 1
        values[slot + _MOVES] = moves
        setup = self.setup
        plan = self._plans[player]
        if plan[0] == _UNTIMED:
            values[slot + _LEFT] += elapsed if values[slot + _LEFT] + elapsed < MAX_MS else 0
        else:
            on_start_clock = moves == 1 and setup.start_ms  # the first move
            index = values[slot + _STAGE]
            control = self._controls[player]
            stage = control.stages[index]
            gain = plan[_GAIN_AT + 3 * index]
            if control.move_ms is not None and not on_start_clock:
                unused = values[slot + _PRE] - elapsed
                if unused > 0:
                    self._add_time(slot, player, unused * control.reserve_percent // 100)
                # As AEI and arimaa-server: after every move, a reserve above L is cut to L.
                cap = control.reserve_limit_ms
                if cap and values[slot + _LEFT] > cap:
                    values[slot + _LEFT] = cap
            elif gain:
                spent = values[slot + _SPENT] + (0 if on_start_clock else elapsed)
                if moves % stage.increment_every:
                    values[slot + _SPENT] = spent if spent < MAX_MS else MAX_MS
                else:
                    values[slot + _SPENT] = 0
                    if spent < gain and stage.mode == BRONSTEIN:
                        gain = spent
                    self._add_time(slot, player, gain)
            quota = stage.moves
            if quota and values[slot + _IN_STAGE] + 1 >= quota:
                bits |= self._quota_met(slot, player, index)
            else:
                values[slot + _IN_STAGE] += 1
        other = 1 - player
        if setup.hourglass:
            self._add_time(other * _PLAYER, other, charged)
        values[_PLAYED] += elapsed
        plies = values[_PLIES] + 1
        values[_PLIES] = plies
        values[_CAN_UNDO] = 1
        values[_TURN] = other
        values[_USED] = 0
        values[_RUN_START] = now
        # _begin_move(other) and _note(NOTE_PLY, ...) written out: their frames are over the 44
        # bytes MicroPython keeps on the C stack, so each call would take its frame from the heap
        # and give it back, about 0.17 ms on the chip (docs/performance-chip.md).
        slot = other * _PLAYER  # _begin_move(other)
        values[slot + _BASE] = 0
        plan = self._plans[other]
        if plan[0] == _UNTIMED:
            values[slot + _PRE] = 0
        else:
            stage_at = 3 * values[slot + _STAGE]
            start_ms = setup.start_ms
            values[slot + _PRE] = (
                start_ms if start_ms and values[slot + _MOVES] == 0 else plan[_PRE_AT + stage_at]
            )
            fischer = plan[_FISCHER_AT + stage_at]
            if fischer:
                self._add_time(slot, other, fischer)
        self._tell_from(other)
        record = self.record
        if record is not None and record.owner is self:  # _note(NOTE_PLY, player, elapsed, 0)
            record.put(
                player,  # NOTE_PLY * 2 + player
                elapsed,
                0,
                values[_LEFT],
                values[_PLAYER + _LEFT],
                self._count(0, 0),
                self._count(1, _PLAYER),
            )
        limit = setup.limit_turns
        if limit and plies >= 2 * limit:
            self._finish(HALTED, -1, now)
            bits |= GAME_OVER
        return bits | SECOND if player else bits

    def pause(self, now):
        """DONE, with what update() had not told yet; update()'s bits alone when the game had
        ended; 0 when not running."""
        values = self._values
        if values[_STATE] != RUNNING:
            return 0
        bits = self.update(now)
        if values[_STATE] != RUNNING:
            return bits
        self._changed()
        values[_STATE] = PAUSED
        return bits | DONE

    def resume(self, now):
        values = self._values
        if values[_STATE] != PAUSED or not ticks.is_stamp(now):
            return self._refuse_stamp(now)
        self._changed()
        values[_STATE] = RUNNING
        values[_RUN_START] = now
        return DONE

    def undo(self, now):
        """Take back the last press: the exact state before it, the same clock running again."""
        values = self._values
        if values[_CAN_UNDO] != 1 or values[_STATE] not in (RUNNING, PAUSED):
            return 0
        self._changed()
        state = values[_STATE]
        values[_WHOLE] = self._before_press
        values[_STATE] = state
        values[_RUN_START] = now
        values[_CAN_UNDO] = 0
        self._tell_from(values[_TURN])
        self._note(NOTE_UNDO, values[_TURN], values[_USED], 0)
        return DONE

    # --- arbiter --------------------------------------------------------------------------

    def _settle(self, player):
        """In a pause: charge the mover's move so far, so that an edit starts from the display."""
        values = self._values
        if values[_STATE] == PAUSED and values[_TURN] == player:
            self._run(player * _PLAYER, player, values[_USED])
            self._note_flags(player)  # a flag it crossed: press()'s short way will not look

    def _editable(self):
        values = self._values
        if values[_STATE] not in (READY, PAUSED):
            raise ClockError("pause the clock first")
        self._changed()
        values[_CAN_UNDO] = 0

    def _edited(self, kind, player, amount):
        """An arbiter's edit is done: the mover's changes are told from what it left, and the
        record told."""
        values = self._values
        self._tell_from(values[_TURN])
        self._note(kind, player, values[_USED], amount)
        return DONE

    def adjust_time(self, player, delta_ms):
        """Add (or with a negative delta, take away) time from a player's current stage."""
        self._editable()
        check_ms(delta_ms if delta_ms >= 0 else -delta_ms, "time correction")
        self._settle(player)
        slot = player * _PLAYER
        left = self._values[slot + _LEFT] + delta_ms
        self._values[slot + _LEFT] = 0 if left < 0 else (left if left < MAX_MS else MAX_MS)
        return self._edited(NOTE_ADJUST, player, delta_ms)

    def set_time(self, player, ms):
        self._editable()
        check_ms(ms, "time")
        self._settle(player)
        self._values[player * _PLAYER + _LEFT] = ms
        return self._edited(NOTE_SET_TIME, player, ms)

    def set_moves(self, player, moves):
        """Correct a player's move counter; the stage's quota count moves with it."""
        self._editable()
        check_count(moves, "move counter")
        values = self._values
        slot = player * _PLAYER
        stages = self._controls[player].stages
        in_stage = values[slot + _IN_STAGE] + moves - values[slot + _MOVES]
        quota = stages[values[slot + _STAGE]].moves if stages else 0
        if quota and in_stage > quota - 1:
            in_stage = quota - 1
        values[slot + _IN_STAGE] = in_stage if in_stage > 0 else 0
        values[slot + _MOVES] = moves
        return self._edited(NOTE_SET_MOVES, player, moves)

    def end_by_arbiter(self, now):
        values = self._values
        if values[_STATE] == RUNNING:
            bits = self.update(now)
            if values[_STATE] == OVER:
                return bits
        elif values[_STATE] == OVER:
            return 0
        if values[_STATE] != READY:
            self._run(values[_TURN] * _PLAYER, values[_TURN], values[_USED])
        self._finish(ARBITER, -1, now)
        return DONE | GAME_OVER

    # --- queries --------------------------------------------------------------------------

    def view(self, player, now, out):
        """Fill View `out` with what `player`'s display shows at `now`.

        A View this game last filled for `player`, the game unchanged since, is only brought up
        to `now`: the figures that run, from what the last fill left in it, while no period or
        stage runs out meanwhile (then, and for any other View, the whole view is worked out).
        """
        if out._filled == self._version + player:
            follow = out._follow
            if follow == _STILL:
                return out
            values = self._values
            elapsed = values[_USED] + _ticks_diff(now, values[_RUN_START])
            if elapsed < 0:
                elapsed = 0
            elif elapsed > MAX_MS:
                elapsed = MAX_MS
            pre = out._pre
            if follow == _UP:
                out.time_ms = out._anchor + (elapsed - pre if elapsed > pre else 0)
                return out
            pre_left = pre - elapsed if pre > elapsed else 0
            if follow == _START:
                out.start_ms = pre_left
                return out
            if elapsed >= out._since:
                left = out._anchor - (elapsed - pre if elapsed > pre else 0)
                if left >= 0:
                    if follow == _DOWN:
                        out.time_ms = left
                    elif follow == _DELAY:
                        out.time_ms = left
                        out.delay_ms = pre_left
                    else:
                        out.time_ms = pre_left
                        out.reserve_ms = left
                    return out
        return self._view(player, now, out)

    def _view(self, player, now, out):
        values = self._values
        control = self._controls[player]
        stages = control.stages
        state = values[_STATE]
        started = state == RUNNING or state == PAUSED
        on_move = started and values[_TURN] == player
        mover_elapsed = self.elapsed(now) if started else 0
        slot = player * _PLAYER
        quick = -1  # the mover's time left when their move has crossed nothing, else -1
        if on_move:
            if self._plans[player][0] == _BARE:
                # press()'s short way: only the stage time could have run out, and if it has
                # not, the what-if run would change nothing else.
                pre = values[slot + _PRE]
                base = values[slot + _BASE]
                quick = (
                    values[slot + _LEFT]
                    - (mover_elapsed - pre if mover_elapsed > pre else 0)
                    + (base - pre if base > pre else 0)
                )
            if quick < 0:
                self._what_if(player, mover_elapsed)
                slot = _SCRATCH
        follow = _STILL
        out.running = on_move and state == RUNNING
        out.moves = values[slot + _MOVES]
        out.penalty_ms = values[slot + _PENALTY]
        marks = values[slot + _MARKS]
        out.soft_timeout = marks & MARK_SOFT != 0
        flagged = marks & MARK_FLAG != 0
        out.flagged = flagged
        first_flag = values[_FIRST_FLAG]
        out.flagged_first = flagged and (first_flag == -1 or first_flag == player)
        out.delay_ms = 0
        out.start_ms = -1
        out.reserve_ms = -1
        out.periods_left = -1
        out.moves_left = -1
        out.stage = values[slot + _STAGE]
        out.counting_up = False
        pre = values[slot + _PRE]
        pre_left = pre - mover_elapsed if on_move else pre
        if pre_left < 0:
            pre_left = 0
        left = quick if quick >= 0 else values[slot + _LEFT]
        if not stages:
            out.time_ms = left + (mover_elapsed if on_move else 0)
            out.counting_up = True
            if out.running:
                follow = _UP
                out._anchor = left
                out._pre = 0
            out._follow = follow
            out._filled = self._version + player
            out.fixed = out._filled if follow == _STILL else -1
            return out
        out.time_ms = left
        if out.running:
            # Until its next period or stage, the move's figures run as in view()'s short way.
            follow = _DOWN
            out._pre = pre
            out._anchor = left + (mover_elapsed - pre if mover_elapsed > pre else 0)
            out._since = mover_elapsed
        start_ms = self.setup.start_ms
        if start_ms and values[slot + _MOVES] == 0 and state != READY:
            out.start_ms = pre_left if on_move else start_ms
            if follow != _STILL:
                follow = _START
        elif control.move_ms is not None:
            out.reserve_ms = left
            out.time_ms = pre_left if on_move else control.move_ms
            if follow != _STILL:
                follow = _MOVE_TIME
        elif on_move and stages[values[slot + _STAGE]].mode == DELAY:
            out.delay_ms = pre_left
            if follow != _STILL:
                follow = _DELAY
        if self.setup.hourglass and values[_TURN] != player and started:
            mover_pre = values[(1 - player) * _PLAYER + _PRE]
            if state == RUNNING:
                follow = _UP
                out._anchor = out.time_ms
                out._pre = mover_pre
            out.time_ms += mover_elapsed - mover_pre if mover_elapsed > mover_pre else 0
            out.counting_up = state == RUNNING
        stage = stages[values[slot + _STAGE]]
        if stage.is_period():
            out.periods_left = values[slot + _PERIODS]
        if stage.moves:
            out.moves_left = stage.moves - values[slot + _IN_STAGE]
        out._follow = follow
        out._filled = self._version + player
        out.fixed = out._filled if follow == _STILL else -1
        return out

    def next_event(self, now):
        """The stamp of the next change of state of the move in progress (a flag, a period or
        stage running out, a limit), or None when nothing is due."""
        values = self._values
        if values[_STATE] != RUNNING:
            return None
        if self._event_version == self._version:
            # The last answer holds for any `now` from the one it was for up to the event.
            event_at = self._event_at
            if _ticks_diff(now, self._event_from) >= 0 and _ticks_diff(event_at, now) > 0:
                return event_at
        event_at = self._next_event(now)
        if event_at is not None:
            self._event_version = self._version
            self._event_from = now
            self._event_at = event_at
        return event_at

    def _next_event(self, now):
        values = self._values
        player = values[_TURN]
        elapsed = self.elapsed(now)
        end = self._what_if(player, elapsed)
        if end >= 0:
            return ticks.add(now, end - elapsed if end > elapsed else 0)
        due = MAX_MS
        if (
            end == _NO_END
            and self._controls[player].stages
            and not (self.setup.start_ms and values[_SCRATCH + _MOVES] == 0)
        ):
            pre_left = values[_SCRATCH + _PRE] - elapsed
            due = values[_SCRATCH + _LEFT] + (pre_left if pre_left > 0 else 0) + 1
            if pre_left > 0 and pre_left < due:
                due = pre_left
        end = self._what_if(player, MAX_MS)
        if end >= 0 and end - elapsed < due:
            due = end - elapsed
        if due >= MAX_MS:
            return None
        return ticks.add(now, due)

    def flag_at(self):
        """The stamp at which the move in progress ends the game if no lever is pressed."""
        values = self._values
        if values[_STATE] != RUNNING:
            return None
        player = values[_TURN]
        end = self._what_if(player, MAX_MS)
        if end < 0:
            return None
        return ticks.add(values[_RUN_START], end - values[_USED])
