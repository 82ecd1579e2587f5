#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// The emulated Pico of `make bench-chip`: rp2040js (npm) running a MicroPython image, driven by
// one JSON command a line on stdin, answered by one JSON line on stdout.
//
//   node emu.mjs --firmware F.uf2|F.bin --bootrom B.bin --serial-fd N
//                [--tm1637 CLK,DIO;CLK,DIO] [--oled 0x3c|none] [--spi-oled BUS,DC,CS]
//                [--vsys MV] [--leds PIN,PIN] [--ht1621 CS,WR,DATA;CS,WR,DATA]
//                [--flash-timing typ|max|none] [--ref GPIO]
//
// Time is emulated: a cycle at the clk_sys the firmware set (8 ns at 125 MHz; clocks.mjs); a core
// asleep (WFI/WFE, a light sleep, dormant) skips to the next alarm.
// The chip runs only when told: {"op": "run", "ms": M} runs it M emulated ms and answers,
// so a lever is pressed at an exact emulated instant. {"op": "free"} lets it run on its own at
// wall speed (for mpremote over USB) until the next command. The USB serial's bytes travel on
// the socket at fd N. The display's writes (hardware I2C transactions, bursts on hardware SPI,
// bit-banged TM1637 frames), the running-side lights' levels (--leds), the core's sleeps of
// 2 ms or more (the main loop between passes), flash erases and programs (each with the ms the
// core waited in it), and resets (why: 'watchdog', 'forced', 'breakpoint', 'command') are kept
// as events with their emulated ms, taken by {"op": "events"}. Every answer carries `timer_us`,
// the chip's own microsecond timer (TIMERAWL: it restarts with each boot), so the bench can put a
// lever's edge at a chosen instant of the chip's clock.
//
// Where the time goes (executing, WFI, light sleep, on the reference, dormant: clocks.mjs) and
// what the displays and lights show (meter.mjs) come with every answer. --ref 20|22 drives a
// 32.768 kHz reference into that GPIO (clk_gpin0/1); {"op": "ref", "on": false} stops it and
// {"op": "ref", "on": true} starts it again (a reference that stops).
//
// The boot ROM's flash_range_erase and flash_range_program are replaced by a breakpoint that
// does their work here (rp2040js's SSI cannot program flash, and MicroPython's file system needs
// them), and the core then waits what the W25Q16JV takes (flash.mjs; --flash-timing, typ by
// default: the datasheet's typical times; max: its maximum; none: no time at all), with the
// interrupts as MicroPython left them (masked) while the timer, DMA, PIO and the buses run on.
// The PIO's state machines run in emulated time (pio.mjs).
import fs from 'fs';
import net from 'net';
import readline from 'readline';
import { performance } from 'perf_hooks';
import { Simulator, USBCDC, ConsoleLogger, LogLevel, I2CMode } from 'rp2040js';
import { ClockTree, Reference } from './clocks.mjs';
import { FlashChip } from './flash.mjs';
import { PioClock } from './pio.mjs';
import { decoder as ht1621 } from './ht1621.mjs';
import { Meter } from './meter.mjs';
import { attach as attachFaults } from './faults.mjs'; // takes its own options off argv first

const opts = {
  firmware: '', bootrom: '', 'serial-fd': '', tm1637: '', oled: '0x3c', vsys: '4000', leds: '',
  ht1621: '', 'spi-oled': '', 'flash-timing': 'typ', ref: '',
};
for (let i = 2; i < process.argv.length; i += 2) {
  const key = process.argv[i].replace(/^--/, '');
  if (!(key in opts)) fail(`unknown option ${process.argv[i]}`);
  opts[key] = process.argv[i + 1] ?? '';
}
function fail(message) {
  process.stderr.write(`emu.mjs: ${message}\n`);
  process.exit(2);
}

const FLASH_SIZE = 2 * 1024 * 1024;
const CYCLE_NS = 8;
const NPIN = 30;
const BK_ERASE = 0xe0;
const BK_PROGRAM = 0xe1;
let flashChip;
try {
  flashChip = new FlashChip(opts['flash-timing'], FLASH_SIZE);
} catch (error) {
  fail(error.message);
}

// ---------------------------------------------------------------- boot ROM and image
const rom = new Uint8Array(fs.readFileSync(opts.bootrom));
if (rom.length !== 16384) fail(`${opts.bootrom}: ${rom.length} bytes, a boot ROM has 16384`);
function romFunction(tag) {
  const code = tag.charCodeAt(0) | (tag.charCodeAt(1) << 8);
  for (let p = rom[0x14] | (rom[0x15] << 8); p < rom.length; p += 4) {
    const found = rom[p] | (rom[p + 1] << 8);
    if (!found) break;
    if (found === code) return (rom[p + 2] | (rom[p + 3] << 8)) & ~1;
  }
  fail(`the boot ROM has no function ${tag}: not an RP2040 boot ROM`);
}
for (const [tag, bk] of [['RE', BK_ERASE], ['RP', BK_PROGRAM]]) {
  const at = romFunction(tag);
  rom.set([bk, 0xbe, 0x70, 0x47], at); // BKPT #bk; BX LR
}
const romWords = new Uint32Array(rom.buffer, rom.byteOffset, rom.length / 4);

