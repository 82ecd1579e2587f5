# SPDX-License-Identifier: MIT
# `make bench-chip`'s battery figures: residency per state on the emulated chip -> power -> the pack.
#
# On battery (VBUS, GP24, low) the board plays through its states: ready, running above 20 s,
# ten presses, paused, tenths shown, switched off. Over each stretch the emulator (clocks.mjs)
# splits the time into executing, waiting in WFI with PLL_SYS running, light sleep, asleep on the
# 32.768 kHz reference and dormant, and meter.mjs averages what the display and the lights show.
#
# The honest model: every load is a current on the Pico's 3.3 V rail, which the RT6150B
# buck-boost makes from VSYS; the cells give the power that takes, at their own voltage. So the
# current from the pack is, for each state, (rail mA x 3.3 V) / (efficiency at that load) / VSYS,
# plus what VSYS feeds directly (the regulator's quiescent current and the Pico's ADC divider),
# and it grows as the cells run down: the hours are summed along the cells' discharge curve
# (hal/battery.py) at the current of each voltage. The figures and their sources:
#
#   PICO       the Raspberry Pi Pico board by what its core does, each measured where it was and
#              taken to the 3.3 V rail through the same regulator model (rail_ma below):
#              exec     25 mA at USB 5 V: MicroPython busy at 125 MHz (Core Electronics forum, "Pi
#                       Pico - Sleep & Dormant states", ~20 mA running MicroPython; 22-30 mA by
#                       other published bench readings: 25 taken)
#              wfi      18 mA at USB 5 V: waiting in WFE/WFI at 125 MHz, PLLs on (an estimate)
#              light    1.5 mA at USB 5 V: machine.lightsleep(ms), MicroPython commit b004e7e39
#                       (Damien George, "rp2/modmachine: Implement lightsleep()..."), measured at
#                       the Pico's USB port
#              dormant  0.75 mA at 3V3: a Pico dormant, pico-sdk's pico_low_power
#                       (src/rp2_common/pico_low_power/include/pico/low_power.h, pull request
#                       3031: "Pico (3V3) 0.75mA", "Pico (VSYS) 0.76mA" at 5.2 V)
#              ref      asleep on the reference (cmod/refsleep): clk_sys and clk_ref at 32.768 kHz,
#                       XOSC, ROSC and PLLs stopped: the dormant figure plus the busy figure's
#                       rail current scaled by 32.768 kHz / 125 MHz (an upper bound for a core
#                       waiting: 8 uA), less what the firmware switched off while it slept, as
#                       arduino-pico pull request 2620 measured each on a dormant Pico (with 3.3 V
#                       on VBUS, about 3.0 V at VSYS): the SWD pads' pulls 0.07 mA, the brown-out
#                       detector 0.03 mA, the core at 0.80 V instead of 1.10 V 0.13 mA, taken to
#                       the rail (x 3.0 V x 0.70 / 3.3 V); each only for the share of the time the
#                       emulator saw it set (clocks.mjs `tuned`)
#              The core executing on the reference counts as `ref` with the busy figure scaled
#              the same way; executing at 12 MHz counts as busy (high).
#   REGULATOR  the RT6150B: 60 uA quiescent in power save mode (its datasheet, Electrical
#              Characteristics: IOUT = 0, PS = 0 V) from VSYS; efficiency 0.70 at a light load,
#              from the pico_low_power pair above: 0.76 mA at 5.2 V is 3.95 mW in, less 0.31 mW
#              quiescent and 0.09 mW in the VSYS divider (200 k + 100 k), gives 0.75 mA x 3.3 V
#              = 2.475 mW out of 3.55 mW; 0.85 at 10 mA and above (this bench's figure before,
#              under the datasheet's "up to 90 %"); between them, linear in the load's logarithm.
#              The datasheet's curves were not read off here: the light-load figure is the one
#              measured on a Pico, at 5.2 V; at 2.2-4.5 V it is taken the same.
#   VSYS       the pack less 0.2 V for the Schottky diode (hal/battery.py DIODE_MV); packs:
#              2 x AA 3.0 V fresh, 2.2 V tired; 3 x AA 4.5 V fresh, 3.3 V tired
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
#   REFERENCE  the 32.768 kHz reference where a board has one: a SiTime SiT1552 TCXO, under 1 uA
#              (its datasheet: core supply current 0.99 uA max) plus driving its pin, 10 pF x
#              3.3 V x 32768 Hz = 1.1 uA: 2 uA
# In play is the running stretch plus a press every PRESS_EVERY_S s. Hours are summed along the
# discharge curve of hal/battery.py (2,000 mAh to 1.0 V a cell); after the warning, from the
# board's threshold (its BATTERY_CELLS and PLAY_UW) to the end.
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
for _path in (ROOT, os.path.join(ROOT, "firmware"), os.path.join(ROOT, "sim", "shim")):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from hal import battery  # noqa: E402

