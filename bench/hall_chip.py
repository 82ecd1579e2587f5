# SPDX-License-Identifier: MIT
# What the hall costs a board, on the emulated RP2040 (bench/chip's rp2040js, the own image): the
# same quick games played by the levers on a clock in no hall, then on the same clock as board 5
# of a hall, each game ending on a flag so that it goes into the outbox on flash. Printed for
# each: press -> pixels (median, worst), the heap in play (MEM after a collection), the flash
# writes while a clock runs and in the 3 s after the flag, and the outbox as the gateway reads it
# (OUTBOX, OUTBOX GET, over the USB serial line).
#
#   RP2040_FIRMWARE=build/clock-pico_oled.uf2 RP2040_BOOTROM=B.bin \
#       python bench/hall_chip.py [--board pico_oled] [--games 3] [--plies 16]
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "chip"))

import run as chip_run  # noqa: E402  (bench/chip/run.py: the board's levers, display, serial)
from chip import Chip  # noqa: E402

SPEC = "chessclock:G/10s"  # 10 s a side, no increment: a flag within seconds
PLY_MS = 400
END_MS = 3000  # after the flag: the game kept (the outbox written) within this


def game(bench, seen, plies, name):
    """One game: `plies` presses PLY_MS apart, then the flag. Its figures."""
    bench.new_game(SPEC, name)
    first = len(bench.presses)
    edges = bench.play([PLY_MS] * plies, "start", "ply")
    heap = bench.heap()  # in play, the clock running
    # the side to move has used PLY_MS for each of its plies so far
    flag = edges[-1] + 10000 - PLY_MS * (plies // 2)
    bench.chip.run(int(flag - bench.chip.run(0)["t"]) + END_MS)
    bench.chip.events()
    writes = [e["t"] for e in seen if e["ev"] == "flash"]
    running = [t for t in writes if edges[0] < t < flag - 50]
    timed = [p["ms"] for p in bench.presses[first:] if p["ms"] is not None]
    return {
        "press_median_ms": statistics.median(timed),
        "press_worst_ms": max(timed),
        "heap_used": heap["used"],
        "flash_running": len(running),
        # the moments a clock running wrote (writes 100 ms or more apart): the game's own saves
        "flash_running_moments": sum(1 for a, b in zip([-1e9] + running, running) if b - a >= 100),
        "flash_after_flag": sum(1 for t in writes if flag - 50 <= t < flag + END_MS),
        "state": bench.state(),
    }


def main(argv):
    board, games, plies = "pico_oled", 3, 16
    args = list(argv)
    while args:
        word = args.pop(0)
        if word == "--board":
            board = args.pop(0)
        elif word == "--games":
            games = int(args.pop(0))
        elif word == "--plies":
            plies = int(args.pop(0))
        else:
            print("hall_chip: unknown argument %s" % word, file=sys.stderr)
            return 2
    firmware = os.environ.get("RP2040_FIRMWARE", "").replace("NAME", board)
    bootrom = os.environ.get("RP2040_BOOTROM", "")
    if not (os.path.exists(firmware) and os.path.exists(bootrom)):
        print("hall_chip: RP2040_FIRMWARE and RP2040_BOOTROM name the image and boot ROM")
        return 2
    started = time.time()
    with Chip(firmware, bootrom, **chip_run.chip_options(board)) as chip:
        if not chip_run.clock_running(chip):
            print(
                "hall_chip: %s does not start the clock by itself (the own image does)" % firmware
            )
            return 2
        seen = []
        events = chip.events

        def tee():
            found = events()
            seen.extend(found)
            return found

        chip.events = tee
        bench = chip_run.Bench(chip, board)
        chip.drive(chip_run.power.VBUS, 1)
        chip.run(3000)
        rows = []
        for hall in (False, True):
            if hall:
                ready = bench.heap()
                bench.ok("SET HALL club")
                bench.ok("SET BOARD 5")
                set_up = bench.heap()
            for number in range(games):
                del seen[:]
                figures = game(bench, seen, plies, "h%d" % number)
                figures["hall"] = hall
                rows.append(figures)
                print(json.dumps(figures), file=sys.stderr, flush=True)
        kept = json.loads(bench.ok("OUTBOX"))
        sizes = []
        took = []
        for item in kept:
            at = chip.run(0)["t"]
            line = bench.ok("OUTBOX GET %d" % item["game"], 20000)
            took.append(round(chip.run(0)["t"] - at))
            sizes.append(len(line))
        heap_after = bench.heap()
    print(
        "board %s, %d games of %d plies (%s), each ended by a flag" % (board, games, plies, SPEC)
    )
    print("%-28s %12s %12s" % ("", "no hall", "board 5"))
    for key, label in (
        ("press_median_ms", "press -> pixels, median ms"),
        ("press_worst_ms", "press -> pixels, worst ms"),
        ("heap_used", "heap in play, bytes (max)"),
        ("flash_running", "flash writes, clock running"),
        ("flash_running_moments", "  at so many moments"),
        ("flash_after_flag", "flash writes, 3 s after flag"),
    ):
        cells = []
        for hall in (False, True):
            values = [row[key] for row in rows if row["hall"] == hall]
            if key == "press_median_ms":
                cells.append("%.3f" % statistics.median(values))
            elif key.startswith("flash"):
                cells.append("/".join(str(v) for v in values))
            else:
                cells.append(str(max(values)))
        print("%-28s %12s %12s" % (label, cells[0], cells[1]))
    print("outbox: %d games kept; OUTBOX GET %s bytes, %s emulated ms" % (len(kept), sizes, took))
    print("heap at ready, no hall: %s; set as board 5: %s" % (ready, set_up))
    print("heap after the games, the outbox holding them: %s" % heap_after)
    print("(%.0f s of this machine's time)" % (time.time() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
