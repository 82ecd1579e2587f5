# SPDX-License-Identifier: MIT
# A game's record: every ply, undo, arbiter correction and the end, with both sides' figures after.
#
# Entries live in arrays of whole numbers set aside once, one a field: taking one allocates
# nothing, and a few KB each find room more easily in a fragmented heap than one block would.
# A Game given a Record writes it (Game._note, and press() itself) while it owns it (`owner`):
# the record starts when the game starts and stays until the next one does. What an entry holds:
#   CODE     kind * 2 + player: the player it is about
#   AT       PLY: the ply's elapsed time; the others: the elapsed time of the move in progress
#   AMOUNT   ADJUST: the correction (ms, signed); SET_TIME: ms; SET_MOVES: moves; END: reason
#   LEFT     per side (first, second): the time in the stage, period or block (Arimaa: the
#            reserve; untimed: the time used), as the display shows it between moves
#   COUNT    per side: stage * STAGE_UNIT + 1 + the count shown beside the time: periods left
#            (byo-yomi) or moves left to the quota; + 0 where the display shows none
# A record that fills up stops taking entries (`cut`): what it holds is still an exact start.
from array import array
from micropython import const

import ticks
from clock.game import ARBITER, DONE, OVER, RUNNING, STAGE_UNIT
from clock.game import NOTE_ADJUST as ADJUST
from clock.game import NOTE_END as END
from clock.game import NOTE_PLY as PLY
from clock.game import NOTE_SET_MOVES as SET_MOVES
from clock.game import NOTE_SET_TIME as SET_TIME
from clock.game import NOTE_UNDO as UNDO

KIND_NAMES = ("ply", "undo", "adjust", "set_time", "set_moves", "end")

CAPACITY = const(640)
FIELDS = const(7)
CODE = const(0)
AT = const(1)
AMOUNT = const(2)
LEFT = const(3)  # + player
COUNT = const(5)  # + player


class RecordError(ValueError):
    """Entries that do not replay on the game they are said to be of."""


class Record:
    def __init__(self, capacity=CAPACITY):
        self.capacity = capacity
        codes = bytearray(capacity)  # the kind and player fit a byte
        # Sized by a range, which allocates nothing more (an entry is written before it is read).
        self._fields = tuple([codes] + [array("i", range(capacity)) for _ in range(FIELDS - 1)])
        self.spec = ""  # the game's preset text, as stored (the app sets it)
        self.owner = None  # the Game that wrote it last
        self.tag = 0  # a number of this game's alone (app.saved: which stored chunks are its)
        self.clear()

    def clear(self):
        self.length = 0
        self.cut = False
        self.sealed = 0  # entries already stored for good (app.saved)

    def put(self, code, at, amount, left_first, left_second, count_first, count_second):
        length = self.length
        if length >= self.capacity:
            self.cut = True
            return
        fields = self._fields
        fields[CODE][length] = code
        fields[AT][length] = at
        fields[AMOUNT][length] = amount
        fields[LEFT][length] = left_first
        fields[LEFT + 1][length] = left_second
        fields[COUNT][length] = count_first
        fields[COUNT + 1][length] = count_second
        self.length = length + 1

    def kind(self, index):
        return self._fields[CODE][index] >> 1

    def player(self, index):
        return self._fields[CODE][index] & 1

    def field(self, index, field):
        return self._fields[field][index]

    def stage(self, index, player):
        return self._fields[COUNT + player][index] // STAGE_UNIT

    def count(self, index, player):
        """The periods or moves left the display showed beside `player`'s time, or -1."""
        return self._fields[COUNT + player][index] % STAGE_UNIT - 1

    def rows(self):
        """Every entry as a tuple of its fields (for comparisons)."""
        fields = self._fields
        return [tuple([field[index] for field in fields]) for index in range(self.length)]

    def plies(self, end=None):
        """The entries of the plies that stand (an undo takes back the ply before it), among
        the first `end` entries (all, when None)."""
        standing = []
        for index in range(self.length if end is None else end):
            kind = self.kind(index)
            if kind == PLY:
                standing.append(index)
            elif kind == UNDO and standing:
                standing.pop()
        return standing


def replay(game, entries):
    """Run `game` (a fresh Game, with a Record to rewrite) through (kind, player, at, amount)
    entries as they happened; its record then holds them again, figures and all. Raises
    RecordError at the first entry the game does not take as the original did."""
    game.start(0, 0)
    for _ in steps(game, entries):
        pass


def steps(game, entries):
    """replay() on a game started at 0, yielding the stamp the game is at after each entry."""
    record = game.record
    now = 0
    for index, (kind, player, at, amount) in enumerate(entries):
        if kind == END and game.state() == OVER:  # it came with the ply before (a game limit)
            yield now
            continue
        if kind != UNDO:  # an undo gives back the time since the press: no time runs for it
            elapsed = game.elapsed(now)
            if at < elapsed:
                raise RecordError("entry %d: %d ms, before the %d ms run" % (index, at, elapsed))
            now = ticks.add(now, at - elapsed)
        if kind == PLY:
            if game.turn() != player or not game.press(player, now) & DONE:
                raise RecordError("entry %d: a ply the game does not take" % index)
        elif kind == UNDO:
            game.undo(now)
        elif kind == END:
            if amount == ARBITER:  # the other ends come by themselves, at their instant
                game.end_by_arbiter(now)
            else:
                game.update(now)
        else:
            running = game.state() == RUNNING
            if running:
                game.pause(now)
            if kind == ADJUST:
                game.adjust_time(player, amount)
            elif kind == SET_TIME:
                game.set_time(player, amount)
            else:
                game.set_moves(player, amount)
            if running:
                game.resume(now)
        if (
            record.length <= index
            or record.kind(index) != kind
            or record.player(index) != player
            or record.field(index, AT) != at
        ):
            raise RecordError("entry %d: the game does not take it as it was" % index)
        yield now