RAIL_V = 3.3
USB_V = 5.0
USB_DIODE_V = 0.3  # the Pico's own Schottky from VBUS to VSYS, at a few mA
REG_UA = 60.0  # the RT6150B's quiescent current in power save mode
DIVIDER_OHM = 300e3  # the Pico's VSYS divider for ADC3 (200 k + 100 k)
EFFICIENCY = ((0.75, 0.70), (10.0, 0.85))  # (rail mA, efficiency): light load, 10 mA and above
# The Pico's figures: (mA, where measured: "usb" at 5 V, "3v3" on the rail)
PICO = {
    "exec": (25.0, "usb"),
    "wfi": (18.0, "usb"),
    "light": (1.5, "usb"),
    "dormant": (0.75, "3v3"),
}
REF_SYS_HZ = 32768
SYS_HZ = 125e6
# what the firmware switched off while asleep on the reference (arduino-pico #2620), mA at
# ~3.0 V VSYS, and the rail's share of it
SAVINGS = {"swd_off": 0.07, "bod_off": 0.03, "vreg_low": 0.13}
SAVINGS_TO_RAIL = 3.0 * 0.70 / RAIL_V
LED_MA = 4.2
REFERENCE_MA = {"pico_lcd_lp": 0.002}
USABLE_MAH = battery.USABLE_MAH
PRESS_EVERY_S = 30
PACKS = {"2aa": (2, 3.0, 2.2), "3aa": (3, 4.5, 3.3)}  # cells, fresh V, tired V
DIODE_V = battery.DIODE_MV / 1000
DISPLAYS = {  # board -> (kind, figures)
    "pico_oled": ("oled", {"dark_ma": 1.5, "ua_px": 3.4}),
    "pico_minimal": ("oled", {"dark_ma": 1.5, "ua_px": 3.4}),
    "pico_oled_spi": ("oled", {"dark_ma": 1.5, "ua_px": 3.4}),
    "pico_sh1106": ("oled", {"dark_ma": 1.5, "ua_px": 6.3}),
    "pico_ssd1309": ("oled", {"dark_ma": 3.0, "ua_px": 22.0}),
    "pico_ssd1309_spi": ("oled", {"dark_ma": 3.0, "ua_px": 22.0}),
    "pico_tm1637": ("tm1637", {"module_ma": 0.5, "ma_seg": 1.14}),
    "pico_lcd": ("ht1621", {"module_ma": 0.15, "ua_seg": 0.2}),
    "pico_lcd_lp": ("ht1621", {"module_ma": 0.15, "ua_seg": 0.2}),
}
VBUS = 24
GAME_SPEC = "chessclock:G/90/30"  # the game on battery: long enough for any plies asked
PLIES = 400  # its plies (bench-chip --battery-plies)
SETTLE_MS = 11000  # the app looks at the supply every 10 s: its battery face is on after this
LEFT, RIGHT, PLAY, SET = 14, 15, 16, 17
STATES = ("exec", "wfi", "light", "ref", "dormant")


