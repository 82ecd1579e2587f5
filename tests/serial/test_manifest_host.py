# SPDX-License-Identifier: MIT
# manifest.py (make firmware) freezes exactly what flash.sh installs for a board: every module
# board_files.txt compiles, the board file as board.py and main.py, each under the name it has on
# the board; nothing else of the project; for a Wi-Fi board, micropython-lib's umqtt.simple. Read
# without MicroPython's tools: the manifest is run with recording stand-ins for freeze(),
# module() and require().
import os

import board_files
import pytest
from test_serial_cli_host import ROOT


class Options:
    def __init__(self, **given):
        self.__dict__.update(given)

    def defaults(self, **values):
        for name, value in values.items():
            self.__dict__.setdefault(name, value)


def frozen(board, required=None):
    """(port folders frozen whole, {target on the board: the file frozen}); the packages
    required from micropython-lib go in `required`."""
    folders, files = [], {}
    required = [] if required is None else required

    def module(path, base_path="."):
        assert path not in files, "frozen twice: " + path
        files[path] = os.path.join(base_path, path)

    scope = {"options": Options(board=board, root=ROOT), "module": module}
    scope["freeze"] = lambda path, script=None, opt=None: folders.append(path)
    scope["require"] = lambda name, **options: required.append(name)
    with open(os.path.join(ROOT, "manifest.py")) as manifest:
        exec(manifest.read(), scope)
    return folders, files


@pytest.mark.parametrize("board", [name for name, _ in board_files.read(ROOT).board_files()])
def test_the_manifest_freezes_what_flash_installs_and_nothing_else(board):
    folders, files = frozen(board)
    assert folders == ["$(PORT_DIR)/modules"]  # the port's own: _boot.py mounts the filesystem
    installed = board_files.read(ROOT).installed(board)
    expected = {}
    for source, target in installed:
        if target.endswith(".mpy"):
            target = target[:-4] + ".py"
        expected[target.lstrip("/")] = source
    assert sorted(files) == sorted(expected)
    for target, path in files.items():
        with open(path, "rb") as copy, open(os.path.join(ROOT, expected[target]), "rb") as source:
            assert copy.read() == source.read(), target
    assert "board.py" in files and "main.py" in files and "app/clock_app.py" in files
    assert "notation/pcn_toml.py" not in files  # excluded: it stays on the desktop


def test_a_board_that_does_not_exist_is_named():
    with pytest.raises(ValueError, match="no board pico_nothing"):
        frozen("pico_nothing")
    with pytest.raises(ValueError, match="CLOCK_BOARD names the board"):
        frozen("")


def test_a_wifi_board_gets_umqtt_simple_and_no_other_board_does():
    import importlib
    import sys

    sys.path[:0] = [os.path.join(ROOT, "sim", "shim"), os.path.join(ROOT, "firmware")]
    try:
        for board in [name for name, _ in board_files.read(ROOT).board_files()]:
            required = []
            frozen(board, required)
            wifi = getattr(importlib.import_module("boards." + board), "WIFI", False)
            assert required == (["umqtt.simple"] if wifi else []), board
    finally:
        del sys.path[:2]
    required = []
    frozen("picow_oled", required)
    assert required == ["umqtt.simple"]
