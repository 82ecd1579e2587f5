// SPDX-License-Identifier: MIT
// The RP2040's clocks as far as the bench needs them, and where emulated time goes.
//
// rp2040js runs its core at a fixed 125 MHz, counts its timer in microseconds of emulated time
// whatever the clocks say, and has no PLL_SYS, ROSC or VREG (writes dropped). Here, following
// the RP2040 datasheet (2.15 Clocks, 2.16 XOSC, 2.17 ROSC, 2.18 PLL, 4.6 Timer, 4.7 Watchdog):
//   - the sources: XOSC (12 MHz) with its start-up (STARTUP.DELAY x 256 cycles, x4 with X4) after
//     CTRL enables it or a dormant wake; ROSC (taken as 6.5 MHz); PLL_SYS as a register file
//     (CS, PWR, FBDIV_INT, PRIM), locking at once; PLL_USB as MicroPython runs it (48 MHz);
//     clk_gpin0/1, an external clock on GP20/GP22 when that pin's function is the clock input
//     (F8): the 32.768 kHz reference the emulator drives (Reference, below), which can stop;
//   - clk_ref (SRC: ROSC, aux, XOSC; AUXSRC: PLL_USB, gpin0, gpin1) and clk_sys (SRC: clk_ref,
//     aux; AUXSRC: PLL_SYS, PLL_USB, ROSC, XOSC, gpin0, gpin1; DIV 24.8), clk_peri;
//   - the tick generator (WATCHDOG TICK: a count of clk_ref cycles, reloaded from CYCLES at each
//     tick, so a new CYCLES or a new clk_ref source takes effect from the next tick) and what it
//     drives: the timer (TIMERAWL/H, TIMELR/HR, TIMELW/HW, ALARM0..3 firing when the count's low
//     word reaches theirs) and the watchdog's countdown (twice a tick, erratum RP2040-E1);
//   - SysTick counting clk_sys cycles; a clk_sys whose source stops stops the core, its timer and
//     everything it clocks, until the source runs again;
//   - WFI/WFE with PRIMASK set ends on a pending enabled interrupt without taking it (ARMv6-M:
//     the handler runs once PRIMASK is cleared; rp2040js takes it at once);
//   - VREG's VSEL and BOD's EN (2.10), SWCLK/SWD pads, kept so the bench sees what the firmware
//     set while it slept (power.py credits those measured savings).
// Every emulated ns is one of:
//   exec       the core runs instructions (`slow` of it at a clk_sys under 48 MHz, `exec_ref` of
//              it at a clk_sys from the 32.768 kHz reference)
//   wfi        the core waits in WFI/WFE with PLL_SYS running (time.sleep_ms, select.poll)
//   light      the core waits with PLL_SYS powered down, clk_sys from the XOSC: light sleep
//   ref        the core waits with clk_sys from the reference, XOSC and PLLs stopped
//   dormant    XOSC stopped by its DORMANT register (machine.lightsleep() without a timeout):
//              nothing runs until a GPIO armed in IO_BANK0's DORMANT_WAKE_INTE edges or levels
//   stopped    clk_sys's source stopped under it (a reference that stopped): nothing runs
// PLL_SYS's power-down before its first lock (at boot) is not light sleep. PLL lock is instant.
// Of sleep clock gating (SLEEP_EN0/1: the clocks that stop while the core sleeps with
// SCR.SLEEPDEEP set, as machine.lightsleep sleeps) only the PIO blocks' is modelled
// (pioClocked): a PWM keeps running through a light sleep here, and no DMA transfer runs across
// one on the clock (the HAL waits for its display's transfers before it sleeps). A sleep on the
// reference sets no SLEEPDEEP: its PIO and DMA run on at 32.768 kHz.