def efficiency(rail_ma):
    """The regulator's efficiency at a rail load of `rail_ma` (EFFICIENCY, log-linear)."""
    (low_ma, low), (high_ma, high) = EFFICIENCY
    if rail_ma <= low_ma:
        return low
    if rail_ma >= high_ma:
        return high
    share = math.log(rail_ma / low_ma) / math.log(high_ma / low_ma)
    return low + share * (high - low)


def vsys_constant_ma(vsys):
    """What VSYS feeds besides the converter: its quiescent current and the ADC divider."""
    return REG_UA / 1000 + vsys / DIVIDER_OHM * 1000


def rail_ma(ma, where):
    """A Pico figure measured at `where` as a current on the 3.3 V rail: one measured at the
    USB port came in at 5 V through the Pico's own diode, and left the regulator's losses."""
    if where == "3v3":
        return ma
    vsys = USB_V - USB_DIODE_V
    power_in = (ma - vsys_constant_ma(vsys)) * vsys  # mW into the converter
    rail = power_in * 0.8 / RAIL_V
    for _ in range(20):  # the efficiency depends on the load it makes
        rail = power_in * efficiency(rail) / RAIL_V
    return rail


PICO_RAIL = {state: rail_ma(*figure) for state, figure in PICO.items()}


def pack_ma(rail, vsys):
    """The current from a pack at `vsys` for a rail load of `rail` mA."""
    return rail * RAIL_V / efficiency(rail) / vsys


class Stretch:
    """Two emulator readings: the share of time in each state of the core (executing at 125 or
    12 MHz, executing on the reference, WFI, light, ref, dormant), the loop's wakes,
    the savings set while on the reference, and the average of each of meter.mjs's levels."""

    def __init__(self, first, last):
        self.ms = last["t"] - first["t"]

        def share(key):
            return (last.get(key, 0) - first.get(key, 0)) / self.ms

        exec_ref = share("exec_ref_ms")
        self.share = {
            "exec": share("exec_ms") - exec_ref,
            "exec_ref": exec_ref,
            "wfi": share("wfi_ms"),
            "light": share("light_ms"),
            "ref": share("ref_ms"),
            "dormant": share("dormant_ms") + share("stopped_ms"),
        }
        tuned_first = first.get("tuned_ms", {})
        self.tuned = {}
        for key, value in last.get("tuned_ms", {}).items():
            self.tuned[key] = (value - tuned_first.get(key, 0)) / self.ms
        self.wakes = last.get("wake_n", 0) - first.get("wake_n", 0)  # PLL_SYS up: loop passes
        self.lit = {}
        for key, value in last.get("lit", {}).items():
            self.lit[key] = (value - first.get("lit", {}).get(key, 0)) / self.ms

    def figures(self):
        return {
            "ms": round(self.ms, 1),
            "busy_pct": round(100 * (self.share["exec"] + self.share["exec_ref"]), 3),
            "busy_ref_pct": round(100 * self.share["exec_ref"], 3),
            "wfi_pct": round(100 * self.share["wfi"], 3),
            "light_pct": round(100 * self.share["light"], 3),
            "ref_pct": round(100 * self.share["ref"], 3),
            "dormant_pct": round(100 * self.share["dormant"], 3),
            "wakes_per_s": round(1000 * self.wakes / self.ms, 3),
            "lit": {key: round(value, 2) for key, value in self.lit.items()},
        }


def measured(chip, ms):
    """Run the chip `ms` and return the stretch."""
    first = chip.run(0)
    return Stretch(first, chip.run(ms))


def ref_rail_ma():
    """The Pico asleep on the reference, before any saving."""
    return PICO_RAIL["dormant"] + PICO_RAIL["exec"] * REF_SYS_HZ / SYS_HZ


def pico_states(stretch):
    """[(share of time, the Pico's rail mA)] over the stretch."""
    ref = ref_rail_ma()
    saved = sum(SAVINGS[key] * stretch.tuned.get(key, 0) for key in SAVINGS) * SAVINGS_TO_RAIL
    share = stretch.share
    ref_time = share["ref"] + share["exec_ref"]
    states = [(share[state], PICO_RAIL[state]) for state in ("exec", "wfi", "light", "dormant")]
    if ref_time > 0:
        # the savings were in force for their share of the whole stretch, all of it on the ref
        states.append((ref_time, ref - saved / ref_time))
    return states