function imageFlash() {
  const flash = new Uint8Array(FLASH_SIZE).fill(0xff);
  const image = fs.readFileSync(opts.firmware);
  if (image.length >= 512 && image.readUInt32LE(0) === 0x0a324655) {
    let blocks = 0;
    for (let at = 0; at + 512 <= image.length; at += 512) {
      if (image.readUInt32LE(at) !== 0x0a324655 || image.readUInt32LE(at + 508) !== 0x0ab16f30) {
        fail(`${opts.firmware}: a broken UF2 block at byte ${at}`);
      }
      const flags = image.readUInt32LE(at + 8);
      const address = image.readUInt32LE(at + 12);
      const size = image.readUInt32LE(at + 16);
      if (flags & 1) continue; // not for the main flash
      if (flags & 0x2000 && image.readUInt32LE(at + 28) !== 0xe48bff56) continue; // not RP2040
      if (address < 0x10000000 || address + size > 0x10000000 + FLASH_SIZE) continue;
      flash.set(image.subarray(at + 32, at + 32 + size), address - 0x10000000);
      blocks++;
    }
    if (!blocks) fail(`${opts.firmware}: a UF2 with no RP2040 block`);
  } else {
    if (image.length > FLASH_SIZE) fail(`${opts.firmware}: larger than the Pico's 2 MB flash`);
    flash.set(image, 0);
  }
  // boot2 (the first 256 bytes) ends in a CRC; MicroPython's starts with a known word.
  if (flash[0] === 0xff && flash[1] === 0xff) fail(`${opts.firmware}: nothing at the start of flash`);
  return flash;
}

// ---------------------------------------------------------------- state across resets
const drive = new Array(NPIN).fill(null); // the bench's drive of a pin: null (open), 0 or 1
const pullUp = new Array(NPIN).fill(false); // a pull-up on the board (the TM1637 modules')
let level = new Array(NPIN).fill(0);
const listeners = [];
const events = [];
let mcu, clock;
let baseNs = 0; // the emulated ns of the boots before this one
let execNs = 0; // emulated ns the core was not asleep
let resets = 0;
let resetAsked = false;
let resetWhy = ''; // the reset event's why: 'watchdog' (it ran out), 'forced' (machine.reset())
let stopSlice = false;
let stallNs = 0; // the core waits for the flash this long yet (flash.mjs), interrupts masked
let pio = null; // this boot's PioClock
const nowNs = () => baseNs + clock.nanos;
const nowMs = () => nowNs() / 1e6;
if (opts.ref && !['20', '22'].includes(opts.ref)) fail('--ref GPIO: 20 (clk_gpin0) or 22 (clk_gpin1)');
const clocks = new ClockTree(new Reference(opts.ref ? Number(opts.ref) : null));
const meter = new Meter(nowNs);
function event(record) {
  if (record.t === undefined) record.t = +nowMs().toFixed(4);
  if (xip && record.ev === 'flash') xip.live = false; // the pass ends at its save
  if (profileLive && profileToPassEnd) {
    // The pass ends at its first flash write, or at a sleep of 2 ms or more it began; what it
    // shows ends with its last display write or light switched before that.
    if (record.ev === 'flash' || (record.ev === 'slept' && record.from >= profileFrom)) profileLive = false;
    else if (['i2c', 'spi', 'tm1637', 'led'].includes(record.ev)) {
      profileShown = profileRows();
      pyShown = pyRows();
    }
  }
  meter.observe(record);
  events.push(record);
  if (events.length > 200000) events.splice(0, 100000);
}

// ---------------------------------------------------------------- pads
const ledPins = new Set(opts.leds ? opts.leds.split(',').map(Number) : []);
function resolve(pin) {
  const gpio = mcu.gpio[pin];
  let value;
  if (gpio.outputEnable) value = gpio.outputValue ? 1 : 0;
  else if (drive[pin] !== null) value = drive[pin];
  else if (pullUp[pin]) value = 1;
  else if (gpio.pullupEnabled && !gpio.pulldownEnabled) value = 1;
  else if (gpio.pulldownEnabled && !gpio.pullupEnabled) value = 0;
  else value = level[pin];
  if (value !== level[pin]) {
    clocks.pin(pin, value, level[pin]);
    level[pin] = value;
    if (ledPins.has(pin) && gpio.outputEnable) event({ ev: 'led', pin, on: value });
    for (const listener of listeners) listener(pin);
  }
  if (gpio.rawInputValue !== !!value) {
    if (pio) pio.wake(); // a state machine sees the new level from this instant on
    gpio.setInputValue(!!value);
  }
}

