# SPDX-License-Identifier: MIT
# board_files.txt and the tree agree: every .py of the board's trees goes on the board or is
# excluded by name, and nothing it lists is missing. Runs under CPython and MicroPython.
import os

import board_files
from support import raises

ROOT = __file__.rsplit("/", 1)[0] + "/../.."
TREES = ("firmware", "hal", "boards")


def exists(path):
    try:
        os.stat(ROOT + "/" + path)
        return True
    except OSError:
        return False


def under(path, folder):
    return path.startswith(folder.rstrip("/") + "/")


def test_every_python_file_of_the_board_trees_is_shipped_or_excluded():
    manifest = board_files.read(ROOT)
    shipped = manifest.every_source()
    for tree in TREES:
        for path in board_files.python_files(ROOT, tree):
            assert (path in shipped) != (path in manifest.excluded), path


def test_nothing_listed_is_missing():
    manifest = board_files.read(ROOT)
    folders = [folder for folder, _ in manifest.modules]
    folders += [pattern.rpartition("/")[0] for pattern, _ in manifest.boards]
    assert folders and manifest.sources and manifest.boards
    for folder in folders:
        assert os.stat(ROOT + "/" + folder)[0] & 0x4000, folder
    for source, _ in manifest.sources:
        assert exists(source) and source not in manifest.excluded, source
    for pattern, _ in manifest.boards:
        assert "NAME" in pattern, pattern
    # An excluded file gone from the tree (moved to sim/, say) is simply ignored.
    for path in manifest.excluded:
        if exists(path):
            assert [folder for folder in folders if under(path, folder)], path


def test_the_board_layout():
    manifest = board_files.read(ROOT)
    compiled = manifest.compiled()
    assert ("firmware/app/clock_app.py", "/app/clock_app.mpy") in compiled
    assert ("hal/storage.py", "/hal/storage.mpy") in compiled
    assert ("hal/rp2040/hal.py", "/hal/rp2040/hal.mpy") in compiled
    assert "firmware/notation/pcn_toml.py" in manifest.excluded
    assert [name for name, _ in manifest.board_files()] == [
        "pico_lcd",
        "pico_lcd_lp",
        "pico_minimal",
        "pico_oled",
        "pico_oled_spi",
        "pico_sh1106",
        "pico_ssd1309",
        "pico_ssd1309_spi",
        "pico_tm1637",
        "picow_oled",
    ]
    installed = manifest.installed("pico_oled")
    assert installed[-2:] == [
        ("boards/pico_oled.py", "/board.py"),
        ("firmware/main.py", "/main.py"),
    ]
    assert all(target.startswith("/") for _, target in installed)
    assert all(target.endswith(".mpy") for _, target in compiled)
    sources = [source for source, _ in installed]
    assert "firmware/main.py" not in [source for source, _ in compiled]
    assert "firmware/notation/pcn_toml.py" not in sources and "boards/__init__.py" not in sources


def test_a_line_that_is_not_an_entry_is_refused():
    for text, said in (
        ("modules firmware\n", "board_files.txt:1: not an entry: modules firmware"),
        ("# a comment\n\nexclude a b\n", "board_files.txt:3: not an entry: exclude a b"),
        ("copy a b\n", "board_files.txt:1: not an entry: copy a b"),
    ):
        error = raises(ValueError, board_files.Manifest, ROOT, text)
        assert str(error) == said, str(error)
    entries = board_files.Manifest(ROOT, "  # indented comment\nexclude hal/x.py\n")
    assert entries.excluded == ["hal/x.py"] and entries.modules == []
