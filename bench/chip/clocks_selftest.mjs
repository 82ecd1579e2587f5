#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Self-tests of the emulator's clock model (clocks.mjs), each against the RP2040 datasheet's
// behaviour: `node bench/chip/clocks_selftest.mjs` (tests/bench/test_chip_selftest_host.py runs it).
//
// Each test builds a bare rp2040js chip with the clock tree attached, sets registers through the
// chip's own bus (as the core's stores would) and runs a few Thumb instructions from SRAM with
// the same loop emu.mjs runs: instructions at clk_sys, time skipped while the core waits, time
// passing outside a chip whose clk_sys stopped.
import { Simulator } from 'rp2040js';
import { ClockTree, Reference } from './clocks.mjs';

const REF_NS = 1e9 / 32768;
const CLOCKS = 0x40008000;
const CLK_REF_CTRL = CLOCKS + 0x30;
const CLK_SYS_CTRL = CLOCKS + 0x3c;
const XOSC = 0x40024000;
const TIMER = 0x40054000;
const TIMERAWL = TIMER + 0x28;
const TICK = 0x40058000 + 0x2c;
const IO_BANK0 = 0x40014000;
const NVIC_ISER = 0xe000e100;
const SYST_CSR = 0xe000e010;
const SYST_RVR = 0xe000e014;
const SYST_CVR = 0xe000e018;
const SRAM = 0x20000000;
// Thumb: CPSID i, WFI, B . ; B . alone; and WFI, B back to it (a core that waits for ever: the
// loop below then moves time in exact steps)
const WFI_PROGRAM = [0xb672, 0xbf30, 0xe7fe];
const LOOP_PROGRAM = [0xe7fe];
const PARK_PROGRAM = [0xbf30, 0xe7fd];

class Chip {
  constructor(refGpio = 22) {
    this.sim = new Simulator();
    this.mcu = this.sim.rp2040;
    this.base = 0;
    this.events = [];
    this.tree = new ClockTree(new Reference(refGpio));
    const now = () => this.base + this.sim.clock.nanos;
    this.now = now;
    this.tree.attach(this.mcu, now, (e) => this.events.push(e), (ns) => ns - this.base);
    this.executed = 0;
    this.load(PARK_PROGRAM);
    // the state MicroPython's clocks_init leaves: XOSC on, clk_ref from it, ticks of 1 us
    this.write(XOSC + 0x0c, 47); // STARTUP: 47 x 256 cycles, about 1 ms
    this.write(XOSC + 0x00, 0xaa0 | (0xfab << 12));
    this.until(() => this.read(XOSC + 0x04) & 0x80000000, 5e6);
    this.write(CLK_REF_CTRL, 2); // SRC = XOSC
    this.write(TICK, (1 << 9) | 12);
  }
  read(address) {
    return this.mcu.readUint32(address) >>> 0;
  }
  write(address, value) {
    this.mcu.writeUint32(address, value >>> 0);
  }
  load(program) {
    program.forEach((half, i) => {
      this.mcu.sram[2 * i] = half & 0xff;
      this.mcu.sram[2 * i + 1] = half >> 8;
    });
    this.mcu.core.PC = SRAM;
    this.mcu.core.waiting = false;
  }
  // emu.mjs's slice: stopped (dormant, or clk_sys's source stopped), waiting, or executing
  run(ns, untilWake = false) {
    const limit = this.now() + ns;
    const { mcu, tree, sim } = this;
    while (this.now() < limit) {
      if (untilWake && !mcu.core.waiting) return;
      if (tree.stopped) {
        const skip = tree.dormantSkip(this.now(), limit);
        tree.waited(skip);
        this.base += skip;
      } else if (mcu.core.waiting) {
        let skip = sim.clock.nanosToNextAlarm;
        if (skip <= 0) skip = 1e6;
        skip = Math.min(skip, limit - this.now());
        tree.waited(skip);
        sim.clock.tick(skip);
      } else {
        const spent = mcu.core.executeInstruction() * tree.cycleNs;
        sim.clock.tick(spent);
        tree.executed(spent);
        this.executed++;
      }
    }
  }
  until(done, most) {
    const limit = this.now() + most;
    while (!done() && this.now() < limit) this.run(Math.min(1000, limit - this.now()));
    return this.now();
  }
  // clk_ref and clk_sys from the reference on GP22 (function 8: clk_gpin1), ticks every cycle
  onReference() {
    this.write(IO_BANK0 + 22 * 8 + 4, 8);
    this.write(CLK_REF_CTRL, (2 << 5) | 1); // AUXSRC gpin1, SRC aux
    this.write(TICK, (1 << 9) | 1);
    this.write(CLK_SYS_CTRL, 0); // SRC clk_ref
  }
}

const results = [];
function check(name, ok, detail) {
  results.push({ name, ok: !!ok, detail });
}

