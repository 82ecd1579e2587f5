# SPDX-License-Identifier: MIT
# A ring of flash blocks erased ahead of time: a save during play only programs a record into one.
#
# The device is a NOR flash as rp2.Flash is one: readblocks(n, buf, offset) reads,
# writeblocks(n, buf, offset) programs (bits go from 1 to 0, never back), ioctl(6, n) erases a
# 4 KB block to 0xFF. A slot is one block, known by the HEADER bytes at its start (hal/lfs_slots.py
# makes them on the board, inside littlefs files; sim/nor_file.py's device is the ring's alone),
# checked before each program and each erase: a block whose header is not the one expected is
# never touched. After the header come records, one after another:
#   flags (1 byte: BASE, END)   payload length L (2)   seq (4)   payload (L)   CRC-32 (4)
# A save is one record or several, the last marked END; a chain begins with a BASE record and
# seq rises by one from each record to the next, over every save (and never repeats). What reads
# back is the newest END whose chain from its BASE is whole: a record a power cut left half
# programmed fails its CRC and ends its block's records, so the save it belonged to is not read
# and the one before it is. Records are programmed as whole pages of 0xFF but for their own
# bytes: 0xFF leaves a bit as it was, so several records share a page without an erase.
#
# What a boot found records in is never written again: the next records go to a block that
# read back erased to its end. A block whose records are all older than what the app says it
# still needs (release()) is erased by tidy(), one block a call, which the app makes only while
# no clock runs: on the RP2040 an erase keeps interrupts off for 45 ms (400 ms at most).
import binascii
import struct
from array import array

from micropython import const

BLOCK = const(4096)
PAGE = const(256)
HEADER = const(20)  # a slot's header: who made it (16 bytes), then their CRC-32
START = const(32)  # the first record's offset in a block
FRAME = const(7)  # flags, length, seq
_CRC = const(4)
# A record's payload at most: the record, framing and all, fits a page; a longer save takes
# several records.
MAX_PAYLOAD = const(245)
BASE = const(1)  # the record begins a chain
END = const(2)  # the record ends a save
_ERASE = const(6)  # ioctl: erase a block

# A slot's state.
READY = const(0)  # its header, then erased to the end: takes records
OPEN = const(1)  # the block records go to now
USED = const(2)  # holds records (or what a cut left): read back, written no more
DIRTY = const(3)  # holds nothing still needed: tidy() erases it
LOST = const(4)  # its header is not there: never touched; the maker may make the slot again
GONE = const(5)  # missing, and the maker could not make it: left alone till the next boot

_ERASED = b"\xff" * PAGE
_BLANK = memoryview(_ERASED)  # slices of it allocate no copy
MAGIC = b"CkSl"


def header(index, nonce):
    """A slot's HEADER bytes: MAGIC, its index (2 bytes), 2 zero bytes, `nonce` (8 bytes: which
    making of the slot this is), then the CRC-32 of those 16."""
    made = bytearray(HEADER)
    made[:4] = MAGIC
    struct.pack_into("<H", made, 4, index)
    made[8:16] = nonce
    struct.pack_into("<I", made, 16, binascii.crc32(made[:16]))
    return bytes(made)


def whole_device(device, count):
    """A ring on the first `count` blocks of `device`, all of them the ring's (the desktop's
    file, the tests' flash): each block's header is known from its place."""
    blank = bytes(8)
    return SlotRing(device, [(block, header(block, blank)) for block in range(count)], True)


