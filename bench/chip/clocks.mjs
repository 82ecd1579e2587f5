// SPDX-License-Identifier: MIT
// The RP2040's clocks as far as the bench needs them, and where emulated time goes.
//
// rp2040js runs its core at a fixed 125 MHz and has no PLL_SYS (writes dropped, reads all ones).
// Here PLL_SYS is a register file (RP2040 datasheet, 2.18 PLL: CS, PWR, FBDIV_INT, PRIM) and
// clk_sys and clk_peri are worked out from what the firmware writes to the CLOCKS block (2.15):
// the core then runs at 125 MHz from PLL_SYS, at 12 MHz from the crystal while
// machine.lightsleep runs (it moves clk_sys to clk_ref = XOSC, then powers PLL_SYS down), and
// from the ring oscillator (taken as 6.5 MHz) at boot before clocks_init. Every emulated ns is
// one of:
//   executing   the core runs instructions (`slow` of it at a clk_sys under 48 MHz)
//   wfi         the core waits in WFI/WFE with PLL_SYS running (time.sleep_ms, select.poll)
//   light       the core waits with PLL_SYS powered down (PWR.PD or VCOPD set): light sleep
//   dormant     XOSC stopped by its DORMANT register (machine.lightsleep() without a timeout):
//               nothing runs, not even the timer or the watchdog, until a GPIO armed in
//               IO_BANK0's DORMANT_WAKE_INTE edges or levels
// PLL_SYS's power-down before its first lock (at boot) is not light sleep. Its lock time and the
// crystal's start-up after a dormant wake (XOSC_STARTUP, 1 ms as the Pico SDK sets it) are the
// only delays modelled: PLL lock is instant, the crystal takes WAKE_NS. Of sleep clock gating
// (SLEEP_EN0/1: the clocks that stop while the core sleeps with SCR.SLEEPDEEP set, as
// machine.lightsleep sleeps) only the PIO blocks' is modelled (pioClocked): a PWM keeps running
// through a light sleep here, and no DMA transfer runs across one on the clock (the HAL waits
// for its display's transfers before it sleeps).

const XOSC_HZ = 12e6;
const ROSC_HZ = 6.5e6;
const PLL_USB_HZ = 48e6; // PLL_USB is not modelled: MicroPython runs it at 48 MHz
const SLOW_HZ = 48e6;
const WAKE_NS = 1e6;
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

// The clock tree of one boot: attach(mcu, clock, nowNs, event) after the Simulator is made.
export class ClockTree {
  constructor() {
    this.ns = { exec: 0, slow: 0, wfi: 0, light: 0, dormant: 0 };
    this.lightN = 0;
    this.dormantN = 0;
    this.cycleNs = 8;
    this.sysHz = 125e6;
    this.periHz = 125e6;
    this.wake = [0, 0, 0, 0]; // DORMANT_WAKE_INTE0..3 (pads resolve before attach() at boot)
    this.latched = [0, 0, 0, 0];
    this.xosc = null;
  }

