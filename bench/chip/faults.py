# SPDX-License-Identifier: MIT
# The display's faults on the emulated Pico (pico_oled): a game on USB power whose panel or bus
# fails at an emulated instant and (but for a withheld DMA request) comes back, beside the same
# game with no fault, press for press at the same emulated milliseconds.
#
#   RP2040_FIRMWARE=F.uf2 RP2040_BOOTROM=B.bin python bench/chip/faults.py [--json OUT]
#       [--only WORD,WORD]   (the faults whose name has one of the words, beside the one without)
#
# For each fault (bench/chip/faults.mjs gives the emulator its options): the lights' delay after
# each lever edge and the press-to-pixels before, during and after it, the CPU busy over 10 s of
# a running clock while it lasts, each ply's charge against its lever edges, STATE's `display`,
# and whether the panel's RAM at the end equals the no-fault game's at the same instant (the
# picture came back). A stock MicroPython image is installed once with flash.sh, its flash then
# saved and booted for every run.
import json
import os
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import run as bench  # noqa: E402
from chip import Chip, Hung  # noqa: E402
import power  # noqa: E402

BOARD = "pico_oled"
SPEC = "chessclock:G/15/10"
FROM_MS, UNTIL_MS = 30000, 48000  # the fault's emulated span (the game starts before it)
END_MS = 62000
GAP_MS = 1500  # between two presses
FAULTS = (
    ("none", ()),
    ("DMA request withheld", ("--no-i2c-dreq",)),
    ("SCL held low 18 s", ("--hold-scl", "%d,%d" % (FROM_MS, UNTIL_MS))),
    ("SDA held mid-byte", ("--hold-sda", "%d,5" % FROM_MS)),
    ("panel unplugged 18 s", ("--oled-gone", "%d,%d" % (FROM_MS, UNTIL_MS))),
)


def phase(t):
    return "before" if t < FROM_MS else "during" if t < UNTIL_MS else "after"


def play(chip, options):
    """One game with `options`; its figures."""
    clock = bench.Bench(chip, BOARD)
    chip.drive(power.VBUS, 1)
    chip.run(3000)
    clock.new_game(SPEC, "b-fault")
    now = chip.run(0)["t"]
    if now > FROM_MS - 8 * GAP_MS:
        raise RuntimeError("the game starts at %.0f ms, too late for the fault" % now)
    chip.run(FROM_MS - 8 * GAP_MS - now)
    edges = [clock.press(bench.RIGHT, "before")]
    pin = bench.LEFT
    busy = {}
    states = {}
    while True:
        now = chip.run(0)["t"]
        if now >= END_MS:
            break
        for name, start in (("before", FROM_MS - 12000), ("during", FROM_MS + 2000)):
            if name not in busy and now >= start:
                busy[name] = clock.busy(10000)  # a running clock, no press in it
                states[name] = json.loads(clock.ok("STATE"))["display"]
        chip.run(GAP_MS - bench.HOLD_MS - 200)
        t = chip.run(0)["t"]
        edges.append(clock.press(pin, phase(t)))
        pin = bench.RIGHT if pin == bench.LEFT else bench.LEFT
    chip.run(END_MS + 1000 - chip.run(0)["t"])
    ram = chip.send("oled")["ram"]  # at the same emulated instant in every run
    busy["after"] = clock.busy(10000)  # as before and during: no serial line just before it
    states["after"] = json.loads(clock.ok("STATE"))["display"]
    clock.charge_check(edges)
    out = {"options": list(options), "busy": busy, "display": states, "ram": ram}
    for name in ("before", "during", "after"):
        presses = [p for p in clock.presses if p["case"] == name]
        lights = [p["lights_ms"] for p in presses if p["lights_ms"] is not None]
        shown = [p["ms"] for p in presses if p["ms"] is not None and p["writes"]]
        out[name] = {
            "presses": len(presses),
            "lights_median_ms": statistics.median(lights) if lights else None,
            "lights_worst_ms": max(lights) if lights else None,
            "pixels_median_ms": statistics.median(shown) if shown else None,
            "pixels_worst_ms": max(shown) if shown else None,
            "shown": len(shown),
        }
    out["charges"] = len(clock.charges)
    out["charge_worst_ms"] = max((abs(c) for c in clock.charges), default=None)
    return out