class SlotRing:
    """`device` the flash; `slots` one entry a slot, (block, header) or None (a slot missing).
    `owned`: the whole device is the ring's, so a block without its header is erased and given
    one (the desktop's file); otherwise such a block is LOST and only `maker(index)`, which
    makes the slot anew through the filesystem and returns its (block, header) or None, may
    bring it back (the board's littlefs)."""

    def __init__(self, device, slots, owned=False, maker=None):
        self.device = device
        self.owned = owned
        self._maker = maker
        count = len(slots)
        self.count = count
        # Per slot (arrays and one buffer of headers: a few objects, not a hundred).
        self._blocks = array("i", [-1] * count)
        self._headers = memoryview(bytearray(count * HEADER))
        self._state = bytearray(count)
        self._low = array("i", [-1] * count)  # seq of a block's first record
        self._high = array("i", [-1] * count)  # seq of its last
        self._end = array("i", [START] * count)  # offset after its last record
        self._open = -1
        self._last = -1  # the slot opened last: the next one after it is taken (wear)
        self._page = bytearray(_ERASED)
        self._check = bytearray(HEADER)
        record = bytearray(FRAME + MAX_PAYLOAD + _CRC)
        self._record = record
        self._view = memoryview(record)
        self.payload = self._view[FRAME : FRAME + MAX_PAYLOAD]  # a record's payload goes here
        self.top = -1  # the highest seq of a record read or written
        for index in range(count):
            slot = slots[index]
            if slot is None:
                self._state[index] = LOST
            else:
                self._blocks[index] = slot[0]
                self._headers[index * HEADER : (index + 1) * HEADER] = slot[1]
                self._scan(index)

    # --- reading ---------------------------------------------------------------------------

    def _ours(self, index):
        """Whether the slot's block starts with its header (read now)."""
        block = self._blocks[index]
        if block < 0:
            return False
        check = self._check
        self.device.readblocks(block, check, 0)
        return check == self._headers[index * HEADER : (index + 1) * HEADER]

    def _frame(self, block, at):
        """The record at `at` read into the record buffer: (flags, length, seq), or None where
        no whole record is (the end of the records, or what a cut left)."""
        view = self._view
        if at + FRAME + _CRC > BLOCK:
            return None
        self.device.readblocks(block, view[:FRAME], at)
        flags = self._record[0]
        length, seq = struct.unpack_from("<HI", self._record, 1)
        if flags & ~(BASE | END) or at + FRAME + length + _CRC > BLOCK or length > MAX_PAYLOAD:
            return None
        size = FRAME + length
        self.device.readblocks(block, view[FRAME : size + _CRC], at + FRAME)
        if (
            binascii.crc32(view[:size]) & 0xFFFFFFFF
            != struct.unpack_from("<I", self._record, size)[0]
        ):
            return None
        return flags, length, seq

    def _scan(self, index):
        if not self._ours(index):
            self._state[index] = DIRTY if self.owned and self._blocks[index] >= 0 else LOST
            return
        block = self._blocks[index]
        at = START
        low = high = -1
        while True:
            found = self._frame(block, at)
            if found is None:
                break
            seq = found[2]
            if low < 0:
                low = seq
            high = seq
            at += FRAME + found[1] + _CRC
        self._low[index] = low
        self._high[index] = high
        self._end[index] = at
        if high > self.top:
            self.top = high
            self._last = index  # the next records go to the slot after the newest
        if low >= 0:
            self._state[index] = USED
        elif self._erased(block, START):
            self._state[index] = READY
        else:
            self._state[index] = DIRTY  # what a cut left, and no record: erased again

    def _erased(self, block, at):
        """Whether the block reads 0xFF from `at` to its end."""
        page = self._page
        while at < BLOCK:
            start = at & ~(PAGE - 1)
            self.device.readblocks(block, page, start)
            if start < at:
                page[: at - start] = _ERASED[: at - start]
            if page != _ERASED:
                page[:] = _ERASED
                return False
            at = start + PAGE
        return True

    def _by_age(self):
        """The slots holding records, oldest first: a block takes its records in one run of
        seqs, and runs never interleave."""
        order = [i for i in range(self.count) if self._high[i] >= 0 and self._state[i] <= USED]
        order.sort(key=lambda i: self._low[i])
        return order

    def records(self):
        """(seq, flags, payload) of every record held, oldest first; the payload is a view of a
        buffer the next record reuses."""
        for index in self._by_age():
            block = self._blocks[index]
            at = START
            while at < self._end[index]:
                found = self._frame(block, at)
                if found is None:  # changed since the scan: no more of this block
                    break
                flags, length, seq = found
                yield seq, flags, self.payload[:length]
                at += FRAME + length + _CRC

    def newest(self, floor=-1):
        """(base, end): the seqs of the newest whole save above `floor` and of the BASE record
        its chain begins with; None when there is none."""
        best = None
        base = last = -1
        for seq, flags, _payload in self.records():
            if flags & BASE:
                base = seq
            elif seq != last + 1:
                base = -1
            last = seq
            if flags & END and base >= 0 and seq > floor:
                best = (base, seq)
        return best

    def chain(self, base, end):
        """The payloads of the records from seq `base` to `end`, in order (each a view of a
        buffer the next one reuses)."""
        for seq, _flags, payload in self.records():
            if base <= seq <= end:
                yield payload

    # --- writing ---------------------------------------------------------------------------

    def ready(self):
        """How many erased slots wait for records (the one taking records not counted)."""
        found = 0
        for state in self._state:
            if state == READY:
                found += 1
        return found

    def room(self):
        """Bytes of records the ring takes before it needs an erase: the open block's rest and
        the erased ones."""
        room = self.ready() * (BLOCK - START)
        if self._open >= 0:
            room += BLOCK - self._end[self._open]
        return room

    def _take(self):
        """A READY slot, the next after the one opened last (erases go round the ring), or -1."""
        count = self.count
        state = self._state
        for step in range(1, count + 1):
            index = (self._last + step) % count
            if state[index] == READY:
                return index
        return -1

    def append(self, seq, flags, length):
        """Program a record of the `length` bytes of `payload` after the last one. Returns
        False, writing nothing, when no erased room is left for it. An OSError of the device
        passes up; the block takes no more records if it had programmed any byte of it."""
        size = FRAME + length + _CRC
        index = self._open
        if index < 0 or self._end[index] + size > BLOCK:
            if index >= 0:
                self._state[index] = USED
            index = self._take()
            self._open = index
            if index < 0:
                return False
            self._state[index] = OPEN
            self._last = index
            self._low[index] = seq
        record = self._record
        record[0] = flags
        struct.pack_into("<HI", record, 1, length, seq)
        struct.pack_into(
            "<I", record, FRAME + length, binascii.crc32(self._view[: FRAME + length])
        )
        try:
            self._program(index, self._end[index], self._view[:size])
        except OSError:
            if self._state[index] == OPEN and not self._erased(
                self._blocks[index], self._end[index]
            ):
                self._state[index] = USED  # half a record: nothing more goes after it
                self._high[index] = seq
                self.top = seq
                self._open = -1
            raise
        self._end[index] += size
        self._high[index] = seq
        self.top = seq
        return True

    def _program(self, index, at, data):
        """Program `data` at `at` in the slot's block, page by page (each page program is one
        of the chip's: interrupts come back between them)."""
        if not self._ours(index):
            self._state[index] = LOST
            raise OSError(5)  # EIO: the block is no longer the ring's
        block = self._blocks[index]
        page = self._page
        done = 0
        size = len(data)
        while done < size:
            start = (at + done) & ~(PAGE - 1)
            lo = at + done - start
            count = min(PAGE - lo, size - done)
            page[lo : lo + count] = data[done : done + count]
            try:
                self.device.writeblocks(block, page, start)
            finally:
                page[lo : lo + count] = _BLANK[:count]
            done += count

    def release(self, floor):
        """Records below seq `floor` are no longer needed: tidy() erases the blocks that hold
        nothing else (the one taking records too: the next go to an erased one)."""
        state = self._state
        for index in range(self.count):
            if state[index] <= USED and state[index] != READY and self._high[index] < floor:
                state[index] = DIRTY
                if index == self._open:
                    self._open = -1

    # --- upkeep ----------------------------------------------------------------------------

    def untidy(self):
        """Whether tidy() has work: a block to erase, a slot to make."""
        state = self._state
        for index in range(self.count):
            if state[index] == DIRTY or (state[index] == LOST and self._maker is not None):
                return True
        return False

    def tidy(self):
        """One piece of upkeep, the first there is: a DIRTY block erased and given its header
        back, or else a LOST slot made anew by the maker. Only while no clock runs. Returns
        whether it did anything."""
        state = self._state
        for index in range(self.count):
            if state[index] == DIRTY:
                if not self.owned and not self._ours(index):
                    state[index] = LOST  # not ours any more: only the maker may act
                    return True
                self._erase(index)
                return True
        if self._maker is not None:
            for index in range(self.count):
                if state[index] == LOST:
                    made = self._maker(index)
                    if made is None:
                        state[index] = GONE
                    else:
                        self._blocks[index] = made[0]
                        self._headers[index * HEADER : (index + 1) * HEADER] = made[1]
                        self._scan(index)
                        if state[index] == LOST:
                            state[index] = GONE  # made, yet not found: not again this boot
                    return True
        return False

    def _erase(self, index):
        block = self._blocks[index]
        page = self._page
        page[:HEADER] = self._headers[index * HEADER : (index + 1) * HEADER]
        try:
            self.device.ioctl(_ERASE, block)
            self.device.writeblocks(block, page, 0)
        except OSError:
            # Erased perhaps, its header not back: the desktop's erases it again, the board's
            # maker makes the slot anew.
            self._state[index] = DIRTY if self.owned else LOST
            raise
        finally:
            page[:HEADER] = _BLANK[:HEADER]
        self._low[index] = self._high[index] = -1
        self._end[index] = START
        self._state[index] = READY
