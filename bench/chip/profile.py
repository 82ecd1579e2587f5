# SPDX-License-Identifier: MIT
# Where a press's time goes on the emulated chip, by C function, in both boot states.
#
#   RP2040_FIRMWARE=build/clock-NAME.uf2 RP2040_BOOTROM=B.bin python bench/chip/profile.py
#       [--boards pico_oled] [--presses 20] [--elf build/clock-NAME.elf] [--start]
#
# The project's own UF2 only (the clock starts by itself; make firmware leaves the matching ELF
# beside it as build/clock-NAME.elf). For each board: the first boot after flashing (it formats
# the file system), then a reset (the file system is there: a clock in service). In each, a game
# of G/15/10 and `--presses` presses of it (`--start`: the first press of as many new games);
# for each press the emulator counts, per instruction, the cycles from the lever's edge to the
# end of the press's pass (its first flash write, or the core's next sleep of 2 ms or more). The functions are named from the ELF's symbols; the table
# gives each one's time and calls per press in both states, the ones that grew most first.
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import run as bench  # noqa: E402
from chip import Chip, Hung  # noqa: E402

ROM_END = 0x4000  # the boot ROM: memcpy, memset and the float routines the SDK takes from it


def symbols(elf):
    """The ELF's functions as (start, end, name) sorted by start; its frozen bytecode's names by
    address (mpy-tool names each function's bytecode fun_data_MODULE_..._FUNCTION); and the
    address of mp_execute_bytecode."""
    out = subprocess.run(
        ["arm-none-eabi-nm", "-n", "-S", "--defined-only", elf],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    functions = []
    bytecode = {}
    for line in out.splitlines():
        words = line.split()
        if len(words) == 4 and words[2] in "tTwW":
            start = int(words[0], 16) & ~1
            functions.append((start, start + int(words[1], 16), words[3]))
        if words and words[-1].startswith("fun_data_"):
            bytecode[int(words[0], 16)] = words[-1][len("fun_data_") :]
    entry = [start for start, _, name in functions if name == "mp_execute_bytecode"]
    return functions, bytecode, entry[0] if entry else 0


def name_of(table, starts, pc):
    import bisect

    if pc < ROM_END:
        return "(boot ROM)"
    i = bisect.bisect_right(starts, pc) - 1
    if i >= 0 and table[i][0] <= pc < table[i][1]:
        return table[i][2]
    return "(0x%08x)" % pc


def by_function(pcs, table):
    """{function: [ns, calls]} from the emulator's [pc, ns, count] rows: calls are the times
    its first instruction ran."""
    starts = [row[0] for row in table]
    entry = {row[0]: row[2] for row in table}
    found = {}
    for pc, ns, count in pcs:
        name = name_of(table, starts, pc)
        cell = found.setdefault(name, [0, 0])
        cell[0] += ns
        if entry.get(pc) == name:
            cell[1] += count
    return found


def add(total, rows):
    for name, cells in rows.items():
        cell = total.setdefault(name, [0] * len(cells))
        for i, value in enumerate(cells):
            cell[i] += value


def profile_presses(chip, board, presses, start=False):
    """A G/15/10 game, its first press not profiled; then `presses` presses, each profiled from
    its edge to its pass's end (with `start`, the first press of `presses` new games). For
    "shown" (to what the press shows) and "pass" (to the pass's end): {C function: [ns, calls]}
    and {Python function: [self ns, inclusive ns, calls]}, summed; and the press figures."""
    clock = bench.Bench(chip, board)
    clock.new_game(bench.GAME_SPEC, "b-game")
    if not start:
        clock.press(bench.RIGHT)
    pin = bench.LEFT
    totals = {part: ({}, {}) for part in ("shown", "pass")}
    for ply in range(1, presses + 1):
        if start and ply > 1:
            clock.new_game(bench.GAME_SPEC, "b-game")
        chip.run(300 + (ply * 337) % 500 - bench.HOLD_MS - 200)
        chip.send("profile", on=True, pass_only=True, bytecode=ENTRY)
        clock.press(pin, "game")
        found = chip.send("profile", on=False)
        for part, pcs, py in (("shown", "pcs_shown", "py_shown"), ("pass", "pcs", "py")):
            add(totals[part][0], by_function(found[pcs], TABLE))
            named = {}
            for address, own, inclusive, calls in found[py]:
                add(named, {BYTECODE.get(address, "(0x%08x)" % address): [own, inclusive, calls]})
            add(totals[part][1], named)
        pin = bench.RIGHT if pin == bench.LEFT else bench.LEFT
    return totals, [p["ms"] for p in clock.presses]


def report(board, states, presses, limit=int(os.environ.get("PROFILE_ROWS", "20"))):
    for part, what in (
        ("shown", "from the lever's edge to what the press shows (its last display write)"),
        ("pass", "from the lever's edge to the end of its pass (the save's first flash write)"),
    ):
        parted = {state: (v[0][part], v[1]) for state, v in states.items()}
        print("## %s: per press, %s" % (board, what))
        for state, (totals, ms) in parted.items():
            ms = sorted(m for m in ms if m is not None)
            cpu = sum(ns for ns, _ in totals[0].values()) / presses / 1e6
            print(
                "%s: press to pixels median %.2f ms; CPU %.2f ms" % (state, ms[len(ms) // 2], cpu)
            )
        print()
        c_table(parted, presses, limit)
        python_table(parted, presses, limit)


def c_table(states, presses, limit):
    first, service = states["first boot"][0][0], states["in service"][0][0]
    names = set(first) | set(service)

    def per(total, name, part):
        return total.get(name, [0, 0])[part] / presses

    rows = sorted(names, key=lambda n: abs(per(service, n, 0) - per(first, n, 0)), reverse=True)
    print("C functions, those that changed most first:")
    print()
    print("| function | first boot, ms | in service, ms | grew, ms | calls first / in service |")
    print("|---|---|---|---|---|")
    for name in rows[:limit]:
        a, b = per(first, name, 0) / 1e6, per(service, name, 0) / 1e6
        print(
            "| %s | %.3f | %.3f | %+.3f | %.1f / %.1f |"
            % (name, a, b, b - a, per(first, name, 1), per(service, name, 1))
        )
    print()


def python_table(states, presses, limit):
    first, service = states["first boot"][0][1], states["in service"][0][1]
    if not service:
        return
    names = set(first) | set(service)

    def per(total, name, part):
        return total.get(name, [0, 0, 0])[part] / presses

    rows = sorted(names, key=lambda n: per(service, n, 1), reverse=True)
    print("Python functions (frozen bytecode), the longest first, in service:")
    print()
    print("| function | calls | self, ms | inclusive, ms | inclusive on the first boot, ms |")
    print("|---|---|---|---|---|")
    for name in rows[:limit]:
        print(
            "| %s | %.1f | %.3f | %.3f | %.3f |"
            % (
                name,
                per(service, name, 2),
                per(service, name, 0) / 1e6,
                per(service, name, 1) / 1e6,
                per(first, name, 1) / 1e6,
            )
        )
    print()


def main(argv):
    global TABLE, BYTECODE, ENTRY
    boards = ["pico_oled"]
    presses = 20
    start = False  # --start: the press that starts a game, not those of a game under way
    elf = os.path.join(ROOT, "build", "clock-NAME.elf")
    args = list(argv)
    while args:
        word = args.pop(0)
        if word == "--boards":
            boards = args.pop(0).split(",")
        elif word == "--presses":
            presses = int(args.pop(0))
        elif word == "--elf":
            elf = args.pop(0)
        elif word == "--start":
            start = True
        else:
            print("profile: unknown argument %s" % word, file=sys.stderr)
            return 2
    firmware = os.environ.get("RP2040_FIRMWARE", "")
    bootrom = os.environ.get("RP2040_BOOTROM", "")
    problem = bench.check(firmware, boards, bootrom)
    if problem:
        print("profile: " + problem, file=sys.stderr)
        return 2
    for board in boards:
        TABLE, BYTECODE, ENTRY = symbols(elf.replace("NAME", board))
        path = os.path.abspath(firmware.replace("NAME", board))
        states = {}
        with Chip(path, bootrom, **bench.chip_options(board)) as chip:
            if not bench.clock_running(chip):
                print("profile: %s does not start the clock by itself" % path, file=sys.stderr)
                return 2
            states["first boot"] = profile_presses(chip, board, presses, start)
            bench.Bench(chip, board).restart()  # a reset; the saved game dropped
            states["in service"] = profile_presses(chip, board, presses, start)
        report(board, states, presses)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Hung as error:
        print("profile: %s" % error, file=sys.stderr)
        sys.exit(1)
