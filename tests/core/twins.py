# SPDX-License-Identifier: MIT
# One game played twice, by Game as it is and by General, its twin with every short way off;
# after each step both must show, record and announce exactly the same.
#
# Game takes short ways while only the stage time can end a move: press() charges the move
# without a what-if run, update() returns early, _view() works the mover's time out directly,
# view() brings a View it filled before up to date, next_event() repeats its last answer.
# General turns off the first three with the class attribute Game.__init__ reads
# (short_ways), and the last two by calling the full methods: nothing is added to Game's
# hot path to make this possible. press() also writes out two helpers (_begin_move, and
# _note for the ply) for the other side's move; where the slot layout can be read (CPython
# keeps a module's private constants, MicroPython compiles them away), General checks after
# every press that the helpers would have left the same.
import ticks
from clock.game import DONE, NOTE_PLY, RUNNING, Game, View
from clock.model import ClockError, Setup
from clock.record import Record
from notation import registry

try:
    from clock.game import _PLAYER, _PRE, _USED
except ImportError:
    _PLAYER = None

# Every system, from the notations, in times short enough for a few presses to cross stages,
# periods and flags.
PRESETS = (
    "G/30s/2",  # Fischer (before)
    "G/30s/2 fischer-after",
    "G/30s/3 bronstein",
    "G/20s/5 delay",
    "G/20s/3 delay word",
    "2/20s/1, G/10s/2",  # stages, Fischer (before)
    "2/20s/1, 1/5s/3 fischer-after",  # the last stage's quota repeats
    "2/10s, G/10s/2 word",
    "pgn:2/20:10+1",
    "pgn:30=20",  # Armageddon: a control each
    "pgn:-",  # untimed
    "pgn:*40",  # sandclock
    "pgn:30S5",
    "pgn:30B4",
    '{"time_control": "byoyomi", "main_time": 20, "period_time": 5, "periods": 3}',
    "sgf:TM[0]OT[3x5 byo-yomi]",
    '{"time_control": "canadian", "main_time": 10, "period_time": 15, "stones_per_period": 3}',
    '{"time_control": "fischer", "initial_time": 20, "time_increment": 10, "max_time": 40}',
    "ggs:20,0//10,0",  # soft time-out, then overtime
    "ggs:30,N2/2,N2/10,N3",  # Bronstein every 2 moves, replacing overtime
    "ggs:20,3/4,2/10,2",
    "G/20s hourglass",
    "G/20s/2 hourglass",
    "cutechess:st=5",
    "cutechess:tc=3/20+0.5",
    'pcn:[{"duration_ms": 20000}, {"duration_ms": 5000, "plies": 1}]',
    'pcn:[{"duration_ms": 10000, "plies": 2}, {"duration_ms": 8000, "plies": 3}]',
    "arimaa:5s/20s/50/30s",  # move time and reserve: no limit, so the short ways apply
    "arimaa:5s/5/50/6/4t/45s",  # a move limit and a limit in turns
    "arimaa:0:05/5/100/0/0:01",  # a game limit in time
)

# Steps of a schedule: what is done, after the stamp moves on by the step's time.
PRESS = 0  # the lever of the side on move (before the start: a lever)
WRONG = 1  # the lever of the side waiting
LOOK = 2  # nothing: the displays are read
PAUSE = 3
RESUME = 4
UNDO = 5
UPDATE = 6
WAKE = 7  # to the next event's stamp, one ms before it or one after (the time: -1, 0 or 1)
ADJUST = 8  # the arbiter adds or takes away up to 5 s of the side on move (from the stamp)
MOVES = 9  # the arbiter corrects the move counter of the side on move by -1, 0 or +1
END = 10  # the arbiter ends the game
STEPS = 11

VIEW_FIELDS = (  # every figure a View shows
    "time_ms",
    "counting_up",
    "delay_ms",
    "start_ms",
    "reserve_ms",
    "stage",
    "periods_left",
    "moves_left",
    "penalty_ms",
    "moves",
    "soft_timeout",
    "flagged",
    "flagged_first",
    "running",
)


