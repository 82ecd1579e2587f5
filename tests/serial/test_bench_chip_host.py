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