const XOSC_HZ = 12e6;
const ROSC_HZ = 6.5e6;
const PLL_USB_HZ = 48e6; // PLL_USB is not modelled: MicroPython runs it at 48 MHz
const REF_HZ = 32768;
const SLOW_HZ = 48e6;
const REF_SYS_HZ = 100e3; // a clk_sys under this is the reference's: exec_ref
const GPCK = 8; // a GPIO's function 8: clock in (GP20 clk_gpin0, GP22 clk_gpin1) or out
// PLL_SYS PWR bits (reset value: everything powered down)
const PD = 0x01;
const POSTDIVPD = 0x08;
const VCOPD = 0x20;
const PWR_RESET = 0x2d;
// IO_BANK0: the raw interrupts (write 1 to clear an edge) and the dormant wake enables
const INTR0 = 0xf0;
const WAKE_INTE0 = 0x160;
const WAKE_INTS0 = 0x180;
const LEVEL_LOW = 1;
const LEVEL_HIGH = 2;
const EDGE_LOW = 4;
const EDGE_HIGH = 8;
// XOSC (0x40024000)
const XOSC_CTRL = 0x00;
const XOSC_STATUS = 0x04;
const XOSC_DORMANT = 0x08;
const XOSC_STARTUP = 0x0c;
const XOSC_ENABLE = 0xfab;
const XOSC_DISABLE = 0xd1e;
const XOSC_COMA = 0x636f6d61; // "coma"
const XOSC_WAKE = 0x77616b65; // "wake"
// ROSC (0x40060000)
const ROSC_CTRL = 0x00;
const ROSC_DISABLE = 0xd1e;
// TIMER (0x40054000)
const TIMEHW = 0x00;
const TIMELW = 0x04;
const TIMEHR = 0x08;
const TIMELR = 0x0c;
const ALARM0 = 0x10;
const ARMED = 0x20;
const TIMERAWH = 0x24;
const TIMERAWL = 0x28;
const TICK = 0x2c; // in WATCHDOG (0x40058000)
const TICK_ENABLE = 1 << 9;
const TICK_RUNNING = 1 << 10;
const TWO32 = 2 ** 32;
const BOOT = { kind: 'boot', hz: 1e6, div: 1 }; // the timer before the firmware's tick_start
// CLOCKS SLEEP_EN0 and its PIO bits; the Cortex-M0+'s SCR (in the PPB) and its SLEEPDEEP bit
const SLEEP_EN0 = 0xa8;
const SLEEP_EN1 = 0xac;
const SLEEP_EN0_PIO = [0x1000, 0x2000];
const SCR = 0xd10;
const SLEEPDEEP = 0x4;

class PllSys {
  constructor(tree) {
    this.tree = tree;
    this.reset();
  }
  reset() {
    this.cs = 1;
    this.pwr = PWR_RESET;
    this.fbdiv = 0;
    this.prim = 0x77000;
    this.tree.update();
  }
  get off() {
    return !!(this.pwr & (PD | VCOPD));
  }
  get hz() {
    if (!this.tree.xoscHz()) return 0; // its reference is the XOSC
    if (this.cs & 0x100) return XOSC_HZ; // BYPASS
    const post1 = (this.prim >> 16) & 7;
    const post2 = (this.prim >> 12) & 7;
    if (this.off || this.pwr & POSTDIVPD || !post1 || !post2) return 0;
    return ((XOSC_HZ / ((this.cs & 0x3f) || 1)) * this.fbdiv) / (post1 * post2);
  }
  readUint32(offset) {
    switch (offset & 0xfff) {
      case 0x0:
        return ((this.off ? 0 : 0x80000000) | (this.cs & 0x13f)) >>> 0; // LOCK at once
      case 0x4:
        return this.pwr;
      case 0x8:
        return this.fbdiv;
      case 0xc:
        return this.prim;
    }
    return 0;
  }
  writeUint32(offset, value) {
    switch (offset & 0xfff) {
      case 0x0:
        this.cs = value & 0x13f;
        break;
      case 0x4:
        this.pwr = value & 0x2d;
        break;
      case 0x8:
        this.fbdiv = value & 0xfff;
        break;
      case 0xc:
        this.prim = value & 0x77000;
        break;
    }
    this.tree.update();
  }
  writeUint32Atomic(offset, value, kind) {
    const old = this.readUint32(offset) & ~0x80000000;
    const next = kind === 1 ? old ^ value : kind === 2 ? old | value : kind === 3 ? old & ~value : value;
    this.writeUint32(offset, next >>> 0);
  }
}

// A register file for a block rp2040js leaves unimplemented: reads what was written (a register
// never written reads all ones, as rp2040js's unimplemented blocks do), or what `read` says.
class Registers {
  constructor(resets, onWrite, read = () => undefined) {
    this.values = { ...resets };
    this.onWrite = onWrite;
    this.read = read;
  }
  readUint32(offset) {
    return this.read(offset & 0xfff) ?? this.values[offset & 0xfff] ?? 0xffffffff;
  }
  writeUint32(offset, value) {
    this.values[offset & 0xfff] = value >>> 0;
    this.onWrite(offset & 0xfff);
  }
  writeUint32Atomic(offset, value, kind) {
    const old = this.readUint32(offset);
    const next = kind === 1 ? old ^ value : kind === 2 ? old | value : kind === 3 ? old & ~value : value;
    this.writeUint32(offset, next >>> 0);
  }
}

