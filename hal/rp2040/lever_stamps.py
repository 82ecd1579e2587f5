# SPDX-License-Identifier: MIT
# Lever edges stamped by hardware: a PIO state machine sees them, DMA writes each one's levels and microsecond.
#
# The PIO program (lever_pio.py) pushes the two levers' levels at every change. DMA channel A,
# paced by that state machine's RX request, copies the word into a ring and chains to channel
# B, which copies the timer's TIMERAWL (the microsecond count, RP2040 datasheet 4.6) into a
# second ring and chains back to A, which waits for the next word. Each ring is 64 words whose
# DMA write address wraps (CTRL.RING_SEL, RING_SIZE 8: 256 bytes, aligned). None of it needs
# the core: an edge is stamped within a quarter of a microsecond whatever the core does, a flash
# erase or program with the interrupts masked included, a garbage collection, a display write.
#
# B raises its interrupt at each stamp; drain(), its hard handler, turns the new entries into
# the EdgeRing's (button, pressed, stamp), the contract the debouncer and the app read. The
# levers keep a GPIO interrupt too, whose handler is drain() as well: it is what ends a light
# sleep (the sleeping core gates the PIO's and the DMA's clocks; they run again as it wakes,
# and the edge is stamped then, microseconds late). Both handlers run at the same priority, so
# they never interleave, and the EdgeRing keeps one writer at a time.
#
# A stamp is the millisecond that time.ticks_ms() (time_us_64() // 1000 on rp2) read at the
# edge's own microsecond: floor(us / 1000) modulo 2**30, never ahead of the loop's `now`. The
# 64-bit microsecond comes from the 32-bit one in the ring and the timer's TIMERAWH/L read
# after it (the edge at most one 71.6-minute wrap before); the millisecond is worked out by long
# division in 16-bit pieces, so no integer outgrows MicroPython's small ints and the handler
# allocates nothing (registers are read 16 bits at a time through machine.mem16).
#
# On a board with a 32.768 kHz reference (hal/rp2040/reftime.py) the timer counts the
# reference's ticks while the chip sleeps on it, and the clock's time is the timer's count plus
# an offset: the stamp is then the reference's clock's (`ms_of`, refsleep's, given the 32-bit
# count as two halves), the same millisecond as any other, whichever count the edge came in.
#
# Each word carries the PIO's running count: a drain that finds more new words than the ring
# holds (interrupts masked through more than 63 edges: a bouncing lever through a long erase)
# takes the 63 newest, adds the others to `lost` (and to the EdgeRing's), and takes the levels
# from there; an entry rewritten while it is read is lost the same way, never paired with
# another's stamp.
from array import array

from micropython import const

from hal.rp2040 import lever_pio

_N = const(64)  # entries a ring holds
_RING_BYTES = const(256)  # 4 bytes an entry
_RING_BITS = const(8)  # DMA CTRL.RING_SIZE: the write address wraps every 2**8 bytes
_HALVES = const(128)  # 16-bit halves in a ring
_MASK30 = const(0x3FFFFFFF)  # ticks_ms wraps at 2**30
_PERMANENT = const(0x3F)  # DMA TREQ_SEL: unpaced
_PIO_BASES = (0x50200000, 0x50300000)
_RXF0 = const(0x20)
_PIO_RX_DREQ = const(4)  # DREQ_PIO0_RX0; + 8 for PIO1, + the machine's number
_DMA_BASE = 0x50000000
_WRITE_ADDR = const(0x04)
_CHANNEL_BYTES = const(0x40)
_TIMERAWH = 0x40054024
_TIMERAWL = 0x40054028


