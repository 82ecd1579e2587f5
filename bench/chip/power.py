# SPDX-License-Identifier: MIT
# `make bench-chip`'s battery figures: residency per state on the emulated chip -> current -> hours.
#
# On battery (VBUS, GP24, low) the board plays through its states: ready, running above 20 s,
# ten presses, paused, tenths shown, switched off. Over each stretch the emulator (clocks.mjs)
# splits the time into executing, waiting in WFI with PLL_SYS running, light sleep and dormant,
# and meter.mjs averages what the display and the lights show. current() turns that into mA with
# the figures below, each with its source (docs/build.md, "Battery life" repeats them):
#
#   PICO_MA    the Raspberry Pi Pico board by what its core does, at its supply:
#              exec     25 mA   MicroPython busy at 125 MHz, 22-30 mA (Core Electronics forum,
#                               "Pi Pico - Sleep & Dormant states", ~20 mA running MicroPython
#                               from VSYS; 22-30 mA by other published bench readings)
#              wfi      18 mA   waiting in WFE/WFI at 125 MHz, PLLs on (time.sleep_ms, poll)
#              light    1.5 mA  machine.lightsleep(ms): MicroPython commit b004e7e39 (Damien
#                               George, "rp2/modmachine: Implement lightsleep()..."), measured
#                               at the Pico's USB port; the Pico datasheet gives 1.3 mA
#              dormant  0.9 mA  machine.lightsleep() (DORMANT), the same commit; datasheet 0.8 mA
#              These are taken as currents from the battery whatever its voltage (the simple
#              arithmetic; they were measured at 5 V). If the Pico's own draw scaled with power
#              instead, it would be up to 5 / 2.4 times more from 2 x AA: ma_if_power_scaled.
#   DISPLAYS   what a display draws for what it shows, at 3.3 V:
#              ssd1306  1.5 mA dark, + 3.4 uA a lit pixel at contrast 255 (linear in the
#                       contrast: 2.8 uA at the power-on 0xCF). Typical module figures,
#                       "about 1.5 mA all dark, 9-17 mA half lit" (4096 pixels at 0xCF)
#              sh1106   the same controller current, pixels 1.8 times larger (1.3" over 0.96",
#                       squared): 6.3 uA a pixel at 255
#              ssd1309  3 mA dark (its module's own boost converter), pixels 6.4 times the
#                       0.96" panel's area: 22 uA a pixel at 255. Estimates: measure one.
#              tm1637   0.5 mA a module on, + 1.14 mA a lit segment at full pulse width (1.0 mA at
#                       the 14/16 of brightness 7: the 20 mA a module showing a time that
#                       docs/build.md used to estimate); the pulse width by brightness from the
#                       TM1637 datasheet's display control command (1/16 .. 14/16)
#              ht1621   0.15 mA a module (HT1621 datasheet, operating current at 3 V with the
#                       on-chip RC oscillator and the LCD on), + 0.2 uA a lit segment (the
#                       glass is a capacitor: a few nF switched at the frame rate). The 0.4 mA
#                       a module sellers quote is for 5 V supplies.
#   LED_MA     a lit 5 mm red LED through 330 ohm from 3.3 V: (3.3 - 1.9) V / 330 ohm = 4.2 mA
#   3.3 V loads reach the battery through the Pico's buck-boost (RT6150B) at 85 % efficiency:
#   x 3.3 / (0.85 x the pack's voltage), 1.2 V an alkaline cell under load.
# In play is the running stretch plus a press every PRESS_EVERY_S s. Hours are USABLE_MAH over
# the current; after the warning, the capacity left at the board's threshold (hal/battery.py,
# from its BATTERY_CELLS and PLAY_UA) over the current in play.
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
for _path in (ROOT, os.path.join(ROOT, "firmware"), os.path.join(ROOT, "sim", "shim")):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from hal import battery  # noqa: E402