// ---------------------------------------------------------------- SSD1306 on hardware I2C
class Ssd1306 {
  constructor(address) {
    this.address = address;
    this.ram = new Uint8Array(1024);
    this.reset();
  }
  reset() {
    Object.assign(this, { mode: 2, c0: 0, c1: 127, p0: 0, p1: 7, col: 0, page: 0, on: false });
    Object.assign(this, { control: true, data: false, more: false, want: 0, cmd: 0, args: [] });
  }
  start() {
    this.control = true;
  }
  write(byte) {
    if (this.control) {
      this.more = !!(byte & 0x80);
      this.data = !!(byte & 0x40);
      this.control = false;
      return;
    }
    if (this.data) this.pixels(byte);
    else this.command(byte);
    if (this.more) this.control = true;
  }
  command(byte) {
    if (this.want) {
      this.args.push(byte);
      if (--this.want === 0) this.obey(this.cmd, this.args);
      return;
    }
    const args = { 0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0xa8: 1, 0xd3: 1, 0xd5: 1, 0xd9: 1 };
    const more = { 0xda: 1, 0xdb: 1, 0x8d: 1, 0xa3: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2a: 5 };
    this.cmd = byte;
    this.args = [];
    this.want = args[byte] ?? more[byte] ?? 0;
    if (!this.want) this.obey(byte, []);
  }
  obey(cmd, a) {
    if (cmd === 0xae || cmd === 0xaf) this.on = cmd === 0xaf;
    else if (cmd === 0x20) this.mode = a[0] & 3;
    else if (cmd === 0x21) [this.c0, this.c1, this.col] = [a[0] & 127, a[1] & 127, a[0] & 127];
    else if (cmd === 0x22) [this.p0, this.p1, this.page] = [a[0] & 7, a[1] & 7, a[0] & 7];
    else if (cmd >= 0xb0 && cmd <= 0xb7) this.page = cmd & 7;
    else if (cmd <= 0x0f) this.col = (this.col & 0xf0) | cmd;
    else if (cmd >= 0x10 && cmd <= 0x1f) this.col = (this.col & 0x0f) | ((cmd & 0x0f) << 4);
  }
  pixels(byte) {
    this.ram[this.page * 128 + this.col] = byte;
    if (this.mode === 0) {
      if (++this.col > this.c1) {
        this.col = this.c0;
        if (++this.page > this.p1) this.page = this.p0;
      }
    } else if (this.mode === 1) {
      if (++this.page > this.p1) {
        this.page = this.p0;
        if (++this.col > this.c1) this.col = this.c0;
      }
    } else this.col = (this.col + 1) & 127;
  }
}
// --spi-oled BUS,DC,CS: the panel on 4-wire SPI instead (or as well), on SPI0 or SPI1 with its
// D/C and CS lines on those GPIOs.
const spiOled = opts['spi-oled'] ? opts['spi-oled'].split(',').map(Number) : null;
if (spiOled && (spiOled.length !== 3 || ![0, 1].includes(spiOled[0]) || spiOled.some((n) => !(n >= 0 && n < NPIN)))) {
  fail('--spi-oled BUS,DC,CS: BUS 0 or 1, DC and CS GPIO numbers');
}
const i2cOled = opts.oled && opts.oled !== 'none';
const oled = i2cOled || spiOled ? new Ssd1306(i2cOled ? parseInt(opts.oled) : -1) : null;