class LeverStamps:
    """The two levers on GPIO `gpio` and `gpio` + 1 (`buttons`: their logical buttons, in that
    order), stamped into `edges` (hal/events.py). `rp2` and `machine` are those modules,
    `addressof` uctypes.addressof (fakes in tests); `sm_id` the state machine (0: PIO0's first;
    a Pico W's radio takes PIO1); `ms_of(top, low)`, where the board has a reference, the
    clock's millisecond of a 32-bit count given in 16-bit halves."""

    def __init__(self, rp2, machine, addressof, gpio, buttons, edges, sm_id=0, ms_of=None):
        self._mem16 = machine.mem16
        self._ms_of = ms_of
        self._push = edges.push
        self._edges = edges
        self._left, self._right = buttons
        self.lost = 0  # edges the rings lost before drain() took them
        self.taken = 0  # entries taken, the baseline included
        self._levels = -1  # the levers' levels as the last entry gave them; -1: none yet
        self._count = 0  # the last entry's count (the first is 0x3FFFFFFF)
        # Two rings of 256 bytes, each aligned to 256, in one buffer with room to align them.
        self._ring = array("H", bytes(3 * _RING_BYTES))
        address = addressof(self._ring)
        skip = -address % _RING_BYTES
        self._levels_at = skip // 2  # the levels ring, in halves of self._ring
        self._stamps_at = self._levels_at + _HALVES
        block = sm_id // 4
        machine_no = sm_id % 4
        self._sm = rp2.StateMachine(sm_id, lever_pio.program(rp2), in_base=machine.Pin(gpio))
        self._words = rp2.DMA()
        self._stamps = rp2.DMA()
        words, stamps = self._words, self._stamps
        words.config(
            read=_PIO_BASES[block] + _RXF0 + 4 * machine_no,
            write=address + skip,
            count=1,
            ctrl=words.pack_ctrl(
                size=2,
                inc_read=False,
                inc_write=True,
                ring_sel=True,
                ring_size=_RING_BITS,
                treq_sel=_PIO_RX_DREQ + 8 * block + machine_no,
                chain_to=stamps.channel,
                irq_quiet=True,
            ),
        )
        stamps.config(
            read=_TIMERAWL,
            write=address + skip + _RING_BYTES,
            count=1,
            ctrl=stamps.pack_ctrl(
                size=2,
                inc_read=False,
                inc_write=True,
                ring_sel=True,
                ring_size=_RING_BITS,
                treq_sel=_PERMANENT,
                chain_to=words.channel,
                irq_quiet=False,
            ),
        )
        # Register addresses above 2**30 are no small ints on the board: made once, here.
        self._head_at = _DMA_BASE + _CHANNEL_BYTES * stamps.channel + _WRITE_ADDR
        self._rawh = _TIMERAWH
        self._rawh_top = _TIMERAWH + 2
        self._rawl = _TIMERAWL
        self._rawl_top = _TIMERAWL + 2
        self.drain = self._drain  # bound once: the handlers allocate nothing
        stamps.irq(handler=self.drain, hard=True)
        words.config(trigger=True)
        self._sm.active(1)

    def stop(self):
        """The state machine and the channels stopped (a soft reboot, the tests)."""
        self._sm.active(0)
        self._stamps.irq(handler=None)
        self._words.active(0)
        self._stamps.active(0)

    def _drain(self, _source=None):
        mem16 = self._mem16
        ring = self._ring
        head = (mem16[self._head_at] & 0xFF) >> 2  # the next entry B will write
        newest = self._levels_at + 2 * ((head - 1) % _N)
        new = (self._count - (ring[newest + 1] << 14 | ring[newest] >> 2)) & _MASK30
        if new == 0:  # the count goes down by one an entry
            return
        if new > _N - 1:  # more than the ring keeps: the oldest are gone (or going)
            self._lost(new - (_N - 1))
            self._count = (self._count - (new - (_N - 1))) & _MASK30
            new = _N - 1
        # The timer now, after those entries: TIMERAWH modulo 1000 and TIMERAWL, read while
        # TIMERAWL's top half stays the same (so no carry into TIMERAWH came in between).
        while True:
            top = mem16[self._rawl_top]
            thousands = ((mem16[self._rawh_top] % 1000) * 536 + mem16[self._rawh]) % 1000
            low = mem16[self._rawl]
            if mem16[self._rawl_top] == top:
                break
        at = (head - new) % _N
        while new:
            new -= 1
            word = self._levels_at + 2 * at
            stamp = self._stamps_at + 2 * at
            at = (at + 1) % _N
            bottom = ring[word]
            count = ring[word + 1] << 14 | bottom >> 2
            us_low = ring[stamp]
            us_top = ring[stamp + 1]
            self._count = (self._count - 1) & _MASK30
            if count != self._count or ring[word] != bottom:
                self._lost(1)  # rewritten by a later lap while it was read
                continue
            self.taken += 1
            if self._ms_of is not None:
                stamp = self._ms_of(us_top, us_low)
            else:
                # The edge's 64-bit microsecond has this TIMERAWH, or the one before if
                # TIMERAWL wrapped since the edge; floor(us / 1000) modulo 2**30, 16 bits at a
                # time.
                thousand = thousands
                if us_top > top or (us_top == top and us_low > low):
                    thousand = (thousands - 1) % 1000
                part = thousand * 65536 + us_top
                upper = part // 1000
                part = (part - upper * 1000) * 65536 + us_low
                stamp = ((upper & 0x3FFF) << 16 | part // 1000) & _MASK30
            levels = bottom & 3
            changed = levels ^ self._levels
            if self._levels < 0:
                changed = 0  # the first entry: the levels the machine started with
            self._levels = levels
            if changed & 1:
                self._push(self._left, levels & 1 == 0, stamp)
            if changed & 2:
                self._push(self._right, levels & 2 == 0, stamp)

    def _lost(self, count):
        self.lost += count
        self._edges.lost += count