PICO_MA = {"exec": 25.0, "wfi": 18.0, "light": 1.5, "dormant": 0.9}
LED_MA = 4.2
EFFICIENCY = 0.85
RAIL_V = 3.3
CELL_V = 1.2
USABLE_MAH = battery.USABLE_MAH
PRESS_EVERY_S = 30
USB_V = 5.0
PACKS = {"2aa": 2, "3aa": 3}
DISPLAYS = {  # board -> (kind, figures)
    "pico_oled": ("oled", {"dark_ma": 1.5, "ua_px": 3.4}),
    "pico_minimal": ("oled", {"dark_ma": 1.5, "ua_px": 3.4}),
    "pico_oled_spi": ("oled", {"dark_ma": 1.5, "ua_px": 3.4}),
    "pico_sh1106": ("oled", {"dark_ma": 1.5, "ua_px": 6.3}),
    "pico_ssd1309": ("oled", {"dark_ma": 3.0, "ua_px": 22.0}),
    "pico_ssd1309_spi": ("oled", {"dark_ma": 3.0, "ua_px": 22.0}),
    "pico_tm1637": ("tm1637", {"module_ma": 0.5, "ma_seg": 1.14}),
    "pico_lcd": ("ht1621", {"module_ma": 0.15, "ua_seg": 0.2}),
}
VBUS = 24
SETTLE_MS = 11000  # the app looks at the supply every 10 s: its battery face is on after this
LEFT, RIGHT, PLAY, SET = 14, 15, 16, 17


class Stretch:
    """Two emulator readings: the share of time in each state of the core, and the average of
    each of meter.mjs's levels, between them."""

    def __init__(self, first, last):
        self.ms = last["t"] - first["t"]
        share = {}
        for state, key in (("exec", "exec_ms"), ("wfi", "wfi_ms")):
            share[state] = (last[key] - first[key]) / self.ms
        for state in ("light", "dormant"):
            share[state] = (last[state + "_ms"] - first[state + "_ms"]) / self.ms
        self.share = share
        self.lit = {}
        for key, value in last.get("lit", {}).items():
            self.lit[key] = (value - first.get("lit", {}).get(key, 0)) / self.ms

    def figures(self):
        return {
            "ms": round(self.ms, 1),
            "busy_pct": round(100 * self.share["exec"], 3),
            "wfi_pct": round(100 * self.share["wfi"], 3),
            "light_pct": round(100 * self.share["light"], 3),
            "dormant_pct": round(100 * self.share["dormant"], 3),
            "lit": {key: round(value, 2) for key, value in self.lit.items()},
        }


def measured(chip, ms):
    """Run the chip `ms` and return the stretch."""
    first = chip.run(0)
    return Stretch(first, chip.run(ms))


def pico_ma(stretch):
    return sum(PICO_MA[state] * stretch.share[state] for state in PICO_MA)


def display_ma(stretch, board):
    """The display's current at 3.3 V for what it showed over the stretch."""
    kind, f = DISPLAYS[board]
    lit = stretch.lit
    if kind == "oled":
        return f["dark_ma"] * lit.get("oled_on", 0) + f["ua_px"] * lit.get("oled_pxc", 0) / 1000
    if kind == "tm1637":
        return f["module_ma"] * lit.get("tm1637_on", 0) + f["ma_seg"] * lit.get("tm1637_seg", 0)
    return f["module_ma"] * lit.get("ht1621_on", 0) + f["ua_seg"] * lit.get("ht1621_seg", 0) / 1e3


def current(stretch, board, cells):
    """mA from `cells` AA cells over the stretch: (total, the Pico's, the 3.3 V loads' share)."""
    rail = display_ma(stretch, board) + LED_MA * stretch.lit.get("led", 0)
    loads = rail * RAIL_V / (EFFICIENCY * CELL_V * cells)
    pico = pico_ma(stretch)
    return pico + loads, pico, loads