// The external 32.768 kHz reference on a GPIO (--ref GPIO): rising edges every 1e9 / 32768 ns
// (30517.578125, exact in binary) of emulated time from the instant it started; stop() and
// start() model a reference that stops (a broken wire, a module without power).
export class Reference {
  constructor(gpio) {
    this.gpio = gpio;
    this.period = 1e9 / REF_HZ;
    this.running = gpio !== null;
    this.origin = 0;
  }
  start(now) {
    if (this.running || this.gpio === null) return;
    this.running = true;
    this.origin = now;
  }
  stop() {
    this.running = false;
  }
  // The first rising edge after `t` (global ns), or Infinity.
  nextEdge(t) {
    if (!this.running) return Infinity;
    const k = Math.floor((t - this.origin) / this.period) + 1;
    return this.origin + k * this.period;
  }
  level(t) {
    if (!this.running) return 0;
    return Math.floor(((t - this.origin) * 2) / this.period) % 2 ? 0 : 1;
  }
}

// The clock tree of one boot: attach(mcu, nowNs, event, ...) after the Simulator is made.
export class ClockTree {
  constructor(reference = new Reference(null)) {
    this.reference = reference;
    this.ns = { exec: 0, slow: 0, exec_ref: 0, wfi: 0, light: 0, ref: 0, dormant: 0, stopped: 0 };
    // ns of `ref` residency with each power saving the firmware set in force
    this.tuned = { bod_off: 0, vreg_low: 0, swd_off: 0 };
    this.lightN = 0;
    this.dormantN = 0;
    this.refN = 0;
    this.wakeN = 0;
    this.cycleNs = 8;
    this.sysHz = 125e6;
    this.periHz = 125e6;
    this.wake = [0, 0, 0, 0]; // DORMANT_WAKE_INTE0..3 (pads resolve before attach() at boot)
    this.latched = [0, 0, 0, 0];
    this.xosc = null;
    this.mcu = null;
  }

  attach(mcu, nowNs, event, toLocal) {
    this.mcu = mcu;
    this.nowNs = nowNs;
    this.event = event;
    this.toLocal = toLocal; // global ns -> this boot's clock.nanos
    this.pllUp = false; // PLL_SYS has locked once since this boot
    this.down = false; // in a light sleep
    this.inDormant = false;
    this.state = 'run'; // of the last wait: for its events
    this.wake = [0, 0, 0, 0]; // DORMANT_WAKE_INTE0..3
    this.latched = [0, 0, 0, 0]; // edges seen while armed
    // XOSC: off, starting (stable from stableAt), on, dormant
    this.xoscState = 'off';
    this.stableAt = 0;
    this.xoscOrigin = 0;
    this.xoscRegs = { ctrl: 0, startup: 0xc4, dormant: 0 };
    this.xoscStarted = false;
    this.roscOn = true;
    this.pll = null; // update() waits for the new one
    this.sleepEn = [0xffffffff, 0xffffffff]; // SLEEP_EN0, SLEEP_EN1 (reset: every clock on)
    this.scr = 0;
    const ppb = mcu.ppb;
    const ppbRead = ppb.readUint32.bind(ppb);
    const ppbWrite = ppb.writeUint32.bind(ppb);
    ppb.readUint32 = (offset) => (offset === SCR ? this.scr : ppbRead(offset));
    ppb.writeUint32 = (offset, value) => {
      if (offset === SCR) this.scr = value & 0x16;
      else ppbWrite(offset, value);
    };
    const pll = new PllSys(this);
    this.pll = pll;
    mcu.peripherals[0x40028] = pll;
    // ROSC: CTRL's ENABLE (23:12), STATUS (0x18: ENABLED 12, STABLE 31), RANDOMBIT (0x1c)
    const roscStatus = (offset) => {
      if (offset === 0x18) return ((this.roscOn ? 0x80001000 : 0) | 0) >>> 0;
      if (offset === 0x1c) return Math.random() < 0.5 ? 1 : 0;
      return undefined;
    };
    mcu.peripherals[0x40060] = new Registers({ 0x0: 0xfabaa0, 0x10: 0xaa0 }, () => {
      this.roscOn = ((this.rosc.values[ROSC_CTRL] >> 12) & 0xfff) !== ROSC_DISABLE;
      this.rebase();
      this.update();
    }, roscStatus);
    this.rosc = mcu.peripherals[0x40060];
    // VREG (VSEL 7:4, 0xb = 1.10 V at reset; ROK, bit 12, at once: its settling is not modelled)
    // and BOD (EN bit 0, on at reset)
    const vregRead = (offset) => (offset === 0 ? (this.vreg.values[0] | 0x1000) >>> 0 : undefined);
    this.vreg = new Registers({ 0x0: 0xb1, 0x4: 0x91 }, () => {}, vregRead);
    mcu.peripherals[0x40064] = this.vreg;
    this.hookPads(mcu);
    this.hookResets(mcu);
    const clocks = mcu.peripherals[0x40008];
    const clocksWrite = clocks.writeUint32.bind(clocks);
    const clocksRead = clocks.readUint32.bind(clocks);
    clocks.writeUint32 = (offset, value) => {
      if (offset === SLEEP_EN0 || offset === SLEEP_EN1) this.sleepEn[(offset - SLEEP_EN0) >> 2] = value >>> 0;
      else clocksWrite(offset, value);
      this.update();
    };
    clocks.readUint32 = (offset) => {
      if (offset === 0x38) return 1 << (clocks.refCtrl & 3); // CLK_REF_SELECTED
      if (offset === 0x44) return 1 << (clocks.sysCtrl & 1); // CLK_SYS_SELECTED
      if (offset === SLEEP_EN0 || offset === SLEEP_EN1) return this.sleepEn[(offset - SLEEP_EN0) >> 2];
      return clocksRead(offset);
    };
    this.hookIo(mcu);
    this.hookXosc(mcu);
    this.hookTimer(mcu);
    this.hookCore(mcu);
    this.update();
  }

