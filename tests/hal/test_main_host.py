# SPDX-License-Identifier: MIT
# firmware/main.py as the board runs it, under the MicroPython unix port with the fake machine:
# a board.py the clock cannot be built from is refused in one line at the REPL, whichever option
# is wrong, before its pins or its storage are touched; PLAY held at power-on leaves the board at
# the REPL; a Wi-Fi board starts its chip and joins at boot, and plays on without a chip or
# without MicroPython's network module.
import json
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")

BOOT = """
import sys
sys.path[:0] = [%r, %r, %r, %r]
from fakes import fake_machine
sys.modules["machine"] = fake_machine
fake_machine.bus(0).attach(0x3C, __import__("fakes.panels").panels.Ssd1306Panel())
if %r:
    fake_machine.Pin(16).drive(0)
import main
"""


def boot(tmp_path, board_text, play_held=False):
    # The board's storage in the test's folder (an absolute path, as board_check asks).
    board_text = board_text.replace('"/data"', repr(str(tmp_path)))
    (tmp_path / "board.py").write_text(board_text)
    folders = (str(tmp_path), ROOT + "/firmware", ROOT, ROOT + "/tests")
    code = BOOT % (folders + (play_held,))
    done = subprocess.run(
        [MICROPYTHON, "-c", code], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    return done.returncode, done.stdout.splitlines(), done.stderr


def board_text(without=(), **changes):
    with open(os.path.join(ROOT, "boards", "pico_oled.py")) as source:
        text = source.read()
    for name in without:
        text = "\n".join(line for line in text.split("\n") if not line.startswith(name + " = "))
    for name, value in changes.items():
        text += "%s = %s\n" % (name, value)
    return text


def test_a_board_with_a_pin_used_twice_is_refused_in_one_line(tmp_path):
    status, out, err = boot(tmp_path, board_text(LEDS="{LEFT: 20, RIGHT: 19}"))
    assert status == 0 and err == ""
    assert out == [
        "clock: board.py refused: board pico_oled: GP19 is used twice: BUTTONS[minus] and "
        "LEDS[right]"
    ]


def test_an_unknown_option_is_refused_in_one_line(tmp_path):
    status, out, err = boot(tmp_path, board_text(BUZZR=13))
    assert out == ["clock: board.py refused: board pico_oled: unknown option BUZZR"]


def test_play_held_at_power_on_leaves_the_board_at_the_repl(tmp_path):
    status, out, err = boot(tmp_path, board_text(), play_held=True)
    assert status == 0 and out == ["clock: app skipped (PLAY held or REPL asked): REPL"]


@pytest.mark.parametrize(
    "without, changes, said",
    [
        ((), {"I2C_FREQ": '"fast"'}, "I2C_FREQ is 'fast', not a frequency in Hz (10000..1000000)"),
        ((), {"STORAGE_ROOT": "5"}, "STORAGE_ROOT is 5, not an absolute folder path such as"),
        ((), {"STORAGE_ROOT": '"data"'}, "STORAGE_ROOT is 'data', not an absolute folder path"),
        ((), {"WATCHDOG_MS": "10000"}, "WATCHDOG_MS is 10000, not a watchdog timeout in ms"),
        ((), {"WATCHDOG_MS": "True"}, "WATCHDOG_MS is True, not a watchdog timeout in ms"),
        ((), {"I2C_ID": "2"}, "I2C_ID is 2, not an I2C block (0 or 1)"),
        ((), {"I2C_SDA": "5", "I2C_SCL": "4"}, "I2C_SDA is GP5, not an SDA pin of I2C0"),
        ((), {"OLED_ADDRESS": "0x78"}, "OLED_ADDRESS is 0x78, not a 7-bit I2C address"),
        ((), {"BUZZER": '"13"'}, "BUZZER is '13', not a GPIO number 0..29"),
        ((), {"BUTTONS": "{LEFT: 14, RIGHT: 15}"}, "BUTTONS has no play"),
        ((), {"BUTTONS": "[14, 15, 16]"}, "BUTTONS is a dict of button -> GPIO"),
        ((), {"DISPLAY": '"crt"'}, "DISPLAY is 'crt'; it is 'oled', 'tm1637' or 'lcd'"),
        (("DISPLAY",), {}, "DISPLAY is missing"),
        (("BUTTONS",), {}, "BUTTONS is missing"),
        (("STORAGE_ROOT",), {}, "STORAGE_ROOT is missing"),
    ],
)
def test_every_refusal_reaches_the_one_line_at_the_repl(tmp_path, without, changes, said):
    status, out, err = boot(tmp_path, board_text(without, **changes))
    assert status == 0 and err == "", err
    assert len(out) == 1 and out[0].startswith("clock: board.py refused: board pico_oled: " + said)
    assert os.listdir(tmp_path) == ["board.py"]  # nothing stored, not even the REPL marker read


def test_a_refused_board_is_refused_even_with_play_held(tmp_path):
    status, out, err = boot(tmp_path, board_text(I2C_FREQ='"fast"'), play_held=True)
    assert out == [
        "clock: board.py refused: board pico_oled: I2C_FREQ is 'fast', not a frequency in Hz "
        "(10000..1000000)"
    ]


WIFI_BOOT = """
import sys
sys.path[:0] = [%r, %r, %r, %r, %r]
from fakes import fake_machine
sys.modules["machine"] = fake_machine
fake_machine.bus(0).attach(0x3C, __import__("fakes.panels").panels.Ssd1306Panel())
import time
from fakes.fake_network import Air
air = Air(time.ticks_ms, chip=%r)
air.open("hall-net", "s3cret-key")
if %r:
    sys.modules["network"] = air
import main
print("calls", [name for _, name in air.calls])
"""


def wifi_boot(tmp_path, chip=True, network=True):
    """picow_oled's main.py with a Wi-Fi network and broker stored, asked HALL, then REPL."""
    import sys

    sys.path.insert(0, os.path.join(ROOT, "tests", "hall"))
    from broker_support import umqtt_path

    if umqtt_path() is None:
        pytest.skip("no umqtt.simple (tests/hall/setup.sh fetches it)")
    with open(os.path.join(ROOT, "boards", "picow_oled.py")) as source:
        (tmp_path / "board.py").write_text(source.read().replace('"/data"', repr(str(tmp_path))))
    (tmp_path / "hall.txt").write_text(
        "hall = club\nboard = 12\nbroker = 192.168.4.1\nssid = hall-net\nwifi = s3cret-key\n"
    )
    folders = (str(tmp_path), ROOT + "/firmware", ROOT, ROOT + "/tests", umqtt_path())
    done = subprocess.run(
        [MICROPYTHON, "-c", WIFI_BOOT % (folders + (chip, network))],
        input="HALL\nREPL\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    hall, left, calls = done.stdout.splitlines()
    assert hall.startswith("OK ") and left == "OK leaving for the REPL", done.stdout
    return json.loads(hall[3:]), calls


def test_a_wifi_board_starts_its_chip_and_joins_at_boot(tmp_path):
    hall, calls = wifi_boot(tmp_path)
    assert calls.startswith("calls ['active', 'connect'"), calls  # at boot, then watched
    assert hall["net"] == {"state": "joining", "joins": 1} and hall["wifi"] == "hall-net"
    assert hall["link"]["online"] is False and hall["notes"] == []


def test_a_wifi_board_without_its_chip_plays_and_says_why(tmp_path):
    hall, calls = wifi_boot(tmp_path, chip=False)
    assert calls == "calls ['active', 'connect']"  # and never again
    assert hall["net"] == {"state": "no chip", "joins": 1}
    assert hall["notes"] == [
        "Wi-Fi: the wireless chip did not start ([Errno 1] EPERM); the clock plays on"
    ]


def test_a_wifi_board_on_a_firmware_without_network_is_a_clock_in_no_hall(tmp_path):
    hall, calls = wifi_boot(tmp_path, network=False)
    assert calls == "calls []" and hall["net"] is None and hall["link"] is None
    assert hall["notes"] == ["no Wi-Fi: no module named 'network'"]


MEMORY_BOOT = """
import sys
sys.path[:0] = [%r, %r, %r, %r]
from fakes import fake_machine
sys.modules["machine"] = fake_machine
fake_machine.bus(0).attach(0x3C, __import__("fakes.panels").panels.Ssd1306Panel())
from app import clock_app, saved


def full(*args):
    raise MemoryError("memory allocation failed, allocating 1280 bytes")


if %r == "load":
    saved.load = full  # the saved game never fits
else:
    clock_app.ClockApp.__init__ = full  # not even a new game fits
booted = fake_machine.state  # the REPL command resets the fake machine: its state as booted
try:
    import main
except MemoryError as error:
    print("raised:", error)
print("watchdogs:", len(booted.watchdogs))
"""


def memory_boot(tmp_path, where):
    """main.py on a flash with a saved game, the heap running out at `where`; STATE, REPL."""
    (tmp_path / "board.py").write_text(board_text().replace('"/data"', repr(str(tmp_path))))
    (tmp_path / "game.txt").write_bytes(b"the saved game\n")
    folders = (str(tmp_path), ROOT + "/firmware", ROOT, ROOT + "/tests")
    done = subprocess.run(
        [MICROPYTHON, "-c", MEMORY_BOOT % (folders + (where,))],
        input="STATE\nREPL\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert (tmp_path / "game.txt").read_bytes() == b"the saved game\n"
    return done.stdout.splitlines()


def test_a_saved_game_that_does_not_fit_is_kept_and_the_clock_comes_up(tmp_path):
    out = memory_boot(tmp_path, "load")
    assert out[:2] == [
        "clock: out of memory reading the saved game: trying again",
        "clock: out of memory reading the saved game: kept on flash, a new game",
    ]
    state = json.loads(out[2][3:])
    assert state["state"] == "ready"
    assert (
        state["store"]
        == "the saved game did not fit in memory: kept on flash, this clock's games not saved"
    )
    assert out[3:] == ["OK leaving for the REPL", "watchdogs: 1"]


def test_a_boot_out_of_memory_falls_to_the_repl_with_no_watchdog_running(tmp_path):
    out = memory_boot(tmp_path, "app")
    assert out == [
        "clock: out of memory reading the saved game: trying again",
        "clock: out of memory reading the saved game: kept on flash, a new game",
        "raised: memory allocation failed, allocating 1280 bytes",
        "watchdogs: 0",
    ]