// rp2040js moves I2C bytes at once; each step here is answered after its time on the wire: 9
// SCL periods a byte with its ACK, one for a START or a STOP. The period is the RP2040's (its
// I2C block is Synopsys DW_apb_i2c; RP2040 datasheet, 4.3.14, IC_CLK frequency configuration):
// SCL stays high IC_FS_SCL_HCNT + IC_FS_SPKLEN + 7 ic_clk cycles and low IC_FS_SCL_LCNT + 1
// (the SS counts in standard mode), ic_clk being clk_sys. The Pico SDK's i2c_set_baudrate for
// 400 kHz at 125 MHz sets HCNT 126, LCNT 187, SPKLEN 11: 144 + 188 cycles, 376.5 kHz.
// rp2040js 1.3.3 keeps a written IC_FS_SPKLEN only when the value's own bit 0 is clear (it
// tests the value, not IC_ENABLE): here the register takes what is written while the block is
// disabled, at least 1, as the datasheet has it.
const IC_FS_SPKLEN = 0xa0;
function sclCycles(high, low, spikeLength) {
  return high + spikeLength + 7 + low + 1;
}
function hookI2C(bus, index) {
  let spikeLength = 7; // IC_FS_SPKLEN's reset value
  const writeRegister = bus.writeUint32.bind(bus);
  const readRegister = bus.readUint32.bind(bus);
  bus.writeUint32 = (offset, value) => {
    if (offset !== IC_FS_SPKLEN) return writeRegister(offset, value);
    if (!(bus.enable & 1)) spikeLength = Math.max(value & 0xff, 1);
  };
  bus.readUint32 = (offset) => (offset === IC_FS_SPKLEN ? spikeLength : readRegister(offset));
  const TX_EMPTY = 1 << 4;
  let transaction = null;
  let device = null;
  let started = 0; // the last START's instant
  const alarm = clock.createAlarm(() => alarm.then());
  const later = (bits, then) => {
    const period = sclCycles(bus.sclHighPeriod, bus.sclLowPeriod, spikeLength);
    alarm.then = then;
    alarm.schedule(bits * period * clocks.cycleNs);
  };
  const finish = () => {
    if (!transaction) return;
    const { addr, n } = transaction;
    const hz = Math.round(1e9 / (sclCycles(bus.sclHighPeriod, bus.sclLowPeriod, spikeLength) * clocks.cycleNs));
    event({ ev: 'i2c', bus: index, addr, n, ack: !!device, t0: +started.toFixed(4), hz });
    transaction = null;
    device = null;
  };
  bus.onStart = () => {
    finish();
    started = nowMs();
    later(1, () => bus.completeStart());
  };
  bus.onConnect = (address, mode) => {
    device = oled && address === oled.address ? oled : null;
    transaction = { addr: address, n: 0 };
    if (device) device.start();
    later(9, () => {
      bus.completeConnect(!!device);
      if (!device) bus.setInterrupts(TX_EMPTY); // rp2040js leaves TX_EMPTY clear on a NACK
    });
    if (mode === I2CMode.Read) transaction.read = true;
  };
  bus.onWriteByte = (byte) => {
    transaction.n++;
    if (device) device.write(byte);
    later(9, () => {
      bus.completeWrite(!!device);
      if (!device) bus.setInterrupts(TX_EMPTY);
    });
  };
  bus.onReadByte = () => later(9, () => bus.completeRead(device && !device.on ? 0x40 : 0x00));
  bus.onStop = () =>
    later(1, () => {
      finish();
      bus.completeStop();
    });
  hookI2CDma(bus, index);
}

// rp2040js's I2C makes no DMA request; the RP2040's does (datasheet 4.3, I2C: IC_DMA_CR and
// IC_DMA_TDLR): the TX request (DREQ_I2C0_TX 32, DREQ_I2C1_TX 34) is asserted while TDMAE is set
// and the TX FIFO holds at most IC_DMA_TDLR entries. Here it follows every change of the FIFO.
function hookI2CDma(bus, index) {
  const IC_DMA_CR = 0x88;
  const IC_DMA_TDLR = 0x8c;
  const TDMAE = 2;
  const dreq = index ? 34 : 32;
  let control = 0;
  let level = 0;
  const update = () => {
    if (control & TDMAE && bus.txFIFO.itemCount <= level) mcu.dma.setDREQ(dreq);
    else mcu.dma.clearDREQ(dreq);
  };
  const fifo = bus.txFIFO;
  for (const name of ['push', 'pull', 'reset']) {
    const original = fifo[name].bind(fifo);
    fifo[name] = (...args) => {
      const result = original(...args);
      update();
      return result;
    };
  }
  const read = bus.readUint32.bind(bus);
  const write = bus.writeUint32.bind(bus);
  bus.readUint32 = (offset) =>
    offset === IC_DMA_CR ? control : offset === IC_DMA_TDLR ? level : read(offset);
  bus.writeUint32 = (offset, value) => {
    if (offset === IC_DMA_CR) control = value & 3;
    else if (offset === IC_DMA_TDLR) level = value & 15;
    else return write(offset, value);
    update();
  };
}

