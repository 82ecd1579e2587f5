# SPDX-License-Identifier: MIT
# A boot whose saved game does not fit in memory (app.clock_app.built, as main.py calls it):
# read again once room is made; else a new game, the saved one left on flash byte for byte as it
# was, NO SAVE on the status line and the reason in the store's word; never a silent loss.
from app.clock_app import KEPT, built
from clock.game import PAUSED, RUNNING
from clock.record import Record
from hal import buttons as b
from harness import Clock

PLIES = 20  # chunks of the record (app.saved.CHUNK) and a tail


def saved_fs():
    """A flash holding a paused game, its record in chunks."""
    clock = Clock(preset="Blitz 5+3")
    at = 2000
    for ply in range(PLIES + 1):  # the first press starts the game
        clock.press(b.RIGHT if ply % 2 == 0 else b.LEFT, at)
        at += 500
    clock.press(b.PLAY, at)  # paused: the files take the game (app.game_store)
    clock.run_until(at + 1500)
    assert clock.app.game.plies() == PLIES
    assert any("/record/" in path for path in clock.fs.files)
    return clock.fs


def files(fs):
    return {path: bytes(data) for path, data in fs.files.items()}


class Tight:
    """The heap where it runs out: the next `fails` opens of a file `where` names raise
    MemoryError, as reading the saved game's record does on the stock path's heap."""

    def __init__(self, fs, fails, where="/record/"):
        self.fs = fs
        self.fails = fails
        self.where = where

    def open(self, path, mode="r"):
        if self.where in path and "r" in mode and self.fails:
            self.fails -= 1
            raise MemoryError("memory allocation failed, allocating 1280 bytes")
        return self.fs.open(path, mode)


def boot(fs, fails, where="/record/"):
    """The clock booted on `fs` as main.py builds it; what free() was told (tries left)."""
    tight = Tight(fs, fails, where)
    freed = []

    def build(hal, present, screen):
        return built(hal, present, screen, Record(), freed.append)

    return Clock(fs=fs, start=100, opener=tight.open, build=build), freed


def test_a_saved_game_read_again_once_room_is_made_is_offered_back():
    fs = saved_fs()
    clock, freed = boot(fs, fails=1)
    assert freed == [1]
    app = clock.app
    assert not app.kept and app.store_problem is None
    assert clock.state() == "resume" and app.game.state() == PAUSED
    assert app.game.plies() == PLIES and app.record.length >= PLIES and not app.record.cut


def test_a_saved_game_that_never_fits_stays_on_flash_and_the_clock_says_so():
    fs = saved_fs()
    before = files(fs)
    clock, freed = boot(fs, fails=1000)
    assert freed == [1, 0]
    app = clock.app
    assert app.kept and app.store_problem == KEPT
    assert clock.state() == "ready" and app.game.plies() == 0
    clock.run_until(500)
    assert app.status.message == "NO SAVE"
    # A game played on it, a new game, the reset hold: no write reaches the saved game.
    clock.press(b.RIGHT, 1000)
    clock.press(b.LEFT, 1500)
    clock.press(b.RIGHT, 2000)
    clock.run_until(15000)  # past the 10 s save of a running move and the store's retries
    assert app.game.state() == RUNNING and app.game.plies() == 2
    assert app.status.message == "NO SAVE" and app.store_problem == KEPT
    app.new_game()
    clock.run_until(25000)
    assert files(fs) == before
    assert app.status.message == "NO SAVE" and app.store_problem == KEPT


def test_the_kept_game_is_offered_back_by_the_next_boot_with_room():
    fs = saved_fs()
    before = files(fs)
    boot(fs, fails=1000)[0].run_until(12000)
    clock, freed = boot(fs, fails=0)
    assert freed == [] and files(fs) == before
    assert clock.state() == "resume" and clock.app.game.plies() == PLIES


def test_a_boot_where_not_even_a_new_game_fits_raises_and_writes_nothing():
    fs = saved_fs()
    before = files(fs)
    try:
        boot(fs, fails=1000, where="/")
    except MemoryError:
        pass
    else:
        raise AssertionError("no MemoryError")
    assert files(fs) == before
