# SPDX-License-Identifier: MIT
# The one table of display kinds (ui/kinds.py): every board's DISPLAY is in it, its screen is
# made with the board's options, an unknown kind is refused, and the board can unload it.
import sys

from boards import pico_minimal, pico_oled, pico_oled_spi, pico_tm1637
from support import raises
from ui import kinds


class PointModules:
    DISPLAY = "tm1637"
    TM1637_POINTS = True


class OldSegmentBoard:  # no TM1637_POINTS: the colon module
    DISPLAY = "tm1637"


class Crt:
    DISPLAY = "crt"


def test_every_board_names_a_kind_in_the_table():
    for board in (pico_minimal, pico_oled, pico_oled_spi, pico_tm1637):
        assert board.DISPLAY in kinds.KINDS
        assert kinds.row(board) is kinds.KINDS[board.DISPLAY]


def test_each_kind_makes_its_screen_with_the_boards_options():
    from ui.oled import OledScreen
    from ui.seg7 import SegScreen

    assert isinstance(kinds.screen_for(pico_oled), OledScreen)
    seg = kinds.screen_for(pico_tm1637)
    assert isinstance(seg, SegScreen) and seg.points == pico_tm1637.TM1637_POINTS
    assert kinds.screen_for(PointModules).points is True
    assert kinds.screen_for(OldSegmentBoard).points is False
    assert kinds.options(pico_oled) == {"bus": "i2c"}  # OLED_BUS not given: I2C
    assert kinds.options(pico_oled_spi) == {"bus": "spi"}


def test_an_unknown_kind_is_refused():
    raises(ValueError, kinds.row, Crt)
    raises(ValueError, kinds.screen_for, Crt)


def test_forget_unloads_the_table_and_it_comes_back_on_import():
    import ui

    kinds.forget()
    assert "ui.kinds" not in sys.modules and not hasattr(ui, "kinds")
    from ui import kinds as again

    assert again.row(pico_oled)[again.SCREEN] == ("ui.oled", "OledScreen")
