# SPDX-License-Identifier: MIT
# bench-chip's bullet game with premoves: every reply 30-150 ms after the opponent's press, so
# replies come while the press before them is being drawn and saved (its flash erases and
# programs included), each put 0.1 ms before a millisecond of the chip's own timer.
#
# A stamp 0.1 ms late or more would then read the next millisecond and the ply would be
# charged a millisecond more: the record's elapsed_ms against the emulator's own instants shows
# any such stamp without asking the clock anything but its record. Figures, for one flash
# timing (emu.mjs --flash-timing):
#   lost     presses that made no ply (the record's plies against the presses)
#   charge   each ply's elapsed_ms minus the time between its two edges (whole ms apart):
#            the worst, and how many plies were off
#   sum      the record's plies summed against the last edge less the first
#   light    edge -> the light of the side now to move switching on (GP20/GP21)
#   pixels   edge -> the last display write of the pass that took the press: from its light
#            to its save's first flash write (or the core's next sleep of 2 ms or more)
# each as median and worst, and the worst of the presses whose edge came during a flash erase
# or program (the core stalled in the boot ROM, interrupts masked).
import json
import random
import statistics

SPEC = "chessclock:G/2/1"  # bullet, 2 minutes and 1 s a move: 400 plies of premoves fit
PLIES = 400
SEED = 37
REPLY_MS = (30, 150)
HOLD_US = 20_000  # a lever held 20 ms: released before the same player's next press
BEFORE_MS_US = 900  # each edge at this microsecond of a millisecond: 0.1 ms before the next
LEFT, RIGHT = 14, 15
END_MS = 1000  # after the last press: its pass and save


def _align(us):
    """The first instant at or after `us` that is BEFORE_MS_US into a millisecond."""
    at = us - us % 1000 + BEFORE_MS_US
    return at if at >= us else at + 1000


def _run_to(chip, us, resets):
    """Run the chip into microsecond `us` of its timer, 1 ns past its start (from the exact ns:
    the microsecond it answers is rounded down, and a float sum may fall short of the ns)."""
    state = chip.run(0)
    if state["resets"] != resets:
        raise RuntimeError("the chip reset in the bullet game")
    if us * 1000 + 1 > state["timer_ns"]:
        state = chip.run((us * 1000 + 1 - state["timer_ns"]) / 1e6)
    return state


def play(bench, chip, leds, plies=PLIES, seed=SEED, say=None):
    """Play the game on `bench`'s clock (chip.py's Chip, run.py's Bench); its figures."""
    bench.new_game(SPEC, "b-bullet")
    rng = random.Random(seed)
    start = chip.run(0)
    resets = start["resets"]
    chip.events()
    events = []
    presses = []  # (pin, timer_us, t)
    releases = []  # (timer_us, pin)
    pin = RIGHT  # the press that starts the game; then each side in turn
    at = _align(start["timer_us"] + 1000)
    for ply in range(plies + 1):
        if ply:
            at = _align(presses[-1][1] + 1000 * rng.randint(*REPLY_MS))
        for due, lever in sorted(r for r in releases if r[0] <= at):
            _run_to(chip, due, resets)
            chip.release(lever)
            releases.remove((due, lever))
        state = _run_to(chip, at, resets)
        if state["timer_us"] != at:
            raise RuntimeError("the edge at %d us came at %d" % (at, state["timer_us"]))
        pressed = chip.press(pin)
        presses.append((pin, at, pressed["t"]))
        releases.append((at + HOLD_US, pin))
        pin = LEFT if pin == RIGHT else RIGHT
        if ply % 50 == 0:
            events += chip.events()
            if say and ply:
                say("    bullet: ply %d" % ply)
    for due, lever in sorted(releases):
        _run_to(chip, due, resets)
        chip.release(lever)
    _run_to(chip, presses[-1][1] + END_MS * 1000, resets)
    events += chip.events()
    end = chip.run(0)
    record = json.loads(bench.ok("GAME", 60000))
    return figures(bench, presses, events, record, leds, start, end)


