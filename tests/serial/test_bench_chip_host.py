# SPDX-License-Identifier: MIT
# bench/chip's pieces that run without node: the boot ROM's conversion and the inputs' checks.
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