def pico_rail_ma(stretch):
    """The Pico's average rail current over the stretch."""
    return sum(share * ma for share, ma in pico_states(stretch))


def display_ma(stretch, board):
    """The display's current at 3.3 V for what it showed over the stretch."""
    kind, f = DISPLAYS[board]
    lit = stretch.lit
    if kind == "oled":
        return f["dark_ma"] * lit.get("oled_on", 0) + f["ua_px"] * lit.get("oled_pxc", 0) / 1000
    if kind == "tm1637":
        return f["module_ma"] * lit.get("tm1637_on", 0) + f["ma_seg"] * lit.get("tm1637_seg", 0)
    return f["module_ma"] * lit.get("ht1621_on", 0) + f["ua_seg"] * lit.get("ht1621_seg", 0) / 1e3


def loads_ma(stretch, board):
    """The rail's other loads, averaged: the display, the lights, the reference."""
    led = LED_MA * stretch.lit.get("led", 0)
    return display_ma(stretch, board) + led + REFERENCE_MA.get(board, 0)


def converter_mw(stretch, board):
    """The power the converter takes from VSYS over the stretch, in mW: each state's rail load
    (the Pico's, and the averaged others) at its own efficiency."""
    loads = loads_ma(stretch, board)
    return sum(
        share * (ma + loads) * RAIL_V / efficiency(ma + loads)
        for share, ma in pico_states(stretch)
    )


def current(stretch, board, vsys):
    """mA from the pack at `vsys` over the stretch: (total, the Pico's share, the others')."""
    power = converter_mw(stretch, board)
    total = power / vsys + vsys_constant_ma(vsys)
    loads = loads_ma(stretch, board)
    others = sum(
        share * loads * RAIL_V / efficiency(ma + loads) for share, ma in pico_states(stretch)
    )
    return total, total - others / vsys, others / vsys


PARTS = ("pico_asleep", "pico_awake", "display", "lights", "reference", "presses", "vsys")


def parts_mw(stretch, board, press_mj, vsys):
    """What the power in play is made of, in mW from the pack at `vsys`: the Pico board asleep
    (light, on the reference, dormant) and awake (executing at 125 or 12 MHz, WFI), the display,
    the lights, the reference, the presses (`press_mj` each), and what VSYS feeds directly (the
    regulator's quiescent current, the ADC divider). Each state's converter losses are shared
    among its loads by their currents."""
    kind_ma = {
        "display": display_ma(stretch, board),
        "lights": LED_MA * stretch.lit.get("led", 0),
        "reference": REFERENCE_MA.get(board, 0),
    }
    loads = sum(kind_ma.values())
    out = dict.fromkeys(PARTS, 0.0)
    names = ("exec", "wfi", "light", "dormant", "ref")
    for name, (share, ma) in zip(names, pico_states(stretch)):
        mw_per_ma = share * RAIL_V / efficiency(ma + loads)
        out["pico_awake" if name in ("exec", "wfi") else "pico_asleep"] += mw_per_ma * ma
        for kind, kma in kind_ma.items():
            out[kind] += mw_per_ma * kma
    out["presses"] = press_mj / PRESS_EVERY_S
    out["vsys"] = vsys_constant_ma(vsys) * vsys
    return out


def hours(power_mw, cells, start_used=0):
    """Hours of play at a converter power of `power_mw` from `start_used` per mille of the
    capacity to the end of the curve (1.0 V a cell), at the current of each voltage."""
    total = 0.0
    step = 5
    used = start_used
    while used < 1000:
        vsys = battery.vsys_at(cells, used + step / 2) / 1000
        ma = power_mw / vsys + vsys_constant_ma(vsys)
        total += step * USABLE_MAH / 1000 / ma
        used += step
    return total


