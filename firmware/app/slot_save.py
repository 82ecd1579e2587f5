# SPDX-License-Identifier: MIT
# The running game as records in the slot ring (hal/slots.py): what a save during play programs.
#
# A save is a run of bytes cut into the ring's records: BASE on the first record of a chain's
# first save, END on the last record of every save. The chain's first save says what the game
# is: its preset, who sits left, the record's tag and how many of its entries the files hold
# (the chunks app/saved.py wrote while no clock ran), and the core's state whole. Each save
# after it holds only what changed since the one before: the values of Game.snapshot() that
# differ, and the record's new entries. Numbers go in groups of 7 bits, the first group of 6
# with a sign bit, so a ply's save is some 40 bytes:
#   first save only: spec length, spec (UTF-8), left player, has a record (0/1), tag, sealed,
#                    snapshot length
#   every save:      cut (0/1), changed values: count, (index, value)..., new entries: count,
#                    (code, at, amount)...
from hal.slots import BASE, END, MAX_PAYLOAD
from clock.record import AMOUNT, AT, CODE


class SlotSaves:
    """Writes the game's saves into `ring`, a chain at a time."""

    def __init__(self, ring):
        self.ring = ring
        self._buffer = ring.payload
        self._at = 0  # bytes in the record being filled
        self._seq = 0  # its seq
        self._flags = 0
        self._room = True
        self._last = None  # the snapshot the chain's last save holds; None: a chain begins
        self._written = 0  # the record's entries the chain holds
        self.began = -1  # the BASE record's seq when the last save began a chain, else -1

    def restart(self):
        """The next save begins a chain (the files took a save, the ring failed, a boot)."""
        self._last = None

    def save(self, seq, spec, left_player, game, now):
        """The game as of `now`, in records numbered from `seq`. Returns the seq of its last
        record, or -1 when the ring ran out of erased room (what went in then ends no save,
        and the next save begins a chain). An OSError of the flash passes up."""
        snapshot = game.snapshot(now)
        record = game.record
        if record is not None and record.owner is not game:
            record = None
        last = self._last
        self._seq = seq
        self._at = 0
        self._room = True
        self.began = -1
        if last is None:
            self.began = seq
            self._flags = BASE
            data = spec.encode()
            self._put(len(data))
            for byte in data:
                self._byte(byte)
            self._byte(left_player)
            self._byte(0 if record is None else 1)
            self._put(0 if record is None else record.tag)
            written = 0 if record is None else record.sealed
            self._put(written)
            self._put(len(snapshot))
        else:
            self._flags = 0
            written = self._written
        self._byte(1 if record is not None and record.cut else 0)
        size = len(snapshot)
        changed = 0
        for index in range(size):
            if snapshot[index] != (0 if last is None else last[index]):
                changed += 1
        self._put(changed)
        for index in range(size):
            value = snapshot[index]
            if value != (0 if last is None else last[index]):
                self._put(index)
                self._put(value)
        length = written if record is None else record.length
        self._put(length - written)
        if record is not None:
            field = record.field
            for index in range(written, length):
                self._put(field(index, CODE))
                self._put(field(index, AT))
                self._put(field(index, AMOUNT))
        self._emit(END)
        if not self._room:
            self._last = None
            return -1
        self._last = snapshot
        self._written = length
        return self._seq - 1

    def _put(self, value):
        """A whole number: 6 bits and the sign in the first byte, 7 bits in each after it."""
        first = 0
        if value < 0:
            value = -value
            first = 0x40
        first |= value & 0x3F
        value >>= 6
        while value:
            self._byte(first | 0x80)
            first = value & 0x7F
            value >>= 7
        self._byte(first)

    def _byte(self, value):
        if self._at == MAX_PAYLOAD:
            self._emit(0)
        self._buffer[self._at] = value
        self._at += 1

    def _emit(self, end):
        if self._room and not self.ring.append(self._seq, self._flags | end, self._at):
            self._room = False
        self._seq += 1
        self._flags = 0
        self._at = 0


class _Reader:
    """The bytes of a chain's records, one after another."""

    def __init__(self, payloads):
        self._payloads = payloads
        self._view = b""
        self._at = 0

    def more(self):
        while self._at >= len(self._view):
            try:
                self._view = next(self._payloads)
            except StopIteration:
                return False
            self._at = 0
        return True

    def byte(self):
        if not self.more():
            raise ValueError("a save cut short")
        value = self._view[self._at]
        self._at += 1
        return value

    def number(self):
        byte = self.byte()
        value = byte & 0x3F
        negative = byte & 0x40
        shift = 6
        while byte & 0x80:
            byte = self.byte()
            value |= (byte & 0x7F) << shift
            shift += 7
        return -value if negative else value


# What read() fills in, in this order.
SPEC = 0
LEFT = 1
HAS_RECORD = 2
TAG = 3
SEALED = 4
SNAPSHOT = 5
CUT = 6
_FIELDS = 7


def read(ring, base, end):
    """The chain of saves from seq `base` to `end` (SlotRing.newest()) as a list: SPEC, LEFT,
    HAS_RECORD, TAG, SEALED, SNAPSHOT (the last save's), CUT, and how many entries the ring
    holds after the sealed ones. ValueError (UnicodeError) when it does not read."""
    found = [None] * _FIELDS
    count = 0
    for _entry in entries(ring, base, end, found):
        count += 1
    return found, count


def entries(ring, base, end, found=None):
    """The record's entries the chain holds, as (kind, player, at, amount); `found` (a list of
    read()'s fields) is filled as they are read. ValueError when a save does not read."""
    if found is None:
        found = [None] * _FIELDS
    reader = _Reader(ring.chain(base, end))
    size = reader.number()
    found[SPEC] = bytes([reader.byte() for _ in range(size)]).decode()
    found[LEFT] = reader.byte()
    found[HAS_RECORD] = reader.byte()
    found[TAG] = reader.number()
    found[SEALED] = reader.number()
    size = reader.number()
    if not 0 < size <= 64 or found[LEFT] > 1 or found[HAS_RECORD] > 1:
        raise ValueError("not a game's first save")
    snapshot = [0] * size
    found[SNAPSHOT] = snapshot
    while reader.more():
        found[CUT] = reader.byte()
        for _ in range(reader.number()):
            index = reader.number()
            if index < 0:
                raise ValueError("a value of no place")
            snapshot[index] = reader.number()  # IndexError: past the end
        for _ in range(reader.number()):
            code = reader.number()
            at = reader.number()
            amount = reader.number()
            if code < 0:
                raise ValueError("an entry of no kind")
            yield code >> 1, code & 1, at, amount
