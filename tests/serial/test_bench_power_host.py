# SPDX-License-Identifier: MIT
# bench/chip/power.py without node: residency and what was shown -> mA -> hours, worked by hand;
# and the bench refusing battery figures for an image without the clock frozen in.
import os
import sys

import pytest
from test_serial_cli_host import ROOT

sys.path.insert(0, os.path.join(ROOT, "bench", "chip"))
import power  # noqa: E402
import run as bench_chip  # noqa: E402


def stretch(ms, exec_ms, wfi_ms, light_ms, dormant_ms=0.0, **levels):
    first = {"t": 1000, "exec_ms": 0, "wfi_ms": 0, "light_ms": 0, "dormant_ms": 0, "lit": {}}
    last = {
        "t": 1000 + ms,
        "exec_ms": exec_ms,
        "wfi_ms": wfi_ms,
        "light_ms": light_ms,
        "dormant_ms": dormant_ms,
        "lit": {key: value * ms for key, value in levels.items()},
    }
    return power.Stretch(first, last)


def test_a_stretch_splits_time_and_averages_what_was_shown():
    s = stretch(10000, 100, 0, 9900, led=0.06, ht1621_on=2, ht1621_seg=30)
    assert s.share == {"exec": 0.01, "wfi": 0.0, "light": 0.99, "dormant": 0.0}
    assert s.lit == {"led": 0.06, "ht1621_on": 2, "ht1621_seg": 30}
    # the Pico: 1 % at 25 mA and 99 % at 1.5 mA
    assert power.pico_ma(s) == pytest.approx(0.25 + 1.485)


def test_the_lcd_boards_current_worked_by_hand():
    s = stretch(10000, 100, 0, 9900, led=0.06, ht1621_on=2, ht1621_seg=30)
    # at 3.3 V: two modules 0.3 mA, 30 segments 6 uA, the LED 6 % of 4.2 mA = 0.252 mA
    rail = 0.3 + 0.006 + 0.252
    total, pico, loads = power.current(s, "pico_lcd", 2)
    assert loads == pytest.approx(rail * 3.3 / (0.85 * 2.4))
    assert total == pytest.approx(1.735 + loads)


def test_an_oled_draws_by_its_lit_pixels_and_contrast():
    # 1500 pixels lit at contrast 0x30 (48): 1500 * 48 / 255 = 282.4 pixel-at-full
    s = stretch(1000, 10, 0, 990, oled_on=1, oled_px=1500, oled_pxc=1500 * 48 / 255)
    assert power.display_ma(s, "pico_oled") == pytest.approx(1.5 + 3.4e-3 * 1500 * 48 / 255)
    t = stretch(1000, 10, 0, 990, tm1637_on=2, tm1637_seg=40 * 4 / 16)
    assert power.display_ma(t, "pico_tm1637") == pytest.approx(1.0 + 1.14 * 10)


def test_in_play_adds_a_press_every_thirty_seconds_and_hours_follow():
    import boards.pico_lcd as board

    running = stretch(20000, 200, 0, 19800, ht1621_on=2, ht1621_seg=30)
    presses = stretch(20000, 400, 0, 19600, ht1621_on=2, ht1621_seg=30)
    out = power.battery_figures("pico_lcd", {"running": running}, presses, 10, board)
    # ten presses cost 200 ms more at 25 mA, less 200 ms of light sleep: 4.7 mA s, 0.47 each
    assert out["states"]["press"]["mas_2aa"] == pytest.approx(0.47, abs=1e-4)
    running_ma = power.current(running, "pico_lcd", 2)[0]
    assert out["ma_in_play"] == pytest.approx(running_ma + 0.47 / 30, abs=1e-3)
    assert out["hours_2aa"] == pytest.approx(2000 / out["ma_in_play_2aa"], rel=1e-3)
    assert out["pack"] == "2aa" and out["hours_after_warning"] >= 10


def test_a_press_costs_the_cores_work_whatever_the_display_showed_meanwhile():
    import boards.pico_tm1637 as board

    running = stretch(20000, 200, 0, 19800, tm1637_on=2, tm1637_seg=30)
    presses = stretch(20000, 400, 0, 19600, tm1637_on=2, tm1637_seg=20)  # fewer segments lit
    out = power.battery_figures("pico_tm1637", {"running": running}, presses, 10, board)
    assert out["states"]["press"]["mas_3aa"] == pytest.approx(0.47, abs=1e-4)


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