  hookPads(mcu) {
    // SWCLK and SWD pads (0x7c, 0x80: rp2040js keeps only GPIO0..29's); reset: pull-up (0x5a),
    // pull-down on SWCLK (0xda)... taken as "pulls on, input enabled".
    const pads = mcu.peripherals[0x4001c];
    const read = pads.readUint32.bind(pads);
    const write = pads.writeUint32.bind(pads);
    this.swd = { 0x7c: 0xda, 0x80: 0x5a };
    pads.readUint32 = (offset) => (offset in this.swd ? this.swd[offset] : read(offset));
    pads.writeUint32 = (offset, value) => {
      if (offset in this.swd) this.swd[offset] = value & 0xff;
      else write(offset, value);
    };
  }

  hookResets(mcu) {
    const resets = mcu.peripherals[0x4000c];
    const resetWrite = resets.writeUint32.bind(resets);
    resets.writeUint32 = (offset, value) => {
      if (offset === 0 && value & (1 << 12) && !(resets.reset & (1 << 12))) this.pll.reset();
      resetWrite(offset, value);
    };
  }

  hookIo(mcu) {
    const io = mcu.peripherals[0x40014];
    const ioRead = io.readUint32.bind(io);
    const ioWrite = io.writeUint32.bind(io);
    io.readUint32 = (offset) => {
      if (offset >= WAKE_INTE0 && offset < WAKE_INTE0 + 16) return this.wake[(offset - WAKE_INTE0) >> 2];
      if (offset >= WAKE_INTS0 && offset < WAKE_INTS0 + 16) {
        const n = (offset - WAKE_INTS0) >> 2;
        return (this.latched[n] & this.wake[n]) >>> 0;
      }
      return ioRead(offset);
    };
    io.writeUint32 = (offset, value) => {
      if (offset >= WAKE_INTE0 && offset < WAKE_INTE0 + 16) {
        this.wake[(offset - WAKE_INTE0) >> 2] = value >>> 0;
        return;
      }
      if (offset >= INTR0 && offset < INTR0 + 16) this.latched[(offset - INTR0) >> 2] &= ~io.rawWriteValue;
      ioWrite(offset, value);
      // a GPIO's CTRL (offset 8n + 4) may make the reference's pin a clock input, or not
      if (offset < 0xf0 && (offset & 7) === 4) this.update();
    };
  }

  hookXosc(mcu) {
    const xosc = mcu.peripherals[0x40024];
    this.xosc = xosc;
    const regs = this.xoscRegs;
    xosc.readUint32 = (offset) => {
      switch (offset) {
        case XOSC_CTRL:
          return regs.ctrl;
        case XOSC_STATUS: {
          this.settleXosc();
          const enabled = ((regs.ctrl >> 12) & 0xfff) === XOSC_ENABLE;
          return ((this.xoscState === 'on' ? 0x80000000 : 0) | (enabled ? 0x1000 : 0) | 1) >>> 0;
        }
        case XOSC_DORMANT:
          return regs.dormant;
        case XOSC_STARTUP:
          return regs.startup;
      }
      return 0;
    };
    xosc.writeUint32 = (offset, value) => {
      if (offset === XOSC_CTRL) {
        regs.ctrl = value & 0xffffff;
        const enable = (value >> 12) & 0xfff;
        if (enable === XOSC_ENABLE && this.xoscState === 'off') this.startXosc();
        else if (enable === XOSC_DISABLE && this.xoscState !== 'dormant') {
          this.xoscState = 'off';
          this.rebase();
        }
      } else if (offset === XOSC_STARTUP) regs.startup = value & 0x103fff;
      else if (offset === XOSC_DORMANT) {
        regs.dormant = value >>> 0;
        if (value === XOSC_COMA && this.xoscState !== 'off') {
          this.xoscState = 'dormant';
          this.wakeAt = null;
          this.rebase();
        } else if (value === XOSC_WAKE && this.xoscState === 'dormant') this.startXosc();
      }
    };
    // rp2040js's XOSC is enabled by the boot ROM's path we skip (PC at boot2): MicroPython's
    // xosc_init() writes CTRL, which starts it here.
  }