// 1. clk_gpin1 feeds clk_ref and clk_sys; the timer counts one tick a reference cycle.
{
  const chip = new Chip();
  chip.load(LOOP_PROGRAM);
  chip.onReference();
  chip.run(1e6); // settle past the tick generator's remaining count
  const before = chip.read(TIMERAWL);
  const executed = chip.executed;
  chip.run(1e9);
  const ticks = chip.read(TIMERAWL) - before;
  const branches = chip.executed - executed;
  check('the reference (GP22, F8) is clk_ref and clk_sys', chip.tree.sysHz === 32768, `clk_sys ${chip.tree.sysHz} Hz`);
  check('the timer counts 32768 ticks a second with CYCLES = 1', Math.abs(ticks - 32768) <= 1, `${ticks} ticks in 1 s`);
  // B . takes 2 cycles on rp2040js's M0+ (taken branch): 16384 a second at 32768 Hz
  check('the core runs at the reference', Math.abs(branches - 16384) <= 2, `${branches} branches in 1 s`);
}

// 2. The tick generator carries its countdown into the new clk_ref; CYCLES applies at the reload.
{
  const chip = new Chip();
  chip.run(5500); // part way into a microsecond's 12 cycles
  const start = chip.now();
  chip.onReference();
  let last = chip.read(TIMERAWL);
  const ticksAt = [];
  while (ticksAt.length < 4 && chip.now() - start < 2e6) {
    chip.run(REF_NS / 16);
    const now = chip.read(TIMERAWL);
    if (now !== last) {
      ticksAt.push(chip.now());
      last = now;
    }
  }
  const gaps = ticksAt.slice(1).map((t, i) => t - ticksAt[i]);
  check(
    'the first tick after the switch waits out the old count in reference cycles',
    ticksAt.length && ticksAt[0] - start <= 12 * REF_NS,
    `${((ticksAt[0] - start) / 1000).toFixed(1)} us after the switch`,
  );
  check(
    'then a tick each reference cycle',
    gaps.length === 3 && gaps.every((g) => Math.abs(g - REF_NS) <= REF_NS / 16 + 1),
    gaps.map((g) => (g / 1000).toFixed(2)).join(', ') + ' us',
  );
}

// 3. An alarm at the reference's rate ends WFI at its tick; PRIMASK set: no handler entered.
{
  const chip = new Chip();
  chip.load(WFI_PROGRAM);
  chip.onReference();
  chip.run(1e6);
  chip.write(TIMER + 0x38, 1); // INTE: alarm 0
  chip.write(NVIC_ISER, 1); // TIMER_IRQ_0
  const now = chip.read(TIMERAWL);
  const executed = chip.executed;
  chip.write(TIMER + 0x10, now + 1000); // ALARM0: 1000 ticks on
  let woke = null;
  while (woke === null && chip.read(TIMERAWL) - now < 2000) {
    chip.run(REF_NS / 4, true);
    if (!chip.mcu.core.waiting) woke = chip.read(TIMERAWL) - now;
  }
  check('a timer alarm counted in reference ticks ends WFI at its tick', woke === 1000, `woke at tick ${woke}`);
  check('WFI skipped the time: no instruction ran', chip.executed - executed <= 1, `${chip.executed - executed} instructions`);
  check('with PRIMASK set the handler is not entered', chip.mcu.core.IPSR === 0 && chip.mcu.core.PM, `IPSR ${chip.mcu.core.IPSR}`);
  chip.run(1e6);
  check('the interrupt stays pending', !!(chip.read(TIMER + 0x34) & 1), 'INTR alarm 0 set');
}

// 3b. A WFI with PRIMASK set and an enabled interrupt already pending does not wait.
{
  const chip = new Chip();
  chip.mcu.core.PM = true; // interrupts masked, as CPSID i leaves them
  chip.write(TIMER + 0x38, 1);
  chip.write(NVIC_ISER, 1);
  chip.write(TIMER + 0x10, chip.read(TIMERAWL) + 5); // ALARM0: fires before the WFI
  chip.run(20e3);
  const pending = !!(chip.read(TIMER + 0x34) & 1);
  chip.load(WFI_PROGRAM);
  const executed = chip.executed;
  chip.run(1e6);
  check('a WFI with an interrupt already pending goes straight on', pending && !chip.mcu.core.waiting && chip.executed - executed > 100, `${chip.executed - executed} instructions after it`);
}