  attach(mcu, nowNs, event, levelOf) {
    this.mcu = mcu;
    this.nowNs = nowNs;
    this.event = event;
    this.levelOf = levelOf;
    this.pllUp = false; // PLL_SYS has locked once since this boot
    this.down = false; // in a light sleep
    this.wakeAt = null; // a dormant crystal is stable from this ns
    this.inDormant = false;
    this.wake = [0, 0, 0, 0]; // DORMANT_WAKE_INTE0..3
    this.latched = [0, 0, 0, 0]; // edges seen while armed
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
    const resets = mcu.peripherals[0x4000c];
    const resetWrite = resets.writeUint32.bind(resets);
    resets.writeUint32 = (offset, value) => {
      if (offset === 0 && value & (1 << 12) && !(resets.reset & (1 << 12))) this.pll.reset();
      resetWrite(offset, value);
    };
    const clocks = mcu.peripherals[0x40008];
    const clocksWrite = clocks.writeUint32.bind(clocks);
    const clocksRead = clocks.readUint32.bind(clocks);
    clocks.writeUint32 = (offset, value) => {
      if (offset === SLEEP_EN0 || offset === SLEEP_EN1) this.sleepEn[(offset - SLEEP_EN0) >> 2] = value >>> 0;
      else clocksWrite(offset, value);
      this.update();
    };
    clocks.readUint32 = (offset) =>
      offset === SLEEP_EN0 || offset === SLEEP_EN1 ? this.sleepEn[(offset - SLEEP_EN0) >> 2] : clocksRead(offset);
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
    };
    this.xosc = mcu.peripherals[0x40024];
    this.update();
  }

  // clk_sys and clk_peri from the CLOCKS registers (ref: SRC 1:0; sys: SRC 0, AUXSRC 7:5, DIV
  // 31:8 integer . 7:0 fraction; peri: ENABLE 11, AUXSRC 7:5).
  update() {
    const c = this.mcu && this.mcu.peripherals[0x40008];
    if (!c || !this.pll) return;
    const pllHz = this.pll.hz;
    if (!this.pll.off && pllHz > 0) this.pllUp = true;
    const sleeping = this.pllUp && this.pll.off;
    if (sleeping !== this.down) {
      this.down = sleeping;
      if (sleeping) this.lightN++;
      this.event({ ev: 'pll_sys', on: !sleeping });
    }
    const refSrc = c.refCtrl & 3;
    const ref = refSrc === 2 ? XOSC_HZ : refSrc === 0 ? ROSC_HZ : PLL_USB_HZ;
    const pick = (ctrl, sources) => sources[(ctrl >> 5) & 7] ?? 0;
    const div = (c.sysDiv >>> 0) / 256 || 1 << 24;
    const sys = (c.sysCtrl & 1 ? pick(c.sysCtrl, [pllHz, PLL_USB_HZ, ROSC_HZ, XOSC_HZ]) : ref) / div;
    if (sys > 0) {
      this.sysHz = sys; // a stopped clk_sys would stop the core: it keeps its last rate here
      this.cycleNs = 1e9 / sys;
      this.mcu.clkSys = sys;
    }
    this.periHz = c.periCtrl & 0x800 ? pick(c.periCtrl, [this.sysHz, pllHz, PLL_USB_HZ, ROSC_HZ, XOSC_HZ]) : 0;
    this.mcu.clkPeri = this.periHz;
  }

  // Whether PIO block `index` has its clock now: not while the core sleeps deeply (WFI/WFE with
  // SCR.SLEEPDEEP) with the block's bit clear in SLEEP_EN0, nor while the chip is dormant.
  pioClocked(index) {
    if (this.dormant) return false;
    if (!(this.mcu.core.waiting && this.scr & SLEEPDEEP)) return true;
    return !!(this.sleepEn[0] & SLEEP_EN0_PIO[index]);
  }

  get dormant() {
    return !!(this.xosc && this.xosc.isDormant);
  }

  // The core ran `ns` of instructions.
  executed(ns) {
    this.ns.exec += ns;
    if (this.sysHz < SLOW_HZ) this.ns.slow += ns;
  }

  // The core waited `ns` (WFI/WFE, or dormant).
  waited(ns) {
    if (this.dormant) {
      if (!this.inDormant) {
        this.inDormant = true;
        this.dormantN++;
        this.event({ ev: 'dormant', on: true });
      }
      this.ns.dormant += ns;
    } else if (this.down) this.ns.light += ns;
    else this.ns.wfi += ns;
  }

  // Dormant: how long the core may skip from now (up to `limitNs`); ends the dormancy once the
  // crystal is stable again.
  dormantSkip(now, limitNs) {
    if (this.wakeAt !== null && now >= this.wakeAt) {
      this.xosc.isDormant = false;
      this.xosc.stable = true;
      this.wakeAt = null;
      this.inDormant = false;
      this.event({ ev: 'dormant', on: false });
      return 0;
    }
    const until = this.wakeAt === null ? limitNs : Math.min(limitNs, this.wakeAt);
    return Math.max(until - now, 0);
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
    if (this.dormant && this.wakeAt === null) this.wakeAt = this.nowNs() + WAKE_NS;
  }

  status() {
    const ms = (ns) => +(ns / 1e6).toFixed(4);
    return {
      wfi_ms: ms(this.ns.wfi),
      light_ms: ms(this.ns.light),
      dormant_ms: ms(this.ns.dormant),
      exec_slow_ms: ms(this.ns.slow),
      light_n: this.lightN,
      dormant_n: this.dormantN,
      clk_sys_mhz: +(this.sysHz / 1e6).toFixed(3),
      clk_peri_mhz: +(this.periHz / 1e6).toFixed(3),
    };
  }
}
