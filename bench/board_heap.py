# SPDX-License-Identifier: MIT
# The heap the board's own code holds in play: its modules and its objects, nothing of a harness.
#   micropython bench/board_heap.py ROOT MPY_DIR
# prints "name value" lines for bench/run.py.
#
# The firmware is assembled as main.py does it (the record and the frame first, Rp2040Hal,
# pico_oled's OledScreen, ClockApp, Runner), from .mpy, on the fake machine: levers on fake
# GPIOs, the loop asleep in a fake select.poll on a fake clock, the files in a small in-memory
# filesystem. The baseline is taken once those fakes and the interpreter's own start-up are in
# the heap and before any of the board's modules is imported, so what is counted is what the
# board's code adds: its bytecode, its objects and the game, at most over a 200-move game (a
# collection before each reading). The fakes' own bookkeeping (poll timeouts, the interrupt
# schedule, the fake machine's log of light sleeps) is emptied before each reading; the saved
# files held by the fake filesystem are counted (on the chip they are flash). The game's slot
# ring is the board's (hal/slots.py, its 24 slots) on a fake flash made before the baseline: the
# flash's bytes are not counted, the ring's objects are.
import gc
import io
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
MPY = sys.argv[2] if len(sys.argv) > 2 else ROOT + "/build/bench-mpy"
sys.path[:0] = [MPY + "/firmware", MPY, ROOT + "/tests", ROOT + "/tests/hal"]

from fakes import fake_machine as m  # noqa: E402
from fakes.fake_nor import FakeNor  # noqa: E402
from fakes.fake_select import FakeSelect  # noqa: E402
from fakes.mini_fs import MiniFs  # noqa: E402
from fake_devices import Ssd1306Panel  # noqa: E402

MOVES = 200
SLOTS = 24  # hal/lfs_slots.py's COUNT
OLED_ADDRESS = 0x3C  # pico_oled's, asserted below once the board file is loaded


def main():
    m.reset()
    clock = m.Clock(500)
    bus = m.bus(0)
    bus.log = None  # the fake bus records nothing
    panel = bus.attach(OLED_ADDRESS, Ssd1306Panel())
    fs = MiniFs()
    select = FakeSelect(clock)
    pins = {}
    flash = FakeNor(SLOTS)
    gc.collect()
    baseline = gc.mem_alloc()

    from boards import pico_oled as board
    from clock.record import Record

    record = Record()  # as main.py: the record and the frame first, before the other imports
    frame = bytearray(1024)
    from app.clock_app import ClockApp
    from app.runner import Runner
    from hal.rp2040.hal import Rp2040Hal
    from ui import kinds

    from app.presets import DEFAULTS
    from app.settings import FILE as SETTINGS
    from hal.storage import Storage

    assert board.OLED_ADDRESS == OLED_ADDRESS
    # The board boots with FIDE classical chosen (a 200-move game fits in it).
    chosen = [name for name, spec in DEFAULTS].index("FIDE classical")
    Storage(board.STORAGE_ROOT, fs, fs.open).write(SETTINGS, b"preset = %d\n" % chosen)
    hal = Rp2040Hal(
        m,
        board,
        clock.ticks_ms,
        clock.sleep_us,
        watchdog=True,
        fs=fs,
        opener=fs.open,
        select=select,
        io=io,
        display=kinds.driver_for,
    )
    screen = kinds.screen_for(board, frame)  # as main.py: the table unloaded after boot
    kinds.forget()
    del kinds
    from hal.slots import whole_device

    formatting = whole_device(flash, SLOTS)
    while formatting.tidy():  # as a clock in service has it
        pass
    formatting = None
    hal.slots = whole_device(flash, SLOTS)  # what Rp2040Hal finds in littlefs on the board
    app = ClockApp(hal, tuple(board.BUTTONS), screen, hal.ticks_ms(), record)
    runner = Runner(hal, app)
    for button in (0, 1):
        pins[button] = m.Pin(board.BUTTONS[button])

    def press(button, at):
        pin = pins[button]
        select.at(at, lambda: pin.drive(0))
        select.at(at + 80, lambda: pin.drive(1))
        while clock.ms < at + 80:  # up to the pass that takes the release: no sleep past it
            runner.step()

    seed = 12345
    now = 5000
    press(1, now)  # the right lever starts the left clock
    most = 0
    for ply in range(2 * MOVES):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        now += 200 + seed % 40000
        press(ply % 2, now)
        for poll in select.polls:
            poll.timeouts.clear()
        select.schedule.clear()
        m.state.sleeps.clear()  # on battery the loop sleeps in lightsleep(), which the fake logs
        panel.commands.clear()
        fs.drop("record")  # flash on the board (tests/fakes/mini_fs.py)
        gc.collect()
        live = gc.mem_alloc() - baseline
        most = live if live > most else most
    plies = app.game.moves(0) + app.game.moves(1)
    assert plies == 2 * MOVES, "%d plies, %s" % (plies, app.state_name())
    assert app.store.mode() == "slots" and flash.erases == SLOTS  # its saves were the ring's
    assert bytes(panel.ram) == bytes(app.screen.frame)
    print("board_heap.most", most)
    print("board_heap.plies", 2 * MOVES)


main()
