# SPDX-License-Identifier: MIT
# bench/chip's pieces: the boot ROM's conversion and the inputs' checks (no node needed), and
# emu.mjs on a few words of code (node, with rp2040js installed in bench/chip).
import os
import struct
import sys

import pytest
from test_serial_cli_host import ROOT

sys.path.insert(0, os.path.join(ROOT, "bench", "chip"))
import bootrom  # noqa: E402
import run as bench_chip  # noqa: E402


def test_a_rom_in_typescript_becomes_its_little_endian_bytes():
    words = [(i * 2654435761) & 0xFFFFFFFF for i in range(bootrom.WORDS)]
    text = "export const bootromB1 = new Uint32Array([\n  %s,\n]);\n" % ",\n  ".join(
        "0x%x" % w if i % 2 else str(w) for i, w in enumerate(words)
    )
    data = bootrom.convert(text)
    assert len(data) == 16384 and struct.unpack_from("<I", data, 4 * 17)[0] == words[17]


def test_a_file_that_is_not_the_rom_is_refused():
    with pytest.raises(ValueError, match="not rp2040js"):
        bootrom.convert("const x = 1;")
    with pytest.raises(ValueError, match="3 words"):
        bootrom.convert("new Uint32Array([1, 2, 3])")


def test_missing_or_wrong_inputs_get_one_line_saying_what_is_expected(tmp_path):
    rom = tmp_path / "rom.bin"
    rom.write_bytes(bytes(16384))
    uf2 = tmp_path / "fw.uf2"
    uf2.write_bytes(b"UF2\n" + bytes(1020))
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    boards = ["pico_oled"]
    said = bench_chip.check("", boards, str(rom))
    assert "RP2040_FIRMWARE must name" in said and said.endswith("it is not set")
    assert bench_chip.check(str(text), boards, str(rom)).endswith("is neither")
    said = bench_chip.check(str(tmp_path / "clock-NAME.uf2"), boards, str(rom))
    assert said.endswith("clock-pico_oled.uf2 is not a file")
    assert "RP2040_BOOTROM must name" in bench_chip.check(str(uf2), boards, "")
    assert bench_chip.check(str(uf2), boards, str(text)).endswith("is not that")
    for problem in (bench_chip.check("", boards, ""), bench_chip.check(str(text), boards, "")):
        assert "\n" not in problem


def _watchdog_image():
    """A flash image whose code starts the watchdog with 1 ms to run and then spins."""
    code = [0x4802, 0x4903, 0x6041, 0x4903, 0x6001, 0xE7FE]  # LOAD, CTRL = ENABLE; b .
    words = [0x40058000, 2000, 1 << 30]  # the watchdog, 2000 ticks (2 a microsecond), ENABLE
    return struct.pack("<6H3I", *code, *words).ljust(256, b"\0")


def _test_rom():
    """A boot ROM with the function table emu.mjs patches (flash_range_erase and _program)."""
    rom = bytearray(16384)
    struct.pack_into("<H", rom, 0x14, 0x100)
    struct.pack_into("<2sH2sH", rom, 0x100, b"RE", 0x201, b"RP", 0x211)
    return bytes(rom)


@pytest.mark.skipif(
    not os.path.isdir(os.path.join(ROOT, "bench", "chip", "node_modules", "rp2040js")),
    reason="rp2040js is not installed (npm ci in bench/chip)",
)
def test_a_watchdog_that_runs_out_resets_the_chip_and_the_emulator_answers(tmp_path):
    from chip import Chip

    image = tmp_path / "watchdog.bin"
    image.write_bytes(_watchdog_image())
    rom = tmp_path / "rom.bin"
    rom.write_bytes(_test_rom())
    with Chip(str(image), str(rom), oled="none", timeout=20) as chip:
        state = chip.run(10)
        resets = [e for e in chip.events() if e["ev"] == "reset"]
    assert state["resets"] >= 5 and len(resets) == state["resets"]
    assert {e["why"] for e in resets} == {"watchdog"}


class _ResettingChip:
    """A chip whose watchdog runs out while it answers the command written to it."""

    resets = 0

    def take_output(self):
        return b""

    def write(self, data):
        self.resets += 1

    def run(self, ms):
        return {"t": 0.0, "exec_ms": 0.0, "resets": self.resets}

    def events(self):
        return [{"ev": "reset", "why": "watchdog", "t": 0.0}]


def test_a_reset_while_the_bench_waits_for_an_answer_is_said_at_once():
    bench = bench_chip.Bench(_ResettingChip(), "pico_oled")
    with pytest.raises(bench_chip.Hung, match=r"reset \(watchdog\) before it answered GAME"):
        bench.ask("GAME")


def _bullet_game(late_ms=0):
    """Three presses 0.1 ms before a millisecond, a save's erase under the second, the chip's
    events as emu.mjs gives them; the record charges the third press `late_ms` late."""
    import bullet

    presses = [(15, 10_900, 100.9), (14, 110_900, 200.9), (15, 160_900, 250.9)]
    events = [
        {"ev": "led", "pin": 20, "on": 1, "t": 101.5},  # press 1: the left side's light
        {"ev": "i2c", "n": 20, "t": 104.0},
        {"ev": "flash", "op": "erase", "ms": 45.0, "t": 180.0},  # the save of press 1
        {"ev": "led", "pin": 21, "on": 1, "t": 226.0},  # press 2 came in the erase
        {"ev": "i2c", "n": 20, "t": 231.0},
        {"ev": "flash", "op": "program", "ms": 0.5, "t": 240.0},
        {"ev": "led", "pin": 20, "on": 1, "t": 252.0},
        {"ev": "i2c", "n": 20, "t": 257.4},
        {"ev": "slept", "from": 258.0, "t": 300.0},
        {"ev": "i2c", "n": 20, "t": 400.0},  # a tick, not press 3's
    ]
    record = {"plies": [{"elapsed_ms": 100}, {"elapsed_ms": 50 + late_ms}]}
    start = {"flash_erases": 3, "flash_programs": 10, "flash_busy_ms": 100.0}
    end = {"flash_erases": 4, "flash_programs": 11, "flash_busy_ms": 145.5}

    class Bench:
        display = "oled"

        def display_events(self, found):
            return [e for e in found if e["ev"] == "i2c"]

    return bullet.figures(Bench(), presses, events, record, {14: 20, 15: 21}, start, end)


def test_the_bullet_figures_of_an_exact_game():
    f = _bullet_game()
    assert f["plies"] == 2 and f["presses_lost"] == 0
    assert f["charge_worst_ms"] == 0 and f["charge_plies_off"] == 0 and f["sum_error_ms"] == 0
    assert (f["flash_erases"], f["flash_programs"], f["flash_busy_ms"]) == (1, 1, 45.5)
    assert f["presses_in_flash"] == 1
    assert f["light_worst_ms"] == f["light_worst_in_flash_ms"] == pytest.approx(25.1)
    assert f["pixels_worst_in_flash_ms"] == pytest.approx(30.1)  # to its own write, not after
    assert f["pixels_median_ms"] == pytest.approx(6.5)  # 3.1, 6.5 and 30.1 ms


def test_a_ply_charged_a_millisecond_late_shows_in_the_ply_and_the_sum():
    f = _bullet_game(late_ms=1)
    assert f["charge_worst_ms"] == 1 and f["charge_plies_off"] == 1 and f["sum_error_ms"] == 1
    import bullet

    assert bullet._align(1_000) == 1_900 and bullet._align(1_900) == 1_900
    assert bullet._align(1_901) == 2_900