  // The XOSC's start-up: STARTUP.DELAY x 256 cycles (x4 with X4) before STATUS.STABLE.
  startupNs() {
    const s = this.xoscRegs.startup;
    return ((s & 0x3fff) * 256 * (s & 0x100000 ? 4 : 1) * 1e9) / XOSC_HZ;
  }

  startXosc() {
    this.xoscState = 'starting';
    this.stableAt = this.nowNs() + this.startupNs();
    this.rebase();
  }

  settleXosc() {
    if (this.xoscState === 'starting' && this.nowNs() >= this.stableAt) {
      this.xoscState = 'on';
      // the first start of a boot keeps the boot's grid (hookTimer); a restart its own phase
      this.xoscOrigin = this.xoscStarted ? this.stableAt : this.bootNs;
      this.xoscStarted = true;
      this.rebase();
    }
  }

  xoscHz() {
    return this.xoscState === 'on' ? XOSC_HZ : 0;
  }

  gpinHz(n) {
    const ref = this.reference;
    const pin = n ? 22 : 20;
    if (ref.gpio !== pin || !ref.running || !this.mcu) return 0;
    return this.mcu.gpio[pin].functionSelect === GPCK ? REF_HZ : 0;
  }

  // clk_ref: {hz, kind} from CLK_REF_CTRL (SRC 1:0: ROSC, aux, XOSC; AUXSRC 6:5: PLL_USB,
  // gpin0, gpin1) and its integer divider (CLK_REF_DIV 9:8).
  refSource() {
    const c = this.mcu.peripherals[0x40008];
    const src = c.refCtrl & 3;
    let kind;
    let hz;
    if (src === 2) [kind, hz] = ['xosc', this.xoscHz()];
    else if (src === 0) [kind, hz] = ['rosc', this.roscOn ? ROSC_HZ : 0];
    else {
      const aux = (c.refCtrl >> 5) & 3;
      if (aux === 0) [kind, hz] = ['pll_usb', this.xoscHz() ? PLL_USB_HZ : 0];
      else [kind, hz] = ['gpin' + (aux - 1), this.gpinHz(aux - 1)];
    }
    const div = (c.refDiv >> 8) & 3 || 1;
    return { kind, hz: hz / div, div, origin: this.reference.origin };
  }

  // The next rising edge of clk_ref after global ns `t` (Infinity while it is stopped).
  refEdge(t, source) {
    if (!source.hz) return Infinity;
    if (source.kind.startsWith('gpin')) {
      // the reference's edges as they were when the segment began (its origin then)
      const period = this.reference.period;
      let n = Math.floor((t - source.origin) / period) + 1;
      n += (source.div - (n % source.div)) % source.div; // divided: every div-th edge
      return source.origin + n * period;
    }
    const period = 1e9 / source.hz;
    const origin = source.kind === 'xosc' ? this.xoscOrigin : source.kind === 'boot' ? this.bootNs : 0;
    return origin + (Math.floor((t - origin) / period) + 1) * period;
  }

  // --- the tick generator and the timer --------------------------------------------------