// ---------------------------------------------------------------- SSD1306 on hardware SPI
// rp2040js shifts an SPI frame out the moment it leaves the TX FIFO; here it takes its time on
// the wire, DSS + 1 bit times at the rate the firmware set: clk_peri / (CPSDVSR x (1 + SCR)),
// clk_peri as the CLOCKS registers choose it (clocks.mjs). BSY, the FIFOs and the DMA requests
// follow from the frame being done later. The panel latches each byte with D/C and CS as they
// are at its last bit (the SSD1306 samples D/C# at the eighth SCLK): a command with D/C low, a
// byte of display data with D/C high, nothing while CS is high. A burst (bytes back to back with
// the same D/C and CS) is an event once the bus is idle and D/C or CS changes, or the next burst
// begins: from t0, its first bit, to t, its last.
function hookSPI(spi, index) {
  const panel = spiOled && spiOled[0] === index ? spiOled : null;
  let value = 0;
  let started = 0;
  let burst = null;
  const alarm = clock.createAlarm(() => shifted());
  const flush = () => {
    if (!burst) return;
    const { dc, cs, n, t0, end, hz } = burst;
    burst = null;
    event({ ev: 'spi', bus: index, dc, cs, n, hz, t0: +t0.toFixed(4), t: +end.toFixed(4) });
  };
  const lines = () => (panel ? [level[panel[1]], level[panel[2]]] : [null, null]);
  function shifted() {
    const [dc, cs] = lines();
    if (burst && (burst.dc !== dc || burst.cs !== cs)) flush();
    if (!burst) burst = { dc, cs, n: 0, t0: started, hz: Math.round(spi.clockFrequency) };
    burst.n++;
    burst.end = nowMs();
    if (panel && cs === 0) {
      if (dc) oled.pixels(value);
      else oled.command(value);
    }
    spi.completeTransmit(0);
  }
  spi.onTransmit = (v) => {
    value = v;
    started = nowMs();
    const hz = spi.clockFrequency;
    if (hz > 0) alarm.schedule((spi.dataBits * 1e9) / hz);
    else shifted();
  };
  if (panel) {
    spiLinesChanged = (pin) => {
      if ((pin === panel[1] || pin === panel[2]) && burst && !spi.busy && spi.txFIFO.empty) flush();
    };
  }
}
let spiLinesChanged = null; // this boot's SPI panel: a change of its D/C or CS ends a burst
listeners.push((pin) => spiLinesChanged && spiLinesChanged(pin));

// ---------------------------------------------------------------- TM1637 modules, bit-banged
const modules = [];
for (const pair of opts.tm1637 ? opts.tm1637.split(';') : []) {
  const [clk, dio] = pair.split(',').map(Number);
  pullUp[clk] = pullUp[dio] = true;
  const tm = { id: modules.length, clk, dio, seg: [0, 0, 0, 0, 0, 0], on: false, bright: 0 };
  let bytes = [], bit = 0, byte = 0, active = false, acking = false, autoIncrement = true;
  let lastClk = 1, lastDio = 1;
  const frame = () => {
    if (!bytes.length) return;
    const first = bytes[0];
    if ((first & 0xc0) === 0x40) autoIncrement = !(first & 4);
    else if ((first & 0xc0) === 0xc0) {
      let at = first & 7;
      for (const value of bytes.slice(1)) {
        if (at < 6) tm.seg[at] = value;
        if (autoIncrement) at++;
      }
      event({ ev: 'tm1637', mod: tm.id, seg: tm.seg.slice(0, 4) });
    } else if ((first & 0xc0) === 0x80) {
      tm.on = !!(first & 8);
      tm.bright = first & 7;
      event({ ev: 'tm1637', mod: tm.id, on: tm.on, bright: tm.bright });
    }
  };
  listeners.push((pin) => {
    if (pin !== clk && pin !== dio) return;
    const c = level[clk], d = level[dio];
    if (pin === dio && c === 1) {
      if (lastDio === 1 && d === 0) [active, bytes, bit, byte] = [true, [], 0, 0]; // start
      else if (lastDio === 0 && d === 1 && active) {
        active = false; // stop
        frame();
      }
    }
    if (pin === clk && active) {
      if (lastClk === 0 && c === 1) {
        if (bit < 8) byte |= d << bit++;
        else [bytes, byte, bit] = [[...bytes, byte], 0, 0]; // the ninth clock: the ACK
      } else if (lastClk === 1 && c === 0) {
        if (bit === 8 && !acking) {
          acking = true; // the module pulls DIO low for the ACK clock
          drive[dio] = 0;
          resolve(dio);
        } else if (acking && bit === 0) {
          acking = false;
          drive[dio] = null;
          resolve(dio);
        }
      }
    }
    lastClk = c;
    lastDio = d;
  });
  modules.push(tm);
}

// ---------------------------------------------------------------- HT1621 LCD modules
for (const [mod, spec] of (opts.ht1621 ? opts.ht1621.split(';') : []).entries()) {
  listeners.push(ht1621(mod, spec.split(',').map(Number), (pin) => level[pin], event));
}

// ---------------------------------------------------------------- USB serial
const serial = new net.Socket({ fd: parseInt(opts['serial-fd']), readable: true, writable: true });
let toChip = Buffer.alloc(0);
let cdc = null;
let heldRead = null;
let passRead = null;
function pump() {
  if (!cdc) return;
  let n = 0;
  while (n < toChip.length && !cdc.txFIFO.full) cdc.sendSerialByte(toChip[n++]);
  if (n) toChip = toChip.subarray(n);
  if (heldRead && !cdc.txFIFO.empty) {
    const [endpoint, size] = heldRead;
    heldRead = null;
    passRead(endpoint, size);
  }
}
serial.on('data', (data) => {
  toChip = Buffer.concat([toChip, data]);
  pump();
});
serial.on('error', () => {});

