# SPDX-License-Identifier: MIT
# A store that says no (full or worn flash) at any write: the clock never stops, charges every
# move exactly, changes nothing in memory it could not store, says so, and catches up once the
# store takes writes again.
from app.presets import Presets
from app.settings import Settings
from clock.game import View
from clock.record import AMOUNT, AT, CODE
from fakes.fake_fs import FakeFs
from hal import buttons as b
from serial_fakes import SerialClock
from support import parsers_kept

MIN = 60000
# Button presses at least 3.5 s apart while no clock runs: a note that a refused write put up
# (3 s) is gone before the next press, so every run plays the same game.
GAME = (
    (b.RIGHT, 2000),
    (b.LEFT, 5000),
    (b.RIGHT, 9000),
    (b.PLAY, 12000),  # paused
    (b.SET, 16000),  # the arbiter's menu: the left time
    (b.PLUS, 20000),  # +1 min
    (b.SET, 24000),  # the left time's seconds
    (b.MINUS, 28000),  # -1 s
    (b.PLAY, 32000),  # the menu closes
    (b.PLAY, 36000),  # resumed
    (b.LEFT, 40000),
    (b.RIGHT, 53000),  # a save at 50000 too: a move is saved every 10 s
)
COMMANDS = ("PRESET ADD Club = 25+10", "SET MUTE ON", "PRESET DEL 3", "PRESET USE 2")


def played(refuse_after=None):
    """The commands, then the game, on a store that says no after `refuse_after` steps."""
    fs = FakeFs()
    clock = SerialClock(fs=fs, start=500)
    clock.app.choose_preset(1)  # Rapid 15+10, stored
    fs.steps = 0
    fs.refuse_after = refuse_after
    answers = []
    for command in COMMANDS:
        answers.extend(clock.ask(command))
        clock.run_until(clock.hal.now + 100)
    for button, stamp in GAME:
        clock.press(button, stamp)
    clock.run_until(60000)
    return clock, answers


def figures(clock):
    """Both times at the end, and every entry of the record: kind, time, amount."""
    game = clock.app.game
    record = clock.app.record
    entries = [
        (record.field(i, CODE), record.field(i, AT), record.field(i, AMOUNT))
        for i in range(record.length)
    ]
    return game.view(0, 60000, View()).time_ms, game.view(1, 60000, View()).time_ms, entries


def test_the_game_is_charged_exactly_whatever_write_the_store_refuses():
    parsers_kept(_refused_at_every_step)


def _refused_at_every_step():
    clock, _answers = played()
    expected = figures(clock)
    total = clock.fs.steps
    # The files' writes and, in play, the slot ring's programs (hal/slots.py), a byte a step.
    assert total > 2500 and len(clock.fs.ends) >= 16 and clock.fs.flash.bytes_programmed > 200
    # Every 6th step (each write is longer), and the last steps of each write: its last byte,
    # its flush, its close, its rename; a program's last bytes.
    offsets = set(range(0, total + 1, 6))
    for end in clock.fs.ends:
        offsets.update(range(end - 3, end + 1))
    checked = 0
    for refuse_after in sorted(offsets):
        clock, answers = played(refuse_after)
        assert figures(clock) == expected, refuse_after
        _check_memory_is_storage(clock, answers, refuse_after)
        _check_it_catches_up(clock, refuse_after)
        checked += 1
    assert checked > 520


def _check_memory_is_storage(clock, answers, refuse_after):
    app = clock.app
    stored = Presets(clock.storage)
    assert [(p.name, p.spec) for p in stored.items] == [
        (p.name, p.spec) for p in app.presets.items
    ], refuse_after
    settings = Settings(clock.storage)
    assert settings.muted == app.settings.muted and app.sounds.muted == settings.muted
    assert stored.index_of(settings.chosen) == app.chosen_index(), refuse_after
    for answer in answers:
        assert (
            answer.startswith("OK ") or "could not be saved: the store is full" in answer
        ), answer
    if clock.fs.refused:
        assert app.store_problem == "the store is full", refuse_after
        state = clock.ask("STATE")[0]
        assert '"store": "the store is full"' in state, refuse_after
        if app._owed:
            assert app.status.message == "NO SAVE"


def _check_it_catches_up(clock, refuse_after):
    app = clock.app
    clock.fs.refuse_after = None
    clock.run_until(60000 + 6000)  # the retry, 5 s after the last refusal at the latest
    assert app.store_problem is None and app.status.message == "", refuse_after
    again = SerialClock(fs=clock.fs.copy(), start=100)
    assert again.state() == "resume", refuse_after
    assert again.app.game.plies() == app.game.plies() == 4


