# SPDX-License-Identifier: MIT
# The game's record through power cuts and restarts: it comes back whole with the game, a cut at
# any step of a save leaves it in step with the game, and a finished game's stays till the next.
from app import saved
from clock.record import AT, PLY
from fakes.fake_fs import FakeFs, PowerCut
from hal import buttons as b
from harness import Clock

LEFT_MOVES = (4000, 7000, 2000, 9000, 3000, 6000)  # the left player's move times, in turn
RIGHT_MOVES = (5000, 1000, 8000, 2000, 6000, 4000)


def played(plies, clock=None, fs=None):
    """A Rapid 15+10 game of `plies` presses (a lever pressed, and the other's clock starts, at
    1000; then alternately), its clock run just past the last press."""
    if clock is None:
        clock = Clock(preset="Rapid 15+10", fs=fs)
    clock.press(b.RIGHT, 1000)  # the left player moves first
    now = 1000
    for ply in range(plies):
        moves = RIGHT_MOVES if ply % 2 else LEFT_MOVES
        now += moves[(ply // 2) % len(moves)]
        clock.press(b.RIGHT if ply % 2 else b.LEFT, now)
    clock.run_until(now + 200)
    return clock


def expected_elapsed(plies):
    return [
        (RIGHT_MOVES if ply % 2 else LEFT_MOVES)[(ply // 2) % len(LEFT_MOVES)]
        for ply in range(plies)
    ]


def standing_elapsed(record):
    return [record.field(index, AT) for index in record.plies()]


def rebooted(fs, start=5):
    fs.reboot()
    return Clock(fs=fs, start=start)


def paused(clock):
    """The game paused a second after the last press: its save goes to the files, which seal
    the record's chunks (in play they wait in the slot ring)."""
    clock.press(b.PLAY, clock.hal.now + 1000)
    clock.run_until(clock.hal.now + 1200)
    return clock


def test_the_record_comes_back_whole_with_the_saved_game():
    clock = played(41)  # five chunks of 8 sealed, and 2 entries (with the undo) in game.txt
    clock.press(b.PLAY, clock.hal.now + 1000)
    clock.press(b.MINUS, clock.hal.now + 2000)  # undo the last press? ...
    clock.press(b.MINUS, clock.hal.now + 2500)  # yes
    clock.run_until(clock.hal.now + 3000)
    before = clock.app.record
    kept = before.rows()
    reboot = rebooted(clock.fs)
    assert reboot.state() == "resume"
    record = reboot.app.record
    assert record.length == before.length == 42 and not record.cut
    assert record.rows() == kept
    assert record.kind(41) != PLY and standing_elapsed(record) == expected_elapsed(40)
    reboot.press(b.SET, 100)  # resume
    reboot.press(b.PLAY, 200)
    reboot.press(b.LEFT, 3200)  # the undone move again: 3 s after its first 6 s... as it stood
    reboot.run_until(3400)
    assert reboot.app.game.plies() == 41 and reboot.app.record.length == 43


def plies_after_reboot(fs, plies_before, budget):
    reboot = rebooted(fs)
    assert reboot.state() == "resume", budget
    reboot.press(b.SET, 100)  # resume
    reboot.run_until(200)
    record = reboot.app.record
    plies = reboot.app.game.plies()
    assert plies in (plies_before, plies_before + 1), (budget, plies)
    assert not record.cut and record.length == plies, (budget, record.length, plies)
    assert (
        standing_elapsed(record) == expected_elapsed(plies_before) + [5000][: plies - plies_before]
    )
    return plies


def test_a_cut_at_every_step_of_a_save_that_seals_a_chunk_keeps_record_and_game_in_step():
    # Without a slot ring (the browser), a save in play seals a chunk as soon as one is full.
    plies_before = saved.CHUNK - 1  # the next press fills the first chunk: record/0.txt is written
    seen = set()
    budget = 0
    while True:
        clock = played(plies_before, fs=FakeFs(flash_blocks=0))
        clock.fs.budget = budget
        pressed_at = clock.hal.now + 4800  # 5 s after the last press
        clock.press(b.RIGHT, pressed_at)
        try:
            clock.run_until(pressed_at + 300)
        except PowerCut:
            pass
        complete = not clock.fs.dead
        if complete:
            clock.fs.budget = 0  # the save is complete: the power goes right after it
        seen.add(plies_after_reboot(clock.fs, plies_before, budget))
        if complete:
            break
        budget += 1
    assert seen == {plies_before, plies_before + 1}
    assert budget > 100


def test_a_cut_at_every_step_of_a_pause_that_seals_the_chunks_keeps_record_and_game_in_step():
    # With a slot ring the chunks wait for a save to the files: the pause's seals three at once,
    # in one file.
    plies = 3 * saved.CHUNK + 2
    kept = None
    seen = set()
    budget = 0
    while True:
        clock = played(plies)
        files = len(clock.fs.files)
        clock.fs.budget = budget
        try:
            paused(clock)
        except PowerCut:
            pass
        complete = not clock.fs.dead
        if complete:
            chunks = [name for name in clock.fs.files if name.startswith("/record/")]
            assert len(chunks) == 1 and len(clock.fs.files) == files + 2  # and game.txt
            clock.fs.budget = 0
        reboot = rebooted(clock.fs)
        assert reboot.state() == "resume", budget
        record = reboot.app.record
        assert reboot.app.game.plies() == plies and not record.cut, budget
        assert standing_elapsed(record) == expected_elapsed(plies), budget
        if kept is None:
            kept = [reboot.view(0).time_ms, reboot.view(1).time_ms]
        seen.add(reboot.view(0).time_ms)
        assert [reboot.view(0).time_ms, reboot.view(1).time_ms] in (
            kept,
            [kept[0] - 1200, kept[1]],  # paused 1.2 s into the left's move
        ), budget
        if complete:
            break
        budget += 1
    assert len(seen) == 2 and budget > 300, budget


def test_a_finished_games_record_stays_across_a_restart_and_a_new_setup_until_a_start():
    clock = played(6)
    clock.run_until(clock.hal.now + 16 * 60000)  # the right player's flag falls
    assert clock.state() == "over"
    reboot = rebooted(clock.fs)
    assert reboot.state() == "over"  # the result stands, as before the cut
    assert reboot.app.game.reason() == clock.app.game.reason() == 1  # on time
    record = reboot.app.record
    assert standing_elapsed(record) == expected_elapsed(6) and record.owner.state() == 3
    reboot.press(b.SET, 100, hold_ms=2600)  # RESET asks "New game?" ...
    reboot.press(b.SET, 3000)  # ... and SET says yes: a new game set up
    reboot.run_until(3500)
    assert reboot.state() == "ready"
    again = rebooted(reboot.fs)
    assert standing_elapsed(again.app.record) == expected_elapsed(6)
    played(2, again)  # a start: the new game's record
    assert standing_elapsed(again.app.record) == expected_elapsed(2)


def test_a_chunk_of_another_game_cuts_the_record_and_the_game_still_resumes():
    clock = paused(played(20))
    name = "/data/record/0.txt" if "/data/record/0.txt" in clock.fs.files else "/record/0.txt"
    lines = bytes(clock.fs.files[name]).decode().split("\n")
    words = lines[0].split()
    words[2] = str(int(words[2]) + 1)  # another game's tag
    lines[0] = " ".join(words)
    clock.fs.files[name] = bytearray("\n".join(lines).encode())
    reboot = rebooted(clock.fs)
    assert reboot.state() == "resume"
    reboot.press(b.SET, 100)  # resume
    reboot.run_until(200)
    assert reboot.app.game.plies() == 20
    assert reboot.app.record.cut and reboot.app.record.length == 0


def test_a_chunk_lost_in_the_middle_keeps_the_entries_before_it():
    clock = paused(played(10))  # the first chunk sealed (0.txt)
    now = clock.hal.now + 1000
    clock.press(b.PLAY, now)  # resumed: a second run of play
    for ply in range(10, 30):
        now += 3000
        clock.press(b.RIGHT if ply % 2 else b.LEFT, now)
    clock.run_until(now + 200)
    paused(clock)  # its entries from the 8th on, in one file (1.txt)
    folder = "/data/record/" if "/data/record/0.txt" in clock.fs.files else "/record/"
    del clock.fs.files[folder + "1.txt"]
    reboot = rebooted(clock.fs)
    reboot.press(b.SET, 100)  # resume
    reboot.run_until(200)
    record = reboot.app.record
    assert reboot.app.game.plies() == 30
    assert record.cut and record.length == saved.CHUNK
    assert standing_elapsed(record) == expected_elapsed(saved.CHUNK)