  hookTimer(mcu) {
    const timer = mcu.peripherals[0x40054];
    const watchdog = mcu.peripherals[0x40058];
    this.timer = timer;
    this.watchdogPeri = watchdog;
    // Until the firmware first writes TICK (pico-sdk's tick_start, after clocks_init) the timer
    // counts this boot's emulated microseconds, as rp2040js does; the XOSC's edges then lie on
    // that microsecond grid, so the clock's milliseconds begin on the emulator's (the bench puts
    // lever edges on whole emulated ms). A crystal started again later has a phase of its own.
    this.bootNs = this.nowNs();
    this.ticking = false;
    this.cycles = 1;
    this.tickOn = true;
    this.seg = { t: this.bootNs, count: 0, left: 1, cycles: 1, source: BOOT };
    this.latchedHigh = 0;
    this.lowWritten = 0;
    this.targets = [0, 0, 0, 0];
    this.armed = [false, false, false, false];
    const timerRead = timer.readUint32.bind(timer);
    const timerWrite = timer.writeUint32.bind(timer);
    timer.readUint32 = (offset) => {
      const count = this.count(this.nowNs());
      switch (offset) {
        case TIMEHR:
          return this.latchedHigh;
        case TIMELR:
          this.latchedHigh = Math.floor(count / TWO32) >>> 0;
          return count % TWO32 >>> 0;
        case TIMERAWH:
          return Math.floor(count / TWO32) >>> 0;
        case TIMERAWL:
          return count % TWO32 >>> 0;
        case ARMED:
          return this.armed.reduce((bits, on, n) => bits | (on ? 1 << n : 0), 0);
      }
      if (offset >= ALARM0 && offset < ALARM0 + 16) return this.targets[(offset - ALARM0) >> 2];
      return timerRead(offset);
    };
    timer.writeUint32 = (offset, value) => {
      if (offset >= ALARM0 && offset < ALARM0 + 16) {
        const n = (offset - ALARM0) >> 2;
        this.targets[n] = value >>> 0;
        this.armed[n] = true;
        this.schedule(n);
        return;
      }
      if (offset === ARMED) {
        for (let n = 0; n < 4; n++) {
          if (timer.rawWriteValue & (1 << n)) this.disarm(n);
        }
        return;
      }
      if (offset === TIMELW) {
        this.lowWritten = value >>> 0;
        return;
      }
      if (offset === TIMEHW) {
        this.rebase();
        this.seg.count = (value >>> 0) * TWO32 + this.lowWritten;
        this.rescheduleAll();
        return;
      }
      timerWrite(offset, value);
    };
    // the alarms rp2040js made fire through this tree's schedule() now
    timer.alarms.forEach((alarm, n) => {
      alarm.clockAlarm.cancel();
      alarm.clockAlarm = mcu.clock.createAlarm(() => this.fire(n));
    });
    const wdRead = watchdog.readUint32.bind(watchdog);
    const wdWrite = watchdog.writeUint32.bind(watchdog);
    watchdog.readUint32 = (offset) => {
      if (offset !== TICK) return wdRead(offset);
      const left = this.tickLeft(this.nowNs());
      return (this.cycles | (this.tickOn ? TICK_ENABLE | TICK_RUNNING : 0) | ((left & 0x1ff) << 11)) >>> 0;
    };
    watchdog.writeUint32 = (offset, value) => {
      if (offset !== TICK) return wdWrite(offset, value);
      this.rebase();
      const first = !this.ticking;
      this.ticking = true;
      this.cycles = value & 0x1ff;
      this.tickOn = !!(value & TICK_ENABLE);
      this.seg.cycles = this.cycles || 1;
      this.rebase();
      if (first && this.seg.source && this.seg.source.hz) {
        // the next tick on the microsecond grid of the boot (see hookTimer)
        const now = this.nowNs();
        const next = this.bootNs + 1000 * (Math.floor((now - this.bootNs) / 1000) + 1);
        const period = 1e9 / this.seg.source.hz;
        const origin = this.seg.source.kind === 'xosc' ? this.xoscOrigin : 0;
        const edges = Math.round((next - origin) / period) - Math.floor((now - origin) / period);
        this.seg.left = Math.max(1, edges);
        this.rescheduleAll();
      }
      wdWrite(offset, value);
    };
  }

  // Ticks counted in (seg.t, t], the segment's source fixed; Infinity-safe.
  ticksIn(seg, t) {
    if (!this.tickOn || !seg.source || !seg.source.hz) return { ticks: 0, left: seg.left };
    const first = this.refEdge(seg.t, seg.source);
    if (first > t) return { ticks: 0, left: seg.left };
    const period = seg.source.kind.startsWith('gpin')
      ? this.reference.period * seg.source.div
      : 1e9 / seg.source.hz;
    const edges = Math.floor((t - first) / period + 1e-9) + 1;
    if (edges < seg.left) return { ticks: 0, left: seg.left - edges };
    const after = edges - seg.left;
    return { ticks: 1 + Math.floor(after / seg.cycles), left: seg.cycles - (after % seg.cycles) };
  }

  count(t) {
    return this.seg.count + this.ticksIn(this.seg, t).ticks;
  }

  tickLeft(t) {
    return this.ticksIn(this.seg, t).left;
  }

  // A new segment from now: the count so far, the edges left to the next tick, the source now.
  rebase() {
    if (!this.seg || !this.mcu) return;
    const now = this.nowNs();
    const { ticks, left } = this.ticksIn(this.seg, now);
    const source = this.ticking ? this.refSource() : BOOT;
    this.seg = { t: now, count: this.seg.count + ticks, left, cycles: this.cycles || 1, source };
    const rate = source && source.hz && this.tickOn ? source.hz / (this.cycles || 1) : 0;
    // the watchdog counts down twice a tick (erratum RP2040-E1); rp2040js has it at 2 MHz
    if (this.watchdogPeri) this.watchdogPeri.timer.frequency = 2 * rate;
    this.rescheduleAll();
  }

  // The global ns of the count's `k`-th tick from now (k >= 1), or Infinity.
  tickTime(k) {
    const seg = this.seg;
    if (!this.tickOn || !seg.source || !seg.source.hz) return Infinity;
    const now = this.nowNs();
    const { left } = this.ticksIn(seg, now);
    const first = this.refEdge(now, seg.source);
    const period = seg.source.kind.startsWith('gpin')
      ? this.reference.period * seg.source.div
      : 1e9 / seg.source.hz;
    return first + (left - 1 + (k - 1) * seg.cycles) * period;
  }