// ---------------------------------------------------------------- (re)boot
function boot(flash) {
  const sim = new Simulator();
  mcu = sim.rp2040;
  clock = sim.clock;
  mcu.logger = new ConsoleLogger(LogLevel.Error);
  mcu.loadBootrom(romWords);
  mcu.flash.set(flash);
  mcu.onBreak = (code) => {
    const r = mcu.core.registers;
    if (code === BK_ERASE || code === BK_PROGRAM) {
      // flash_range_erase(addr, count, block_size, block_cmd) / _program(addr, data, count)
      const [addr, count] = [r[0] >>> 0, (code === BK_ERASE ? r[1] : r[2]) >>> 0];
      const ns =
        code === BK_ERASE
          ? flashChip.erase(mcu.flash, addr, count, r[2] >>> 0, r[3] & 0xff, clocks.cycleNs)
          : flashChip.program(mcu.flash, addr, count, (i) => mcu.readUint8((r[1] + i) >>> 0), clocks.cycleNs);
      event({ ev: 'flash', op: code === BK_ERASE ? 'erase' : 'program', addr, n: count, ms: +(ns / 1e6).toFixed(4) });
      stallNs += ns;
    } else {
      process.stderr.write(`emu.mjs: breakpoint ${code} at 0x${mcu.core.PC.toString(16)}\n`);
      resetWhy = 'breakpoint';
      resetAsked = stopSlice = true;
    }
  };
  const watchdog = mcu.peripherals[0x40058];
  watchdog.onWatchdogTrigger = () => {
    // rp2040js 1.3.3 arms the watchdog's alarm again for the instant it fired (0 ticks left),
    // so clock.tick() would call this forever and the emulator never answer: the chip resets
    // instead, with the watchdog off as a reset leaves it.
    watchdog.alarm.enable = false;
    resetWhy = watchdog.reason === 1 ? 'watchdog' : 'forced';
    resetAsked = stopSlice = true;
  };
  level = new Array(NPIN).fill(0);
  for (let pin = 0; pin < NPIN; pin++) mcu.gpio[pin].addListener(() => resolve(pin));
  for (let pin = 0; pin < NPIN; pin++) resolve(pin);
  mcu.i2c.forEach(hookI2C);
  attachFaults({ mcu, clock, nowMs, drive, resolve, listeners, levelOf: (pin) => level[pin], oled, event });
  mcu.spi.forEach(hookSPI);
  clocks.attach(mcu, nowNs, event, (ns) => ns - baseNs);
  pio = new PioClock(mcu, clocks);
  stallNs = 0;
  if (oled && !oled.metered) {
    meter.watchOled(oled);
    oled.metered = true;
  }
  // ADC3 reads VSYS through the Pico's 1/3 divider (12 bits, 3.3 V full scale).
  mcu.adc.channelValues[3] = Math.round((parseFloat(opts.vsys) / 3 / 3300) * 4095);
  if (oled) oled.reset();
  cdc = new USBCDC(mcu.usbCtrl);
  heldRead = null;
  passRead = mcu.usbCtrl.onEndpointRead;
  // The device polls its OUT endpoint all the time; answered only when the host has bytes,
  // the core can sleep in between, as on a board.
  mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
    if (endpoint === cdc.outEndpoint) {
      pump();
      if (cdc.txFIFO.empty) {
        heldRead = [endpoint, size];
        return;
      }
    }
    passRead(endpoint, size);
  };
  cdc.onDeviceConnected = () => pump();
  cdc.onSerialData = (data) => serial.write(Buffer.from(data));
  mcu.core.PC = 0x10000000; // boot2, then the image (the ROM's own boot path is skipped)
}
function reboot(why) {
  const flash = mcu.flash.slice(0, FLASH_SIZE);
  baseNs += clock.nanos;
  resets++;
  boot(flash);
  event({ ev: 'reset', why });
}

