# SPDX-License-Identifier: MIT
# What the XIP cache could cost a press on silicon: the flash lines a press's pass reads.
#
#   RP2040_FIRMWARE=build/clock-NAME.uf2 RP2040_BOOTROM=B.bin python bench/chip/xip.py
#       [--boards pico_oled,pico_tm1637] [--presses 20]
#
# The emulator reads flash at SRAM speed: it does not model the RP2040's XIP cache (16 KB, two
# ways, 8-byte lines; a miss reads the line from the flash chip over QSPI). Instead, for each of
# `--presses` presses of a G/15/10 game, it counts the distinct 8-byte lines of flash read from
# the lever's edge to the end of the press's pass (its save's first flash write): at most that
# many misses and at least that many when the cache is cold, as it is after any flash erase or
# program (the Pico SDK flushes the whole cache then; a premove comes right after the save of
# the press before it); and the misses a cache of that shape would take from cold if it
# replaced the least recently used way (an estimate: the datasheet does not say). A miss costs a quad I/O read in continuous mode, 6 clocks of address, 2 of mode, 4
# dummy and 16 of data at the SCK MicroPython sets (clk_sys / 2 on the Pico: 62.5 MHz), 56 clk_sys
# cycles and a few more for the SSI and the bus: about 0.5 us at 125 MHz.
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import run as bench  # noqa: E402
from chip import Chip  # noqa: E402

MISS_US = (6 + 2 + 4 + 16) * 2 / 125 + 0.05  # the QSPI read and a little for the SSI and bus


def lines_per_press(chip, board, presses):
    clock = bench.Bench(chip, board)
    clock.new_game(bench.GAME_SPEC, "b-xip")
    found = []
    pin = bench.RIGHT
    for _ in range(presses + 1):
        chip.run(700)
        chip.send("xip", on=True)
        clock.press(pin, after=300)
        counted = chip.send("xip", on=False)
        found.append((counted["lines"], counted["misses"]))
        pin = bench.LEFT if pin == bench.RIGHT else bench.RIGHT
    return found[1:]  # the start press aside


def main(argv):
    boards = ["pico_oled", "pico_tm1637"]
    presses = 20
    args = list(argv)
    while args:
        word = args.pop(0)
        if word == "--boards":
            boards = args.pop(0).split(",")
        elif word == "--presses":
            presses = int(args.pop(0))
    firmware = os.environ.get("RP2040_FIRMWARE", "")
    bootrom = os.environ.get("RP2040_BOOTROM", "")
    for board in boards:
        image = os.path.abspath(firmware.replace("NAME", board))
        with Chip(image, bootrom, timeout=120, **bench.chip_options(board)) as chip:
            chip.drive(bench.power.VBUS, 1)
            chip.run(4000)
            found = lines_per_press(chip, board, presses)
        lines = [f[0] for f in found]
        misses = [f[1] for f in found]
        print(
            "%s: a press's pass reads %d to %d distinct flash lines (median %d, %.1f KB): "
            "from a cold cache at least %.2f ms of misses (median %.2f ms); a 2-way LRU cache "
            "would miss %d to %d times (median %d): %.2f ms (median %.2f ms), at %.2f us a miss"
            % (
                board,
                min(lines),
                max(lines),
                statistics.median(lines),
                statistics.median(lines) * 8 / 1024,
                max(lines) * MISS_US / 1000,
                statistics.median(lines) * MISS_US / 1000,
                min(misses),
                max(misses),
                statistics.median(misses),
                max(misses) * MISS_US / 1000,
                statistics.median(misses) * MISS_US / 1000,
                MISS_US,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