  schedule(n) {
    const alarm = this.timer.alarms[n].clockAlarm;
    alarm.cancel();
    if (!this.armed[n]) return;
    const now = this.nowNs();
    const count = this.count(now);
    const k = (this.targets[n] - (count % TWO32)) >>> 0;
    if (k === 0) {
      alarm.schedule(0); // as rp2040js: an alarm set to the count now fires at once
      return;
    }
    const at = this.tickTime(k);
    if (at === Infinity) return;
    alarm.schedule(Math.max(0, this.toLocal(at) - this.mcu.clock.nanos));
  }

  rescheduleAll() {
    if (!this.timer) return;
    for (let n = 0; n < 4; n++) this.schedule(n);
  }

  fire(n) {
    if (!this.armed[n]) return;
    // a float's rounding may bring the alarm a hair early: the count must have got there
    const count = this.count(this.nowNs() + 1);
    if (count % TWO32 >>> 0 !== this.targets[n] && ((this.targets[n] - count) >>> 0) < TWO32 / 2) {
      this.schedule(n);
      return;
    }
    this.disarm(n);
    this.timer.intRaw |= 1 << n;
    this.timer.checkInterrupts();
  }

  disarm(n) {
    this.armed[n] = false;
    this.timer.alarms[n].clockAlarm.cancel();
  }

  // --- the core ----------------------------------------------------------------------------

  hookCore(mcu) {
    const core = mcu.core;
    const check = core.checkForInterrupts.bind(core);
    core.checkForInterrupts = () => {
      if (core.waiting && core.PM) {
        // WFI/WFE ends for an enabled interrupt, which is taken once PRIMASK is cleared
        if (core.pendingInterrupts & core.enabledInterrupts) core.waiting = false;
        return false;
      }
      return check();
    };
    // ... and a WFI executed with one already pending does not wait at all
    const execute = core.executeInstruction.bind(core);
    core.executeInstruction = () => {
      const cycles = execute();
      if (core.waiting && core.PM && core.pendingInterrupts & core.enabledInterrupts) {
        core.waiting = false;
      }
      return cycles;
    };
  }

  // clk_sys and clk_peri from the CLOCKS registers (sys: SRC 0, AUXSRC 7:5, DIV 31:8 integer
  // . 7:0 fraction; peri: ENABLE 11, AUXSRC 7:5); the timer's segment when clk_ref changed.
  update() {
    const c = this.mcu && this.mcu.peripherals[0x40008];
    if (!c || !this.pll) return;
    this.settleXosc();
    const pllHz = this.pll.hz;
    if (!this.pll.off && pllHz > 0) this.pllUp = true;
    const sleeping = this.pllUp && this.pll.off;
    if (sleeping !== this.down) {
      this.down = sleeping;
      if (!sleeping) this.wakeN++; // PLL_SYS up again: a wake of the loop from any sleep
      this.event({ ev: 'pll_sys', on: !sleeping });
    }
    const ref = this.refSource();
    const pick = (ctrl, sources) => sources[(ctrl >> 5) & 7] ?? 0;
    const div = (c.sysDiv >>> 0) / 256 || 1 << 24;
    const aux = [pllHz, this.xoscHz() ? PLL_USB_HZ : 0, this.roscOn ? ROSC_HZ : 0, this.xoscHz()];
    aux.push(this.gpinHz(0), this.gpinHz(1));
    const sys = (c.sysCtrl & 1 ? pick(c.sysCtrl, aux) : ref.hz) / div;
    this.sysFrom = c.sysCtrl & 1 ? ['pll_sys', 'pll_usb', 'rosc', 'xosc', 'gpin0', 'gpin1'][(c.sysCtrl >> 5) & 7] : ref.kind;
    this.stoppedSys = !(sys > 0);
    if (sys > 0) {
      this.sysHz = sys;
      this.cycleNs = 1e9 / sys;
      this.mcu.clkSys = sys;
      const systick = this.mcu.ppb && this.mcu.ppb.systickTimer;
      if (systick && systick.frequency !== sys) systick.frequency = sys;
    }
    this.periHz = c.periCtrl & 0x800 ? pick(c.periCtrl, [this.sysHz, pllHz, PLL_USB_HZ, ROSC_HZ, XOSC_HZ]) : 0;
    this.mcu.clkPeri = this.periHz;
    const seg = this.seg;
    const tick = this.ticking ? ref : BOOT;
    if (seg && (seg.source.kind !== tick.kind || seg.source.hz !== tick.hz)) this.rebase();
  }

  // Whether the core runs: clk_sys has a running source and the XOSC is not dormant under it.
  get stopped() {
    return this.stoppedSys || this.dormant;
  }

