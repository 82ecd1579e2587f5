# `make bench`: one table of the clock's speed, memory and accuracy, each figure with its method.
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for path in ("sim/shim", "firmware", "tests", "", "bench"):
    sys.path.insert(0, os.path.join(ROOT, path))

import trouble  # noqa: E402

BIN = os.path.join(ROOT, ".venv", "bin")
MPY = os.path.join(ROOT, "build", "bench-mpy")
# What flash.sh leaves out: desktop-only modules, and the simulator's virtual HAL.
NOT_ON_BOARD = ("notation/pcn_toml.py", "hal/virtual.py")
TEST_SUPPORT = (
    "tests/support.py",
    "tests/fakes/__init__.py",
    "tests/fakes/mini_fs.py",
    "tests/harness.py",
)


def compile_tree():
    """mpy-cross every file that goes on the board (and the test support for the heap runs)."""
    on_board = 0
    for folder in ("firmware", "hal", "boards"):
        for top, _, files in os.walk(os.path.join(ROOT, folder)):
            for name in files:
                source = os.path.relpath(os.path.join(top, name), ROOT)
                if not name.endswith(".py"):
                    continue
                target = _mpy(source)
                if not any(source.endswith(skip) for skip in NOT_ON_BOARD):
                    on_board += os.path.getsize(target)
    for source in TEST_SUPPORT:
        _mpy(source)
    return on_board


def _mpy(source):
    target = os.path.join(MPY, source[:-3] + ".mpy")
    os.makedirs(os.path.dirname(target), exist_ok=True)
    subprocess.run([os.path.join(BIN, "mpy-cross"), "-o", target, source], cwd=ROOT, check=True)
    return target


def timing(interpreter):
    done = subprocess.run(
        [interpreter, "bench/timing.py", ROOT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(line.split() for line in done.stdout.splitlines())


def game_200(heap_kb):
    return subprocess.run(
        [
            os.path.join(BIN, "micropython"),
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
    counted = subprocess.run(
        [os.path.join(BIN, "micropython"), "bench/modules.py", MPY] + modules,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return live, int(counted.stdout.split()[1])


def smallest_heap():
    low, high = 16, 512  # KB: fails at low (assumed), fits at high (checked)
    if not game_fits(high):
        return None
    while high - low > 4:
        middle = (low + high) // 2
        if game_fits(middle):
            high = middle
        else:
            low = middle
    return high


def main():
    rows = []
    on_board = compile_tree()
    micro, host = timing(os.path.join(BIN, "micropython")), timing(sys.executable)
    method = "bench/timing.py: %s, averaged over 2000 calls"
    rows.append(
        ("µs per lever press (core)", micro["press_us"], host["press_us"], method % "Game.press")
    )
    rows.append(
        (
            "µs per loop pass, game running",
            micro["tick_us"],
            host["tick_us"],
            method % "Runner.step",
        )
    )
    rows.append(
        (
            "heap bytes allocated, 500 loop passes",
            micro["tick_alloc_bytes"],
            "n/a",
            "gc.mem_alloc, GC off",
        )
    )
    rows.append(
        (
            "heap bytes allocated, 500 IRQ edges",
            micro["irq_alloc_bytes"],
            "n/a",
            "push+pop+debounce, GC off",
        )
    )
    heap = smallest_heap()
    rows.append(
        (
            "smallest heap, 200-move game",
            "%s KB" % heap if heap else "> 512 KB",
            "n/a",
            "bisect -X heapsize on tests/app/game_200.py from .mpy (64-bit unix port)",
        )
    )
    live, modules = in_play()
    rows.append(
        (
            "heap bytes live in play, at most",
            str(live),
            "n/a",
            "gc.mem_alloc after a collection at each ply of that game",
        )
    )
    rows.append(
        (
            "heap bytes of the board's modules in play",
            str(modules),
            "n/a",
            "bench/modules.py: their import alone, in a fresh interpreter",
        )
    )
    rows.append(
        (".mpy bytes on the board", str(on_board), "n/a", "mpy-cross of firmware/, hal/, boards/")
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
    for label, args in cases:
        ours, naive = trouble.run(args)
        rows.append(
            (
                "charged-time error, " + label,
                "%d ms (ours)" % ours,
                "%d ms (naive)" % naive,
                "bench/trouble.py: 80 plies of G/90, same schedule for both clocks",
            )
        )
    error, hours = trouble.drift()
    rows.append(
        ("drift over a %.1f h game" % hours, "%d ms" % error, "", "app vs exact arithmetic")
    )
    print("| measure | MicroPython unix | CPython | how |")
    print("|---|---|---|---|")
    for row in rows:
        print("| %s | %s | %s | %s |" % row)


if __name__ == "__main__":
    main()