def battery_figures(board, states, press_stretch, presses, board_module):
    """The JSON's battery entry for `board` from its stretches."""
    cells = getattr(board_module, "BATTERY_CELLS", 3)
    running = states["running"]
    out = {"states": {}}
    for name, stretch in states.items():
        entry = stretch.figures()
        for pack, count in PACKS.items():
            entry["ma_" + pack] = round(current(stretch, board, count)[0], 3)
        out["states"][name] = entry
    press = None
    if press_stretch is not None and presses:
        # What the presses add is the core's work: what the display showed meanwhile (other
        # digits lit) is the running stretch's business, and could make a press look free.
        extra = {}
        spent = (pico_ma(press_stretch) - pico_ma(running)) * press_stretch.ms
        for pack in PACKS:
            extra[pack] = spent / presses / 1000  # mA s a press
        press = press_stretch.figures()
        press["presses"] = presses
        press.update({"mas_" + pack: round(value, 4) for pack, value in extra.items()})
        out["states"]["press"] = press
    play = {}
    for pack, count in PACKS.items():
        ma = current(running, board, count)[0]
        if press is not None:
            ma += press["mas_" + pack] / PRESS_EVERY_S
        play[pack] = ma
    own = "%daa" % cells
    out["ma_in_play"] = round(play[own], 3)
    out["pack"] = own
    out["ma_in_play_2aa"] = round(play["2aa"], 3)
    out["ma_in_play_3aa"] = round(play["3aa"], 3)
    out["hours_2aa"] = round(USABLE_MAH / play["2aa"], 1)
    out["hours_3aa"] = round(USABLE_MAH / play["3aa"], 1)
    pico = pico_ma(running)
    scaled = play[own] + pico * (USB_V / (CELL_V * cells) - 1)
    out["ma_if_power_scaled"] = round(scaled, 3)
    play_ua = getattr(board_module, "PLAY_UA", 0)
    gauge = battery.for_board(board_module)
    if gauge.cells:
        left = (1000 - battery.used_per_mille(cells, gauge.low_mv)) * USABLE_MAH / 1000
        out["warning_mv"] = gauge.low_mv
        out["hours_after_warning"] = round(left / play[own], 1)
    else:  # the general rule: 3.5 V at VSYS is 3.7 V from 3 cells
        left = (1000 - battery.used_per_mille(3, gauge.low_mv)) * USABLE_MAH / 1000
        out["warning_mv"] = gauge.low_mv
        out["hours_after_warning"] = round(left / play["3aa"], 1)
    out["play_ua_measured"] = int(round(play[own] * 1000))
    out["play_ua_board"] = play_ua
    return out


def board_module(board):
    import importlib

    return importlib.import_module("boards." + board)


