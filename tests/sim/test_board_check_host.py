# SPDX-License-Identifier: MIT
# The simulator loads a board file as the board boots it: hal/board_check refuses a bad one with
# one line naming the option or the pin, and the command line exits 2 with it.
import boards as package
import pytest

from sim import boards
from sim.__main__ import main

BAD = """\
from hal.buttons import LEFT, PLAY, RIGHT

NAME = "pico_clash"
DISPLAY = "oled"
I2C_ID = 0
I2C_SDA = 4
I2C_SCL = 5
I2C_FREQ = 400000
OLED_ADDRESS = 0x3C
BUTTONS = {LEFT: 14, RIGHT: 15, PLAY: 16}
LEDS = {LEFT: 20, RIGHT: 15}
BUZZER = None
BATTERY_ADC = 29
WATCHDOG_MS = 5000
STORAGE_ROOT = "/data"
"""


@pytest.fixture
def clash(tmp_path, monkeypatch):
    (tmp_path / "pico_clash.py").write_text(BAD)
    monkeypatch.setattr(package, "__path__", list(package.__path__) + [str(tmp_path)])
    yield "pico_clash"
    import sys

    sys.modules.pop("boards.pico_clash", None)


def test_a_board_file_with_a_pin_used_twice_is_refused_in_one_line(clash, capsys):
    with pytest.raises(ValueError, match="^board pico_clash: GP15 is used twice"):
        boards.load(clash)
    assert main(["--board", clash, "--fresh", "--list-boards"]) == 2
    err = capsys.readouterr().err
    assert err == "error: board pico_clash: GP15 is used twice: BUTTONS[right] and LEDS[right]\n"


def test_every_shipped_board_loads():
    for name in boards.names():
        assert boards.load(name).NAME == name