# A board of the clock's own instead of a Pico (an estimate, from the same residency): the
# RP2040 alone asleep on the reference at its datasheet's DORMANT typical, 0.18 mA, with the
# same 8 uA for a core clocked at 32.768 kHz; its flash in deep power-down (W25Q16JV: 1 uA);
# busy as the Pico's; a nanoamp buck-boost such as TI's TPS63901 (75 nA quiescent into VIN and
# as much into VOUT, its datasheet and TI's support forum) taken at 90 % (its curves were not
# read here); no VSYS divider drawing (switched). `lean` also runs the HT1621s from a 32.768 kHz
# clock (60 uA a module by their datasheet, against 150 on their RC oscillator) and drops the
# running light (the lever's position shows the running side, as on a mechanical clock).
CUSTOM_REF_MA = 0.18 + 0.001 + 0.008
CUSTOM_EFFICIENCY = 0.90
CUSTOM_CONSTANT_MA = 0.00015


def custom_hours(stretch, board, cells, press_mj=0.0, lean=False):
    """Hours of play of a board of the clock's own (above) from the running `stretch`."""
    share = stretch.share
    loads = loads_ma(stretch, board)
    if lean:
        loads -= LED_MA * stretch.lit.get("led", 0)
        loads -= (0.15 - 0.06) * stretch.lit.get("ht1621_on", 0)
    rail = (share["exec"]) * PICO_RAIL["exec"] + share["wfi"] * PICO_RAIL["wfi"]
    rail += (share["ref"] + share["exec_ref"] + share["light"] + share["dormant"]) * CUSTOM_REF_MA
    power = (rail + loads) * RAIL_V / CUSTOM_EFFICIENCY + press_mj / PRESS_EVERY_S
    total = 0.0
    used = 0
    while used < 1000:
        vsys = battery.vsys_at(cells, used + 2.5) / 1000 + DIODE_V  # no diode needed: the pack
        total += 5 * USABLE_MAH / 1000 / (power / vsys + CUSTOM_CONSTANT_MA)
        used += 5
    return total


def battery_figures(board, states, press_stretch, presses, board_module):
    """The JSON's battery entry for `board` from its stretches."""
    cells = getattr(board_module, "BATTERY_CELLS", 3)
    own = "%daa" % cells
    running = states["running"]
    out = {"states": {}, "pack": own}
    for name, stretch in states.items():
        entry = stretch.figures()
        entry["converter_mw"] = round(converter_mw(stretch, board), 4)
        for pack, (count, fresh, tired) in PACKS.items():
            entry["ma_" + pack] = round(current(stretch, board, fresh - DIODE_V)[0], 4)
            entry["ma_" + pack + "_tired"] = round(current(stretch, board, tired - DIODE_V)[0], 4)
        out["states"][name] = entry
    play_mw = converter_mw(running, board)
    if press_stretch is not None and presses:
        # What the presses add is the core's work: what the display showed meanwhile (other
        # digits lit) is the running stretch's business, and could make a press look free.
        loads = loads_ma(running, board)

        def pico_mw(stretch):
            return sum(
                share * (ma + loads) * RAIL_V / efficiency(ma + loads)
                for share, ma in pico_states(stretch)
            )

        spent = (pico_mw(press_stretch) - pico_mw(running)) * press_stretch.ms / 1000  # mJ
        press = press_stretch.figures()
        press["presses"] = presses
        press["mj"] = round(spent / presses, 4)
        out["states"]["press"] = press
        play_mw += spent / presses / PRESS_EVERY_S
    out["play_mw"] = round(play_mw, 4)
    out["play_uw_measured"] = int(round(play_mw * 1000))
    out["play_uw_board"] = getattr(board_module, "PLAY_UW", 0)
    for pack, (count, fresh, tired) in PACKS.items():
        out["ma_in_play_" + pack] = round(
            play_mw / (fresh - DIODE_V) + vsys_constant_ma(fresh - DIODE_V), 4
        )
        out["ma_in_play_" + pack + "_tired"] = round(
            play_mw / (tired - DIODE_V) + vsys_constant_ma(tired - DIODE_V), 4
        )
        out["hours_" + pack] = round(hours(play_mw, count), 1)
    if running.share["ref"] > 0.5:  # a board that sleeps on the reference
        mj = out["states"].get("press", {}).get("mj", 0.0)
        for pack, (count, fresh, tired) in PACKS.items():
            out["custom_hours_" + pack] = round(custom_hours(running, board, count, mj), 1)
            lean = custom_hours(running, board, count, mj, True)
            out["custom_lean_hours_" + pack] = round(lean, 1)
    mj = out["states"].get("press", {}).get("mj", 0.0)
    parts = parts_mw(running, board, mj, PACKS[own][1] - DIODE_V)
    out["parts_mw"] = {key: round(value, 3) for key, value in parts.items()}
    # the most a Pico board can give: asleep all the time at the share it slept here, the rest
    # (awake, display, lights, presses) gone
    out["hours_pico_asleep_alone"] = round(hours(parts["pico_asleep"], cells), 1)
    out["ma_in_play"] = out["ma_in_play_" + own]
    out["ma_in_play_tired"] = out["ma_in_play_" + own + "_tired"]
    pico = current(running, board, PACKS[own][1] - DIODE_V)
    out["pico_ma"] = round(pico[1], 4)
    out["loads_ma"] = round(pico[2], 4)
    gauge = battery.for_board(board_module)
    count = cells if gauge.cells else 3
    out["warning_mv"] = gauge.low_mv
    out["hours_after_warning"] = round(
        hours(play_mw, count, battery.used_per_mille(count, gauge.low_mv)), 1
    )
    return out


