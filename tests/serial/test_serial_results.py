# SPDX-License-Identifier: MIT
# Over serial, nothing clears a finished game's result but NEW, nothing drops a game in progress,
# and nothing stores a preset the clock would not read back as it was added.
from hal import buttons as b
from serial_fakes import SerialClock

MIN = 60000


def flagged():
    clock = SerialClock(preset="Bullet 1+0")
    clock.press(b.RIGHT, 1000)
    clock.run_until(1000 + MIN + 500)
    assert clock.state() == "over" and clock.app.game.reason() == 1
    return clock


def test_use_over_a_finished_game_chooses_the_next_preset_and_keeps_the_result():
    clock = flagged()
    frame = bytes(clock.hal.display.frame)
    assert clock.ask("PRESET USE 2") == [
        "OK chosen 2 Rapid 15+10 for the next game: 15 min + 10 s/move; the result stays on"
        " the clock until NEW"
    ]  # once: "OK using 2 ...", the flag and the final times gone
    clock.run_until(clock.hal.now + 500)
    assert clock.state() == "over" and clock.app.game.end_stamp() == 1000 + MIN + 1
    assert bytes(clock.hal.display.frame) == frame
    assert clock.ask("PRESET REPLACE Typed in the page = 3+2")[0].startswith("OK added 17")
    assert clock.ask("PRESET USE 17")[0].startswith("OK chosen 17")  # as the page's box does
    assert clock.state() == "over" and clock.app.preset().name == "Typed in the page"
    assert clock.ask("NEW") == ["OK new game on 17 Typed in the page"]
    clock.run_until(clock.hal.now + 500)
    assert clock.state() == "ready" and clock.view(0).time_ms == 3 * MIN


def test_new_drops_no_game_in_progress_and_waits_for_the_menu():
    clock = SerialClock(preset="Blitz 5+3")
    clock.press(b.RIGHT, 1000)
    clock.run_until(2000)
    refused = "ERR a game is in progress: only the clock drops it (SET held 2.5 s, then SET: yes)"
    assert clock.ask("NEW") == [refused]
    clock.press(b.PLAY, 3000)
    clock.run_until(3500)
    assert clock.ask("NEW") == [refused] and clock.state() == "paused"
    ready = SerialClock()
    ready.press(b.SET, 1000)  # the preset menu
    ready.run_until(1500)
    assert ready.ask("NEW") == ["ERR close the menu on the clock first"]
    assert ready.ask("new") == ["ERR close the menu on the clock first"]
    assert ready.ask("NEW now") == ["ERR usage: NEW"]


def test_a_name_the_presets_file_would_read_as_a_comment_is_refused():
    clock = SerialClock()
    answer = clock.ask("PRESET ADD #1 club = 25+10")
    assert answer == [
        "ERR preset \"#1 club\": a name does not start with '#' (the presets file reads that"
        " as a comment)"
    ]  # once: "OK added", and the stored line read back as a comment after a restart
    assert len(clock.app.presets.items) == 16
    assert clock.ask("PRESET ADD Club #1 = 25+10")[0].startswith("OK added 17 Club #1")
    again = SerialClock(fs=clock.fs)
    assert again.app.presets.items[16].name == "Club #1"


def test_state_says_what_the_store_said():
    clock = SerialClock()
    assert '"store": null' in clock.ask("STATE")[0]