  // Whether PIO block `index` has its clock now: not while the core sleeps deeply (WFI/WFE with
  // SCR.SLEEPDEEP) with the block's bit clear in SLEEP_EN0, nor while the chip is dormant.
  pioClocked(index) {
    if (this.stopped) return false;
    if (!(this.mcu.core.waiting && this.scr & SLEEPDEEP)) return true;
    return !!(this.sleepEn[0] & SLEEP_EN0_PIO[index]);
  }

  get dormant() {
    return this.xoscState === 'dormant';
  }

  // The core ran `ns` of instructions.
  executed(ns) {
    if (this.sysHz >= REF_SYS_HZ) this.state = 'run'; // on the reference the chip still sleeps
    this.ns.exec += ns;
    if (this.sysHz < SLOW_HZ) this.ns.slow += ns;
    if (this.sysHz < REF_SYS_HZ) this.ns.exec_ref += ns;
  }

  // The core waited `ns` (WFI/WFE, dormant or stopped).
  waited(ns) {
    let state;
    if (this.dormant) state = 'dormant';
    else if (this.stoppedSys) state = 'stopped';
    else if (this.sysFrom && this.sysFrom.startsWith('gpin')) state = 'ref';
    else if (this.down) state = 'light';
    else state = 'wfi';
    if (state === 'dormant' && !this.inDormant) {
      this.inDormant = true;
      this.dormantN++;
      this.event({ ev: 'dormant', on: true });
    }
    if (state === 'ref' && this.state !== 'ref') this.refN++;
    if (state === 'light' && this.state !== 'light') this.lightN++;
    this.state = state;
    this.ns[state] += ns;
    if (state === 'ref') {
      const v = this.vreg.values;
      if (!(v[0x4] & 1)) this.tuned.bod_off += ns;
      if (((v[0x0] >> 4) & 0xf) <= 0x6) this.tuned.vreg_low += ns; // 0.85 V or less
      if (!(this.swd[0x7c] & 0x4c) && !(this.swd[0x80] & 0x4c)) this.tuned.swd_off += ns;
    }
  }

  // Stopped or dormant: how long the core may skip from now (up to `limitNs`). A dormant XOSC
  // woken by a pad starts; a stopped clk_sys waits for its source.
  dormantSkip(now, limitNs) {
    if (this.dormant) {
      if (this.wakeAt !== null && this.wakeAt !== undefined && now >= this.wakeAt) {
        this.xoscState = 'on';
        this.xoscOrigin = this.wakeAt;
        this.wakeAt = null;
        this.inDormant = false;
        this.event({ ev: 'dormant', on: false });
        this.rebase();
        this.update();
        return 0;
      }
      const until = this.wakeAt === null || this.wakeAt === undefined ? limitNs : Math.min(limitNs, this.wakeAt);
      return Math.max(until - now, 0);
    }
    return Math.max(limitNs - now, 0);
  }

  // A pad changed to `value`: a dormant chip armed for it wakes (its crystal starts).
  pin(pin, value, was) {
    if (pin >= 30) return;
    const n = pin >> 3;
    const armed = (this.wake[n] >>> ((pin & 7) * 4)) & 15;
    if (!armed) return;
    let seen = value ? LEVEL_HIGH : LEVEL_LOW;
    if (value && !was) seen |= EDGE_HIGH;
    if (!value && was) seen |= EDGE_LOW;
    if (!(armed & seen)) return;
    this.latched[n] |= (seen & (EDGE_LOW | EDGE_HIGH)) << ((pin & 7) * 4);
    if (this.dormant && (this.wakeAt === null || this.wakeAt === undefined)) {
      this.wakeAt = this.nowNs() + this.startupNs();
    }
  }

  // The reference starts or stops (the bench's {"op": "ref"}): what counted it so far keeps its
  // count, and the clocks from it follow.
  setReference(on) {
    this.rebase();
    if (on) this.reference.start(this.nowNs());
    else this.reference.stop();
    this.rebase();
    this.update();
  }

  status() {
    const ms = (ns) => +(ns / 1e6).toFixed(4);
    return {
      wfi_ms: ms(this.ns.wfi),
      light_ms: ms(this.ns.light),
      ref_ms: ms(this.ns.ref),
      dormant_ms: ms(this.ns.dormant),
      stopped_ms: ms(this.ns.stopped),
      exec_slow_ms: ms(this.ns.slow),
      exec_ref_ms: ms(this.ns.exec_ref),
      tuned_ms: Object.fromEntries(Object.entries(this.tuned).map(([k, v]) => [k, ms(v)])),
      light_n: this.lightN,
      dormant_n: this.dormantN,
      ref_n: this.refN,
      wake_n: this.wakeN,
      clk_sys_mhz: +(this.sysHz / 1e6).toFixed(6),
      clk_sys_from: this.sysFrom,
      clk_peri_mhz: +(this.periHz / 1e6).toFixed(3),
      reference: this.reference.running,
    };
  }
}
