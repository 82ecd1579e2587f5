# SPDX-License-Identifier: MIT
# Rp2040Hal from a board module on the fake machine: the hal/__init__.py contract, piece by piece.
import io
import os

import boards
from fake_devices import Sh1106Panel, Ssd1306Panel, Ssd1309Panel, Tm1637Chip
from fakes import fake_machine as m
from fakes.ht1621_chip import Ht1621Chip
from fakes.fake_fs import FakeFs
from fakes.fake_select import FakeSelect
from hal import buttons as b
from hal.rp2040.hal import Rp2040Hal
from ui.kinds import driver_for
from support import raises


class OledBoard:
    NAME = "oled_board"
    DISPLAY = "oled"
    I2C_ID = 0
    I2C_SDA = 4
    I2C_SCL = 5
    I2C_FREQ = 400000
    OLED_ADDRESS = 0x3C
    BUTTONS = {b.LEFT: 14, b.RIGHT: 15, b.PLAY: 16, b.SET: 17, b.PLUS: 18, b.MINUS: 19}
    BUZZER = 13
    BATTERY_ADC = 29
    WATCHDOG_MS = 5000
    STORAGE_ROOT = "/"


class SegmentBoard:
    NAME = "segment_board"
    DISPLAY = "tm1637"
    TM1637_LEFT_CLK = 2
    TM1637_LEFT_DIO = 3
    TM1637_RIGHT_CLK = 6
    TM1637_RIGHT_DIO = 7
    BUTTONS = {b.LEFT: 14, b.RIGHT: 15, b.PLAY: 16}
    BUZZER = None
    BATTERY_ADC = None
    WATCHDOG_MS = 0
    STORAGE_ROOT = "/data"


def oled_hal(watchdog=False, board=OledBoard, start=500, usb=None):
    """The HAL of `board` (an SSD1306 on I2C0) on the fake machine from stamp `start`; with
    `usb` True or False, USB power on VBUS_SENSE present or not from the start."""
    m.reset()
    clock = m.Clock(start)
    panel = m.bus(0).attach(0x3C, Ssd1306Panel())
    if usb is not None:
        m.set_vbus(usb)
    fs = FakeFs()
    select = FakeSelect(clock)
    hal = Rp2040Hal(
        m,
        board,
        clock.ticks_ms,
        clock.sleep_us,
        watchdog=watchdog,
        fs=fs,
        opener=fs.open,
        select=select,
        io=io,
        display=driver_for,
    )
    return hal, clock, panel, select


def test_the_oled_board_builds_every_piece_of_the_contract():
    hal, clock, panel, select = oled_hal()
    assert hal.ticks_ms() == 500
    m.Pin(16).drive(0)  # play pressed
    assert hal.edges.pop() and (hal.edges.button, hal.edges.pressed, hal.edges.stamp) == (
        b.PLAY,
        True,
        500,
    )
    frame = bytearray(1024)
    frame[0] = 0xFF
    hal.display.show(frame)
    assert panel.on and panel.ram == frame
    hal.buzzer.play(3000, 50, 500)
    assert m.state.pwms[13].freq() == 3000 and m.state.pwms[13].duty_u16() == 32768
    m.set_adc(3, 26000)
    assert hal.battery_mv() == 3927
    hal.storage.write("settings", b"x")
    assert hal.storage.read("settings") == b"x"
    assert m.state.timers == []  # no periodic timer wakes the CPU
    assert [m.line(gpio).hard for gpio in range(14, 20)] == [True] * 6


def test_wait_returns_on_an_edge_or_the_stamp():
    hal, clock, panel, select = oled_hal()
    hal.wait(520)
    assert clock.ticks_ms() == 520 and hal.waiter.wakes == 1
    select.at(530, lambda: m.Pin(15).drive(0))  # the right lever
    hal.wait(600)
    assert clock.ticks_ms() == 530 and hal.waiter.wakes == 2
    assert hal.edges.pop() and (hal.edges.button, hal.edges.stamp) == (b.RIGHT, 530)
    assert select.interrupts == 1


def test_no_watchdog_unless_asked_and_the_board_has_one():
    hal, clock, panel, select = oled_hal()
    hal.feed()
    assert m.state.watchdogs == []
    hal, clock, panel, select = oled_hal(watchdog=True)
    assert m.state.watchdogs[0].timeout == 5000
    hal.feed()
    hal.feed()
    assert m.state.watchdogs[0].feeds == 2


def test_with_a_watchdog_an_endless_wait_returns_in_time_to_feed_it():
    hal, clock, panel, select = oled_hal(watchdog=True)
    hal.wait(None)
    assert clock.ticks_ms() == 500 + 2500
    hal.wait(clock.ticks_ms() + 100)  # a nearer stamp is kept
    assert clock.ticks_ms() == 3100
    hal.wait(clock.ticks_ms() + 60000)  # a farther one is not
    assert clock.ticks_ms() == 5600
    assert select.polls[0].timeouts == [0, 2500, 100, 2500] and hal.waiter.wakes == 3


def test_without_a_watchdog_an_endless_wait_polls_with_no_timeout():
    hal, clock, panel, select = oled_hal()
    select.at(90000, lambda: m.Pin(16).drive(0))
    hal.wait(None)
    assert clock.ticks_ms() == 90000 and select.polls[0].timeouts == [0, -1]
    assert hal.waiter.wakes == 1


