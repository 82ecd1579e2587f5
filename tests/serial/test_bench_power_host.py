# SPDX-License-Identifier: MIT
# bench/chip/power.py without node: residency and what was shown -> rail mA -> the regulator ->
# the pack's current at its voltage -> hours along the discharge curve, worked by hand; and the
# bench refusing battery figures for an image without the clock frozen in.
import math
import os
import sys

import pytest
from test_serial_cli_host import ROOT

sys.path.insert(0, os.path.join(ROOT, "bench", "chip"))
import power  # noqa: E402
import run as bench_chip  # noqa: E402


def stretch(ms, exec_ms=0.0, wfi_ms=0.0, light_ms=0.0, dormant_ms=0.0, ref_ms=0.0, **levels):
    tuned = levels.pop("tuned", {})
    exec_ref = levels.pop("exec_ref_ms", 0.0)
    zero = {"t": 1000, "exec_ms": 0, "exec_ref_ms": 0, "wfi_ms": 0, "light_ms": 0}
    zero.update({"ref_ms": 0, "dormant_ms": 0, "stopped_ms": 0, "lit": {}, "tuned_ms": {}})
    last = {
        "t": 1000 + ms,
        "exec_ms": exec_ms,
        "exec_ref_ms": exec_ref,
        "wfi_ms": wfi_ms,
        "light_ms": light_ms,
        "ref_ms": ref_ms,
        "dormant_ms": dormant_ms,
        "stopped_ms": 0,
        "tuned_ms": {key: share * ms for key, share in tuned.items()},
        "lit": {key: value * ms for key, value in levels.items()},
    }
    return power.Stretch(zero, last)


def test_a_stretch_splits_time_and_averages_what_was_shown():
    s = stretch(10000, 100, 0, 9900, led=0.06, ht1621_on=2, ht1621_seg=30)
    assert s.share == pytest.approx(
        {"exec": 0.01, "exec_ref": 0, "wfi": 0, "light": 0.99, "ref": 0, "dormant": 0}
    )
    assert s.lit == pytest.approx({"led": 0.06, "ht1621_on": 2, "ht1621_seg": 30})


def test_the_regulators_efficiency_runs_from_its_light_load_to_its_heavy_one():
    assert power.efficiency(0.1) == 0.70 and power.efficiency(0.75) == 0.70
    assert power.efficiency(10) == 0.85 and power.efficiency(40) == 0.85
    middle = math.sqrt(0.75 * 10)  # halfway in the logarithm
    assert power.efficiency(middle) == pytest.approx(0.775)


def test_a_figure_measured_at_the_usb_port_is_taken_to_the_rail_by_power():
    assert power.rail_ma(0.75, "3v3") == 0.75
    # 1.5 mA at 5 V through the Pico's diode: 4.7 V x (1.5 mA less 60 uA and 15.7 uA)
    rail = power.rail_ma(1.5, "usb")
    into = (1.5 - 0.060 - 4.7 / 300) * 4.7
    assert rail == pytest.approx(into * power.efficiency(rail) / 3.3)
    # and back: from 2 x AA at 2.8 V a light-sleeping Pico takes more current than at 5 V
    assert power.pack_ma(rail, 2.8) + power.vsys_constant_ma(2.8) > 1.5 * 1.6


def test_the_lcd_boards_current_worked_by_hand():
    s = stretch(10000, 100, 0, 9900, led=0.06, ht1621_on=2, ht1621_seg=30)
    # at 3.3 V: two modules 0.3 mA, 30 segments 6 uA, the LED 6 % of 4.2 mA = 0.252 mA
    loads = 0.3 + 0.006 + 0.252
    busy = power.PICO_RAIL["exec"] + loads
    light = power.PICO_RAIL["light"] + loads
    mw = 0.01 * busy * 3.3 / power.efficiency(busy) + 0.99 * light * 3.3 / power.efficiency(light)
    assert power.converter_mw(s, "pico_lcd") == pytest.approx(mw)
    total, pico, others = power.current(s, "pico_lcd", 2.8)
    assert total == pytest.approx(mw / 2.8 + 0.060 + 2.8 / 300)
    assert pico + others == pytest.approx(total)


