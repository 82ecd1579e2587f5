# SPDX-License-Identifier: MIT
# A broken board file hides no other: sim/boards.py lists every file of boards/ without importing
# it, loads a file that does not import or that the board would refuse with one line naming it
# and what is wrong, and every other board still lists and loads; the command line says the same.
import os
import subprocess
import sys

import boards as package
import pytest

from hal.board_check import BoardError
from sim import boards
from sim.__main__ import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHIPPED = ["pico_oled", "pico_lcd", "pico_lcd_lp", "pico_minimal", "pico_oled_spi", "pico_sh1106"]
SHIPPED += ["pico_ssd1309", "pico_ssd1309_spi", "pico_tm1637", "picow_oled"]

with open(os.path.join(ROOT, "boards", "pico_oled.py"), encoding="utf-8") as _source:
    OLED = _source.read()


def oled_as(name, without=(), **changes):
    """boards/pico_oled.py as the file `name`, with options dropped or set."""
    text = OLED.replace('NAME = "pico_oled"', "NAME = %r" % name)
    lines = [line for line in text.split("\n") if line.split(" = ")[0] not in without]
    return "\n".join(lines) + "".join("%s = %s\n" % item for item in changes.items())


BROKEN = {
    "pico_syntax": 'NAME = "pico_syntax"\nDISPLAY = "oled"\nBUTTONS = {0: 14,\n',
    "pico_raises": 'NAME = "pico_raises"\nraise RuntimeError("no such\\npart")\n',
    "pico_nobuttons": oled_as("pico_nobuttons", without=("BUTTONS",)),
    "pico_fast": oled_as("pico_fast", I2C_FREQ='"fast"'),
    "pico_noname": oled_as("pico_noname", without=("NAME",)),
    "pico_copy": OLED,  # a copy that still says NAME = "pico_oled"
}
SAID = {
    "pico_syntax": "board pico_syntax: boards/pico_syntax.py does not import: SyntaxError: ",
    "pico_raises": "board pico_raises: boards/pico_raises.py does not import: RuntimeError: "
    "no such part",
    "pico_nobuttons": "board pico_nobuttons: BUTTONS is missing",
    "pico_fast": "board pico_fast: I2C_FREQ is 'fast', not a frequency in Hz (10000..1000000)",
    "pico_noname": "board pico_noname: NAME is missing",
    "pico_copy": "board pico_copy: NAME is 'pico_oled', not the file's name 'pico_copy'",
}


@pytest.fixture
def broken(tmp_path, monkeypatch):
    for name, text in BROKEN.items():
        (tmp_path / (name + ".py")).write_text(text)
    monkeypatch.setattr(package, "__path__", list(package.__path__) + [str(tmp_path)])
    yield tmp_path
    for name in BROKEN:
        sys.modules.pop("boards." + name, None)


def test_every_board_file_is_listed_without_being_imported(broken):
    before = set(sys.modules)
    found = boards.names()
    assert found[0] == boards.DEFAULT
    assert sorted(found) == sorted(SHIPPED + list(BROKEN))
    assert not [name for name in set(sys.modules) - before if name.startswith("boards.")]


def test_a_broken_board_is_refused_in_one_line_naming_it_and_what_is_wrong(broken):
    for name, said in SAID.items():
        with pytest.raises(BoardError) as error:
            boards.load(name)
        text = str(error.value)
        assert text.startswith(said) and "\n" not in text, text
    assert str(raises_on("pico_raises")) == SAID["pico_raises"]  # the error's text on one line


def raises_on(name):
    with pytest.raises(BoardError) as error:
        boards.load(name)
    return error.value


def test_the_other_boards_still_load_after_a_broken_one(broken):
    for name in BROKEN:
        raises_on(name)
    for name in SHIPPED:
        assert boards.load(name).NAME == name
    with pytest.raises(ValueError, match="^unknown board 'pico_nope'; the boards are: pico_oled"):
        boards.load("pico_nope")


def test_the_board_listing_shows_the_broken_ones_refused_and_the_rest(broken, capsys):
    assert main(["--fresh", "--list-boards"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == boards.summary(boards.load("pico_oled"))
    for name in SHIPPED:
        assert boards.summary(boards.load(name)) in out
    for name, said in SAID.items():
        line = [line for line in out if line.startswith(name + " ")]
        assert len(line) == 1 and line[0].startswith("%-14s refused: %s" % (name, said)), line
    assert len(out) == len(SHIPPED) + len(BROKEN)


def test_the_command_line_says_a_broken_board_in_one_line(broken, capsys):
    for args in (
        ["--board", "pico_nobuttons", "--fresh", "--list-presets"],
        ["label", "--board", "pico_fast"],
        ["script", "-", "--board", "pico_syntax"],
    ):
        assert main(args) == 2
        captured = capsys.readouterr()
        name = args[args.index("--board") + 1]
        assert captured.out == "" and captured.err.startswith("error: " + SAID[name])
        assert captured.err.count("\n") == 1, captured.err
    assert main(["--board", "pico_oled", "--fresh", "--list-presets"]) == 0


RUN = """
import sys
import boards
boards.__path__.append(%r)
from sim.__main__ import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_process_started_with_a_broken_board_ends_with_one_line_not_a_traceback(broken):
    def run(*args):
        done = subprocess.run(
            [sys.executable, "-c", RUN % str(broken), *args],
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
        )
        return done.returncode, done.stdout, done.stderr.splitlines()

    status, out, err = run("--board", "pico_syntax", "--fresh")
    assert status == 2 and out == "" and len(err) == 1, err
    assert err[0].startswith("error: " + SAID["pico_syntax"])
    status, out, err = run("--help")
    assert status == 0 and "--list-boards" in out and err == []
    status, out, err = run("--list-boards")
    assert status == 0 and err == [] and "pico_fast      refused: " in out
