# SPDX-License-Identifier: MIT
# The running-side lights on the RP2040: two output pins from the board's LEDS, written on change.
import io

from fake_devices import Ssd1306Panel
from fakes import fake_machine as m
from fakes.fake_fs import FakeFs
from fakes.fake_select import FakeSelect
from hal import buttons as b
from hal.rp2040.hal import Rp2040Hal
from ui.kinds import driver_for
from hal.rp2040.leds import Leds, from_board
from support import raises


class Board:
    NAME = "test"
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
    WATCHDOG_MS = 0
    STORAGE_ROOT = "/"


def levels():
    return (m.line(20).level, m.line(21).level)


def test_the_board_s_pins_become_dark_outputs_and_follow_set():
    m.reset()
    leds = from_board(m, Board)
    assert (m.line(20).mode, m.line(21).mode) == (m.Pin.OUT, m.Pin.OUT)
    assert levels() == (0, 0)
    leds.set(True, False)
    assert levels() == (1, 0)
    leds.set(False, True)
    assert levels() == (0, 1)
    leds.set(True, True)
    assert levels() == (1, 1)


def test_only_a_level_that_changed_is_written():
    m.reset()
    leds = from_board(m, Board)
    before = (m.line(20).writes, m.line(21).writes)
    leds.set(False, False)  # as they are
    leds.set(True, False)
    leds.set(True, False)
    leds.set(True, True)
    assert (m.line(20).writes - before[0], m.line(21).writes - before[1]) == (1, 1)


def test_a_board_without_leds_or_with_one_side_gets_a_device_that_takes_set():
    m.reset()

    class Bare(Board):
        LEDS = None

    class OneSided(Board):
        LEDS = {b.RIGHT: 22}

    bare = from_board(m, Bare)
    bare.set(True, True)
    assert bare.left_on and bare.right_on and 20 not in m.state.lines
    one = from_board(m, OneSided)
    one.set(True, True)
    assert m.line(22).level == 1 and 20 not in m.state.lines


def test_an_led_on_a_pin_in_use_or_an_unknown_side_is_refused_naming_the_pin():
    from hal.board_check import BoardError, check

    class OnLever(Board):
        LEDS = {b.LEFT: 14, b.RIGHT: 21}

    class OnBuzzer(Board):
        LEDS = {b.LEFT: 20, b.RIGHT: 13}

    class Twice(Board):
        LEDS = {b.LEFT: 20, b.RIGHT: 20}

    class OnPlay(Board):
        LEDS = {b.PLAY: 22}

    assert "GP14" in str(raises(BoardError, check, OnLever))
    assert "GP13" in str(raises(BoardError, check, OnBuzzer))
    assert "GP20" in str(raises(BoardError, check, Twice))
    assert "LEDS" in str(raises(BoardError, check, OnPlay))


def test_the_hal_has_the_lights_and_deinit_puts_them_out():
    m.reset()
    clock = m.Clock(500)
    m.bus(0).attach(0x3C, Ssd1306Panel())
    fs = FakeFs()
    hal = Rp2040Hal(
        m,
        Board,
        clock.ticks_ms,
        clock.sleep_us,
        False,
        fs,
        fs.open,
        select=FakeSelect(clock),
        io=io,
        display=driver_for,
    )
    hal.leds.set(False, True)
    assert levels() == (0, 1)
    hal.deinit()
    assert levels() == (0, 0)


def test_leds_on_no_pins_keep_the_levels_set():
    leds = Leds(None, None)
    leds.set(True, False)
    assert (leds.left_on, leds.right_on) == (True, False)