def figures(bench, presses, events, record, leds, start, end):
    out = {"plies": len(presses) - 1, "presses": len(presses)}
    charged = [entry["elapsed_ms"] for entry in record["plies"]]
    out["presses_lost"] = len(presses) - 1 - len(charged)
    errors = []
    for ply, elapsed in enumerate(charged[: len(presses) - 1], 1):
        errors.append(elapsed - (presses[ply][1] - presses[ply - 1][1]) / 1000.0)
    out["charge_worst_ms"] = max((abs(e) for e in errors), default=None)
    out["charge_plies_off"] = sum(1 for e in errors if e)
    # each ply off: (ply, its error in ms, its two edges' timer microseconds)
    out["charge_off"] = [
        (ply, e, presses[ply - 1][1], presses[ply][1]) for ply, e in enumerate(errors, 1) if e
    ]
    out["sum_error_ms"] = sum(charged) - (presses[-1][1] - presses[0][1]) / 1000.0
    flashes = [(e["t"], e["t"] + e.get("ms", 0)) for e in events if e["ev"] == "flash"]
    out["flash_erases"] = end["flash_erases"] - start["flash_erases"]
    out["flash_programs"] = end["flash_programs"] - start["flash_programs"]
    out["flash_busy_ms"] = round(end["flash_busy_ms"] - start["flash_busy_ms"], 3)
    writes = bench.display_events(events)
    lights = [e for e in events if e["ev"] == "led" and e["on"]]
    ends = sorted([e["t"] for e in events if e["ev"] == "flash"])
    slept = sorted([e["from"] for e in events if e["ev"] == "slept"])
    rows = []
    for pin, _us, edge in presses:
        wanted = leds[RIGHT if pin == LEFT else LEFT]  # the other side's light comes on
        light = next((e["t"] for e in lights if e["pin"] == wanted and e["t"] >= edge), None)
        row = {"edge": edge, "in_flash": any(a <= edge <= b for a, b in flashes)}
        row["light_ms"] = None if light is None else round(light - edge, 4)
        if light is not None:
            stop = min([t for t in ends if t > light] + [t for t in slept if t > light] + [1e12])
            shown = [w["t"] for w in writes if light <= w["t"] <= stop]
            row["pixels_ms"] = round(max(shown + [light]) - edge, 4)
        rows.append(row)
    for key in ("light_ms", "pixels_ms"):
        values = [r[key] for r in rows if r.get(key) is not None]
        during = [r[key] for r in rows if r.get(key) is not None and r["in_flash"]]
        name = key[:-3]
        out[name + "_median_ms"] = statistics.median(values) if values else None
        out[name + "_worst_ms"] = max(values) if values else None
        out[name + "_worst_in_flash_ms"] = max(during) if during else None
        out[name + "_missing"] = len(rows) - len(values)
    out["presses_in_flash"] = sum(1 for r in rows if r["in_flash"])
    return out


def table(results):
    """Markdown rows of the bullet figures: {board: {timing: figures}}."""
    boards = list(results)
    timings = sorted(
        {t for b in boards for t in results[b]}, key=lambda t: ("typ", "max").index(t)
    )
    columns = [(b, t) for b in boards for t in timings]
    head = "| bullet with premoves (emulated RP2040) | %s | goal |" % " | ".join(
        "%s, flash %s" % column for column in columns
    )
    lines = [head, "|" + "---|" * (len(columns) + 2)]

    def cell(figures, key, form):
        value = figures.get(key)
        return "-" if value is None else form % value

    rows = (
        ("plies (presses during a flash erase or program)", None, None, ""),
        ("presses lost", "presses_lost", "%d", "0"),
        ("charging error, worst ply (plies off)", "charge_worst_ms", "%.1f ms", "<= 0.1 ms"),
        ("the game's sum against the emulator's instants", "sum_error_ms", "%+.1f ms", "0"),
        ("press -> light, median / worst", "light", None, "<= 2 ms"),
        (
            "  worst of the presses during a flash operation",
            "light_worst_in_flash_ms",
            "%.2f ms",
            "",
        ),
        ("  presses whose light never came on", "light_missing", "%d", ""),
        ("press -> pixels, median / worst", "pixels", None, "<= 10 ms"),
        (
            "  worst of the presses during a flash operation",
            "pixels_worst_in_flash_ms",
            "%.1f ms",
            "",
        ),
        ("flash erases / page programs in the game (ms the core waited)", "flash", None, ""),
    )
    for label, key, form, goal in rows:
        cells = []
        for board, timing in columns:
            f = results[board][timing]
            if key is None:
                cells.append("%d (%d)" % (f["plies"], f["presses_in_flash"]))
            elif key in ("light", "pixels"):
                cells.append(
                    "%s / %s"
                    % (
                        cell(f, key + "_median_ms", "%.2f ms"),
                        cell(f, key + "_worst_ms", "%.2f ms"),
                    )
                )
            elif key == "flash":
                cells.append(
                    "%d / %d (%.0f ms)"
                    % (f["flash_erases"], f["flash_programs"], f["flash_busy_ms"])
                )
            elif key == "charge_worst_ms":
                cells.append("%s (%d)" % (cell(f, key, form), f["charge_plies_off"]))
            else:
                cells.append(cell(f, key, form))
        lines.append("| %s | %s | %s |" % (label, " | ".join(cells), goal))
    return "\n".join(lines)