class General(Game):
    """A Game that never takes a short way."""

    short_ways = False

    def press(self, player, now):
        running = self.state() == RUNNING and self.turn() == player
        length = self.record.length
        bits = Game.press(self, player, now)
        if running and bits & DONE and _PLAYER is not None:
            self._check_written_out(player, length)
        return bits

    def _check_written_out(self, player, entry):
        """Begin the other side's move again with the helpers press() writes out, from the
        state before it, and fail unless that leaves what press() left."""
        values = self._values
        before = self._before_press  # the state after the move so far was charged
        other = 1 - player
        slot = other * _PLAYER
        pressed = list(values)
        told = (self._told_stage, self._told_periods, self._told_marks)
        values[slot : slot + _PLAYER] = before[slot : slot + _PLAYER]
        if self.setup.hourglass:
            elapsed = before[_USED]
            pre = before[player * _PLAYER + _PRE]
            self._add_time(slot, other, elapsed - pre if elapsed > pre else 0)
        self._begin_move(other)
        self._tell_from(other)
        record = self.record
        self.record = Record(2)
        self.record.owner = self
        self._note(NOTE_PLY, player, before[_USED], 0)
        noted = self.record.rows()
        self.record = record
        again = list(values)
        values[:] = pressed
        assert again == pressed, "press() began the move as %s, the helpers as %s" % (
            pressed,
            again,
        )
        assert told == (self._told_stage, self._told_periods, self._told_marks)
        assert record.rows()[entry : entry + 1] == noted, "press() noted %s, _note %s" % (
            record.rows()[entry:],
            noted,
        )

    def view(self, player, now, out):
        return self._view(player, now, out)

    def next_event(self, now):
        if self.state() != RUNNING:
            return None
        return self._next_event(now)


def setups():
    """(name, Setup) of every system, with a start clock on one of them (no notation has it)."""
    found = [(text, registry.parse(text)) for text in PRESETS]
    plain = registry.parse("G/20s/2 delay")
    found.append(("start clock", Setup(plain.first, plain.second, start_ms=8000)))
    return found


def _shown(view):
    return [getattr(view, name) for name in VIEW_FIELDS] + [view.fixed == -1]


def _state(game, now):
    """Everything the game tells: its queries, next_event, its whole state as a snapshot."""
    told = [
        game.state(),
        game.turn(),
        game.reason(),
        game.loser(),
        game.first_flag(),
        game.end_stamp(),
        game.plies(),
        game.can_undo(),
        game.elapsed(now),
        game.next_event(now),
        game.flag_at(),
        game._told_stage,
        game._told_periods,
        game._told_marks,
    ]
    for player in (0, 1):
        told.append(game.moves(player))
        told.append(game.stage_state(player))
    # The scratch part of the state holds the last what-if run, which only one way made:
    # one more, the same in both, leaves it alike (it is always written before it is read).
    game._what_if(game.turn(), game.elapsed(now))
    told.append(game.snapshot(now))
    return told


def differ(short, general, views, now):
    """What the two games tell differently at `now`, or None when they agree."""
    for player in (0, 1):
        a = _shown(short.view(player, now, views[player]))
        b = _shown(general.view(player, now, View()))
        if a != b:
            return "side %d shows %s the short way, %s the general way" % (player, a, b)
    a = _state(short, now)
    b = _state(general, now)
    if a != b:
        return "the state is %s the short way, %s the general way" % (a, b)
    a = short.record.rows()
    b = general.record.rows()
    if a != b:
        return "the records differ: %s and %s" % (a, b)
    return None


def _act(game, step, now):
    try:
        if step == PRESS:
            return game.press(game.turn(), now)
        if step == WRONG:
            return game.press(1 - game.turn(), now)
        if step == PAUSE:
            return game.pause(now)
        if step == RESUME:
            return game.resume(now)
        if step == UNDO:
            return game.undo(now)
        if step == UPDATE:
            return game.update(now)
        player = game.turn()
        if step == ADJUST:
            return game.adjust_time(player, now % 5000 if now & 1 else -(now % 5000))
        if step == MOVES:
            return game.set_moves(player, game.moves(player) + now % 3 - 1)
        if step == END:
            return game.end_by_arbiter(now)
        return None
    except ClockError as error:
        return str(error)


def play(setup, schedule, t0=0, name=""):
    """Play `schedule`, a list of (step, ms), both ways from stamp `t0`, comparing after each
    step. Returns what the schedule reached (for tests that it did something): the presses
    taken, the bits the calls returned, OR-ed, and the game's reason() at the end."""
    short = Game(setup, Record())
    general = General(setup, Record())
    views = (View(), View())
    now = t0
    taken = seen = 0
    problem = differ(short, general, views, now)
    index = -1
    while problem is None and index + 1 < len(schedule):
        index += 1
        step, ms = schedule[index]
        if step == WAKE:
            due = short.next_event(now)
            if due is None:
                continue
            ahead = ticks.diff(due, now) + ms
            now = ticks.add(now, ahead if ahead > 0 else 0)
        else:
            now = ticks.add(now, ms)
        a = _act(short, step, now)
        b = _act(general, step, now)
        if a != b:
            problem = "returned %s the short way, %s the general way" % (a, b)
        else:
            problem = differ(short, general, views, now)
        if isinstance(a, int):
            seen |= a
            if step == PRESS and a & DONE:
                taken += 1
    assert problem is None, "%s from %d, after the steps %s: %s" % (
        name,
        t0,
        schedule[: index + 1],
        problem,
    )
    return taken, seen, short.reason()