def test_a_store_that_refuses_a_preset_change_leaves_the_list_as_it_was():
    fs = FakeFs()
    clock = SerialClock(preset="Blitz 3+2", fs=fs)
    clock.ask("PRESET ADD Club = 25+10")
    before = [(p.name, p.spec) for p in clock.app.presets.items]
    fs.refuse_after = 0
    assert clock.ask("PRESET DEL 2") == [
        "ERR the presets could not be saved: the store is full"
    ]  # it once answered an internal error, the preset already gone from the list in memory
    assert clock.ask("PRESET REPLACE Club = 3+0")[0].startswith("ERR the presets could not")
    assert clock.ask("PRESET ADD Other = 3+0")[0].startswith("ERR the presets could not")
    assert clock.ask("PRESET USE 1") == ["ERR the choice could not be saved: the store is full"]
    assert clock.ask("SET MUTE ON")[0].startswith("ERR")
    assert [(p.name, p.spec) for p in clock.app.presets.items] == before
    assert clock.app.preset().name == "Blitz 3+2" and not clock.app.settings.muted


def test_a_game_whose_saves_are_refused_runs_on_and_says_so():
    fs = FakeFs()
    clock = SerialClock(preset="Blitz 5+3", fs=fs)
    fs.refuse_after = 0
    clock.press(b.RIGHT, 2000)
    clock.press(b.LEFT, 6000)
    clock.run_until(7000)  # once: OSError out of the loop at the first press
    assert clock.state() == "running" and clock.app.game.plies() == 1
    assert clock.view(0).time_ms == 5 * MIN + 3000 - 4000
    assert clock.app.status.message == "NO SAVE" and clock.app.top() is None
    clock.press(b.PLAY, 8000)
    clock.run_until(8100)
    assert clock.state() == "paused"
    fs.refuse_after = None
    clock.run_until(14000)  # the next try takes
    assert clock.app.status.message == "" and clock.app.store_problem is None
    again = SerialClock(fs=fs.copy(), start=100)
    again.press(b.SET, 200)
    again.run_until(300)
    assert again.state() == "paused" and again.view(0).time_ms == 5 * MIN + 3000 - 4000


def test_a_refused_write_while_no_clock_runs_puts_up_a_note_that_goes_by_itself():
    fs = FakeFs()
    clock = SerialClock(preset="Blitz 5+3", fs=fs)
    clock.press(b.RIGHT, 2000)
    clock.press(b.PLAY, 4000)
    clock.run_until(4500)
    fs.refuse_after = 0
    clock.press(b.SET, 5000)  # the arbiter's menu
    clock.press(b.PLUS, 6000)  # +1 min: its save is refused
    clock.run_until(6200)
    assert clock.state() == "confirm" and clock.app.open_menu().title == "Not saved"
    assert "the store is full" in clock.app.open_menu().lines()
    clock.run_until(9200)
    assert clock.state() == "arbiter"  # the note went; the menu it lay over is there
    assert clock.view(0).time_ms == 5 * MIN + 3000 - 2000 + MIN  # the correction stands


def test_a_preset_chosen_in_the_menu_on_a_full_store_changes_nothing():
    fs = FakeFs()
    clock = SerialClock(fs=fs)
    fs.refuse_after = 0
    clock.press(b.SET, 1000)
    clock.press(b.PLUS, 2000)
    clock.press(b.SET, 3000)  # choose the second preset: refused
    clock.run_until(3500)
    assert clock.state() == "confirm" and clock.app.open_menu().title == "Not saved"
    assert clock.app.chosen_index() == 0
    clock.run_until(7000)
    assert clock.state() == "menu"  # back in the menu, on the preset it was on


def test_switching_off_with_a_game_the_store_refuses_stays_on_and_says_so():
    fs = FakeFs()
    clock = SerialClock(preset="Blitz 5+3", fs=fs)
    clock.press(b.RIGHT, 2000)
    clock.press(b.LEFT, 4000)
    clock.press(b.PLAY, 6000)
    clock.run_until(6500)
    fs.refuse_after = 0
    clock.press(b.SET, 7000, 5500)  # held into the OFF hold: its save is refused
    clock.run_until(12700)
    assert clock.state() == "confirm" and clock.app.open_menu().title == "Not saved"
    assert not clock.hal.standing_by and clock.app.game.plies() == 1
    fs.refuse_after = None
    clock.run_until(20000)  # the retry takes; the note has gone
    assert clock.app.store_problem is None and clock.state() == "paused"
    clock.press(b.SET, 21000, 5500)
    clock.run_until(26700)
    assert clock.state() == "off" and clock.hal.standing_by
    again = SerialClock(fs=fs.copy(), start=100)
    assert again.state() == "resume" and again.app.game.plies() == 1
