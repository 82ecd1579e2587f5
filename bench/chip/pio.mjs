// SPDX-License-Identifier: MIT
// The PIO state machines in emulated time: each steps at clk_sys / CLKDIV, its instructions'
// delays take their cycles, and nothing runs while the sleeping core has the PIO's clock gated.
//
// rp2040js 1.3.3 decodes and executes PIO instructions (pio.js) but steps every state machine,
// enabled or not, from a wall-clock timer (setTimeout, 1 000 instructions at a time), unrelated
// to the emulated clock, ignoring CLKDIV and delays. Here its timer never runs: emu.mjs calls
// advance(ns) for every stretch of emulated time (after each instruction of the core, across
// its sleeps and stalls) and the enabled machines step in it, one instruction a cycle.
//
// Stepping a machine at 125 MHz through every emulated second would make the bench crawl, so a
// machine whose state comes back to one it had, with nothing done outside it in between (no
// FIFO entry, no IRQ flag, no pin or pin direction changed), is idle: it loops through the same
// cycles until one of its inputs changes. It is then only counted (its cycles), and brought
// back to the exact state of its loop's phase when an input could change: a GPIO's level
// (emu.mjs calls wake() before it applies one), any access to the PIO's registers by the core or
// a DMA channel, another machine of the block changing an IRQ flag. So a machine polling its
// pins samples a lever's edge in the cycle it would on silicon.
//
// Not modelled: the two-flop input synchroniser (2 cycles, 16 ns at 125 MHz, of latency before
// an input is seen; INPUT_SYNC_BYPASS), a wait that ends and the next instruction running in
// the same cycle (rp2040js executes them together), the FIFOs joined into one of 8.

const SIDE_EFFECTS = (pio, sm) => [
  sm.rxFIFO.itemCount,
  sm.txFIFO.itemCount,
  pio.irq,
  pio.pinValues,
  pio.pinDirections,
];
const SEEN_MOST = 4096; // a machine whose state does not repeat within this many cycles is run
const FIELDS = ['pc', 'x', 'y', 'inputShiftReg', 'inputShiftCount', 'outputShiftReg'];
FIELDS.push('outputShiftCount', 'waiting', 'waitType', 'waitPolarity', 'waitIndex', 'waitDelay');
FIELDS.push('execOpcode', 'execValid');

class Machine {
  constructor(pio, sm) {
    this.pio = pio;
    this.sm = sm;
    this.acc = 0; // fractional cycles carried to the next advance
    this.hold = 0; // cycles the current instruction's delay still takes
    this.cycle = 0; // cycles run (idle ones counted)
    this.seen = new Map(); // state -> cycle, since the last side effect or input change
    this.idle = null; // {snapshot, hold, start, period}
  }

  signature() {
    const { sm } = this;
    let text = `${this.hold}`;
    for (const field of FIELDS) text += ',' + sm[field];
    return text + ',' + SIDE_EFFECTS(this.pio, sm).join(',');
  }

  snapshot() {
    const copy = {};
    for (const field of FIELDS) copy[field] = this.sm[field];
    return copy;
  }

  restore(copy) {
    Object.assign(this.sm, copy);
  }

  // One cycle of the machine. Answers whether it did something outside itself.
  step() {
    this.cycle++;
    if (this.hold > 0) {
      this.hold--;
      return false;
    }
    const { sm, pio } = this;
    const before = SIDE_EFFECTS(pio, sm);
    const cycles = sm.cycles;
    sm.step();
    this.hold = Math.max(sm.cycles - cycles, 1) - 1;
    const after = SIDE_EFFECTS(pio, sm);
    return before.some((value, i) => value !== after[i]);
  }

  // Run `n` cycles, going idle when the state repeats with nothing done outside.
  run(n) {
    if (this.idle) {
      this.cycle += n;
      return false;
    }
    let outside = false;
    for (let i = 0; i < n; i++) {
      if (this.step()) {
        outside = true;
        this.seen.clear();
        continue;
      }
      const state = this.signature();
      const first = this.seen.get(state);
      if (first !== undefined) {
        this.idle = { snapshot: this.snapshot(), hold: this.hold, start: this.cycle, period: this.cycle - first };
        this.seen.clear();
        this.cycle += n - i - 1;
        return outside;
      }
      if (this.seen.size >= SEEN_MOST) this.seen.clear();
      this.seen.set(state, this.cycle);
    }
    return outside;
  }

  // Out of idle: the state of the loop's phase now (the inputs it saw are still the same).
  wake() {
    const idle = this.idle;
    if (!idle) return;
    this.idle = null;
    this.restore(idle.snapshot);
    this.hold = idle.hold;
    const phase = (this.cycle - idle.start) % idle.period;
    const now = this.cycle;
    this.cycle = idle.start;
    for (let i = 0; i < phase; i++) this.step();
    this.cycle = now;
  }
}

export class PioClock {
  // `clocks` the ClockTree (clk_sys, and whether the sleeping core gates a PIO's clock).
  constructor(mcu, clocks) {
    this.clocks = clocks;
    this.blocks = mcu.pio.map((pio, index) => {
      pio.run = () => {}; // rp2040js's wall-clock stepping: replaced by advance()
      const machines = pio.machines.map((sm) => new Machine(pio, sm));
      const block = { pio, index, machines };
      const read = pio.readUint32.bind(pio);
      const write = pio.writeUint32.bind(pio);
      pio.readUint32 = (offset) => {
        this.wakeBlock(block);
        return read(offset);
      };
      pio.writeUint32 = (offset, value) => {
        this.wakeBlock(block);
        write(offset, value);
        this.running = this.blocks.some((each) => each.machines.some((m) => m.sm.enabled));
      };
      return block;
    });
    this.running = false; // some machine is enabled (only a write to a PIO's CTRL changes that)
  }

  // How many state machines are enabled.
  get enabled() {
    let count = 0;
    for (const block of this.blocks) for (const machine of block.machines) count += machine.sm.enabled ? 1 : 0;
    return count;
  }

  wakeBlock(block) {
    for (const machine of block.machines) machine.wake();
  }

  // A GPIO is about to change level: every machine sees it from the cycle it changes.
  wake() {
    for (const block of this.blocks) this.wakeBlock(block);
  }

  // Whether a machine runs that is not idle (the core may not skip far while one does).
  get busy() {
    if (!this.running) return false;
    for (const block of this.blocks) {
      if (!this.clocks.pioClocked(block.index)) continue;
      for (const machine of block.machines) if (machine.sm.enabled && !machine.idle) return true;
    }
    return false;
  }

  advance(ns) {
    if (!this.running) return;
    const sysHz = this.clocks.sysHz;
    for (const block of this.blocks) {
      if (!this.clocks.pioClocked(block.index)) continue;
      let outside = false;
      for (const machine of block.machines) {
        const { sm } = machine;
        if (!sm.enabled) continue;
        const divider = sm.clockDivInt + sm.clockDivFrac / 256 || 65536;
        const cycles = (ns * sysHz) / 1e9 / divider + machine.acc;
        const whole = Math.floor(cycles);
        machine.acc = cycles - whole;
        if (whole && machine.run(whole)) outside = true;
      }
      if (outside) {
        block.pio.checkChangedPins();
        this.wakeBlock(block); // an IRQ flag or a pin another machine of the block may wait on
      }
    }
  }
}
