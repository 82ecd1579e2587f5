# A two-player game on a Setup: presses, pauses, flags, arbiter functions and undo, from timestamps.
from micropython import const

from clock import ticks
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

# Marks a player collects.
MARK_SOFT = const(1)  # a soft time-out
MARK_FLAG = const(2)  # a flag fell (interim, or final when the game is over on time)

# One player's state: a run of small integers in a flat list.
_STAGE = const(0)  # index of the current stage
_LEFT = const(1)  # time left in the stage (or period) at the start of the move in progress
_PERIODS = const(2)  # periods left in the stage, the one in use included
_IN_STAGE = const(3)  # moves made toward the stage's quota
_MOVES = const(4)  # moves made in the game
_PENALTY = const(5)  # time used past zero (Word)
_MARKS = const(6)
_SPENT = const(7)  # time spent since the last increment (increments every several moves)
_PRE = const(8)  # time the move may use before the stage time runs: delay, move time, start clock
_BASE = const(9)  # elapsed time of the move in progress already charged (settled in a pause)
_PLAYER = const(10)

_SCRATCH = const(20)  # a third player slot, for what-if runs of the player on move
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


class View:
    """What one side's display shows; filled in place by Game.view()."""

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


class Game:
    def __init__(self, setup):
        if not isinstance(setup, Setup):
            raise ClockError("a game needs a Setup")
        self.setup = setup
        self._controls = (setup.first, setup.second)
        self._st = [0] * _SIZE
        self._undo = [0] * _SIZE
        self.end_reason = PLAYING  # set by _run: why the move it charged ends the game
        self.reset()

    # --- state ---------------------------------------------------------------------------

    def reset(self):
        st = self._st
        for i in range(_SIZE):
            st[i] = 0
        for player in (0, 1):
            stages = self._controls[player].stages
            if stages:
                st[player * _PLAYER + _LEFT] = stages[0].duration_ms
                st[player * _PLAYER + _PERIODS] = stages[0].periods
        st[_STATE] = READY
        st[_LOSER] = -1
        st[_FIRST_FLAG] = -1

    def state(self):
        return self._st[_STATE]

    def turn(self):
        """The player whose move is in progress (0 first, 1 second)."""
        return self._st[_TURN]

    def reason(self):
        return self._st[_REASON]

    def loser(self):
        return self._st[_LOSER]

    def first_flag(self):
        return self._st[_FIRST_FLAG]

    def end_stamp(self):
        return self._st[_END_STAMP]

    def plies(self):
        return self._st[_PLIES]

    def moves(self, player):
        return self._st[player * _PLAYER + _MOVES]

    def stage_state(self, player):
        """(stage, time left at the start of the move in progress, periods left, moves made
        toward the stage's quota): the stored figures, before the move in progress."""
        o = player * _PLAYER
        st = self._st
        return st[o + _STAGE], st[o + _LEFT], st[o + _PERIODS], st[o + _IN_STAGE]

    def can_undo(self):
        return self._st[_CAN_UNDO] == 1

    def snapshot(self):
        """The whole game state as a list of small integers (for saving)."""
        return list(self._st)

    def restore(self, values):
        """Take a snapshot() back; ClockError (and nothing changed) if it cannot be this game's."""
        if len(values) != _SIZE:
            raise ClockError("a saved game of another shape")
        for value in values:
            if not isinstance(value, int) or not -MAX_MS <= value <= MAX_MS:
                raise ClockError("a saved game holds small whole numbers only")
        for player in (0, 1):
            o = player * _PLAYER
            stages = self._controls[player].stages
            if stages:
                stage = values[o + _STAGE]
                if (
                    not 0 <= stage < len(stages)
                    or not 1 <= values[o + _PERIODS] <= stages[stage].periods
                ):
                    raise ClockError("a saved game in a stage this preset does not have")
            if values[o + _LEFT] < 0 or values[o + _MOVES] < 0 or values[o + _IN_STAGE] < 0:
                raise ClockError("a saved game with negative times or counts")
        if not 0 <= values[_STATE] <= OVER or values[_TURN] not in (0, 1):
            raise ClockError("a saved game in no known state")
        if not ticks.is_stamp(values[_RUN_START]) or values[_USED] < 0:
            raise ClockError("a saved game with a bad timestamp")
        for i in range(_SIZE):
            self._st[i] = values[i]

    def freeze(self):
        """After a restore on boot: a game that was running waits, paused, with its times as
        of the last press or pause (the timestamps of another boot mean nothing now)."""
        st = self._st
        if st[_STATE] == RUNNING:
            st[_STATE] = PAUSED

    # --- time -----------------------------------------------------------------------------

    def elapsed(self, now):
        """Elapsed time of the move in progress at `now`."""
        st = self._st
        if st[_STATE] != RUNNING:
            return st[_USED]
        e = st[_USED] + ticks.diff(now, st[_RUN_START])
        if e < 0:
            return 0
        return e if e < MAX_MS else MAX_MS

    def _fold(self, now):
        st = self._st
        st[_USED] = self.elapsed(now)
        st[_RUN_START] = now

    def _copy(self, source, target):
        st = self._st
        for i in range(_PLAYER):
            st[target + i] = st[source + i]

    def _run(self, o, player, e):
        """Charge the player whose state is at offset `o` for a move lasting `e` so far.

        Returns the elapsed time at which this move ends the game (setting end_reason),
        _IN_PENALTY when Word has taken over, or _NO_END.
        """
        st = self._st
        control = self._controls[player]
        stages = control.stages
        setup = self.setup
        end = _NO_END
        self.end_reason = PLAYING
        if setup.start_ms and st[o + _MOVES] == 0:
            if e > setup.start_ms:
                end = setup.start_ms + 1
                self.end_reason = ABORTED
        elif stages:
            pre = st[o + _PRE]
            charge = (e - pre if e > pre else 0) - (
                st[o + _BASE] - pre if st[o + _BASE] > pre else 0
            )
            st[o + _BASE] = e
            left = st[o + _LEFT] - charge
            while left < 0:
                index = st[o + _STAGE]
                stage = stages[index]
                periods = st[o + _PERIODS]
                if periods > 1:
                    used = (stage.duration_ms - 1 - left) // stage.duration_ms
                    if used > periods - 1:
                        used = periods - 1
                    st[o + _PERIODS] = periods - used
                    left += used * stage.duration_ms
                    continue
                last = index == len(stages) - 1
                if setup.word and (last or stage.on_expire == FLAG):
                    penalty = st[o + _PENALTY] - left
                    st[o + _PENALTY] = penalty if penalty < MAX_MS else MAX_MS
                    left = 0
                    end = _IN_PENALTY
                    break
                if stage.on_expire == SOFT:
                    st[o + _MARKS] |= MARK_SOFT
                if last:
                    st[o + _MARKS] |= MARK_FLAG
                    end = e + left + 1
                    self.end_reason = TIME
                    left = 0
                    break
                if stage.on_expire == FLAG:
                    st[o + _MARKS] |= MARK_FLAG
                st[o + _STAGE] = index + 1
                stage = stages[index + 1]
                st[o + _PERIODS] = stage.periods
                st[o + _IN_STAGE] = 0
                left += stage.duration_ms
            st[o + _LEFT] = left
        limit = control.move_limit_ms
        if limit and e > limit and (end < 0 or limit + 1 < end):
            end = limit + 1
            self.end_reason = TIME
        limit = setup.limit_ms
        if limit:
            limit -= self._st[_PLAYED]
            if e > limit and (end < 0 or limit + 1 < end):
                end = limit + 1
                self.end_reason = HALTED
        return end

    def _begin_move(self, player):
        st = self._st
        o = player * _PLAYER
        control = self._controls[player]
        st[o + _BASE] = 0
        st[o + _PRE] = 0
        if not control.stages:
            return
        stage = control.stages[st[o + _STAGE]]
        if self.setup.start_ms and st[o + _MOVES] == 0:
            st[o + _PRE] = self.setup.start_ms
        elif control.move_ms is not None:
            st[o + _PRE] = control.move_ms
        elif stage.mode == DELAY:
            st[o + _PRE] = stage.increment_ms
        if stage.mode == FISCHER and stage.increment_ms:
            self._add_time(o, control, stage.increment_ms)

    def _add_time(self, o, control, amount):
        st = self._st
        left = st[o + _LEFT] + amount
        if control.max_ms and left > control.max_ms:
            left = control.max_ms
        st[o + _LEFT] = left if left < MAX_MS else MAX_MS

    def _end_move(self, player, e):
        """Charge a completed move of `e` ms, give increments and move on through quotas."""
        st = self._st
        o = player * _PLAYER
        control = self._controls[player]
        free = self.setup.start_ms and st[o + _MOVES] == 0
        self._run(o, player, e)
        st[o + _MOVES] += 1
        if not control.stages:
            st[o + _LEFT] += e if st[o + _LEFT] + e < MAX_MS else 0
            return
        if free:
            e = 0
        index = st[o + _STAGE]
        stage = control.stages[index]
        if control.move_ms is not None and not free:
            unused = st[o + _PRE] - e
            if unused > 0:
                credit = unused * control.reserve_percent // 100
                cap = control.reserve_limit_ms
                if cap:
                    room = cap - st[o + _LEFT]
                    credit = credit if credit < room else (room if room > 0 else 0)
                self._add_time(o, control, credit)
        elif stage.increment_ms and (stage.mode == FISCHER_AFTER or stage.mode == BRONSTEIN):
            spent = st[o + _SPENT] + e
            if st[o + _MOVES] % stage.increment_every:
                st[o + _SPENT] = spent if spent < MAX_MS else MAX_MS
            else:
                st[o + _SPENT] = 0
                gain = stage.increment_ms
                if stage.mode == BRONSTEIN and spent < gain:
                    gain = spent
                self._add_time(o, control, gain)
        st[o + _IN_STAGE] += 1
        if stage.moves and st[o + _IN_STAGE] >= stage.moves:
            st[o + _IN_STAGE] = 0
            if index + 1 < len(control.stages):
                stage = control.stages[index + 1]
                st[o + _STAGE] = index + 1
                st[o + _PERIODS] = stage.periods
                how = stage.on_enter
            else:
                how = stage.on_repeat
            if how != ADD:
                st[o + _LEFT] = 0
            self._add_time(o, control, stage.duration_ms)

    def _finish(self, reason, loser, stamp):
        st = self._st
        st[_STATE] = OVER
        st[_REASON] = reason
        st[_LOSER] = loser
        st[_END_STAMP] = stamp
        st[_CAN_UNDO] = 0
        if reason == TIME and st[_FIRST_FLAG] < 0:
            st[_FIRST_FLAG] = loser

    def _note_flags(self, player):
        st = self._st
        if st[_FIRST_FLAG] < 0 and st[player * _PLAYER + _MARKS] & MARK_FLAG:
            st[_FIRST_FLAG] = player

    # --- play -----------------------------------------------------------------------------

    def start(self, now, player):
        """Start the game with `player` to move first; false if it has started already."""
        st = self._st
        if st[_STATE] != READY or not ticks.is_stamp(now):
            return self._refuse_stamp(now)
        st[_TURN] = player
        st[_STATE] = RUNNING
        st[_RUN_START] = now
        self._begin_move(player)
        return True

    def _refuse_stamp(self, now):
        if not ticks.is_stamp(now):
            raise ClockError("a timestamp is a whole number from 0 to 2**30 - 1")
        return False

    def update(self, now):
        """Bring the game up to `now`: ends it at the exact instant a flag or limit fell.

        Returns the outcome when the game ended in this call, else PLAYING (0).
        """
        st = self._st
        if st[_STATE] != RUNNING:
            return PLAYING
        if not ticks.is_stamp(now):
            self._refuse_stamp(now)
        player = st[_TURN]
        self._fold(now)
        e = st[_USED]
        self._copy(player * _PLAYER, _SCRATCH)
        end = self._run(_SCRATCH, player, e)
        if end < 0 or end > e:
            return PLAYING
        reason = self.end_reason
        self._run(player * _PLAYER, player, end)
        self._note_flags(player)
        st[_USED] = end
        st[_PLAYED] += end
        self._finish(reason, player if reason == TIME else -1, ticks.add(now, end - e))
        return reason

    def press(self, player, now):
        """The lever of `player` was pressed at `now`: their move ends, the other's starts.

        Before the game starts either lever starts the other side's clock. Returns whether
        the press did anything.
        """
        st = self._st
        if player != 0 and player != 1:
            raise ClockError("a player is 0 (first) or 1 (second)")
        if st[_STATE] == READY:
            return self.start(now, 1 - player)
        if st[_STATE] != RUNNING or st[_TURN] != player or not ticks.is_stamp(now):
            return self._refuse_stamp(now)
        if self.update(now):
            return False
        e = st[_USED]
        undo = self._undo
        for i in range(_SIZE):
            undo[i] = st[i]
        charged = self._charged_so_far(player, e)
        self._end_move(player, e)
        self._note_flags(player)
        other = 1 - player
        if self.setup.hourglass:
            self._add_time(other * _PLAYER, self._controls[other], charged)
        st[_PLAYED] += e
        st[_PLIES] += 1
        st[_CAN_UNDO] = 1
        st[_TURN] = other
        st[_USED] = 0
        st[_RUN_START] = now
        self._begin_move(other)
        limit = self.setup.limit_turns
        if limit and st[_PLIES] >= 2 * limit:
            self._finish(HALTED, -1, now)
        return True

    def pause(self, now):
        st = self._st
        if st[_STATE] != RUNNING or self.update(now):
            return False
        st[_STATE] = PAUSED
        return True

    def resume(self, now):
        st = self._st
        if st[_STATE] != PAUSED or not ticks.is_stamp(now):
            return self._refuse_stamp(now)
        st[_STATE] = RUNNING
        st[_RUN_START] = now
        return True

    def undo(self, now):
        """Take back the last press: the exact state before it, the same clock running again."""
        st = self._st
        if st[_CAN_UNDO] != 1 or st[_STATE] not in (RUNNING, PAUSED):
            return False
        state = st[_STATE]
        undo = self._undo
        for i in range(_SIZE):
            st[i] = undo[i]
        st[_STATE] = state
        st[_RUN_START] = now
        st[_CAN_UNDO] = 0
        return True

    # --- arbiter --------------------------------------------------------------------------

    def _settle(self, player):
        """In a pause: charge the mover's move so far, so that an edit starts from the display."""
        st = self._st
        if st[_STATE] == PAUSED and st[_TURN] == player:
            self._run(player * _PLAYER, player, st[_USED])

    def _editable(self):
        st = self._st
        if st[_STATE] not in (READY, PAUSED):
            raise ClockError("pause the clock first")
        st[_CAN_UNDO] = 0

    def adjust_time(self, player, delta_ms):
        """Add (or with a negative delta, take away) time from a player's current stage."""
        self._editable()
        check_ms(delta_ms if delta_ms >= 0 else -delta_ms, "time correction")
        self._settle(player)
        o = player * _PLAYER
        left = self._st[o + _LEFT] + delta_ms
        self._st[o + _LEFT] = 0 if left < 0 else (left if left < MAX_MS else MAX_MS)

    def set_time(self, player, ms):
        self._editable()
        check_ms(ms, "time")
        self._settle(player)
        self._st[player * _PLAYER + _LEFT] = ms

    def set_moves(self, player, moves):
        """Correct a player's move counter; the stage's quota count moves with it."""
        self._editable()
        check_count(moves, "move counter")
        st = self._st
        o = player * _PLAYER
        stages = self._controls[player].stages
        in_stage = st[o + _IN_STAGE] + moves - st[o + _MOVES]
        quota = stages[st[o + _STAGE]].moves if stages else 0
        if quota and in_stage > quota - 1:
            in_stage = quota - 1
        st[o + _IN_STAGE] = in_stage if in_stage > 0 else 0
        st[o + _MOVES] = moves

    def end_by_arbiter(self, now):
        st = self._st
        if st[_STATE] == OVER or (st[_STATE] == RUNNING and self.update(now)):
            return False
        if st[_STATE] != READY:
            self._run(st[_TURN] * _PLAYER, st[_TURN], st[_USED])
        self._finish(ARBITER, -1, now)
        return True

    # --- queries --------------------------------------------------------------------------

    def view(self, player, now, out):
        """Fill View `out` with what `player`'s display shows at `now`."""
        st = self._st
        control = self._controls[player]
        moving = st[_STATE] == RUNNING and st[_TURN] == player
        mover_e = self.elapsed(now) if st[_STATE] in (RUNNING, PAUSED) else 0
        self._copy(player * _PLAYER, _SCRATCH)
        on_move = st[_STATE] in (RUNNING, PAUSED) and st[_TURN] == player
        if on_move:
            self._run(_SCRATCH, player, mover_e)
        o = _SCRATCH
        out.running = moving
        out.moves = st[o + _MOVES]
        out.penalty_ms = st[o + _PENALTY]
        out.soft_timeout = st[o + _MARKS] & MARK_SOFT != 0
        out.flagged = st[o + _MARKS] & MARK_FLAG != 0
        first = st[_FIRST_FLAG]
        out.flagged_first = out.flagged and (first == -1 or first == player)
        out.delay_ms = 0
        out.start_ms = -1
        out.reserve_ms = -1
        out.periods_left = -1
        out.moves_left = -1
        out.stage = st[o + _STAGE]
        out.counting_up = False
        pre_left = st[o + _PRE] - mover_e if on_move else st[o + _PRE]
        if pre_left < 0:
            pre_left = 0
        if not control.stages:
            out.time_ms = st[o + _LEFT] + (mover_e if on_move else 0)
            out.counting_up = True
            return out
        out.time_ms = st[o + _LEFT]
        if self.setup.start_ms and st[o + _MOVES] == 0 and st[_STATE] != READY:
            out.start_ms = pre_left if on_move else self.setup.start_ms
        elif control.move_ms is not None:
            out.reserve_ms = st[o + _LEFT]
            out.time_ms = pre_left if on_move else control.move_ms
        elif on_move and control.stages[st[o + _STAGE]].mode == DELAY:
            out.delay_ms = pre_left
        if self.setup.hourglass and st[_TURN] != player and st[_STATE] in (RUNNING, PAUSED):
            out.time_ms += self._charged_so_far(1 - player, mover_e)
            out.counting_up = st[_STATE] == RUNNING
        stage = control.stages[st[o + _STAGE]]
        if stage.is_period():
            out.periods_left = st[o + _PERIODS]
        if stage.moves:
            out.moves_left = stage.moves - st[o + _IN_STAGE]
        return out

    def _charged_so_far(self, player, e):
        pre = self._st[player * _PLAYER + _PRE]
        return e - pre if e > pre else 0

    def next_event(self, now):
        """The stamp of the next change of state of the move in progress (a flag, a period or
        stage running out, a limit), or None when nothing is due."""
        st = self._st
        if st[_STATE] != RUNNING:
            return None
        player = st[_TURN]
        e = self.elapsed(now)
        self._copy(player * _PLAYER, _SCRATCH)
        end = self._run(_SCRATCH, player, e)
        if end >= 0:
            return ticks.add(now, end - e if end > e else 0)
        due = MAX_MS
        if (
            end == _NO_END
            and self._controls[player].stages
            and not (self.setup.start_ms and st[_SCRATCH + _MOVES] == 0)
        ):
            pre_left = st[_SCRATCH + _PRE] - e
            due = st[_SCRATCH + _LEFT] + (pre_left if pre_left > 0 else 0) + 1
            if pre_left > 0 and pre_left < due:
                due = pre_left
        self._copy(player * _PLAYER, _SCRATCH)
        end = self._run(_SCRATCH, player, MAX_MS)
        if end >= 0 and end - e < due:
            due = end - e
        if due >= MAX_MS:
            return None
        return ticks.add(now, due)

    def flag_at(self):
        """The stamp at which the move in progress ends the game if no lever is pressed."""
        st = self._st
        if st[_STATE] != RUNNING:
            return None
        player = st[_TURN]
        self._copy(player * _PLAYER, _SCRATCH)
        end = self._run(_SCRATCH, player, MAX_MS)
        if end < 0:
            return None
        return ticks.add(st[_RUN_START], end - st[_USED])