def board_module(board):
    import importlib

    return importlib.import_module("boards." + board)


def battery_game(bench, chip, board, plies, say):
    """A game of `plies` on battery, each reply 300 to 1,999 ms after the last edge (so the
    edges fall at every point of the chip's sleeps and wakes), its record checked against the
    emulated milliseconds of the edges; the worst error and the plies checked. The game is
    left running (bench.new_game ends it for whatever plays next)."""
    chip.drive(VBUS, 1)
    bench.new_game(GAME_SPEC, "b-game")  # from whatever the states before left (a flag, off)
    chip.drive(VBUS, 0)
    chip.run(SETTLE_MS)
    say("  %s: on battery: a %d-ply game" % (board, plies))
    edges = [bench.press(RIGHT)]
    pin = LEFT
    for ply in range(1, plies + 1):
        chip.run(300 + (ply * 337) % 1700 - 240)
        edges.append(bench.press(pin))
        pin = RIGHT if pin == LEFT else LEFT
    chip.drive(VBUS, 1)
    charged = len(bench.charges)
    bench.charge_check(edges)
    errors = bench.charges[charged:]
    return max((abs(e) for e in errors), default=None), len(errors)


def measure(bench, chip, board, say, plies=None):
    """Play the board through its states on battery, then a game of `plies` (PLIES when
    None); its battery entry (see the top)."""
    module = board_module(board)
    plies = PLIES if plies is None else plies
    states = {}
    has_set = 3 in module.BUTTONS  # hal.buttons.SET
    chip.drive(VBUS, 1)  # USB power for the serial set-up
    number = int(bench.ok("PRESET REPLACE b-bat = chessclock:G/2").split()[1])
    bench.ok("PRESET USE %d" % number)
    chip.drive(VBUS, 0)
    chip.run(SETTLE_MS)
    say("  %s: on battery: ready" % board)
    states["ready"] = measured(chip, 10000)
    edges = [bench.press(RIGHT, "battery")]  # the left player's clock runs
    chip.run(SETTLE_MS)
    say("  %s: on battery: running, presses, paused" % board)
    states["running"] = measured(chip, 20000)
    first = chip.run(0)
    pin = LEFT
    presses = 10
    for n in range(presses):
        chip.run(37 * n % 23)  # the presses fall at other points of the second's sleep
        edges.append(bench.press(pin, "battery"))
        chip.run(2000 - 240 - 37 * n % 23)
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
    charged = len(bench.charges)
    bench.charge_check(edges)  # the plies played on battery, to their emulated ms
    battery_charges = bench.charges[charged:]
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
    # the game needs bench.new_game's SET and MINUS: pico_minimal's one button cannot end a game
    game = battery_game(bench, chip, board, plies, say) if plies and has_set else (None, 0)
    out = battery_figures(board, states, press_stretch, presses, module)
    out["game_worst_ms"], out["game_plies"] = game
    out["wake_to_display_ms"] = wake
    out["charges_on_battery"] = len(battery_charges)
    out["charge_worst_on_battery_ms"] = max((abs(c) for c in battery_charges), default=None)
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
        ("mA in play, fresh / tired pack (own)", _pair("ma_in_play", "ma_in_play_tired")),
        ("of which the Pico board (fresh)", lambda f: "%.2f" % f["pico_ma"]),
        ("hours of play on its own pack", lambda f: "%.0f" % f["hours_" + f["pack"]]),
        ("hours of play, 2 x AA", lambda f: "%.0f" % f["hours_2aa"]),
        ("hours of play, 3 x AA", lambda f: "%.0f" % f["hours_3aa"]),
        ("hours after the warning", lambda f: "%.0f" % f["hours_after_warning"]),
        ("power in play at the converter (PLAY_UW)", lambda f: "%.2f mW" % f["play_mw"]),
    ]
    for state in ("ready", "running", "paused", "tenths", "off"):
        rows.append(("%s: busy / WFI / light / ref / dormant %%" % state, _residency(state)))
        rows.append(("%s: mA, fresh pack (own)" % state, _state_ma(state)))
    rows.append(
        ("running: wakes a second", lambda f: "%.2f" % f["states"]["running"]["wakes_per_s"])
    )
    rows.append(("a press: mJ", lambda f: "%.3f" % f["states"]["press"]["mj"]))
    rows.append(("press to pixels after a sleep, median / worst", _after_sleep))
    rows.append(("charging error on battery, worst", _charged))
    rows.append(("a game on battery: charging error, worst", _game))
    rows.append(("a lever or PLAY to the display back on", _wake))
    rows.append(("a board of its own (no Pico), hours, 3 x AA / lean", _custom))
    rows.append(("in play, mW: " + " / ".join(_PART_NAMES), _parts))
    rows.append(("hours if the Pico asleep were all (own pack)", _asleep_alone))
    head = "| battery (emulated RP2040, honest model) | " + " | ".join(boards) + " |"
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


