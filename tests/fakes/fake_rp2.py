# SPDX-License-Identifier: MIT
# A fake `rp2` module for the fake machine: DMA channels (the I2C TX request and IC_DATA_CMD; the
# PIO's RX request, unpaced copies, chains, rings), and the PIO (fakes/fake_pio.py).
#
# I2C:
# A channel configured as the RP2040 takes it (pack_ctrl's fields in CTRL's bit places) and
# triggered stays active() for `polls` answers, then its words reach the I2C bus at once: the
# target is the IC_TAR that the fake machine.I2C's writes left, each word's low byte goes to the
# device, and a word with STOP (bit 9) ends a transaction. A target that does not answer sets
# TX_ABRT in IC_RAW_INTR_STAT. A channel not paced by that bus's TX request (DREQ 32, 34), not
# 16 bits wide, stepping its write address, or on a bus whose IC_DMA_CR.TDMAE is clear gets no
# request and never ends; so does every channel while DMA.withheld (a block that raises none), or
# on a bus whose SCL is held low. SDA held low: the transfer ends, its words dropped, TX_ABRT set.
# Allocates nothing while the bus keeps no log (bus.log None).
#
# A channel paced by a PIO state machine's RX request (DREQ 4-7, 12-15) or unpaced (TREQ 0x3F)
# runs as the RP2040's does (datasheet 2.5, DMA): triggered, it makes COUNT transfers, each
# when its request is up, reading READ_ADDR (the state machine's RX FIFO, the timer's TIMERAWL)
# and writing into the fake RAM (machine.addressof) at WRITE_ADDR, which steps and wraps at
# 2**RING_SIZE bytes (RING_SEL: the write address); at the end it raises its interrupt unless
# IRQ_QUIET (through the fake machine: held while interrupts are masked) and triggers CHAIN_TO,
# COUNT reloaded. All at once, when a state machine pushes.
from fakes import fake_machine as m
from fakes.fake_pio import PIO, StateMachine, asm_pio, machine_at  # noqa: F401  rp2's names

DATA_CMD = 0x10
DMA_CR = 0x88
TDMAE = 0x02
STOP = 0x200
TX_DREQS = (32, 34)
# CTRL's fields that pack_ctrl takes: (their lowest bit, their width)
_FIELDS = {"enable": (0, 1), "size": (2, 2), "inc_read": (4, 1), "inc_write": (5, 1)}
_FIELDS.update({"chain_to": (11, 4), "treq_sel": (15, 6), "irq_quiet": (21, 1)})
_FIELDS.update({"high_pri": (1, 1), "ring_size": (6, 4), "ring_sel": (10, 1)})
_FIELDS.update({"bswap": (22, 1), "sniff_en": (23, 1)})
PERMANENT = 0x3F
PIO_RX_DREQS = (4, 5, 6, 7, 12, 13, 14, 15)


def requested(dreq):
    """A state machine pushed: the channels waiting on its RX request transfer."""
    for channel in m.state.dma:
        if channel.busy and channel.ctrl >> 15 & 0x3F == dreq:
            channel.run()