def test_the_tm1637_board_with_no_buzzer_no_battery_no_watchdog():
    m.reset()
    clock = m.Clock()
    left = Tm1637Chip(m.line(2), m.line(3))
    right = Tm1637Chip(m.line(6), m.line(7))
    fs = FakeFs()
    hal = Rp2040Hal(
        m,
        SegmentBoard,
        clock.ticks_ms,
        clock.sleep_us,
        True,
        fs,
        fs.open,
        select=FakeSelect(clock),
        io=io,
        display=driver_for,
    )
    hal.display.show(bytearray((0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F)))
    assert bytes(left.grids[:4]) == bytes((0x06, 0x5B, 0x4F, 0x66))
    assert bytes(right.grids[:4]) == bytes((0x6D, 0x7D, 0x07, 0x7F))
    assert hal.battery_mv() == -1
    hal.buzzer.play(1000, 10, 0)
    assert m.state.pwms == {} and m.state.watchdogs == []
    hal.feed()
    hal.storage.write("game", b"1")
    assert fs.files["/data/game"] == bytearray(b"1")


def test_deinit_turns_interrupts_and_tone_off():
    hal, clock, panel, select = oled_hal()
    hal.buzzer.play(1000, 100, 500)
    hal.deinit()
    assert not m.state.pwms[13].enabled
    m.Pin(14).drive(0)
    assert not hal.edges.pending()


class NoPlay(SegmentBoard):
    BUTTONS = {b.LEFT: 14, b.RIGHT: 15}


class Crt(OledBoard):
    DISPLAY = "crt"


class Clash(OledBoard):
    LEDS = {b.LEFT: 20, b.RIGHT: 13}  # the buzzer's pin


def test_boards_missing_a_required_button_or_with_an_unknown_display_are_refused():
    m.reset()
    clock = m.Clock()
    select = FakeSelect(clock)
    for board, message in (
        (NoPlay, "board segment_board: BUTTONS has no play"),
        (Crt, "board oled_board: DISPLAY is 'crt'; it is 'oled', 'tm1637' or 'lcd'"),
        (Clash, "board oled_board: GP13 is used twice: BUZZER and LEDS[right]"),
    ):
        error = raises(
            ValueError,
            Rp2040Hal,
            m,
            board,
            clock.ticks_ms,
            clock.sleep_us,
            select=select,
            io=io,
            display=driver_for,
        )
        assert str(error) == message
    assert m.state.lines == {} and m.state.buses == {}  # refused before a pin was touched


def board_modules():
    folder = boards.__file__.rsplit("/", 1)[0]
    for name in sorted(os.listdir(folder)):
        if name.endswith(".py") and name != "__init__.py":
            yield __import__("boards." + name[:-3], None, None, ["NAME"])


# The panel each board with a larger OLED has (its board file's make_display builds the driver).
PANELS = {"pico_sh1106": Sh1106Panel, "pico_ssd1309": Ssd1309Panel}
PANELS["pico_ssd1309_spi"] = Ssd1309Panel


def test_every_board_in_boards_builds_a_working_hal():
    count = 0
    for board in board_modules():
        m.reset()
        clock = m.Clock()
        panel = None
        if board.DISPLAY == "oled":
            model = PANELS.get(board.NAME, Ssd1306Panel)
            if getattr(board, "OLED_BUS", "i2c") == "spi":
                bus = m.spi_bus(board.SPI_ID)
                panel = bus.attach(model(), board.OLED_DC, board.OLED_CS)
            else:
                panel = m.bus(board.I2C_ID).attach(board.OLED_ADDRESS, model())
        elif board.DISPLAY == "lcd":
            wr, data = m.line(board.LCD_WR), m.line(board.LCD_DATA)
            chips = [Ht1621Chip(m.line(board.LCD_LEFT_CS), wr, data)]
            chips.append(Ht1621Chip(m.line(board.LCD_RIGHT_CS), wr, data))
        else:
            Tm1637Chip(m.line(board.TM1637_LEFT_CLK), m.line(board.TM1637_LEFT_DIO))
            Tm1637Chip(m.line(board.TM1637_RIGHT_CLK), m.line(board.TM1637_RIGHT_DIO))
        fs = FakeFs()
        hal = Rp2040Hal(
            m,
            board,
            clock.ticks_ms,
            clock.sleep_us,
            True,
            fs,
            fs.open,
            select=FakeSelect(clock),
            io=io,
            display=driver_for,
        )
        frame = bytearray({"oled": 1024, "lcd": 12}.get(board.DISPLAY, 8))
        for i in range(0, len(frame), 37):
            frame[i] = 0x5A
        hal.display.show(frame)
        if board.DISPLAY == "oled":
            assert hal.display.errors == 0 and panel.visible() == frame
        elif board.DISPLAY == "lcd":
            assert chips[0].on and chips[1].on
            assert chips[0].glass_byte(0) == hal.display.left._table[0x5A]
        else:
            assert hal.display.left.acked and hal.display.right.acked
        for button, gpio in board.BUTTONS.items():
            m.Pin(gpio).drive(0)
            assert hal.edges.pop() and hal.edges.button == button and hal.edges.pressed
        m.set_adc(board.BATTERY_ADC - 26, 26000)  # ADC3 on a Pico, GP28's divider on a Pico W
        assert hal.battery_mv() == 3927  # every board senses VSYS, through a 1/3 divider
        hal.feed()
        count += 1
    assert count >= 7


def test_the_board_check_is_unloaded_once_the_board_passed():
    import sys

    import hal

    oled_hal()
    assert "hal.board_check" not in sys.modules and not hasattr(hal, "board_check")
