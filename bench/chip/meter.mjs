// SPDX-License-Identifier: MIT
// What the displays and the lights show, integrated over emulated time, for bench/chip/power.py.
//
// Each figure is a level that changes with what the firmware sent (lit pixels of the SSD1306's
// RAM while the panel is on, and the same weighted by its contrast; lit TM1637 segments weighted
// by their pulse width; lit HT1621 segments; running-side LEDs lit) and its integral over time,
// in level x ms. The bench takes two readings and divides the difference by the time between:
// the average level over a stretch, whatever happened in it.
const TM1637_DUTY = [1, 2, 4, 10, 11, 12, 13, 14]; // /16 at brightness 0..7 (TM1637 datasheet)

function bits(byte) {
  let n = 0;
  for (let b = byte; b; b &= b - 1) n++;
  return n;
}

export class Meter {
  constructor(nowNs) {
    this.nowNs = nowNs;
    this.level = {};
    this.sum = {};
    this.since = {};
    this.leds = new Set();
    this.tm = new Map(); // module -> {seg, on, bright}
    this.lcd = new Map(); // module -> {lit, on}
  }

  set(key, value) {
    const now = this.nowNs();
    if (key in this.level) this.sum[key] += this.level[key] * (now - this.since[key]);
    else this.sum[key] = 0;
    this.level[key] = value;
    this.since[key] = now;
  }

  // The firmware's events the emulator keeps: lights, TM1637 frames, HT1621 writes.
  observe(record) {
    if (record.ev === 'led') {
      if (record.on) this.leds.add(record.pin);
      else this.leds.delete(record.pin);
      this.set('led', this.leds.size);
    } else if (record.ev === 'tm1637') {
      const tm = this.tm.get(record.mod) || { seg: [0, 0, 0, 0], on: false, bright: 0 };
      if (record.seg) tm.seg = record.seg;
      if ('on' in record) [tm.on, tm.bright] = [record.on, record.bright];
      this.tm.set(record.mod, tm);
      let weighted = 0;
      let on = 0;
      for (const m of this.tm.values()) {
        if (!m.on) continue;
        on++;
        weighted += (m.seg.reduce((n, byte) => n + bits(byte), 0) * TM1637_DUTY[m.bright]) / 16;
      }
      this.set('tm1637_seg', weighted);
      this.set('tm1637_on', on);
    } else if (record.ev === 'ht1621') {
      this.lcd.set(record.mod, { lit: record.lit, on: record.on });
      let lit = 0;
      let on = 0;
      for (const m of this.lcd.values()) {
        if (!m.on) continue;
        on++;
        lit += m.lit;
      }
      this.set('ht1621_seg', lit);
      this.set('ht1621_on', on);
    }
  }

  // An SSD1306 model (emu.mjs's): its lit pixels, contrast and on/off followed as it is written.
  watchOled(oled) {
    let contrast = 0x7f; // the SSD1306's reset value
    let lit = 0;
    const count = () => {
      lit = 0;
      for (const byte of oled.ram) lit += bits(byte);
    };
    const show = () => {
      this.set('oled_px', oled.on ? lit : 0);
      this.set('oled_pxc', oled.on ? (lit * contrast) / 255 : 0);
      this.set('oled_on', oled.on ? 1 : 0);
    };
    const pixels = oled.pixels.bind(oled);
    oled.pixels = (byte) => {
      const at = oled.page * 128 + oled.col;
      const old = oled.ram[at];
      pixels(byte);
      if (old !== byte) {
        lit += bits(byte) - bits(old);
        show();
      }
    };
    const obey = oled.obey.bind(oled);
    oled.obey = (cmd, args) => {
      obey(cmd, args);
      if (cmd === 0x81) contrast = args[0];
      if (cmd === 0x81 || cmd === 0xae || cmd === 0xaf) show();
    };
    const reset = oled.reset.bind(oled);
    oled.reset = () => {
      reset();
      contrast = 0x7f;
      count();
      show();
    };
    count();
    show();
  }

  // Every integral up to now, in level x ms.
  status() {
    const now = this.nowNs();
    const lit = {};
    for (const key in this.level) {
      lit[key] = +((this.sum[key] + this.level[key] * (now - this.since[key])) / 1e6).toFixed(3);
    }
    return { lit };
  }
}