def _pair(fresh, tired):
    return lambda f: "%.2f / %.2f" % (f[fresh], f[tired])


def _residency(state):
    def cell(f):
        s = f["states"][state]
        parts = (s["busy_pct"], s["wfi_pct"], s["light_pct"], s["ref_pct"], s["dormant_pct"])
        return " / ".join("%.1f" % p for p in parts)

    return cell


def _state_ma(state):
    return lambda f: "%.2f" % f["states"][state]["ma_" + f["pack"]]


def _after_sleep(f):
    return "%.1f / %.1f ms" % (f["press_after_sleep_median_ms"], f["press_after_sleep_worst_ms"])


def _charged(f):
    return "%.2f ms of %d" % (f["charge_worst_on_battery_ms"], f["charges_on_battery"])


def _game(f):
    return "%.2f ms of %d plies" % (f["game_worst_ms"], f["game_plies"])


def _custom(f):
    return "%.0f / %.0f" % (f["custom_hours_3aa"], f["custom_lean_hours_3aa"])


_PART_NAMES = ("Pico asleep", "awake", "display", "lights", "reference", "presses", "VSYS")


def _parts(f):
    return " / ".join("%.2f" % f["parts_mw"][key] for key in PARTS)


def _asleep_alone(f):
    return "%.0f" % f["hours_pico_asleep_alone"]


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
