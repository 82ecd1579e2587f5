# SPDX-License-Identifier: MIT
# Power cuts at every step of a save: the files are the old or the new state, and boot resumes.
from app import saved
from fakes.fake_fs import FakeFs, PowerCut
from hal import buttons as b
from harness import Clock
from support import parsers_kept

MIN = 60000


def start_game(fs=None):
    clock = Clock(preset="Rapid 15+10", fs=fs)
    clock.press(b.RIGHT, 1000)
    clock.press(b.LEFT, 8000)
    clock.press(b.RIGHT, 20000)
    clock.run_until(21000)
    return clock


def times_after_reboot(fs):
    fs.reboot()
    reboot = Clock(fs=fs, start=5)
    assert reboot.state() == "resume", reboot.state()
    reboot.press(b.SET, 100)
    reboot.run_until(200)
    assert reboot.state() == "paused"
    return reboot.view(0).time_ms, reboot.view(1).time_ms


def _cut_the_save_after_a_press(flash_blocks):
    """Cut the power at every step of the 4th press's save; returns how many steps it took and
    how many of them wrote the files."""
    new_tag = saved.new_tag
    saved.new_tag = lambda: 0x2345678  # each game's tag the same: each save as long
    try:
        return _cut_every_step_of_the_save(flash_blocks)
    finally:
        saved.new_tag = new_tag


def _cut_every_step_of_the_save(flash_blocks):
    # Before the 4th press: left 15:10 - 7 s + 10 s (its second move runs), right 15:10 - 12 s.
    old = (15 * MIN + 10000 - 7000 + 10000, 15 * MIN + 10000 - 12000)
    new = (15 * MIN + 10000 - 7000 + 10000 - 9000, 15 * MIN + 10000 - 12000 + 10000)
    seen = set()
    budget = 0
    while True:
        clock = start_game(FakeFs(flash_blocks=flash_blocks))
        steps, renames = clock.fs.steps, clock.fs.renames
        clock.fs.budget = budget
        clock.press(b.LEFT, 29000)
        try:
            clock.run_until(29500)
        except PowerCut:
            pass
        if not clock.fs.dead:
            taken, renamed = clock.fs.steps - steps, clock.fs.renames - renames
            clock.fs.budget = 0  # the save is complete: the power goes right after it
            seen.add(times_after_reboot(clock.fs))
            break
        times = times_after_reboot(clock.fs)
        assert times in (old, new), (budget, times)
        seen.add(times)
        budget += 1
    assert seen == {old, new}  # both outcomes occur: the cut fell before and after the save
    assert budget == taken  # the save really was cut at every step
    return budget, renamed


def test_a_cut_at_every_step_of_the_save_after_a_press():
    steps, renames = _cut_the_save_after_a_press(FakeFs().flash.blocks)
    assert renames == 0 and steps > 30  # the slot ring took it: its bytes, no file written


def test_a_cut_at_every_step_of_the_save_after_a_press_without_a_slot_ring():
    steps, renames = _cut_the_save_after_a_press(0)  # the browser's way: the files in play
    assert renames == 1 and steps > 100


def test_a_cut_at_every_step_of_a_presets_write():
    parsers_kept(_cut_a_presets_write)


def _cut_a_presets_write():
    budget = 0
    while True:
        clock = Clock()
        names = [preset.name for preset in clock.app.presets.items]
        clock.app.presets.save()
        clock.fs.budget = budget
        try:
            clock.app.presets.add("Club night", "chessclock:G/25/5")
        except PowerCut:
            pass
        if not clock.fs.dead:
            break
        clock.fs.reboot()
        after = [preset.name for preset in Clock(fs=clock.fs).app.presets.items]
        assert after in (names, names + ["Club night"]), (budget, after)
        budget += 1
    assert budget > 100


def test_a_watchdog_reset_in_a_pause_keeps_the_paused_times():
    clock = start_game()
    clock.press(b.PLAY, 25000)  # 5 s into the left player's move
    clock.run_until(90000)
    reboot = Clock(fs=clock.fs, start=123456)
    reboot.press(b.PLAY, 124000)  # resume from the offer, then the game itself
    reboot.press(b.PLAY, 125000)
    reboot.run_until(126000)
    assert reboot.state() == "running"
    assert reboot.view(0).time_ms == 15 * MIN + 10000 - 7000 + 10000 - 5000 - 1000


def test_a_saved_game_that_cannot_be_played_is_ignored_at_boot():
    clock = start_game()
    clock.press(b.PLAY, 22000)  # paused: the game goes to the files
    clock.run_until(22500)
    path = "/data/game.txt" if "/data/game.txt" in clock.fs.files else "/game.txt"
    lines = bytes(clock.fs.files[path]).decode().split("\n")
    numbers = lines[3].split(",")
    numbers[0] = "5"  # the first player in a sixth stage of a one-stage control
    lines[3] = ",".join(numbers)
    clock.fs.files[path] = bytearray("\n".join(lines).encode())
    reboot = Clock(fs=clock.fs)
    assert reboot.state() == "ready"  # not offered, no crash; the next save replaces it


def test_a_power_cut_costs_at_most_ten_seconds_of_a_running_move():
    # The left player's second move runs from 20 s; it is saved every 10 s while it runs.
    left_at_press = 15 * MIN + 10000 - 7000 + 10000
    right = 15 * MIN + 10000 - 12000
    for cut in (29999, 30000, 30001, 44500, 59999, 61000):
        clock = start_game()
        clock.run_until(cut)
        left, kept_right = times_after_reboot(clock.fs)
        run_before_cut = cut - 20000
        charged = left_at_press - left
        assert kept_right == right
        assert run_before_cut - 10000 <= charged <= run_before_cut, (cut, charged)
        assert charged % 10000 == 0  # the saves fell at 30 s, 40 s, ...: exactly 10 s apart


def _cut_at_every_step(change, outcomes):
    """A cut at every step of change(app) on a clock with "Blitz 3+2" chosen and stored: each
    restart's (list, chosen preset) is one of `outcomes`, both of which occur."""
    parsers_kept(_cut_every_step, change, outcomes)


def _cut_every_step(change, outcomes):
    seen = set()
    budget = 0
    while True:
        clock = Clock()
        clock.app.choose_preset(3)  # Blitz 3+2
        clock.fs.budget = budget
        try:
            change(clock.app)
        except PowerCut:
            pass
        done = not clock.fs.dead
        clock.fs.reboot()
        app = Clock(fs=clock.fs).app
        found = (len(app.presets.items), app.preset().name)
        assert found in outcomes, (budget, found)
        seen.add(found)
        if done:
            break
        budget += 1
    assert seen == set(outcomes) and budget > 100


def test_a_cut_while_a_preset_above_the_chosen_one_is_deleted_keeps_the_choice():
    # The list and the choice are two files; the choice is kept by name, so a cut between
    # their writes cannot choose another preset (25 cut points once did).
    _cut_at_every_step(lambda app: app.delete_preset(1), ((16, "Blitz 3+2"), (15, "Blitz 3+2")))


def test_a_cut_while_the_chosen_preset_is_deleted_chooses_it_or_the_first():
    _cut_at_every_step(lambda app: app.delete_preset(3), ((16, "Blitz 3+2"), (15, "Blitz 5+3")))
