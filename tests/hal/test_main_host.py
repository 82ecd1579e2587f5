# SPDX-License-Identifier: MIT
# firmware/main.py as the board runs it, under the MicroPython unix port with the fake machine:
# a board.py the clock cannot be built from is refused in one line at the REPL; PLAY held at
# power-on leaves the board at the REPL.
import os
import subprocess

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
