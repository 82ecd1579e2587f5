# SPDX-License-Identifier: MIT
# A board file's power options and LCD pins checked at start (one line each), and the battery
# gauge a board's cells and measured current give: ten hours of play or more after the warning.
import os

import boards
from hal import battery
from hal import buttons as b
from hal.board_check import BoardError, check
from support import raises


class Lcd:
    NAME = "lcd"
    DISPLAY = "lcd"
    LCD_LEFT_CS = 8
    LCD_RIGHT_CS = 9
    LCD_WR = 10
    LCD_DATA = 11
    BUTTONS = {b.LEFT: 14, b.RIGHT: 15, b.PLAY: 16}
    LEDS = {b.LEFT: 20, b.RIGHT: 21}
    LED_FLASH_MS = 60
    BUZZER = 13
    BATTERY_ADC = 29
    VBUS_SENSE = 24
    BATTERY_CELLS = 2
    PLAY_UA = 2000
    WATCHDOG_MS = 5000
    STORAGE_ROOT = "/data"


def refused(**changes):
    class Board(Lcd):
        pass

    for name, value in changes.items():
        setattr(Board, name, value)
    error = raises(BoardError, check, Board)
    assert "\n" not in str(error)
    return str(error)


def without(option):
    options = {k: getattr(Lcd, k) for k in dir(Lcd) if not k.startswith("_") and k != option}
    error = raises(BoardError, check, type("Board", (), options))
    return str(error)


def test_a_good_lcd_board_passes():
    assert check(Lcd) is Lcd


def test_the_lcd_pins_are_checked_as_any_pin():
    assert without("LCD_WR") == "board lcd: LCD_WR is missing (DISPLAY lcd needs it)"
    assert refused(LCD_DATA=14) == "board lcd: GP14 is used twice: LCD_DATA and BUTTONS[left]"
    assert refused(LCD_WR=8) == "board lcd: GP8 is used twice: LCD_LEFT_CS and LCD_WR"
    assert refused(LCD_RIGHT_CS="9") == "board lcd: LCD_RIGHT_CS is '9', not a GPIO number 0..29"
    assert refused(LCD_LEFT_CS=31) == "board lcd: LCD_LEFT_CS is 31, not a GPIO number 0..29"


def test_the_sleep_options_are_checked():
    assert refused(VBUS_SENSE=16) == "board lcd: GP16 is used twice: VBUS_SENSE and BUTTONS[play]"
    assert refused(VBUS_SENSE=True) == "board lcd: VBUS_SENSE is True, not a GPIO number 0..29"
    assert check(type("NoSense", (Lcd,), {"VBUS_SENSE": None})).VBUS_SENSE is None
    assert refused(BATTERY_CELLS=4) == (
        "board lcd: BATTERY_CELLS is 4, not a number of AA cells in series (2 or 3)"
    )
    assert refused(PLAY_UA=0).startswith("board lcd: PLAY_UA is 0, not the current in play")
    assert refused(LED_FLASH_MS=600).startswith("board lcd: LED_FLASH_MS is 600, not a flash")


def test_the_cells_curve_both_ways():
    # 3 x AA at 1.25 V a cell, half used, behind the diode: 3750 - 200 mV at VSYS
    assert battery.vsys_at(3, 500) == 3550 and battery.used_per_mille(3, 3550) == 500
    assert battery.vsys_at(2, 0) == 2900 and battery.used_per_mille(2, 3000) == 0
    assert battery.vsys_at(2, 1000) == 1800 and battery.used_per_mille(2, 1700) == 1000
    for used in range(0, 1001, 50):
        assert abs(battery.used_per_mille(3, battery.vsys_at(3, used)) - used) <= 2


def test_the_warning_leaves_fifteen_hours_or_a_tenth_of_the_cells():
    # 2 mA: 15 h is 30 mAh, 15 per mille; a tenth is more: warn with 100 per mille left
    assert battery.warning_mv(2, 2000) == battery.vsys_at(2, 900)
    # 20 mA: 15 h is 300 mAh, 150 per mille left
    assert battery.warning_mv(3, 20000) == battery.vsys_at(3, 850)
    assert battery.hours_left(3, battery.vsys_at(3, 850), 20000) == 15


def test_a_board_that_draws_power_warns_by_the_current_of_its_tired_cells():
    # 3 mW from the converter: 1.1 mA at a fresh pack's 4.45 V, 1.6 mA at its last 2.8 V
    assert battery.current_ua(4450, 0, 3000) == 3000 * 1000 // 4450 + 72
    assert battery.current_ua(2800, 0, 3000) == 3000 * 1000 // 2800 + 72
    low = battery.warning_mv(3, 0, 60000)  # 60 mW: tens of mA, the 15 hours decide
    hours = battery.hours_left(3, low, 0, 60000)
    assert 15 <= hours < 17
    # the same hours at the current of a fresh pack would leave fewer: the warning comes sooner
    fresh = battery.current_ua(battery.vsys_at(3, 0), 0, 60000)
    assert low > battery.warning_mv(3, fresh)


def shipped():
    folder = boards.__file__.rsplit("/", 1)[0]
    for name in sorted(os.listdir(folder)):
        if name.endswith(".py") and name != "__init__.py":
            yield __import__("boards." + name[:-3], None, None, ["NAME"])


def test_every_shipped_board_warns_with_ten_hours_of_play_left_at_its_current():
    count = 0
    for board in shipped():
        gauge = battery.for_board(board)
        assert gauge.cells == board.BATTERY_CELLS, board.NAME
        play = getattr(board, "PLAY_UA", 0), getattr(board, "PLAY_UW", 0)
        hours = battery.hours_left(board.BATTERY_CELLS, gauge.low_mv, *play)
        assert hours >= 10, (board.NAME, hours)
        assert gauge.empty_mv < gauge.low_mv < gauge.full_mv
        assert not gauge.low(gauge.low_mv) and gauge.low(gauge.low_mv - 1)
        count += 1
    assert count >= 6


def test_a_board_gauge_reads_the_share_left_and_the_general_rule_stays():
    gauge = battery.for_board(Lcd)
    assert gauge.percent(3000) == 100 and gauge.percent(1700) == 0
    assert gauge.percent(battery.vsys_at(2, 500)) == 50 and gauge.percent(-1) == -1
    general = battery.for_board(type("Old", (), {}))
    assert (general.empty_mv, general.low_mv, general.cells) == (3300, 3500, 0)
