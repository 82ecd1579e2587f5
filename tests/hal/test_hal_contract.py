# SPDX-License-Identifier: MIT
# Every HAL keeps the hal/__init__.py contract (tests/hal_contract.py): here the virtual HAL and
# Rp2040Hal on the fake machine, one board of each display kind; tests/sim the desktop's others.
import io

import hal_contract
from boards import pico_oled, pico_tm1637
import ticks
from fake_devices import Ssd1306Panel, Tm1637Chip
from fakes import fake_machine as m
from fakes.fake_fs import FakeFs
from fakes.fake_select import FakeSelect
from hal.rp2040.hal import Rp2040Hal
from ui.kinds import driver_for
from hal.storage import Storage
from sim.virtual_hal import VirtualHal


class VirtualRig:
    hold_ms = 80
    slack_ms = 0
    frame_bytes = 1024
    battery_mv = 4000

    def __init__(self):
        fs = FakeFs()
        self.hal = VirtualHal(Storage("/", fs, fs.open), 2**30 - 300)  # across the wrap

    def press(self, button, at):
        self.hal.press(button, at, self.hold_ms)


class Rp2040Rig:
    hold_ms = 80
    slack_ms = 0

    def __init__(self, board):
        m.reset()
        clock = m.Clock(2**30 - 300)
        if board.DISPLAY == "oled":
            m.bus(board.I2C_ID).attach(board.OLED_ADDRESS, Ssd1306Panel())
            self.frame_bytes = 1024
        else:
            Tm1637Chip(m.line(board.TM1637_LEFT_CLK), m.line(board.TM1637_LEFT_DIO))
            Tm1637Chip(m.line(board.TM1637_RIGHT_CLK), m.line(board.TM1637_RIGHT_DIO))
            self.frame_bytes = 8
        m.set_adc(3, 26000)
        self.battery_mv = 3927 if board.BATTERY_ADC is not None else -1
        fs = FakeFs()
        self.board = board
        self.select = FakeSelect(clock)
        self.hal = Rp2040Hal(
            m,
            board,
            clock.ticks_ms,
            clock.sleep_us,
            False,
            fs,
            fs.open,
            select=self.select,
            io=io,
            display=driver_for,
        )

    def lit(self):
        leds = self.board.LEDS
        return (m.line(leds[0]).level == 1, m.line(leds[1]).level == 1)

    def press(self, button, at):
        pin = m.Pin(self.board.BUTTONS[button])
        self.select.at(at, lambda: pin.drive(0))
        self.select.at(ticks.add(at, self.hold_ms), lambda: pin.drive(1))


def test_the_virtual_hal_keeps_the_contract():
    hal_contract.check(VirtualRig())


def test_the_rp2040_hal_keeps_the_contract_with_an_oled():
    hal_contract.check(Rp2040Rig(pico_oled))


def test_the_rp2040_hal_keeps_the_contract_with_tm1637_modules():
    hal_contract.check(Rp2040Rig(pico_tm1637))
