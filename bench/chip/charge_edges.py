# SPDX-License-Identifier: MIT
# A battery game with every lever edge at one fraction of a ms: each ply's charge against them.
#
# usage: RP2040_BOOTROM=... python bench/chip/charge_edges.py BOARD PLIES FRACTION
# (build/clock-BOARD.uf2). FRACTION 0.002 puts every edge 2 us after a millisecond of the
# emulator, 0.995 5 us before one: the clock must charge each ply floor(edge) - floor(edge
# before), a stamp late by at most the reference's tick, never early. Prints the plies charged
# otherwise and the fractions the edges fell at (the emulator ends a run at the core's next
# instruction: at 32.768 kHz up to ~0.1 ms after the instant asked).
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import power  # noqa: E402
import run  # noqa: E402


def main(board, plies, fraction):
    firmware = os.path.abspath("build/clock-%s.uf2" % board)
    options = run.chip_options(board)
    with run.Chip(firmware, os.environ["RP2040_BOOTROM"], timeout=300, **options) as chip:
        chip.run(3000)
        bench = run.Bench(chip, board)
        chip.drive(power.VBUS, 1)
        bench.new_game(power.GAME_SPEC, "b-game")
        chip.drive(power.VBUS, 0)
        chip.run(power.SETTLE_MS)
        edges = []
        pin = power.RIGHT
        for ply in range(plies + 1):
            t = chip.run(0)["t"]
            target = math.floor(t) + 300 + (ply * 337) % 1700 + fraction
            chip.run(target - t)
            edges.append(chip.press(pin)["t"])
            chip.run(60)
            chip.release(pin)
            chip.run(5)
            pin = power.LEFT if pin == power.RIGHT else power.RIGHT
        chip.drive(power.VBUS, 1)
        record = json.loads(bench.ok("GAME", 60000))
    wrong = []
    for ply, entry in enumerate(record["plies"][: len(edges) - 1], 1):
        want = math.floor(edges[ply]) - math.floor(edges[ply - 1])
        if entry["elapsed_ms"] != want:
            wrong.append((ply, entry["elapsed_ms"] - want, edges[ply - 1], edges[ply]))
    print("plies %d, charged otherwise %d: %s" % (len(edges) - 1, len(wrong), wrong))
    print("fractions:", sorted(set(round(edge % 1, 4) for edge in edges)))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3])))
