# SPDX-License-Identifier: MIT
# The firmware as main.py assembles it, on the fake machine: levers on GPIOs, frames on the panel.
import io

from app.clock_app import ClockApp
from app.runner import Runner
from boards import pico_oled, pico_oled_spi, pico_sh1106, pico_ssd1309, pico_ssd1309_spi
from clock.game import View
from fake_devices import Sh1106Panel, Ssd1306Panel, Ssd1309Panel
from fakes import fake_machine as m
from fakes.fake_fs import FakeFs
from fakes.fake_select import FakeSelect
from hal.rp2040.hal import Rp2040Hal
from ui.kinds import driver_for
from ui.oled import OledScreen


class Bench:
    """A Pico on the bench: the loop asleep in poll between interrupts, and hands on the levers."""

    def __init__(self, fs=None, start=500, board=pico_oled, panel=Ssd1306Panel):
        m.reset()
        self.board = board
        self.clock = m.Clock(start)
        if getattr(board, "OLED_BUS", "i2c") == "spi":
            self.panel = m.spi_bus(board.SPI_ID).attach(panel(), board.OLED_DC, board.OLED_CS)
            self.panel.watch_reset(m.line(board.OLED_RES))
        else:
            self.panel = m.bus(0).attach(board.OLED_ADDRESS, panel())
        self.fs = fs if fs is not None else FakeFs()
        self.select = FakeSelect(self.clock)
        self.hal = Rp2040Hal(
            m,
            board,
            self.clock.ticks_ms,
            self.clock.sleep_us,
            watchdog=True,
            fs=self.fs,
            opener=self.fs.open,
            select=self.select,
            io=io,
            display=driver_for,
        )
        self.app = ClockApp(self.hal, tuple(board.BUTTONS), OledScreen(), self.hal.ticks_ms())
        self.runner = Runner(self.hal, self.app)

    def press(self, button, at, hold=80):
        pin = m.Pin(self.board.BUTTONS[button])
        self.select.at(at, lambda: pin.drive(0))
        self.select.at(at + hold, lambda: pin.drive(1))

    def run_until(self, ms):
        while self.clock.ms < ms:
            self.runner.step()

    def shown(self, side):
        app = self.app
        return app.game.view(app.player_on(side), self.clock.ms, View()).time_ms


def test_a_game_on_the_board_levers_charge_exactly_and_the_panel_shows_every_frame():
    bench = Bench()
    bench.press(1, 1000)  # the right lever (logical RIGHT = 1) starts the left clock
    bench.press(0, 4000)  # the left lever, 3 s later
    bench.runner.step()
    assert bench.panel.on and bytes(bench.panel.ram) == bytes(bench.app.screen.frame)
    bench.run_until(4600)
    app = bench.app
    assert app.state_name() == "running" and app.game.plies() == 1
    assert bench.shown(0) == 5 * 60000 + 3000 - 3000  # Blitz 5+3, Fischer: 5:03 less 3 s
    assert bench.shown(1) == 5 * 60000 + 3000 - (bench.clock.ms - 4000)
    assert bytes(bench.panel.ram) == bytes(app.screen.frame)  # what the app drew is shown
    assert m.state.watchdogs[0].feeds > 0


def test_power_comes_back_with_the_game_offered_paused():
    bench = Bench()
    bench.press(1, 1000)
    bench.press(0, 4000)
    bench.run_until(9000)
    again = Bench(fs=bench.fs, start=77)
    assert again.app.state_name() == "resume"


def test_the_loop_wakes_only_when_something_is_due():
    bench = Bench()
    bench.runner.step()
    wakes = bench.hal.waiter.wakes
    bench.run_until(60500)  # a minute on the ready screen
    assert bench.app.state_name() == "ready"
    assert bench.hal.waiter.wakes - wakes <= 60  # a second apart at least, not 1000 a second
    assert bench.select.interrupts == 0


def test_the_larger_panels_show_every_frame_the_app_builds():
    for board, panel in ((pico_sh1106, Sh1106Panel), (pico_ssd1309, Ssd1309Panel)):
        bench = Bench(board=board, panel=panel)
        bench.press(1, 1000)
        bench.press(0, 4000)
        bench.press(1, 6500)
        shown = 0
        while bench.clock.ms < 9000:
            bench.runner.step()
            assert bench.panel.visible() == bytes(bench.app.screen.frame), bench.clock.ms
            shown += 1
        assert bench.app.game.plies() == 2 and bench.hal.display.errors == 0 and shown > 5


def test_the_spi_panels_show_every_frame_through_a_whole_game():
    """G/1 +1 s: 30 plies of 1.5 s, then the mover's minute runs out (tenths, then the flag)."""
    for board, panel in ((pico_oled_spi, Ssd1306Panel), (pico_ssd1309_spi, Ssd1309Panel)):
        bench = Bench(board=board, panel=panel)
        app = bench.app
        app.choose_preset(app.add_preset("G1", "chessclock:G/1/1"))
        at = 1000
        for ply in range(31):
            bench.press(1 - ply % 2, at)
            at += 1500
        passes = 0
        while app.state_name() != "over":
            bench.runner.step()
            assert bench.panel.visible() == bytes(app.screen.frame), bench.clock.ms
            passes += 1
        assert app.game.plies() == 30 and bench.panel.resets == 1 and passes > 200
        assert bench.hal.display.errors == 0 and bench.panel.data_bytes > 1024