// 4. The XOSC stopped and started again: STABLE after STARTUP.DELAY x 256 cycles.
{
  const chip = new Chip();
  chip.onReference(); // clk_sys off the crystal first
  chip.write(XOSC + 0x00, 0xaa0 | (0xd1e << 12));
  chip.run(1e5);
  check('a disabled XOSC is not stable', !(chip.read(XOSC + 0x04) & 0x80000000), 'STATUS.STABLE clear');
  chip.write(XOSC + 0x0c, 47);
  const start = chip.now();
  chip.write(XOSC + 0x00, 0xaa0 | (0xfab << 12));
  let stable = start;
  while (!(chip.read(XOSC + 0x04) & 0x80000000) && stable - start < 20e6) {
    chip.run(1000);
    stable = chip.now();
  }
  const want = (47 * 256 * 1e9) / 12e6;
  check('the crystal starts in STARTUP.DELAY x 256 cycles', Math.abs(stable - start - want) <= 1000, `${((stable - start) / 1e6).toFixed(4)} ms (${(want / 1e6).toFixed(4)})`);
}

// 5. A reference that stops stops clk_sys and clk_ref from it: nothing runs, the timer holds.
{
  const chip = new Chip();
  chip.load(LOOP_PROGRAM);
  chip.onReference();
  chip.run(1e6);
  chip.tree.setReference(false);
  const count = chip.read(TIMERAWL);
  const executed = chip.executed;
  chip.run(50e6);
  check('a stopped reference stops the core', chip.executed === executed && chip.tree.ns.stopped >= 50e6 - 1, `${chip.executed - executed} instructions, ${(chip.tree.ns.stopped / 1e6).toFixed(1)} ms stopped`);
  check('and the timer', chip.read(TIMERAWL) === count, 'TIMERAWL unchanged');
  chip.tree.setReference(true);
  chip.run(100e6);
  const ticks = chip.read(TIMERAWL) - count;
  check('started again, both run on', chip.executed > executed && Math.abs(ticks - 3277) <= 2, `${ticks} ticks in 100 ms`);
}

// 6. A GPIO edge ends WFI at the reference's clock (IO_BANK0 PROC0_INTE, IO_IRQ_BANK0).
{
  const chip = new Chip();
  chip.load(WFI_PROGRAM);
  chip.onReference();
  chip.write(IO_BANK0 + 0x104, 4 << ((14 - 8) * 4)); // PROC0_INTE1: GP14 edge low
  chip.write(NVIC_ISER, 1 << 13); // IO_IRQ_BANK0
  chip.write(IO_BANK0 + 0x4001c000 - IO_BANK0 + 4 + 14 * 4, 0x4a); // GP14's pad: input, pull-up
  chip.mcu.gpio[14].setInputValue(true);
  chip.write(IO_BANK0 + 0xf4, 0xffffffff); // INTR1: no edge left over
  chip.run(5e6);
  const waiting = chip.mcu.core.waiting;
  chip.mcu.gpio[14].setInputValue(false);
  chip.run(1);
  check('a lever edge ends WFI on the reference', waiting && !chip.mcu.core.waiting, `waiting before: ${waiting}`);
}

// 7. SysTick counts clk_sys cycles, whatever clk_sys is.
{
  const chip = new Chip();
  chip.load(LOOP_PROGRAM);
  chip.write(SYST_RVR, 0xffffff);
  chip.write(SYST_CVR, 0);
  chip.write(SYST_CSR, 5);
  chip.onReference();
  chip.run(1e6);
  const before = chip.read(SYST_CVR);
  chip.run(100e6);
  const counted = (before - chip.read(SYST_CVR)) & 0xffffff;
  check('SysTick counts the reference-clocked clk_sys', Math.abs(counted - 3277) <= 2, `${counted} cycles in 100 ms`);
}

// 8. A dormant XOSC woken by an armed pad takes its start-up before clk_sys runs again.
{
  const chip = new Chip();
  chip.load(LOOP_PROGRAM);
  chip.write(XOSC + 0x0c, 282); // MicroPython v1.28.0's: 6 ms (pico-sdk's multiplier 6)
  chip.write(CLK_SYS_CTRL, 0); // clk_sys = clk_ref = XOSC
  chip.write(IO_BANK0 + 0x160 + 4, 4 << ((14 - 8) * 4)); // DORMANT_WAKE_INTE1: GP14 edge low
  chip.mcu.gpio[14].setInputValue(true);
  chip.write(XOSC + 0x08, 0x636f6d61);
  const executed = chip.executed;
  chip.run(20e6);
  const slept = chip.executed === executed;
  const at = chip.now();
  chip.tree.pin(14, 0, 1);
  const back = chip.until(() => chip.executed > executed, 20e6);
  const want = (282 * 256 * 1e9) / 12e6;
  check('dormant: nothing runs', slept && chip.tree.ns.dormant >= 20e6 - 1, `${(chip.tree.ns.dormant / 1e6).toFixed(1)} ms dormant`);
  check('an armed edge wakes it after the crystal start-up', Math.abs(back - at - want) <= 20000, `${((back - at) / 1e6).toFixed(3)} ms (${(want / 1e6).toFixed(3)})`);
}

let failed = 0;
for (const { name, ok, detail } of results) {
  if (!ok) failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${detail}`);
}
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