class DMA:
    withheld = False  # True: no I2C raises its TX request (emu.mjs --no-i2c-dreq)

    def __init__(self):
        self.channel = len(m.state.dma)
        m.state.dma.append(self)
        self.read = None
        self.write = 0
        self.count = 0
        self.ctrl = self.pack_ctrl()
        self.busy = False  # a PIO-paced or unpaced transfer sequence under way
        self.left = 0  # its transfers still to make
        self.transfers = 0
        self._handler = None
        self._hard = False
        self.polls = 3  # active() answers True this many times for each transfer
        self.started = 0
        self.aborted = 0
        self._left = -1  # active() answers left for the transfer in flight; -1: none
        self._byte = bytearray(1)

    def pack_ctrl(self, **fields):
        # rp2's defaults: enabled, 32 bits, the read address stepping, the write's too, unpaced,
        # chained to itself (no chain)
        value = 1 | 2 << 2 | 1 << 4 | 1 << 5 | 0x3F << 15 | getattr(self, "channel", 0) << 11
        for name, (shift, width) in _FIELDS.items():
            if name in fields:
                value = value & ~((1 << width) - 1 << shift) | int(fields[name]) << shift
        return value

    def config(self, read=None, write=None, count=None, ctrl=None, trigger=False):
        if read is not None:
            self.read = read
        if write is not None:
            self.write = write
        if count is not None:
            self.count = count
        if ctrl is not None:
            self.ctrl = ctrl
        if trigger:
            self.started += 1
            if self._pio_paced():
                self.start()
            else:
                self._left = self.polls

    def irq(self, handler=None, hard=False):
        self._handler = handler
        self._hard = hard

    def close(self):
        self.busy = False
        self._handler = None

    # --- PIO-paced and unpaced channels -----------------------------------------------------

    def _pio_paced(self):
        treq = self.ctrl >> 15 & 0x3F
        return treq in PIO_RX_DREQS or (treq == PERMANENT and self.read == m.TIMERAWL)

    def start(self):
        """Triggered (or chained to): COUNT transfers from now."""
        if not self.ctrl & 1:
            return
        self.busy = True
        self.left = self.count
        self.run()

    def _ready(self):
        treq = self.ctrl >> 15 & 0x3F
        if treq == PERMANENT:
            return True
        source = machine_at(self.read)
        return source is not None and source.rx_fifo() > 0

    def _take(self):
        if self.read == m.TIMERAWL:
            return m.state.us & 0xFFFFFFFF
        source = machine_at(self.read)
        if source is None:
            raise RuntimeError("DMA read from 0x%08x: not modelled" % self.read)
        return source.pull_rx()

    def run(self):
        """Transfer while the request is up; at the end the interrupt and the chain."""
        while self.busy and self.left and self._ready():
            m.ram_write(self.write, self._take())
            self.transfers += 1
            ctrl = self.ctrl
            if ctrl >> 5 & 1:  # INCR_WRITE
                step = 1 << (ctrl >> 2 & 3)
                ring = ctrl >> 6 & 15
                if ring and ctrl >> 10 & 1:  # the write address wraps
                    mask = (1 << ring) - 1
                    self.write = self.write & ~mask | (self.write + step) & mask
                else:
                    self.write += step
            self.left -= 1
        if self.busy and not self.left:
            self.busy = False
            if not self.ctrl >> 21 & 1 and self._handler is not None:
                m._call(self._handler, self, self._hard)
            chain = self.ctrl >> 11 & 15
            if chain != self.channel and chain < len(m.state.dma):
                m.state.dma[chain].start()

    def active(self, value=None):
        if self._pio_paced():
            if value is not None and not value:
                self.busy = False
            return self.busy
        if value is not None:
            if not value and self._left >= 0:
                self._left = -1
                self.aborted += 1
            return False
        if self._left < 0:
            return False
        if self._left > 0:
            self._left -= 1
            return True
        bus_id = m.I2C_BASES.index(self.write - DATA_CMD) if self._paced() else -1
        if bus_id < 0 or not m.state.words.get(m.I2C_BASES[bus_id] + DMA_CR, 0) & TDMAE:
            return True  # no request: the channel waits for ever
        if DMA.withheld:
            return True  # the block raises no TX request (a fault, as rp2040js alone has it)
        held = m.bus(bus_id).held()
        if held & 2:
            return True  # SCL held: the FIFO never drains, the request never comes again
        self._left = -1
        if held & 1:  # SDA held: the arbitration lost, the FIFO flushed, the words dropped
            raw = m.I2C_BASES[bus_id] + m.IC_RAW_INTR_STAT
            m.state.words[raw] = m.state.words.get(raw, 0) | m.TX_ABRT
            return False
        self._deliver(bus_id)
        return False

    def _paced(self):
        ctrl = self.ctrl
        if self.write - DATA_CMD not in m.I2C_BASES or ctrl & 1 == 0:
            return False
        wanted = TX_DREQS[m.I2C_BASES.index(self.write - DATA_CMD)]
        return ctrl >> 2 & 3 == 1 and not ctrl & 1 << 5 and ctrl >> 15 & 0x3F == wanted

    def _deliver(self, bus_id):
        base = m.I2C_BASES[bus_id]
        bus = m.bus(bus_id)
        target = m.state.words.get(base + m.IC_TAR, 0)
        words = self.read
        byte = self._byte
        i = 0
        while i < self.count:
            device = bus.devices.get(target)
            if device is not None:
                device.begin()
            start = i
            while True:
                word = words[i]
                i += 1
                if device is not None:
                    byte[0] = word & 0xFF
                    device.receive(byte)
                if word & STOP or i == self.count:
                    break
            if device is None:
                raw = base + m.IC_RAW_INTR_STAT
                m.state.words[raw] = m.state.words.get(raw, 0) | m.TX_ABRT
            else:
                device.end()
            bus.bytes += 1 + i - start
            if bus.log is not None:
                bus.log.append((target, bytes(w & 0xFF for w in words[start:i])))
