// SPDX-License-Identifier: MIT
// An HT1621 segment LCD controller on three GPIOs, decoded from the pins as the chip reads them.
//
// The wire (Holtek HT1621 datasheet): CS low opens a transfer, DATA is read on each rising edge
// of WR, CS high ends it. A transfer starts with a 3-bit mode: 100 command, 101 write. Commands
// are 9 bits each (8 bits of command, most significant first, and one bit that does not count),
// any number in one transfer: SYS DIS 0x00 and SYS EN 0x01 stop and start the oscillator, LCD
// OFF 0x02 and LCD ON 0x03 the glass; others (bias, clock source) are taken and ignored. A write
// is a 6-bit RAM address (most significant first), then 4-bit nibbles D0 D1 D2 D3 (D0 first),
// each to the next address: 32 addresses of 4 bits (one SEG line, its four COM lines).
// Each transfer ends in an event {ev: 'ht1621', mod, on, lit, ram, bits}: `on` the glass driven
// (SYS EN and LCD ON), `lit` the RAM's set bits, `ram` its 32 nibbles as hex, `bits` the bits
// the transfer carried.

export function decoder(mod, [cs, wr, data], levelOf, emit) {
  const ram = new Uint8Array(32);
  let system = false;
  let glass = false;
  let active = false;
  let count = 0; // bits of this transfer
  let mode = 0;
  let word = 0; // bits of the command, address or nibble being read
  let taken = 0; // how many of them
  let address = 0;
  let lastCs = 1;
  let lastWr = 1;
  const end = () => {
    let lit = 0;
    for (const nibble of ram) for (let b = nibble; b; b &= b - 1) lit++;
    const hex = Array.from(ram, (n) => n.toString(16)).join('');
    emit({ ev: 'ht1621', mod, on: system && glass, lit, ram: hex, bits: count });
  };
  const bit = (value) => {
    count++;
    if (count <= 3) {
      mode = (mode << 1) | value;
      return;
    }
    if (mode === 0b100) {
      word = (word << 1) | value;
      if (++taken === 9) {
        const command = word >> 1;
        if (command === 0x00) system = false;
        else if (command === 0x01) system = true;
        else if (command === 0x02) glass = false;
        else if (command === 0x03) glass = true;
        word = taken = 0;
      }
    } else if (mode === 0b101) {
      if (count <= 9) {
        address = ((address << 1) | value) & 63;
        return;
      }
      word |= value << taken; // D0 first
      if (++taken === 4) {
        ram[address & 31] = word;
        address = (address + 1) & 31;
        word = taken = 0;
      }
    }
  };
  return (pin) => {
    if (pin !== cs && pin !== wr) return;
    const c = levelOf(cs);
    const w = levelOf(wr);
    if (pin === cs && c !== lastCs) {
      if (!c) {
        active = true;
        count = mode = word = taken = address = 0;
      } else if (active) {
        active = false;
        end();
      }
    }
    if (pin === wr && active && w && !lastWr) bit(levelOf(data));
    lastCs = c;
    lastWr = w;
  };
}
