// SPDX-License-Identifier: MIT
// The Pico's flash chip (Winbond W25Q16JV) as the boot ROM's erase and program routines drive it:
// what they change in the array, and how long the core waits for them.
//
// emu.mjs replaces the ROM's flash_range_erase ('RE') and flash_range_program ('RP') by a
// breakpoint; erase() and program() here do their work on the flash array and answer the ns the
// core then stays in them, polling the chip's status register. MicroPython v1.28.0 calls them
// with interrupts disabled (ports/rp2/rp2_flash.c, begin_critical_flash_section), so emu.mjs
// stalls the core that long while the rest of the chip runs: an interrupt that comes meanwhile is
// pended and taken once MicroPython restores the interrupts, as on silicon.
//
// What the ROM does (pico-bootrom, program_flash_generic.c): flash_range_erase(addr, count,
// block_size, block_cmd) walks from addr to addr + count; where addr is aligned to block_size
// and a whole block_size remains, it sends block_cmd (the Pico SDK passes 64 KB and D8h, block
// erase), else a 4 KB sector erase (20h); each command is a write enable, the command and 3
// address bytes, then status reads until BUSY clears. flash_range_program(addr, data, count)
// programs page after page of 256 bytes (page program, 02h: write enable, command, address,
// 256 data bytes, then status reads). The ROM runs its SPI at clk_sys / 6 (flash_init_spi:
// SSI BAUDR 6). Programming only clears bits (NOR flash: 1 -> 0), so a page programmed again
// keeps every 0 it had.
//
// Times, from the W25Q16JV datasheet (Winbond, AC electrical characteristics):
//   sector erase 4 KB     tSE    45 ms typical,   400 ms max
//   block erase 32 KB     tBE1  120 ms typical, 1 600 ms max   (52h)
//   block erase 64 KB     tBE2  150 ms typical, 2 000 ms max   (D8h)
//   page program 256 B    tPP   0.4 ms typical,   3 ms max
// plus each command's bytes on the wire at the ROM's SPI rate, and one status read after BUSY
// clears. `none` keeps the old free flash (the bytes change, no time passes).

const MS = 1e6;
const TIMES = {
  none: null,
  typ: { sector: 45 * MS, 0x52: 120 * MS, 0xd8: 150 * MS, page: 0.4 * MS },
  max: { sector: 400 * MS, 0x52: 1600 * MS, 0xd8: 2000 * MS, page: 3 * MS },
};
const BLOCK_BYTES = { 0x52: 32768, 0xd8: 65536 };
const SECTOR = 4096;
const PAGE = 256;
const ROM_SPI_DIV = 6; // clk_sys cycles a bit on the ROM's SPI
const ERASE_WIRE_BYTES = 1 + 4 + 2; // write enable; command and address; the last status read
const PROGRAM_WIRE_BYTES = 1 + 4 + PAGE + 2;

export const FLASH_TIMINGS = Object.keys(TIMES);

export class FlashChip {
  // `kind` none | typ | max; `flash` the image's byte array (rp2040js's mcu.flash).
  constructor(kind, size) {
    if (!(kind in TIMES)) throw new Error(`--flash-timing none|typ|max, not ${kind}`);
    this.kind = kind;
    this.times = TIMES[kind];
    this.size = size;
    this.erases = 0; // sector and block erase commands
    this.programs = 0; // pages programmed
    this.busyNs = 0; // emulated ns the core waited for them
  }

  wire(bytes, cycleNs) {
    return this.times ? bytes * 8 * ROM_SPI_DIV * cycleNs : 0;
  }

  // flash_range_erase(addr, count, block_size, block_cmd): the ns the core waits.
  erase(flash, addr, count, blockSize, blockCmd, cycleNs) {
    let ns = 0;
    const goal = Math.min(addr + count, this.size);
    while (addr < goal) {
      let step = SECTOR; // what the ROM moves on by
      let erased = SECTOR; // what the command erases
      let time = this.times && this.times.sector;
      if (blockSize && !(addr & (blockSize - 1)) && goal - addr >= blockSize) {
        step = blockSize;
        erased = BLOCK_BYTES[blockCmd] ?? blockSize;
        time = this.times && this.times[blockCmd];
        if (this.times && time === undefined) throw new Error(`erase command ${blockCmd} unknown`);
      }
      const start = addr & ~(erased - 1);
      flash.fill(0xff, start, Math.min(start + erased, this.size));
      this.erases++;
      ns += (time || 0) + this.wire(ERASE_WIRE_BYTES, cycleNs);
      addr += step;
    }
    this.busyNs += ns;
    return ns;
  }

  // flash_range_program(addr, data, count): `read(i)` the i-th byte of data; the ns waited.
  program(flash, addr, count, read, cycleNs) {
    for (let i = 0; i < count && addr + i < this.size; i++) flash[addr + i] &= read(i);
    const pages = Math.ceil(count / PAGE);
    this.programs += pages;
    const ns = pages * ((this.times ? this.times.page : 0) + this.wire(PROGRAM_WIRE_BYTES, cycleNs));
    this.busyNs += ns;
    return ns;
  }

  status() {
    return {
      flash_timing: this.kind,
      flash_erases: this.erases,
      flash_programs: this.programs,
      flash_busy_ms: +(this.busyNs / 1e6).toFixed(4),
    };
  }
}
