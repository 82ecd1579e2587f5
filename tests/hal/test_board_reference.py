# SPDX-License-Identifier: MIT
# pico_lcd_lp as main.py assembles it on the fake machine and a modelled chip (fakes/fake_refsleep.py):
# a game on battery asleep on the 32.768 kHz reference, a wake a second, charged exactly.
import io

from app.clock_app import ClockApp
from app.runner import Runner
from boards import pico_lcd_lp as board
from clock.game import PAUSED
from clock.record import AT
from fakes import fake_machine as m
from fakes.fake_fs import FakeFs
from fakes.fake_refsleep import MS, World
from fakes.fake_select import FakeSelect
from hal.rp2040 import reftime
from hal.rp2040.hal import Rp2040Hal
from ui.kinds import driver_for, screen_for


class Bench:
    """The board on battery, the loop asleep on the reference, hands on the levers."""

    def __init__(self, start=1000):
        m.reset()
        self.world = World(start)
        m.set_vbus(False)
        self.select = FakeSelect(self.world)
        self.world.select = self.select
        self.fs = FakeFs()
        self.hal = Rp2040Hal(
            m,
            board,
            self.world.ticks_ms,
            self.world.sleep_us,
            watchdog=True,
            fs=self.fs,
            opener=self.fs.open,
            select=self.select,
            io=io,
            display=driver_for,
            refsleep=self.world,
        )
        self.app = ClockApp(self.hal, tuple(board.BUTTONS), screen_for(board), self.hal.ticks_ms())
        self.runner = Runner(self.hal, self.app)

    def press(self, button, at, hold=60):
        pin = m.Pin(board.BUTTONS[button])
        self.select.at(at, lambda: pin.drive(0))
        self.select.at(at + hold, lambda: pin.drive(1))

    def run_until(self, ms):
        while self.world.ms < ms:
            self.runner.step()


def test_a_game_on_battery_sleeps_on_the_reference_a_wake_a_second_and_charges_exactly():
    bench = Bench()
    # after 10 s the app has looked at the supply: the battery face
    bench.press(1, 12000)  # the right lever starts the left clock
    bench.press(0, 20437)  # the left lever, 8.437 s later
    bench.press(1, 31211)
    bench.run_until(41000)
    app = bench.app
    record = app.game.record
    elapsed = [record.field(index, AT) for index in record.plies()]
    assert elapsed == [8437, 10774]  # to the millisecond of each lever's edge
    world = bench.world
    during = [status for status, ticks in world.sleeps[-10:]]
    assert all(status in (reftime.SLEPT, reftime.WOKEN) for status in during)
    # running: the digit's second, and nothing else (the light's flashes go on in the sleep)
    start = len(world.sleeps)
    bench.run_until(51000)
    assert len(world.sleeps) - start <= 11
    lit = [t // MS for t, mask, on in world.flashes if on and t >= 41000 * MS]
    assert len(lit) >= 9
    assert bench.hal.sleeper.light == 0


def test_paused_on_battery_the_loop_wakes_for_the_supply_alone_and_the_light_blinks_asleep():
    bench = Bench()
    bench.press(1, 12000)  # the left clock runs
    bench.press(2, 15000)  # PLAY: paused
    bench.run_until(20000)
    assert bench.app.game.state() == PAUSED
    world = bench.world
    start = len(world.sleeps)
    bench.run_until(50000)
    assert len(world.sleeps) - start <= 4  # a look at the supply every 10 s
    lit = [t // MS for t, mask, on in world.flashes if on and t >= 20000 * MS]
    assert len(lit) >= 14  # the side on move's light: a flash every two seconds, asleep