def test_asleep_on_the_reference_the_savings_count_for_the_time_they_were_set():
    plain = stretch(10000, 0, 0, 0, ref_ms=10000)
    saved = stretch(
        10000, 0, 0, 0, ref_ms=10000, tuned={"bod_off": 1, "vreg_low": 1, "swd_off": 1}
    )
    half = stretch(10000, 0, 0, 0, ref_ms=10000, tuned={"vreg_low": 0.5})
    ref = power.PICO_RAIL["dormant"] + power.PICO_RAIL["exec"] * 32768 / 125e6
    assert power.pico_rail_ma(plain) == pytest.approx(ref)
    rail = (0.07 + 0.03 + 0.13) * 3.0 * 0.70 / 3.3
    assert power.pico_rail_ma(saved) == pytest.approx(ref - rail)
    assert power.pico_rail_ma(half) == pytest.approx(ref - 0.13 * 0.5 * 3.0 * 0.70 / 3.3)


def test_hours_lie_between_the_fresh_and_the_tired_packs_current():
    for cells, fresh, tired in ((2, 3.0, 2.2), (3, 4.5, 3.3)):
        for mw in (1.0, 5.0, 30.0):
            hours = power.hours(mw, cells)
            at_fresh = mw / (fresh - 0.2) + power.vsys_constant_ma(fresh - 0.2)
            at_tired = mw / (cells * 1.0 - 0.2) + power.vsys_constant_ma(cells * 1.0 - 0.2)
            assert 2000 / at_tired < hours < 2000 / at_fresh, (cells, mw)
    # the same power lasts half as long again from three cells as from two: their energy
    assert 1.45 < power.hours(3.0, 3) / power.hours(3.0, 2) < 1.55


def test_in_play_adds_a_press_every_thirty_seconds_and_hours_follow():
    import boards.pico_lcd as board

    running = stretch(20000, 200, 0, 19800, ht1621_on=2, ht1621_seg=30)
    presses = stretch(20000, 400, 0, 19600, ht1621_on=2, ht1621_seg=30)
    out = power.battery_figures("pico_lcd", {"running": running}, presses, 10, board)
    loads = 0.3 + 0.006
    busy = power.PICO_RAIL["exec"] + loads
    light = power.PICO_RAIL["light"] + loads
    # ten presses: 200 ms more busy and 200 ms less light sleep, in mJ each
    each = 0.2 * (busy * 3.3 / power.efficiency(busy) - light * 3.3 / power.efficiency(light)) / 10
    assert out["states"]["press"]["mj"] == pytest.approx(each, abs=1e-4)
    play = power.converter_mw(running, "pico_lcd") + each / 30
    assert out["play_mw"] == pytest.approx(play, abs=1e-4)
    assert out["hours_2aa"] == pytest.approx(power.hours(out["play_mw"], 2), abs=0.1)
    assert out["pack"] == "2aa" and out["hours_after_warning"] >= 10


def test_a_press_costs_the_cores_work_whatever_the_display_showed_meanwhile():
    import boards.pico_tm1637 as board

    running = stretch(20000, 200, 0, 19800, tm1637_on=2, tm1637_seg=30)
    presses = stretch(20000, 400, 0, 19600, tm1637_on=2, tm1637_seg=20)  # fewer segments lit
    fewer = stretch(20000, 400, 0, 19600, tm1637_on=2, tm1637_seg=30)
    out = power.battery_figures("pico_tm1637", {"running": running}, presses, 10, board)
    same = power.battery_figures("pico_tm1637", {"running": running}, fewer, 10, board)
    assert out["states"]["press"]["mj"] == same["states"]["press"]["mj"] > 0