def image(firmware, bootrom, folder):
    """An image that starts the clock: the own UF2 as it is; stock MicroPython with flash.sh
    run once, its flash saved."""
    with Chip(firmware, bootrom, **bench.chip_options(BOARD)) as chip:
        if bench.clock_running(chip):
            return firmware
        print("installing with ./flash.sh (stock MicroPython)", file=sys.stderr)
        with open(os.path.join(folder, "flash.log"), "w") as log:
            bench.install(chip, BOARD, log)
        chip.run(4000)
        saved = os.path.join(folder, "installed.bin")
        chip.send("save", path=saved)
        return saved


def main(argv):
    firmware = os.environ.get("RP2040_FIRMWARE", "").replace("NAME", BOARD)
    bootrom = os.environ.get("RP2040_BOOTROM", "")
    problem = bench.check(firmware, [BOARD], bootrom)
    if problem:
        print("faults: " + problem, file=sys.stderr)
        return 2
    out_path = argv[argv.index("--json") + 1] if "--json" in argv else None
    only = argv[argv.index("--only") + 1].split(",") if "--only" in argv else None
    results = {}
    with tempfile.TemporaryDirectory(prefix="chip-faults-") as folder:
        boot = image(os.path.abspath(firmware), bootrom, folder)
        for name, options in FAULTS:
            if only is not None and name != "none" and not any(word in name for word in only):
                continue
            print("%s: %s" % (BOARD, name), file=sys.stderr)
            chip = Chip(boot, bootrom, options=options, **bench.chip_options(BOARD))
            with chip:
                results[name] = play(chip, options)
    same = results["none"]["ram"]
    print("| %s, %s | %s |" % (BOARD, os.path.basename(firmware), " | ".join(results)))
    print("|---|" + "---|" * len(results))
    rows = (
        (
            "CPU busy before / during / after, %",
            lambda r: " / ".join("%.2f" % r["busy"][k] for k in ("before", "during", "after")),
        ),
        (
            "lights after the edge, worst before / during / after, ms",
            lambda r: " / ".join(
                _ms(r[k]["lights_worst_ms"]) for k in ("before", "during", "after")
            ),
        ),
        (
            "press to pixels, median before / during / after, ms",
            lambda r: " / ".join(
                _ms(r[k]["pixels_median_ms"]) for k in ("before", "during", "after")
            ),
        ),
        (
            "presses drawn / presses, during",
            lambda r: "%d / %d" % (r["during"]["shown"], r["during"]["presses"]),
        ),
        ("STATE display during", lambda r: _state(r["display"].get("during"))),
        ("STATE display after", lambda r: _state(r["display"].get("after"))),
        (
            "the panel at the end = the game without a fault: differences (page, x0, x1)",
            lambda r: "none" if r["ram"] == same else str(differences(r["ram"], same)),
        ),
        (
            "charging error, worst of the plies",
            lambda r: "%s ms (%d plies)" % (r["charge_worst_ms"], r["charges"]),
        ),
    )
    for label, cell in rows:
        print("| %s | %s |" % (label, " | ".join(cell(r) for r in results.values())))
    if out_path:
        for r in results.values():
            r.pop("ram")
        with open(out_path, "w") as handle:
            json.dump(results, handle, indent=1)
    return 0


def differences(ram, other):
    """(page, first column, last column) of each page where two panels' RAM (hex) differ."""
    a, b = bytes.fromhex(ram), bytes.fromhex(other)
    found = []
    for page in range(8):
        columns = [x for x in range(128) if a[page * 128 + x] != b[page * 128 + x]]
        if columns:
            found.append((page, columns[0], columns[-1]))
    return found


def _ms(value):
    return "-" if value is None else "%.1f" % value


def _state(display):
    if display is None:
        return "-"
    return "%s, lost %d, back %d, %d failed" % (
        "showing" if display["showing"] else "NOT showing",
        display["lost"],
        display["recovered"],
        display["failed_writes"],
    )


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Hung as error:
        print("faults: %s" % error, file=sys.stderr)
        sys.exit(1)