// ---------------------------------------------------------------- running
// {"op": "profile", "on": true} starts counting, per instruction address, the emulated ns the
// core spent there and how often it ran it (with "pass_only": true, only until the pass of the
// main loop that runs then ends: its first flash write or a sleep of 2 ms or more; pcs_shown
// then holds them as they stood at its last display write or light switched);
// {"op": "profile", "on": false} stops and answers them (bench/chip/profile.py names the
// functions from the image's ELF).
let profile = null;
let profileToPassEnd = false;
let profileLive = false;
let profileFrom = 0;
let profileShown = [];
const profileRows = () => (profile ? [...profile].map(([pc, [ns, n]]) => [pc, Math.round(ns), n]) : []);
// Python functions too, when the profile is given mp_execute_bytecode's address ("bytecode"):
// each entry there runs a function's bytecode (code_state->fun_bc->bytecode names it: the ELF
// has a fun_data_ symbol for each frozen one); it has returned once SP is back where it was
// with PC at the return address, or above (an exception unwound it). Per bytecode address: ns
// with it on top of the stack (self), ns from its entry to its return (inclusive), calls.
let pyEntry = 0;
let pyStack = [];
let pyProfile = new Map();
let pyShown = [];
function pyEnter(core) {
  const fun = mcu.readUint32(core.registers[0]);
  const bytecode = mcu.readUint32(fun + 12);
  pyStack.push({ bytecode, sp: core.SP, lr: core.LR & ~1, from: execNs });
  const seen = pyProfile.get(bytecode);
  if (seen) seen[2]++;
  else pyProfile.set(bytecode, [0, 0, 1]);
}
function pyAfter(core, ns) {
  const top = pyStack[pyStack.length - 1];
  pyProfile.get(top.bytecode)[0] += ns;
  for (;;) {
    const frame = pyStack[pyStack.length - 1];
    if (!frame || !(core.SP > frame.sp || (core.SP === frame.sp && core.PC === frame.lr))) break;
    pyProfile.get(frame.bytecode)[1] += execNs - frame.from;
    pyStack.pop();
  }
}
function pyRows() {
  const open = new Map(); // the frames not returned yet: their inclusive time so far
  for (const frame of pyStack) open.set(frame.bytecode, (open.get(frame.bytecode) ?? 0) + execNs - frame.from);
  return [...pyProfile].map(([bc, [own, all, n]]) => [bc, Math.round(own), Math.round(all + (open.get(bc) ?? 0)), n]);
}
// {"op": "xip", "on": true} counts the distinct 8-byte lines of flash that the core and the
// DMA read (every access through the XIP window, 0x10000000-0x13ffffff) and the reads, until
// the next flash erase or program (a pass's save) or {"op": "xip", "on": false}, which answers
// them. The XIP cache itself (16 KB, two ways, 8-byte lines, 1-cycle hits: RP2040 datasheet
// 2.6.3) is not modelled: every flash read costs what an SRAM read does. The lines read after
// a flush (the SDK flushes the whole cache after every erase and program) are the misses such
// a pass would take at least; `misses` is what a cache of that shape would miss from a flush
// at "on" if it replaced the least recently used way (the datasheet does not say which it
// replaces): an estimate.
let xip = null; // {lines, reads, misses, ways, live}
function xipCount(on) {
  const FLASH = 0x10000000;
  const WINDOW = 0x04000000;
  if (on) {
    // 1024 sets of two ways: the most recently used tag first (-1: empty)
    xip = { lines: new Set(), reads: 0, misses: 0, ways: new Int32Array(2048).fill(-1), live: true };
    const count = (address) => {
      if (xip && xip.live && address >>> 0 >= FLASH && address >>> 0 < FLASH + WINDOW) {
        const line = (address & 0xffffff) >>> 3;
        xip.lines.add(line);
        xip.reads++;
        const at = (line & 1023) * 2;
        const tag = line >>> 10;
        const ways = xip.ways;
        if (ways[at] === tag) return;
        if (ways[at + 1] !== tag) xip.misses++;
        ways[at + 1] = ways[at];
        ways[at] = tag;
      }
    };
    for (const name of ['readUint8', 'readUint16', 'readUint32']) {
      const original = Object.getPrototypeOf(mcu)[name];
      mcu[name] = function (address) {
        count(address);
        return original.call(this, address);
      };
    }
    return {};
  }
  for (const name of ['readUint8', 'readUint16', 'readUint32']) delete mcu[name];
  const found = xip ? { lines: xip.lines.size, reads: xip.reads, misses: xip.misses, live: xip.live } : {};
  xip = null;
  return found;
}
const SLEPT_NS = 2e6; // a sleep this long ends a pass of the main loop: a 'slept' event
const PIO_STEP_NS = 100; // a running state machine that is not idle steps in stretches this long
let asleepSince = null;
function slice(limitNs) {
  const core = mcu.core;
  stopSlice = false;
  for (let i = 0; i < 200000 && baseNs + clock.nanos < limitNs && !stopSlice; i++) {
    if (clocks.stopped) {
      // Dormant, or clk_sys's source stopped (a reference that stopped): the core and what its
      // clocks drive stop, the timer and the watchdog too: time passes outside the chip.
      const skip = clocks.dormantSkip(nowNs(), limitNs);
      clocks.waited(skip);
      baseNs += skip;
    } else if (stallNs > 0) {
      // The core polls the flash's status in the boot ROM, interrupts masked: it executes, the
      // rest of the chip runs on.
      let skip = Math.min(stallNs, limitNs - nowNs());
      const next = clock.nanosToNextAlarm;
      if (next > 0) skip = Math.min(skip, next);
      if (pio.busy) skip = Math.min(skip, PIO_STEP_NS);
      skip = Math.max(skip, 1);
      stallNs -= skip;
      clock.tick(skip);
      pio.advance(skip);
      execNs += skip;
      clocks.executed(skip);
      if (profileLive) {
        const seen = profile.get(core.PC);
        if (seen) seen[0] += skip;
        else profile.set(core.PC, [skip, 0]);
      }
    } else if (core.waiting) {
      if (asleepSince === null) asleepSince = nowNs();
      let skip = clock.nanosToNextAlarm;
      if (skip <= 0) skip = 1e6;
      skip = Math.min(skip, limitNs - nowNs());
      if (pio.busy) skip = Math.min(skip, PIO_STEP_NS);
      clocks.waited(skip);
      clock.tick(skip);
      pio.advance(skip);
    } else {
      if (asleepSince !== null) {
        // The main loop's sleeps between passes; not the microsecond waits inside one.
        if (nowNs() - asleepSince >= SLEPT_NS) event({ ev: 'slept', from: +(asleepSince / 1e6).toFixed(4) });
        asleepSince = null;
      }
      const pc = profileLive ? core.PC : 0;
      if (pc && pc === pyEntry) pyEnter(core);
      const ns = core.executeInstruction() * clocks.cycleNs;
      clock.tick(ns);
      pio.advance(ns);
      execNs += ns;
      clocks.executed(ns);
      if (profileLive) {
        const seen = profile.get(pc);
        if (seen) {
          seen[0] += ns;
          seen[1]++;
        } else profile.set(pc, [ns, 1]);
        if (pyStack.length) pyAfter(core, ns);
      }
    }
  }
  for (let pin = 0; pin < NPIN; pin++) resolve(pin);
  if (resetAsked) {
    resetAsked = false;
    reboot(resetWhy);
  }
}
let freeRunning = false;
function runFor(ms, done) {
  const target = nowNs() + ms * 1e6;
  const step = () => {
    slice(target);
    if (nowNs() >= target) done();
    else setImmediate(step);
  };
  step();
}
function runFree() {
  let wall = performance.now();
  let emu = nowNs();
  const step = () => {
    if (!freeRunning) return;
    const target = emu + (performance.now() - wall) * 1e6;
    if (nowNs() > target + 2e6) {
      setTimeout(step, Math.min(20, (nowNs() - target) / 1e6));
      return;
    }
    if (target - nowNs() > 200e6) [wall, emu] = [performance.now(), nowNs()];
    slice(Math.max(target, nowNs()) + 5e6);
    setImmediate(step);
  };
  step();
}

