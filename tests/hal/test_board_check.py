# SPDX-License-Identifier: MIT
# hal/board_check.py: a board file is refused before anything is built, with one line that
# names the option or the pin; every board in boards/ passes.
import os

import boards
from hal import buttons as b
from hal.board_check import BoardError, check
from support import raises


class Good:
    NAME = "good"
    DISPLAY = "oled"
    I2C_ID = 0
    I2C_SDA = 4
    I2C_SCL = 5
    I2C_FREQ = 400000
    OLED_ADDRESS = 0x3C
    BUTTONS = {b.LEFT: 14, b.RIGHT: 15, b.PLAY: 16}
    LEDS = {b.LEFT: 20, b.RIGHT: 21}
    BUZZER = 13
    BATTERY_ADC = 29
    WATCHDOG_MS = 5000
    STORAGE_ROOT = "/data"
    LEFT = b.LEFT  # the button names a board file imports are not options


def refused(board):
    error = raises(BoardError, check, board)
    assert isinstance(error, ValueError) and "\n" not in str(error)
    return str(error)


def variant(**changes):
    class Board(Good):
        pass

    for name, value in changes.items():
        setattr(Board, name, value)
    return Board


def test_a_good_board_passes_and_comes_back():
    assert check(Good) is Good


def test_every_board_file_passes():
    folder = boards.__file__.rsplit("/", 1)[0]
    names = [n[:-3] for n in os.listdir(folder) if n.endswith(".py") and n != "__init__.py"]
    for name in names:
        board = __import__("boards." + name, None, None, ["NAME"])
        assert check(board) is board and board.NAME == name
    assert len(names) >= 5


def test_an_unknown_option_is_named():
    assert refused(variant(BUZZR=13)) == "board good: unknown option BUZZR"
    assert refused(variant(TM1637_POINTS=True)) == "board good: unknown option TM1637_POINTS"


def test_a_missing_option_is_named():
    class NoBattery:
        NAME = "nobat"
        DISPLAY = "oled"
        BUTTONS = Good.BUTTONS
        BUZZER = None
        WATCHDOG_MS = 0
        STORAGE_ROOT = "/"

    assert refused(NoBattery) == "board nobat: BATTERY_ADC is missing"
    NoBattery.BATTERY_ADC = None
    assert refused(NoBattery) == "board nobat: I2C_ID is missing (DISPLAY oled needs it)"

    class Segments(NoBattery):
        DISPLAY = "tm1637"
        TM1637_LEFT_CLK = 2
        TM1637_LEFT_DIO = 3
        TM1637_RIGHT_CLK = 6

    assert refused(Segments) == (
        "board nobat: TM1637_RIGHT_DIO is missing (DISPLAY tm1637 needs it)"
    )
    Segments.TM1637_RIGHT_DIO = 7
    assert check(Segments) is Segments


def test_a_pin_used_twice_is_named_with_both_uses():
    assert refused(variant(BUZZER=4)) == "board good: GP4 is used twice: I2C_SDA and BUZZER"
    assert refused(variant(BUTTONS={b.LEFT: 14, b.RIGHT: 14, b.PLAY: 16})) == (
        "board good: GP14 is used twice: BUTTONS[left] and BUTTONS[right]"
    )
    assert refused(variant(LEDS={b.LEFT: 20, b.RIGHT: 16})) == (
        "board good: GP16 is used twice: BUTTONS[play] and LEDS[right]"
    )


def test_bad_pins_buttons_and_displays_are_named():
    assert refused(variant(BUZZER=30)) == "board good: BUZZER is 30, not a GPIO number 0..29"
    assert refused(variant(BATTERY_ADC=22)) == (
        "board good: BATTERY_ADC is GP22, not an ADC pin (GP26..GP29)"
    )
    assert refused(variant(BUTTONS={b.LEFT: 14, b.RIGHT: 15})) == "board good: BUTTONS has no play"
    assert refused(variant(BUTTONS={b.LEFT: 14, b.RIGHT: 15, b.PLAY: 16, 9: 17})) == (
        "board good: BUTTONS has an unknown key 9"
    )
    assert refused(variant(LEDS={b.PLAY: 20})) == "board good: LEDS has an unknown key 2"
    assert refused(variant(DISPLAY="lcd")) == (
        "board good: DISPLAY is 'lcd'; it is 'oled' or 'tm1637'"
    )
    assert refused(variant(make_display=7)) == "board good: make_display is not a function"
    assert check(variant(LEDS=None, BUZZER=None, BATTERY_ADC=None)).BUZZER is None
