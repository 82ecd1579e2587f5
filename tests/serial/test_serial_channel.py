# SPDX-License-Identifier: MIT
# The serial channel in the app on the virtual HAL: every command's answers, line handling, no
# allocation while no line is complete. Plain asserts: pytest and the MicroPython unix port.
import gc
import json

import micropython

from app.presets import FILE as PRESETS_FILE
from app.presets import MAX_PRESETS, Presets
from app.serial_channel import MAX_LINE, LeaveForRepl
from hal import buttons as b
from notation import registry
from notation.errors import PresetError
from serial_fakes import SerialClock
from support import raises

MIN = 60000


def started(preset="Blitz 5+3"):
    clock = SerialClock(preset=preset)
    clock.press(b.RIGHT, 2000)
    clock.run_until(3000)
    assert clock.state() == "running"
    return clock


def test_help_lists_every_command_and_ends_with_ok():
    lines = SerialClock().ask("HELP")
    assert lines[-1] == "OK %d commands" % (len(lines) - 1)
    for verb in ("PRESET ADD", "PRESET LIST", "PRESET DEL", "PRESET USE", "STATE", "SET MUTE"):
        assert [line for line in lines if line.startswith(verb)], verb
    for line in lines[:-1]:
        assert not line.startswith("OK") and not line.startswith("ERR")


def test_list_numbers_presets_from_one_and_counts_them():
    clock = SerialClock()
    lines = clock.ask("preset list")  # keywords in any case
    count = len(clock.app.presets.items)
    assert lines[-1] == "OK %d presets" % count and len(lines) == count + 1
    assert lines[0] == "1 Blitz 5+3 = chessclock:G/5/3"
    assert lines[2] == "3 FIDE classical = chessclock:40/90/30, G/30/30"


def test_add_answers_the_number_and_description_and_stores_it():
    clock = SerialClock()
    lines = clock.ask("PRESET ADD FIDE rapid = chessclock:40/90/30, G/30/30")
    assert lines == ["OK added 17 FIDE rapid: 90 min + 30 s/move; +30 min after move 40"]
    stored = Presets(clock.storage)
    assert stored.items[16].name == "FIDE rapid"
    assert stored.items[16].spec == "chessclock:40/90/30, G/30/30"


def test_add_of_a_known_name_is_refused_with_both_readings_and_replace_replaces_it():
    clock = SerialClock()
    before = (
        clock.fs.files["/" + PRESETS_FILE][:] if "/" + PRESETS_FILE in clock.fs.files else None
    )
    assert clock.ask("Preset Add Blitz 3+2 = G/3/5") == [
        "ERR preset 4 Blitz 3+2 reads 3 min + 2 s/move; this reads 3 min + 5 s/move:"
        " PRESET REPLACE Blitz 3+2 = G/3/5 replaces it, or give another name"
    ]
    assert clock.app.presets.items[3].spec == "chessclock:G/3/2"
    assert clock.fs.files.get("/" + PRESETS_FILE) == before  # nothing stored
    assert clock.ask("Preset Replace Blitz 3+2 = G/3/5") == [
        "OK replaced 4 Blitz 3+2: 3 min + 5 s/move"
    ]
    assert Presets(clock.storage).items[3].spec == "chessclock:G/3/5"
    assert len(clock.app.presets.items) == 16


def test_add_of_a_known_name_that_reads_the_same_replaces_its_text():
    clock = SerialClock()
    assert clock.ask("PRESET ADD Blitz 3+2 = 3+2") == ["OK replaced 4 Blitz 3+2: 3 min + 2 s/move"]
    assert clock.app.presets.items[3].spec == "chessclock:3+2"


def test_replace_adds_a_name_not_there():
    clock = SerialClock()
    assert clock.ask("PRESET REPLACE Club = G/25/5") == ["OK added 17 Club: 25 min + 5 s/move"]
    assert clock.ask("PRESET REPLACE") == [
        "ERR usage: PRESET LIST | PRESET ADD <name> = <spec> | PRESET REPLACE <name> = <spec>"
        " | PRESET DEL <n> | PRESET USE <n>"
    ]
    assert clock.ask("PRESET REPLACE Club") == ["ERR usage: PRESET REPLACE <name> = <spec>"]


def test_an_invalid_preset_is_refused_with_the_parsers_message_and_nothing_stored():
    clock = SerialClock()
    clock.ask("PRESET ADD Mine = G/5/3")  # the presets file exists from here on
    before = clock.fs.files["/" + PRESETS_FILE][:]
    names = [item.name for item in clock.app.presets.items]
    error = raises(PresetError, registry.parse, "chessclock:40/90/30, X/30")
    lines = clock.ask("PRESET ADD Broken = chessclock:40/90/30, X/30")
    assert lines == ["ERR " + str(error)]
    assert "at character 11" in lines[0]
    assert clock.fs.files["/" + PRESETS_FILE] == before
    assert [item.name for item in clock.app.presets.items] == names


