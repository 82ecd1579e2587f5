// SPDX-License-Identifier: MIT
// Display faults for the emulated Pico of `make bench-chip`: emu.mjs imports this module, which
// takes its options off the command line before emu.mjs reads it, and calls attach() at every
// boot. None given, nothing changes.
//
//   --no-i2c-dreq            the I2C blocks raise no DMA request (DREQ 32, 34): a display fed by
//                            DMA never gets a byte (rp2040js alone raises none either)
//   --hold-sda MS[,CLOCKS]   from emulated MS a device holds SDA low; given CLOCKS, it lets go
//                            after that many rising edges of SCL (a device cut off halfway
//                            through a byte, which the I2C bus clear frees), else never
//   --hold-scl MS[,UNTIL]    from MS (until UNTIL) a device holds SCL low
//   --oled-gone MS[,UNTIL]   from MS (until UNTIL) the panel acknowledges nothing (unplugged); at
//                            UNTIL it is back as from power-on: off, unconfigured, its RAM blank
//   --fault-pins SDA,SCL     the bus's GPIOs (4,5: I2C0 on pico_oled)
//
// A held line reads low on its GPIO (SIO's GPIO_IN, what the firmware's bus check reads). On the
// I2C block, as the RP2040's DW_apb_i2c meets it: SCL held, every step of a transfer waits until
// it is let go (the TX FIFO fills and stays full: its DMA request stays down); SDA held, the
// master loses the arbitration at its next step (TX_ABRT with ARB_LOST, the FIFO flushed). A
// transfer that waited on SCL is dropped if the firmware disabled the block meanwhile (it makes
// the bus again). Each fault's start and end is an event: {"ev": "fault", "what", "on"}.

const options = { 'no-i2c-dreq': null, 'hold-sda': '', 'hold-scl': '', 'oled-gone': '', 'fault-pins': '4,5' };
for (let i = 2; i < process.argv.length; ) {
  const key = process.argv[i].replace(/^--/, '');
  if (!(key in options)) {
    i += 2; // emu.mjs's own, with its value
    continue;
  }
  if (options[key] === null) {
    options[key] = true;
    process.argv.splice(i, 1);
  } else {
    options[key] = process.argv[i + 1] ?? '';
    process.argv.splice(i, 2);
  }
}
const numbers = (text) => (text ? text.split(',').map(Number) : []);
const [SDA, SCL] = numbers(options['fault-pins']);
const holdSda = numbers(options['hold-sda']); // [from, clocks]
const holdScl = numbers(options['hold-scl']); // [from, until]
const gone = numbers(options['oled-gone']); // [from, until]
const DREQ_I2C_TX = [32, 34];
const IC_ENABLE = 0x6c;
const IDLE = 0; // rp2040js's I2CState.Idle

let env = null; // this boot's emulator: what attach() was given
const fired = new Set(); // the fault changes made: a reboot schedules only the others
let sdaHeld = false;
let sclHeld = false;
let sdaClocks = 0; // rising edges of SCL seen while SDA is held
let lastScl = 1;
let listening = false;

function setLine(pin, held) {
  env.drive[pin] = held ? 0 : null;
  env.resolve(pin);
}

function at(ms, name, action) {
  // `action` at emulated `ms` of the whole run (across resets), or at once if that is past;
  // once in the run.
  if (fired.has(name)) return;
  const run = () => {
    if (fired.has(name)) return;
    fired.add(name);
    action();
  };
  const wait = ms - env.nowMs();
  if (wait <= 0) return run();
  env.clock.createAlarm(run).schedule(wait * 1e6);
}

function sdaChanged(held) {
  sdaHeld = held;
  sdaClocks = 0;
  setLine(SDA, held);
  env.event({ ev: 'fault', what: 'sda', on: held });
}

function sclChanged(held) {
  sclHeld = held;
  setLine(SCL, held);
  env.event({ ev: 'fault', what: 'scl', on: held });
  if (!held) for (const release of releases) release();
}

const releases = []; // per I2C block: run what waited on SCL

function hookBus(bus) {
  const waiting = [];
  let disabled = false; // the block was disabled while a step waited on SCL
  const write = bus.writeUint32.bind(bus);
  bus.writeUint32 = (offset, value) => {
    if (offset === IC_ENABLE && !(value & 1) && waiting.length) disabled = true;
    return write(offset, value);
  };
  const held = (name) => {
    const original = bus[name];
    bus[name] = (...args) => {
      if (sclHeld) return void waiting.push(() => original(...args));
      if (sdaHeld && name !== 'onStop') return void bus.arbitrationLost();
      return original(...args);
    };
  };
  for (const name of ['onStart', 'onConnect', 'onWriteByte', 'onReadByte', 'onStop']) held(name);
  releases.push(() => {
    const steps = waiting.splice(0);
    if (disabled) {
      disabled = false;
      bus.state = IDLE; // the firmware made the bus again: the stopped transfer is gone
      bus.busy = false;
      return;
    }
    for (const step of steps) step();
  });
}

export function attach(emulator) {
  // emulator: { mcu, clock, nowMs, drive, resolve, listeners, levelOf, oled, event }
  env = emulator;
  releases.length = 0;
  if (options['no-i2c-dreq']) {
    const dma = env.mcu.dma;
    const set = dma.setDREQ.bind(dma);
    dma.setDREQ = (dreq) => (DREQ_I2C_TX.includes(dreq) ? dma.clearDREQ(dreq) : set(dreq));
  }
  env.mcu.i2c.forEach(hookBus);
  if (!listening) {
    listening = true;
    env.listeners.push((pin) => {
      if (pin !== SCL) return;
      const level = env.levelOf(SCL);
      if (sdaHeld && level && !lastScl && holdSda[1] && ++sdaClocks >= holdSda[1]) sdaChanged(false);
      lastScl = level;
    });
  }
  if (sdaHeld) setLine(SDA, true);
  if (sclHeld) setLine(SCL, true);
  if (holdSda.length) at(holdSda[0], 'sda', () => sdaChanged(true));
  if (holdScl.length) at(holdScl[0], 'scl', () => sclChanged(true));
  if (holdScl[1]) at(holdScl[1], 'scl off', () => sclChanged(false));
  const oled = env.oled;
  if (gone.length && oled) {
    at(gone[0], 'oled', () => {
      oled.address = -1 - oled.address; // no device answers at its address
      env.event({ ev: 'fault', what: 'oled', on: true });
    });
    if (gone[1]) {
      at(gone[1], 'oled off', () => {
        oled.reset(); // plugged back in: as from power-on
        oled.ram.fill(0);
        oled.address = -1 - oled.address;
        env.event({ ev: 'fault', what: 'oled', on: false });
      });
    }
  }
}
