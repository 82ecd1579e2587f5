# SPDX-License-Identifier: MIT
# The short emulated-chip check of .ci/run: pico_oled boots, a press is charged to the
# millisecond, and the OLED holds, byte for byte, the frame the simulator draws for the same game.
#
#   RP2040_FIRMWARE=F.uf2 RP2040_BOOTROM=B.bin python bench/chip/check.py
#
# The image is the project's own (build/clock-pico_oled.uf2: nothing to install) or stock
# MicroPython (then ./flash.sh installs the checkout first, as a user would).
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
for path in ("sim/shim", "firmware", "tests", ""):
    sys.path.insert(0, os.path.join(ROOT, path))
sys.path.insert(0, HERE)

import run as bench  # noqa: E402
from chip import Chip, Hung  # noqa: E402
import power  # noqa: E402

BOARD = "pico_oled"
SPEC = "chessclock:G/5/3"
MOVE_MS = 1234  # the first ply, put on the levers to the emulated millisecond
AFTER_MS = 300  # the frame is compared this long after the second press


def chip_battery_mv(vsys_mv=4000):
    """What the board's Battery reads from the emulated ADC3 (emu.mjs --vsys, 4000 mV)."""
    from hal.rp2040.battery import millivolts_from_raw

    raw = round(vsys_mv / 3 / 3300 * 4095)
    return millivolts_from_raw((raw << 4) | (raw >> 8))  # read_u16 widens 12 bits to 16


def simulated_frame():
    """The simulator's frame (the app on the virtual HAL) after the same presses."""
    from fakes.mini_fs import MiniFs
    from harness import Clock
    from hal import buttons

    from boards import pico_oled

    clock = Clock(fs=MiniFs(), board=pico_oled)  # its battery gauge, as the chip's HAL has it
    clock.hal._battery_mv = chip_battery_mv()  # the battery figure the emulated ADC gives
    app = clock.app
    app.choose_preset(app.add_preset("b-ci", SPEC))
    app.new_game()
    start = 5000
    clock.press(buttons.RIGHT, start, bench.HOLD_MS)
    clock.run_until(start + MOVE_MS)
    clock.press(buttons.LEFT, start + MOVE_MS, bench.HOLD_MS)
    clock.run_until(start + MOVE_MS + AFTER_MS)
    return bytes(app.screen.frame)


def differences(chip_ram, frame):
    """(page, first column, last column) of each page where the two differ."""
    found = []
    for page in range(8):
        columns = [x for x in range(128) if chip_ram[page * 128 + x] != frame[page * 128 + x]]
        if columns:
            found.append((page, columns[0], columns[-1]))
    return found


def main():
    firmware = os.environ.get("RP2040_FIRMWARE", "").replace("NAME", BOARD)
    bootrom = os.environ.get("RP2040_BOOTROM", "")
    problem = bench.check(firmware, [BOARD], bootrom)
    if problem:
        print("chip check: " + problem, file=sys.stderr)
        return 2
    with Chip(os.path.abspath(firmware), bootrom, timeout=120) as chip:
        chip.drive(power.VBUS, 1)  # a Pico on USB, as flash.sh has it: no sleep, the USB face
        if not bench.clock_running(chip):
            with open(os.path.join(ROOT, "build", "chip-check.log"), "w") as log:
                bench.install(chip, BOARD, log)
        chip.run(4000)
        clock = bench.Bench(chip, BOARD)
        if clock.state() != "ready":
            clock.new_game(SPEC, "b-ci")
        else:
            clock.ok("PRESET USE %d" % int(clock.ok("PRESET REPLACE b-ci = " + SPEC).split()[1]))
            chip.run(bench.QUIET_MS)
        first = clock.press(bench.RIGHT, after=MOVE_MS - bench.HOLD_MS)
        second = clock.press(bench.LEFT, after=AFTER_MS - bench.HOLD_MS)
        ram = bytes.fromhex(chip.send("oled")["ram"])
        elapsed = clock.ok("GAME")
    charged = bench.json.loads(elapsed)["plies"][0]["elapsed_ms"]
    failed = []
    if round(second - first, 3) != MOVE_MS or charged != MOVE_MS:
        failed.append("a %d ms move was charged %s ms" % (MOVE_MS, charged))
    diff = differences(ram, simulated_frame())
    if diff:
        failed.append("the OLED differs from the simulator's frame at (page, x0, x1) %s" % diff)
    if failed:
        print("chip check FAILED: " + "; ".join(failed), file=sys.stderr)
        return 1
    print(
        "chip check: booted, a %d ms move charged %d ms, OLED = simulator's frame"
        % (MOVE_MS, charged)
    )
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Hung as error:
        print("chip check: %s" % error, file=sys.stderr)
        sys.exit(1)
