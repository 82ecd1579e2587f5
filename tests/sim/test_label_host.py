# SPDX-License-Identifier: MIT
# python -m sim label: the printable SVG for the clock's back, read back with xml.etree: the
# manual for the board's buttons, the confirm step, the board, the firmware version and the
# batteries; an unknown board names the boards there are.
import re
import xml.etree.ElementTree as ET

import pytest

from app.version import VERSION
from sim import boards, label
from sim.__main__ import main

SVG = "{http://www.w3.org/2000/svg}"


def texts(svg_text):
    root = ET.fromstring(svg_text.encode("utf-8"))
    assert root.tag == SVG + "svg"
    assert root.get("width") == "100mm" and root.get("height").endswith("mm")
    return [node.text for node in root.iter(SVG + "text")]


def joined(lines):
    """The label's lines with wrapped ones joined again."""
    out = []
    for line in lines:
        if line.startswith("  ") and out:
            out[-1] += " " + line.strip()
        else:
            out.append(line)
    return out


@pytest.mark.parametrize("name", boards.names())
def test_every_board_has_a_label_with_its_name_version_batteries_and_confirm_step(name):
    lines = joined(texts(label.svg(boards.load(name))))
    assert lines[0] == "Tournament game clock"
    assert "Board: %s (%s display)" % (name, boards.load(name).DISPLAY) in lines
    assert "Firmware: " + VERSION in lines
    cells = getattr(boards.load(name), "BATTERY_CELLS", 3)
    assert "%d x AA alkaline cells (LR6, 1.5 V), or USB." % cells in lines
    assert "End/undo/new game: hold SET, then confirm." in lines
    assert [line for line in lines if line.startswith("Off: hold ")]
    assert all(len(line) <= label.WRAP for line in texts(label.svg(boards.load(name))))


def test_the_manual_follows_the_buttons_and_the_display():
    full = joined(texts(label.svg(boards.load("pico_tm1637"))))
    assert "PLAY: pause / resume. Levers do nothing in a pause." in full
    assert "SET while running: moves/periods left; again: battery %" in full
    assert "Low battery: an L before a time, or the last dot, lit." in full
    minimal = joined(texts(label.svg(boards.load("pico_minimal"))))
    assert "The button held 1 s: SET (menus, arbiter)." in minimal
    assert not [line for line in minimal if line.startswith("PLAY:")]
    assert "Low battery: the % at the bottom right is inverted." in minimal
    assert "Off: hold the button 5 s (not while a clock runs); on: a lever or PLAY." in minimal
    lcd = joined(texts(label.svg(boards.load("pico_lcd"))))
    assert "2 x AA alkaline cells (LR6, 1.5 V), or USB." in lcd
    assert "Low battery: the point after the last digit, lit." in lcd
    assert "On battery the running light flashes once a second." in lcd


def test_the_version_is_written_once_and_pyproject_agrees():
    with open(boards.__file__.rsplit("/", 2)[0] + "/pyproject.toml") as handle:
        found = re.search(r'^version = "([^"]+)"', handle.read(), re.M).group(1)
    assert found == VERSION and re.match(r"^\d+\.\d+\.\d+$", VERSION)


def test_the_command_writes_the_file_or_stdout(tmp_path, capsys):
    out = tmp_path / "back.svg"
    assert main(["label", "--board", "pico_oled", "--out", str(out)]) == 0
    assert "Board: pico_oled (oled display)" in texts(out.read_text())
    assert capsys.readouterr().err == "label for pico_oled written to %s\n" % out
    assert main(["label", "--board", "pico_minimal"]) == 0
    assert "Board: pico_minimal (oled display)" in texts(capsys.readouterr().out)


def test_an_unknown_board_says_which_boards_exist(capsys):
    assert main(["label", "--board", "pico_nope"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "error: unknown board 'pico_nope'; the boards are: %s\n" % ", ".join(
        boards.names()
    )
    assert main(["label", "--board", "pico_oled", "--out", "/nonexistent/dir/x.svg"]) == 2
    assert capsys.readouterr().err.startswith("error: cannot write /nonexistent/dir/x.svg: ")
