# SPDX-License-Identifier: MIT
# A clock in service booting its saved game: a long game played on the stock path (MicroPython's
# own image, the clock installed by ./flash.sh), a copy of the flash booted, and whether the
# clock answers, with its heap there (MEM: live, free, largest free block) and what it printed.
#   RP2040_BOOTROM=... .venv/bin/python bench/chip/boot_saved.py [--board pico_oled]
#       [--plies 400] [--firmware FILE] [--keep build/saved-flash.bin]
#       [--from build/saved-flash.bin]
# --keep keeps the flash copy the game left; --from boots such a copy with PLAY held (the REPL,
# no watchdog), installs this checkout's clock over it with ./flash.sh (its data files stay: the
# saved game and its record), then resets it: a fix is tried without playing the game again.
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from chip import Chip, Hung  # noqa: E402
import bullet  # noqa: E402
import power  # noqa: E402
import run  # noqa: E402

STOCK = "/work/rp2emu/firmware.uf2"
BOOT_MS = 8000  # emulated, before the first command: what the boot printed
WAIT_MS = 20000  # emulated: the stock path's boot reads its modules and the saved game


def boot_check(chip, board):
    """Reset `chip` and wait for its clock: the answer, the resets, the heap, what it printed."""
    chip.take_output()
    resets = chip.run(0)["resets"]
    chip.send("reset")
    chip.run(BOOT_MS)
    printed = chip.take_output().decode("utf-8", "replace").replace("\r", "").split("\n")
    out = {"printed": [line for line in printed if line and not line.startswith("EV ")][-12:]}
    bench = run.Bench(chip, board)
    try:
        out["state"] = json.loads(bench.ok("STATE", WAIT_MS))["state"]
        out["store"] = json.loads(bench.ok("STATE"))["store"]
        out["heap"] = bench.heap()
    except (Hung, RuntimeError, ValueError) as error:
        out["error"] = str(error)
    out["resets"] = chip.run(0)["resets"] - resets - 1
    return out


def main(argv):
    board, plies, keep, source, firmware = "pico_oled", bullet.PLIES, None, None, STOCK
    args = list(argv)
    while args:
        word = args.pop(0)
        if word == "--board":
            board = args.pop(0)
        elif word == "--plies":
            plies = int(args.pop(0))
        elif word == "--keep":
            keep = args.pop(0)
        elif word == "--from":
            source = args.pop(0)
        elif word == "--firmware":
            firmware = args.pop(0)
        else:
            print("boot_saved: unknown argument %s" % word, file=sys.stderr)
            return 2
    bootrom = os.environ.get("RP2040_BOOTROM", "")
    options = run.chip_options(board)
    log = open(os.path.join(run.ROOT, "build", "boot-saved.log"), "w")
    image = keep or os.path.join(run.ROOT, "build", "boot-saved-%d.bin" % os.getpid())
    report = {"board": board}
    if source is None:
        with Chip(firmware, bootrom, **options) as chip:
            report.update(run.install(chip, board, log))
            chip.drive(power.VBUS, 1)
            chip.run(run.QUIET_MS)
            pins = [int(gpio) for gpio in run.board_leds(board).split(",")]
            leds = {bullet.LEFT: pins[0], bullet.RIGHT: pins[1]}
            run.Bench(chip, board).ok("STATE", 60000)  # the first start reads its modules
            played = bullet.play(run.Bench(chip, board), chip, leds, plies, say=run.say)
            report["game"] = {k: played[k] for k in ("plies", "presses_lost", "charge_worst_ms")}
            chip.send("save", path=image)
        source = image
    with Chip(source, bootrom, **options) as chip:
        chip.drive(power.VBUS, 1)
        if source != image:  # PLAY held at power-on: the REPL, for ./flash.sh
            chip.press(run.PLAY)
            chip.run(3000)
            report.update(run.install(chip, board, log))
            chip.release(run.PLAY)
        report["boot"] = boot_check(chip, board)
    log.close()
    if keep is None and os.path.exists(image):
        os.remove(image)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
