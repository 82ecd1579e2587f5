# SPDX-License-Identifier: MIT
# Where the game's saves go (app/game_store.py): the slot ring while a clock runs and nowhere it
# erases, the files otherwise; the newest whole save reads back; a ring out of room falls back
# to the files and says so; the ring is erased only while no clock runs.
from app.game_store import FILES, SLOTS, GameStore
from app import saved
from clock.game import RUNNING, Game, View
from clock.record import Record
from fakes.fake_fs import FakeFs
from hal import buttons as b
from hal.lfs_slots import COUNT
from hal.slots import BLOCK, START, whole_device
from hal.storage import Storage
import notation
from serial_fakes import SerialClock

MIN = 60000


def flash_counts(clock):
    return clock.fs.flash.erases, clock.fs.renames


def bullet(clock, plies, start=1000, every=1700):
    """`plies` presses `every` ms apart from `start` (the first starts the game)."""
    now = start
    clock.press(b.RIGHT, now)
    for ply in range(plies):
        now += every
        clock.press(b.LEFT if ply % 2 == 0 else b.RIGHT, now)
    clock.run_until(now + 100)
    return now + 100


def test_in_play_a_save_programs_the_ring_and_erases_nothing():
    clock = SerialClock(preset="Blitz 3+2")
    erases, renames = flash_counts(clock)
    programs = clock.fs.flash.programs
    now = bullet(clock, 40)
    clock.run_until(now + 25000)  # a long think: saved every 10 s
    assert clock.app.game.plies() == 40 and clock.state() == "running"
    assert flash_counts(clock) == (erases, renames)  # no erase, no file written
    assert clock.fs.flash.programs >= programs + 43
    clock.press(b.PLAY, now + 26000)  # paused: the files take the save...
    clock.run_until(now + 26001)
    assert clock.fs.renames == renames + 1 + 1  # game.txt and the record's 40 entries
    assert clock.fs.flash.erases <= erases + 1  # one erase a pass, after the save
    clock.run_until(now + 27000)  # ... and the ring's blocks are erased, one a pass
    assert clock.fs.flash.erases > erases and not clock.app.store.untidy()
    assert clock.app.store.ready() == clock.fs.flash.blocks


def test_a_boot_reads_the_newest_save_whether_the_ring_or_the_files_hold_it():
    clock = SerialClock(preset="Rapid 15+10")
    now = bullet(clock, 6, every=4000)
    clock.press(b.PLAY, now + 1000)  # the files hold this ...
    clock.press(b.PLAY, now + 3000)  # ... the ring the resumed run
    clock.press(b.LEFT, now + 5000)
    clock.run_until(now + 5100)
    left = clock.view(0).time_ms
    again = SerialClock(fs=clock.fs.copy(), start=100)
    assert again.app.store.from_slots and again.app.game.plies() == 7
    assert again.view(0).time_ms == left and again.app.record.length == 7
    clock.press(b.PLAY, now + 9000)  # the files again
    clock.run_until(now + 9100)
    left, right = clock.view(0).time_ms, clock.view(1).time_ms
    again = SerialClock(fs=clock.fs.copy(), start=100)
    assert not again.app.store.from_slots
    assert (again.view(0).time_ms, again.view(1).time_ms) == (left, right)


def test_a_game_read_back_from_the_ring_goes_to_the_files_and_the_ring_is_erased():
    clock = SerialClock(preset="Blitz 5+3")
    bullet(clock, 9)
    fs = clock.fs.copy()
    renames = fs.renames
    again = SerialClock(fs=fs, start=100)  # a power cut, and the boot after it
    assert again.app.store.from_slots and again.state() == "resume"
    assert again.app.store.ready() < fs.flash.blocks
    again.run_until(200)
    assert fs.renames > renames and saved.stored_seq(again.storage) > 0  # in the files now
    again.run_until(400)
    assert again.app.store.ready() == fs.flash.blocks and again.state() == "resume"
    third = SerialClock(fs=fs.copy(), start=100)
    assert not third.app.store.from_slots and third.app.game.plies() == 9