def test_add_needs_a_name_an_equals_sign_and_a_short_name():
    clock = SerialClock()
    assert clock.ask("PRESET ADD G/5/3") == ["ERR usage: PRESET ADD <name> = <spec>"]
    assert clock.ask("PRESET ADD = G/5/3")[0].startswith("ERR preset")
    assert "1 to 24 characters" in clock.ask("PRESET ADD %s = G/5/3" % ("x" * 25))[0]
    assert len(clock.app.presets.items) == 16


def test_delete_renumbers_keeps_the_choice_and_never_the_last():
    clock = SerialClock(preset="Blitz 3+2")  # number 4
    assert clock.ask("PRESET DEL 2") == ["OK deleted 2 Rapid 15+10"]
    assert clock.app.preset().name == "Blitz 3+2" and clock.app.chosen_index() == 2
    assert clock.ask("PRESET DEL 0") == ['ERR no preset "0" (they are 1 to 15)']
    assert clock.ask("PRESET DEL x")[0].startswith("ERR no preset")
    for _ in range(14):
        assert clock.ask("PRESET DEL 1")[0].startswith("OK deleted 1 ")
    assert clock.ask("PRESET DEL 1") == ["ERR the last preset cannot be deleted"]
    assert len(Presets(clock.storage).items) == 1


def test_deleting_the_chosen_preset_when_ready_chooses_the_first():
    clock = SerialClock(preset="Bullet 1+0")
    assert clock.ask("PRESET DEL 5") == ["OK deleted 5 Bullet 1+0; chosen now: 1 Blitz 5+3"]
    assert clock.app.preset().name == "Blitz 5+3" and clock.view(0).time_ms == 5 * MIN


def test_the_preset_of_the_game_in_progress_cannot_be_deleted():
    clock = started()
    lines = clock.ask("PRESET DEL 1")
    assert lines == ["ERR preset 1 is the game in progress's: finish it or start a new one first"]
    assert clock.ask("PRESET DEL 2") == ["OK deleted 2 Rapid 15+10"]  # another one may go
    assert clock.state() == "running"


def test_use_chooses_the_next_game_only_without_a_game_in_progress():
    clock = SerialClock()
    assert clock.ask("PRESET USE 5") == ["OK using 5 Bullet 1+0: 1 min"]
    assert clock.view(0).time_ms == MIN and clock.app.chosen_index() == 4
    assert clock.ask("PRESET USE 17") == ['ERR no preset "17" (they are 1 to 16)']
    clock.press(b.RIGHT, 2000)
    clock.run_until(3000)
    refused = "ERR a game is in progress: finish it or start a new one first"
    assert clock.ask("PRESET USE 1") == [refused]
    clock.press(b.PLAY, 4000)
    clock.run_until(5000)
    assert clock.state() == "paused"
    assert clock.ask("PRESET USE 1") == [refused]
    assert clock.app.preset().name == "Bullet 1+0"


def test_state_is_one_json_line_with_both_sides():
    clock = started()
    lines = clock.ask("STATE")
    assert len(lines) == 1 and lines[0].startswith("OK {")
    state = json.loads(lines[0][3:])
    assert state["state"] == "running" and state["preset"] == "Blitz 5+3"
    assert state["spec"] == "chessclock:G/5/3" and state["turn"] == "first"
    assert state["result"] is None and state["stamp"] == 3000
    left = state["left"]
    assert left["player"] == "first" and left["running"]
    assert left["remaining_ms"] == 5 * MIN + 3000 - 1000
    for key in ("stage", "periods_left", "moves_left", "reserve_ms", "penalty_ms", "flagged"):
        assert key in left and key in state["right"]
    assert state["right"]["remaining_ms"] == 5 * MIN and not state["right"]["running"]


def test_mute_and_stream_switch():
    clock = SerialClock()
    assert clock.ask("SET mute on") == ["OK mute on"]
    assert clock.app.settings.muted and clock.app.sounds.muted and clock.app.status.muted
    assert clock.ask("set MUTE off") == ["OK mute off"] and not clock.app.sounds.muted
    assert clock.ask("SET mute loud") == ["ERR usage: SET MUTE ON|OFF"]
    assert clock.ask("STREAM on") == ["OK stream on"] and clock.channel.streaming
    assert clock.ask("STREAM off") == ["OK stream off"] and not clock.channel.streaming
    assert clock.ask("STREAM") == ["ERR usage: STREAM ON|OFF"]


def test_repl_only_without_a_game_in_progress():
    clock = started()
    assert clock.ask("REPL") == ["ERR a game is in progress: finish it or start a new one first"]
    ready = SerialClock()
    raises(LeaveForRepl, ready.ask, "repl")
    assert ready.port.take() == ["OK leaving for the REPL"]
    assert SerialClock(repl=False).ask("REPL") == ["ERR no REPL to go to here"]


def test_mem_gives_the_heap_where_the_interpreter_has_figures():
    clock = started()
    lines = clock.ask("MEM")
    assert len(lines) == 1
    if hasattr(gc, "mem_free"):
        heap = json.loads(lines[0][3:])
        assert lines[0].startswith("OK {") and heap["used"] > 0 and heap["free"] > 0
        assert 0 < heap["largest"] <= heap["free"]
        bytearray(heap["largest"])  # a block that size is there
    else:
        assert lines == ["ERR no heap figures here"]
    assert clock.ask("MEM now") == ["ERR usage: MEM"]


