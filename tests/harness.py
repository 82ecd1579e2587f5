# SPDX-License-Identifier: MIT
# The app on the virtual HAL, as the app tests drive it: timed presses, then run to a stamp.
from app.clock_app import ClockApp
from app.runner import Runner
import ticks
from clock.game import View
from hal import buttons
from hal.storage import Storage
from sim.virtual_hal import VirtualHal

FULL = (buttons.LEFT, buttons.RIGHT, buttons.PLAY, buttons.SET, buttons.PLUS, buttons.MINUS)
MINIMAL = (buttons.LEFT, buttons.RIGHT, buttons.PLAY)


class Clock:
    def __init__(
        self,
        present=FULL,
        screen=None,
        fs=None,
        start=1000,
        preset=None,
        board=None,
        display=None,
        opener=None,
        build=None,
    ):
        if screen is None:
            from ui.oled import OledScreen

            screen = OledScreen()
        if fs is None:
            from fakes.fake_fs import FakeFs

            fs = FakeFs()
        self.fs = fs
        self.storage = Storage("/", self.fs, opener or self.fs.open)
        self.hal = VirtualHal(self.storage, start)
        flash = getattr(fs, "flash", None)
        if flash is not None:  # the game's slot ring, on the fake's raw flash
            from hal.slots import whole_device

            self.hal.slots = whole_device(flash, flash.blocks)
        if board is not None:  # the board file's battery gauge and light flash, as on the board
            from sim.boards import fit

            fit(self.hal, board)
        if display is not None:  # display(hal): another display than the kept frame
            self.hal.display = display(self.hal)
        if build is None:
            self.app = ClockApp(self.hal, present, screen, start)
        else:  # build(hal, present, screen): the app as main.py builds it
            self.app = build(self.hal, present, screen)
        if preset is not None:
            self.choose(preset)
        self.runner = Runner(self.hal, self.app)

    def choose(self, name):
        if self.app.presets.index_of(name) < 0:
            raise AssertionError("no preset " + name)
        self.app.settings.chosen = name  # for this run: not stored
        self.app.new_game()

    def press(self, button, at, hold_ms=80):
        self.hal.press(button, at, hold_ms)

    def run_until(self, stamp):
        hal = self.hal
        hal.horizon = stamp
        steps = 0
        while ticks.diff(stamp, hal.now) > 0 or hal.next_edge() == hal.now or hal.edges.pending():
            self.runner.step()
            steps += 1
            assert steps < 200000, "the loop does not advance"
        self.runner.step()  # render at `stamp` itself
        hal.horizon = None
        return steps

    def view(self, side):
        """What side 0 (left) or 1 (right) shows now."""
        app = self.app
        return app.game.view(app.player_on(side), self.hal.now, View())

    def state(self):
        return self.app.state_name()