def test_a_clock_that_runs_is_never_held_up_by_an_erase():
    clock = SerialClock(preset="Blitz 5+3")
    now = bullet(clock, 9)
    ring = clock.app.store.ring
    ring.release(ring.top + 1)  # its block to erase, as a chain run to its end leaves one
    erases = clock.fs.flash.erases
    assert clock.app.store.untidy()
    now = bullet(clock, 20, start=now + 1000)
    clock.run_until(now + 30000)  # presses, ticks, saves every 10 s: passes of every kind
    assert clock.state() == "running" and clock.app.store.mode() == SLOTS
    assert clock.fs.flash.erases == erases and clock.app.store.untidy()
    clock.press(b.PLAY, now + 31000)
    clock.run_until(now + 31100)
    assert clock.fs.flash.erases > erases and not clock.app.store.untidy()


def test_a_ring_out_of_room_in_play_falls_back_to_the_files_and_says_so():
    fs = FakeFs(flash_blocks=1)
    clock = SerialClock(preset="Blitz 5+3", fs=fs)
    renames = fs.renames
    now = bullet(clock, 150, every=600)
    store = clock.app.store
    assert store.slow and store.mode() == FILES and store.ready() == 0
    assert clock.app.status.message == "SLOW SAVE"
    state = clock.ask("STATE")[0]
    assert '"saves": "files"' in state and '"slots": 0' in state
    assert fs.renames > renames + 10  # the files take the saves in play
    again = SerialClock(fs=fs.copy(), start=100)  # nothing lost: the last press is there
    assert again.app.game.plies() == 150
    clock.press(b.PLAY, now + 500)  # paused: the ring is erased, and takes the next run
    clock.run_until(now + 1000)
    assert not store.slow and store.ready() == 1 and clock.app.status.message == ""
    clock.press(b.PLAY, now + 1500)
    clock.press(b.LEFT, now + 2000)
    clock.run_until(now + 2100)
    assert store.mode() == SLOTS and '"saves": "slots"' in clock.ask("STATE")[0]
    assert SerialClock(fs=fs.copy(), start=100).app.store.from_slots


def test_a_new_game_retires_the_rings_game_when_the_files_are_behind():
    fs = FakeFs()
    clock = SerialClock(preset="Blitz 5+3", fs=fs)
    bullet(clock, 5)
    again = SerialClock(fs=fs.copy(), start=100)
    again.fs.refuse_after = 0  # the boot's save to the files is refused
    again.run_until(200)
    assert again.app.store.from_slots and again.app.store_problem == "the store is full"
    again.fs.refuse_after = None
    again.app.new_game(300)  # "Drop the saved game?" yes, say: the files are written
    third = SerialClock(fs=again.fs.copy(), start=100)
    assert third.state() == "ready" and not third.app.store.from_slots


def _game(spec):
    return Game(notation.parse(spec), Record())


def test_a_two_hour_400_ply_game_takes_less_than_half_the_boards_ring():
    # The saves of a G/90+30 game of 400 plies, 2 h 15 min of play (moves 2 s to 38 s, a save
    # every 10 s of each), as the app makes them, into half the board's ring (COUNT blocks).
    half = COUNT // 2
    fs = FakeFs(flash_blocks=half)
    storage = Storage("/", fs, fs.open)
    store = GameStore(storage, whole_device(fs.flash, half))
    spec = "chessclock:G/90/30"
    game = _game(spec)
    now = 1000
    game.start(now, 0)
    game.record.tag = saved.new_tag()
    saves = 0
    for ply in range(400):
        move = 2000 + (ply * 7919) % 36000
        saved_at = now
        while now + move - saved_at >= 10000:
            saved_at += 10000
            assert store.save(spec, 0, game, saved_at) is None
            saves += 1
        now += move
        game.press(game.turn(), now)
        assert game.state() == RUNNING
        assert store.save(spec, 0, game, None) is None
        saves += 1
    assert saves > 950 and store.mode() == SLOTS and fs.renames == 0  # it all fitted
    used = half * (BLOCK - START) - store.ring.room()
    assert used // saves < 45, used // saves  # bytes a save, framing included
    again = GameStore(storage, whole_device(fs.flash, half))
    record = Record()
    spec_read, left, read = again.load(record)
    assert spec_read == spec and left == 0 and read.plies() == 400
    assert record.length == 400 and not record.cut
    assert read.view(0, 0, View()).time_ms == game.view(0, now, View()).time_ms