def test_unknown_commands_and_extra_words_are_errors():
    clock = SerialClock()
    assert clock.ask("FLY away") == ['ERR unknown command "FLY" (HELP lists the commands)']
    assert clock.ask("STATE now") == ["ERR usage: STATE"]
    assert clock.ask("PRESET")[0].startswith("ERR usage: PRESET LIST")
    assert clock.ask("PING") == ["OK pong"]


def test_cr_lf_and_crlf_end_lines_and_empty_lines_are_ignored():
    clock = SerialClock()
    assert clock.send("PING\r\nPING\rPING\n\n\r\n  \r\n") == ["OK pong"] * 3


def test_an_over_long_line_is_discarded_to_its_end_and_answered_once():
    clock = SerialClock()
    assert clock.send("X" * 10240) == []  # no line end yet: no answer
    lines = clock.send("PRESET USE 5\nPING\n")
    assert lines == ["ERR line too long (max %d bytes)" % MAX_LINE, "OK pong"]
    assert clock.app.chosen_index() == 0  # the tail of the long line was not obeyed
    exact = "PRESET ADD %s = G/5/3" % ("n" * 10)
    exact = exact + " " * (MAX_LINE - len(exact))
    assert clock.ask(exact)[0].startswith("OK added")


def test_bytes_that_are_not_printable_ascii_make_the_line_an_error():
    clock = SerialClock()
    for noise in (b"PRESET USE 5\x03\n", b"\x00\x00\n", b"PRESET USE 5\xff\n", b"\x1b[A\n"):
        lines = clock.send(noise)
        assert len(lines) == 1 and lines[0].startswith("ERR byte 0x"), lines
    assert clock.send(b"\x03\n") == ["ERR byte 0x03 in the line: commands are printable ASCII"]
    assert clock.app.chosen_index() == 0
    assert clock.ask("PING") == ["OK pong"]


def test_a_pass_answers_a_few_lines_and_keeps_the_rest_for_the_next():
    clock = SerialClock()
    clock.port.feed(b"PING\n" * 6)
    clock.channel.poll(clock.hal.now)
    assert clock.port.take() == ["OK pong"] * 4 and clock.channel.backlog()
    clock.channel.poll(clock.hal.now)
    assert clock.port.take() == ["OK pong"] * 2 and not clock.channel.backlog()


def test_the_loop_wakes_promptly_while_a_host_talks():
    clock = SerialClock()
    now = clock.hal.now
    assert clock.channel.wake_by(now + 1000, now) == now + 1000  # nothing heard yet
    clock.ask("PING")
    assert clock.channel.wake_by(now + 1000, now) == now + 20
    assert clock.channel.wake_by(now + 5, now) == now + 5
    assert clock.channel.wake_by(now + 3000, now + 2500) == now + 3000  # quiet again


def locked_polls(clock, data):
    """Feed `data` (no complete line) and poll under heap_lock; whether it allocated."""
    clock.port.feed(data)
    channel = clock.channel
    now = clock.hal.now
    micropython.heap_lock()
    try:
        channel.poll(now)
        channel.poll(now)
        channel.poll(now)
    finally:
        micropython.heap_unlock()


def test_polls_without_a_complete_line_allocate_nothing():
    clock = started()
    clock.ask("PING")  # the commands module is loaded: nothing is left to load lazily
    locked_polls(clock, b"")
    locked_polls(clock, b"PRESET LI")
    locked_polls(clock, b"\x03\x00" + b"z" * 300)  # bad and over-long, still no line end
    assert clock.send("\n") == ["ERR line too long (max %d bytes)" % MAX_LINE]
    locked_polls(clock, b"STA")
    assert clock.send("TE\n")[0].startswith("OK {")


def test_a_full_list_is_refused_clearly_and_a_replacement_still_goes_in():
    clock = SerialClock()
    for number in range(17, MAX_PRESETS + 1):
        assert clock.ask("PRESET ADD Club %d = G/%d" % (number, number))[0].startswith("OK added")
    full = "ERR the list is full: %d presets at most; PRESET DEL <n> makes room" % MAX_PRESETS
    assert clock.ask("PRESET ADD Club 41 = G/41") == [full]
    assert clock.ask("PRESET REPLACE Club 40 = G/45") == ["OK replaced 40 Club 40: 45 min"]
    assert len(Presets(clock.storage).items) == MAX_PRESETS


def test_a_stored_list_longer_than_the_limit_loads_its_first_presets():
    clock = SerialClock()
    lines = ["Club %d = G/%d" % (number, number) for number in range(1, MAX_PRESETS + 6)]
    clock.storage.write(PRESETS_FILE, "\n".join(lines).encode())
    presets = Presets(clock.storage)
    assert len(presets.items) == MAX_PRESETS and presets.items[-1].name == "Club 40"
    assert len(presets.problems) == 5 and "the list is full" in presets.problems[0]