def test_an_image_without_the_clock_frozen_in_gets_no_battery_figures(
    tmp_path, capsys, monkeypatch
):
    stock = tmp_path / "stock.uf2"
    stock.write_bytes(b"UF2\n" + bytes(508) + b"UF2\n" + bytes(508))
    own = tmp_path / "own.uf2"
    own.write_bytes(b"UF2\n" + bytes(28) + b"clock: board.py refused: %s".ljust(480, b"\0"))
    assert not power.frozen(str(stock)) and power.frozen(str(own))
    monkeypatch.setattr(bench_chip, "check", lambda *inputs: None)  # the inputs are fine
    monkeypatch.setenv("RP2040_FIRMWARE", str(stock))
    monkeypatch.setenv("RP2040_BOOTROM", str(tmp_path / "rom.bin"))
    assert bench_chip.main(["--battery", "--boards", "pico_lcd"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "battery figures are measured on the clock's own image" in err
    assert "stock.uf2 is not one" in err


def test_a_board_of_its_own_outlasts_the_pico_on_the_same_residency_and_lean_more_so():
    s = stretch(10000, 20, 0, 0, ref_ms=9980, led=0.02, ht1621_on=2, ht1621_seg=30)
    pico = power.hours(power.converter_mw(s, "pico_lcd_lp"), 3)
    own = power.custom_hours(s, "pico_lcd_lp", 3)
    lean = power.custom_hours(s, "pico_lcd_lp", 3, lean=True)
    assert pico < own < lean
    # the chip's 0.19 mA and the reference's 2 uA at 3.3 V through 90 %, no 60 uA regulator
    # nor divider
    bare = stretch(10000, 0, 0, 0, ref_ms=10000)
    mw = (power.CUSTOM_REF_MA + 0.002) * 3.3 / 0.90
    assert power.custom_hours(bare, "pico_lcd_lp", 3) == pytest.approx(
        sum(
            5
            * power.USABLE_MAH
            / 1000
            / (mw / (power.battery.vsys_at(3, u + 2.5) / 1000 + power.DIODE_V) + 0.00015)
            for u in range(0, 1000, 5)
        ),
        rel=1e-3,
    )


def test_what_the_power_in_play_is_made_of_adds_up_to_it():
    import boards.pico_lcd_lp as board

    running = stretch(
        20000, 0, 0, 0, ref_ms=19700, exec_ref_ms=100, led=0.02, ht1621_on=2, ht1621_seg=30
    )
    running.share["exec"] = 0.01  # 200 ms at 125 MHz, taken from the reference's share
    running.share["ref"] -= 0.01
    presses = stretch(20000, 0, 0, 0, ref_ms=19600, exec_ref_ms=100, ht1621_on=2)
    presses.share["exec"] = 0.015
    presses.share["ref"] -= 0.015
    out = power.battery_figures("pico_lcd_lp", {"running": running}, presses, 10, board)
    parts = out["parts_mw"]
    vsys = 4.5 - 0.2
    assert sum(parts.values()) == pytest.approx(
        out["play_mw"] + power.vsys_constant_ma(vsys) * vsys, abs=0.01
    )
    assert parts["vsys"] == pytest.approx((0.060 + vsys / 300) * vsys, abs=0.001)
    assert parts["presses"] == pytest.approx(out["states"]["press"]["mj"] / 30, abs=0.001)
    # the lights: 2 % of 4.2 mA through the regulator at the load of each state
    assert parts["lights"] == pytest.approx(0.02 * 4.2 * 3.3 / 0.70, rel=0.05)
    assert parts["reference"] == pytest.approx(0.002 * 3.3 / 0.70, rel=0.05)
    assert parts["pico_asleep"] > parts["display"] > parts["lights"] > parts["reference"] > 0
    assert out["hours_pico_asleep_alone"] == pytest.approx(
        power.hours(parts["pico_asleep"], 3), abs=0.1
    )