def test_a_save_the_files_refused_between_two_runs_of_play_breaks_no_chain():
    # The refused save took a number: the ring's next save must begin a chain of its own, or
    # its records would not follow the last and none of them would read back.
    fs = FakeFs()
    clock = SerialClock(preset="Blitz 5+3", fs=fs)
    now = bullet(clock, 7)
    fs.refuse_after = 0
    clock.press(b.PLAY, now + 1000)  # the pause's save to the files: refused
    clock.run_until(now + 1200)
    assert clock.app.store_problem == "the store is full"
    fs.refuse_after = None
    clock.press(b.PLAY, now + 4500)  # its note gone, resumed before the retry: the ring again
    clock.press(b.RIGHT, now + 5000)
    clock.press(b.LEFT, now + 5500)
    clock.run_until(now + 5500)  # the times as the last press's save holds them
    assert clock.state() == "running" and clock.app.game.plies() == 9
    left, right = clock.view(0).time_ms, clock.view(1).time_ms
    again = SerialClock(fs=fs.copy(), start=100)
    assert again.app.store.from_slots and again.app.game.plies() == 9
    assert (again.view(0).time_ms, again.view(1).time_ms) == (left, right)


def test_a_run_of_play_goes_to_the_files_in_few_chunks_the_watchdog_fed_between():
    # At a pause the files take all the entries a run of play left in the ring: in files of up
    # to 128 entries (one flash block each, not 8-entry files that rewrite the folder's
    # metadata each), the board's watchdog fed after each; they read back with the files of a
    # run before, which were sealed the same way.
    fs = FakeFs(flash_blocks=8)
    storage = Storage("/", fs, fs.open)
    fed = []
    store = GameStore(storage, whole_device(fs.flash, 8), lambda: fed.append(fs.renames))
    spec = "chessclock:G/30/3"
    game = _game(spec)
    game.start(1000, 0)
    game.record.tag = saved.new_tag()
    now = [1000]

    def play(plies):
        for _ply in range(plies):
            now[0] += 1500
            game.press(game.turn(), now[0])
            assert store.save(spec, 0, game, None) is None
        now[0] += 500
        game.pause(now[0])
        assert store.save(spec, 0, game, None) is None
        now[0] += 500
        game.resume(now[0])

    play(21)
    assert fed == [1] and fs.renames == 2 and game.record.sealed == 16  # a chunk, game.txt
    play(300)
    assert fed == [1, 3, 4, 5] and fs.renames == 6  # 128, 128 and 64 entries, then game.txt
    assert game.record.sealed == 320
    record = Record()
    assert GameStore(storage).load(record)[2].plies() == 321
    assert record.length == game.record.length and not record.cut
    for index in range(record.length):
        assert record.field(index, 0) == game.record.field(index, 0)


def test_a_game_in_the_ring_that_does_not_fit_at_boot_is_kept_there_untouched():
    from app.clock_app import KEPT, built
    from app.game_store import GameStore

    clock = SerialClock(preset="Blitz 5+3")
    bullet(clock, 9)
    fs = clock.fs.copy()  # a power cut in play: the game in the ring
    erases, renames, programs = fs.flash.erases, fs.renames, fs.flash.programs
    load = GameStore.load

    def full(self, record=None):
        raise MemoryError("memory allocation failed")

    def build(hal, present, screen):
        return built(hal, present, screen, Record(), lambda tries: None)

    GameStore.load = full  # the heap runs out reading it, however often
    try:
        kept = SerialClock(fs=fs, start=100, build=build)
    finally:
        GameStore.load = load
    assert kept.app.kept and kept.app.store_problem == KEPT and kept.state() == "ready"
    bullet(kept, 4, start=1000)
    kept.press(b.PLAY, 20000)  # a pause: no save to the files, no erase of the ring
    kept.run_until(30000)
    assert (fs.flash.erases, fs.renames, fs.flash.programs) == (erases, renames, programs)
    again = SerialClock(fs=fs.copy(), start=100)  # the next boot with room
    assert again.app.store.from_slots and again.app.game.plies() == 9