// ---------------------------------------------------------------- commands
function answer(record) {
  process.stdout.write(JSON.stringify(record) + '\n');
}
const queue = [];
let busy = false;
function next() {
  if (busy || !queue.length) return;
  busy = true;
  const line = queue.shift();
  const done = (record) => {
    answer(record);
    busy = false;
    next();
  };
  let command;
  try {
    command = JSON.parse(line);
  } catch {
    return done({ error: `not JSON: ${line}` });
  }
  if (command.op !== 'free') freeRunning = false;
  const status = () => ({
    t: +nowMs().toFixed(4),
    timer_us: Math.floor(clock.nanos / 1000),
    timer_ns: clock.nanos,
    exec_ms: +(execNs / 1e6).toFixed(4),
    resets,
    ...clocks.status(),
    ...meter.status(),
    ...flashChip.status(),
    pio_machines: pio.enabled,
  });
  switch (command.op) {
    case 'run':
      return runFor(command.ms, () => done(status()));
    case 'free':
      freeRunning = true;
      runFree();
      return done(status());
    case 'hold':
    case 'time':
      return done(status());
    case 'ref':
      clocks.setReference(!!command.on);
      return done(status());
    case 'pin':
      drive[command.pin] = command.v ?? null;
      resolve(command.pin);
      return done(status());
    case 'events':
      return done({ ...status(), events: events.splice(0) });
    case 'oled':
      return done({ ...status(), on: oled.on, ram: Buffer.from(oled.ram).toString('hex') });
    case 'tm1637':
      return done({ ...status(), modules: modules.map((m) => ({ seg: m.seg.slice(0, 4), on: m.on })) });
    case 'save': // the whole flash, image and file system: a .bin that boots as it is now
      fs.writeFileSync(command.path, mcu.flash.subarray(0, FLASH_SIZE));
      return done(status());
    case 'profile': {
      const found = { pcs: profileRows(), pcs_shown: profileShown, py: pyRows(), py_shown: pyShown };
      profile = command.on ? new Map() : null;
      profileShown = [];
      pyEntry = command.on ? command.bytecode ?? 0 : 0;
      pyStack = [];
      pyProfile = new Map();
      pyShown = [];
      profileLive = !!command.on;
      profileToPassEnd = !!command.pass_only;
      profileFrom = nowMs();
      return done({ ...status(), ...found });
    }
    case 'xip':
      return done({ ...status(), ...xipCount(!!command.on) });
    case 'reset':
      reboot('command');
      return done(status());
    case 'quit':
      answer(status());
      process.exit(0);
    default:
      return done({ error: `unknown op ${command.op}` });
  }
}
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  queue.push(line);
  next();
});
process.stdin.on('end', () => process.exit(0));

boot(imageFlash());
answer({ ready: true, t: 0 });