def measure(bench, chip, board, say):
    """Play the board through its states on battery; its battery entry (see the top)."""
    module = board_module(board)
    states = {}
    has_set = 3 in module.BUTTONS  # hal.buttons.SET
    chip.drive(VBUS, 1)  # USB power for the serial set-up
    number = int(bench.ok("PRESET REPLACE b-bat = chessclock:G/2").split()[1])
    bench.ok("PRESET USE %d" % number)
    chip.drive(VBUS, 0)
    chip.run(SETTLE_MS)
    say("  %s: on battery: ready" % board)
    states["ready"] = measured(chip, 10000)
    bench.press(RIGHT, "battery")  # the left player's clock runs
    chip.run(SETTLE_MS)
    say("  %s: on battery: running, presses, paused" % board)
    states["running"] = measured(chip, 20000)
    first = chip.run(0)
    pin = LEFT
    presses = 10
    for _ in range(presses):
        bench.press(pin, "battery")
        chip.run(2000 - 240)
        pin = RIGHT if pin == LEFT else LEFT
    press_stretch = Stretch(first, chip.run(0))
    bench.press(PLAY)
    chip.run(3000)
    states["paused"] = measured(chip, 10000)
    bench.press(PLAY)
    for _ in range(30):  # the running side flags within two minutes
        chip.run(5000)
        if bench.state() == "over":
            break
    say("  %s: on battery: tenths, off" % board)
    chip.drive(VBUS, 1)
    bench.ok("NEW")
    number = int(bench.ok("PRESET REPLACE b-bat = chessclock:G/25s").split()[1])
    bench.ok("PRESET USE %d" % number)
    chip.drive(VBUS, 0)
    chip.run(SETTLE_MS)
    bench.press(RIGHT, "battery")
    chip.run(4300)
    states["tenths"] = measured(chip, 20000)
    chip.run(3000)
    hold = SET if has_set else PLAY
    bench.press(hold, hold=5400, after=1000)
    off = measured(chip, 10000)
    wake = None
    if off.share["dormant"] > 0.9:
        states["off"] = off
        bench.press(PLAY, "wake", after=500)
        wake = bench.presses.pop()["ms"]  # the display back on: not a figure of play
    chip.drive(VBUS, 1)
    chip.run(3000)
    out = battery_figures(board, states, press_stretch, presses, module)
    out["wake_to_display_ms"] = wake
    timed = [p["ms"] for p in bench.presses if p["case"] == "battery" and p["ms"] is not None]
    if timed:
        timed.sort()
        out["press_after_sleep_median_ms"] = timed[len(timed) // 2]
        out["press_after_sleep_worst_ms"] = timed[-1]
    return out


def table(results):
    """The battery figures as a Markdown table (the boards that have them)."""
    boards = [b for b in results if results[b].get("battery")]
    if not boards:
        return ""
    rows = [
        ("pack", lambda f: f["pack"].replace("aa", " x AA")),
        ("mA in play (own pack)", lambda f: "%.2f" % f["ma_in_play"]),
        ("hours of play, 2 x AA", lambda f: "%.0f" % f["hours_2aa"]),
        ("hours of play, 3 x AA", lambda f: "%.0f" % f["hours_3aa"]),
        ("hours after the warning", lambda f: "%.0f" % f["hours_after_warning"]),
        ("mA if the Pico's draw scaled with power", lambda f: "%.2f" % f["ma_if_power_scaled"]),
    ]
    for state in ("ready", "running", "paused", "tenths", "off"):
        rows.append(("%s: busy / WFI / light / dormant %%" % state, _residency(state)))
        rows.append(("%s: mA (own pack)" % state, _state_ma(state)))
    rows.append(("a press: mA s (own pack)", _press))
    rows.append(("press to pixels after a sleep, median / worst", _after_sleep))
    rows.append(("a lever or PLAY to the display back on", _wake))
    head = "| battery (emulated RP2040 + datasheet currents) | " + " | ".join(boards) + " |"
    lines = [head, "|" + "---|" * (len(boards) + 1)]
    for label, cell in rows:
        cells = []
        for b in boards:
            try:
                cells.append(cell(results[b]["battery"]))
            except (KeyError, TypeError):
                cells.append("-")
        lines.append("| %s | %s |" % (label, " | ".join(cells)))
    return "\n".join(lines)


def _residency(state):
    def cell(f):
        s = f["states"][state]
        parts = (s["busy_pct"], s["wfi_pct"], s["light_pct"], s["dormant_pct"])
        return " / ".join("%.1f" % p for p in parts)

    return cell


def _state_ma(state):
    return lambda f: "%.2f" % f["states"][state]["ma_" + f["pack"]]


def _press(f):
    return "%.3f" % f["states"]["press"]["mas_" + f["pack"]]


def _after_sleep(f):
    return "%.1f / %.1f ms" % (f["press_after_sleep_median_ms"], f["press_after_sleep_worst_ms"])


def _wake(f):
    return "%.1f ms" % f["wake_to_display_ms"]


def frozen(path):
    """Whether the image at `path` has the clock frozen in (make firmware's own UF2): its
    main.py's refusal line is in the image's bytes."""
    with open(path, "rb") as image:
        data = image.read()
    if data[:4] == b"UF2\n":
        data = b"".join(data[at + 32 : at + 32 + 256] for at in range(0, len(data), 512))
    return b"board.py refused" in data


REFUSAL = (
    "battery figures are measured on the clock's own image (make firmware: build/clock-NAME.uf2, "
    "the clock frozen in); %s is not one: with flash.sh on stock MicroPython the modules load "
    "into RAM and the REPL's USB host stays attached, so its current would not be the clock's"
)
