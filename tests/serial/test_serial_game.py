# SPDX-License-Identifier: MIT
# GAME and the stream's press entries: the game's record on the serial line, as docs/records.md
# gives it. Plain asserts: pytest and the MicroPython unix port.
import json
import sys

from hal import buttons as b
from serial_fakes import SerialClock


def game(clock):
    lines = clock.ask("GAME")
    assert len(lines) == 1 and lines[0].startswith("OK "), lines
    return json.loads(lines[0][3:])


def played(preset, presses):
    """A game of `preset`: the right lever at 1000 starts it, then (stamp, button) presses."""
    clock = SerialClock(preset=preset)
    clock.press(b.RIGHT, 1000)
    last = 1000
    for stamp, button in presses:
        clock.press(button, stamp)
        last = stamp
    clock.run_until(last + 300)
    return clock


def test_before_any_game_game_says_there_is_none():
    assert SerialClock().ask("GAME") == ["ERR no game has started yet"]
    assert SerialClock().ask("GAME now") == ["ERR usage: GAME"]


def test_game_feeds_the_watchdog_as_it_writes_a_long_record():
    presses = [(2000 + 1000 * ply, b.LEFT if ply % 2 else b.RIGHT) for ply in range(1, 41)]
    clock = played("Blitz 5+3", presses)
    fed = clock.hal.fed
    assert len(game(clock)["plies"]) == 40
    assert clock.hal.fed - fed >= 80  # a piece of each ply's elapsed time and log entry


def test_game_is_a_pcn_record_with_the_clocks_own_field():
    clock = played("Blitz 5+3", [(9000, b.LEFT), (21000, b.RIGHT), (24000, b.LEFT)])
    record = game(clock)
    assert record["periods"] == [{"duration_ms": 300000, "increment_ms": 3000}]
    assert record["plies"] == [{"elapsed_ms": 8000}, {"elapsed_ms": 12000}, {"elapsed_ms": 3000}]
    loaded = [name for name in sys.modules if name.startswith("notation.")]
    assert loaded == ["notation.errors"]  # the notation modules GAME used are unloaded again
    own = record["clock"]
    state = json.loads(clock.ask("STATE")[0][3:])
    assert state["entries"] == len(own["log"]) == 3
    assert own["preset"] == "chessclock:G/5/3" and own["name"] == "Blitz 5+3"
    assert own["reads"] == "5 min + 3 s/move"
    assert own["state"] == "running" and own["result"] is None and own["complete"]
    assert [entry["entry"] for entry in own["log"]] == ["ply", "ply", "ply"]
    assert own["log"][1] == {
        "entry": "ply",
        "side": "second",
        "ply": 2,
        "elapsed_ms": 12000,
        "first": {"remaining_ms": 298000, "stage": 0},
        "second": {"remaining_ms": 291000, "stage": 0},
    }


def test_an_undo_leaves_the_plies_and_stays_in_the_log():
    clock = played(
        "Rapid 15+10",
        [
            (5000, b.LEFT),
            (7000, b.RIGHT),
            (7500, b.PLAY),
            (8000, b.MINUS),
            (8500, b.MINUS),
            (9000, b.PLAY),
        ],
    )
    clock.press(b.RIGHT, 10000)
    clock.run_until(10300)
    record = game(clock)
    assert [entry["entry"] for entry in record["clock"]["log"]] == ["ply", "ply", "undo", "ply"]
    # The second ply ran 2 s, was taken back at 8 s, and the move went on from 9 s to 10 s.
    assert record["plies"] == [{"elapsed_ms": 4000}, {"elapsed_ms": 3000}]
    undo = record["clock"]["log"][2]
    assert undo["ply"] == 2 and undo["side"] == "second"


def test_byo_yomi_has_no_pcn_periods_and_says_the_periods_left():
    clock = played("Go 30m 5x30s byoyomi", [(1000 + 30 * 60000 + 45000, b.LEFT)])
    record = game(clock)
    assert "periods" not in record  # several periods: PCN cannot say them; clock.preset does
    first = record["clock"]["log"][0]["first"]
    assert first == {"remaining_ms": 30000, "stage": 1, "periods_left": 4}


def test_a_finished_game_gives_its_result_and_stays_after_a_new_setup():
    clock = played("Bullet 1+0", [(3000, b.LEFT)])
    clock.run_until(70000)  # the second player's minute runs out at 63 s
    record = game(clock)
    end = record["clock"]["log"][-1]
    assert end["entry"] == "end" and end["side"] == "second" and end["at_ms"] == 60001
    assert end["result"] == {"reason": "time", "loser": "second"}
    assert record["clock"]["state"] == "over"
    assert record["clock"]["result"] == {"reason": "time", "loser": "second"}
    clock.app.new_game()
    assert game(clock)["plies"] == record["plies"]


def test_the_stream_sends_each_press_with_its_ply_entry():
    clock = SerialClock(preset="Blitz 5+3")
    assert clock.ask("STREAM ON") == ["OK stream on"]
    clock.press(b.RIGHT, 1000)
    clock.press(b.LEFT, 9000)
    clock.run_until(9300)
    events = [json.loads(line[3:]) for line in clock.port.take() if line.startswith("EV ")]
    assert [event["event"] for event in events] == ["start", "press"]
    press = events[1]
    assert press["entries"] == 1
    assert press["entry"]["ply"] == 1 and press["entry"]["elapsed_ms"] == 8000
    assert press["entry"]["first"] == {"remaining_ms": 295000, "stage": 0}
    assert "entry" not in events[0] and events[0]["entries"] == 0


def test_a_press_is_on_the_display_before_its_event_goes_out():
    clock = SerialClock(preset="Blitz 5+3")
    clock.ask("STREAM ON")
    clock.press(b.RIGHT, 1000)
    clock.press(b.LEFT, 9000)
    clock.run_until(8990)
    clock.port.take()
    order = []
    show, write = clock.hal.display.show, clock.port.write
    clock.hal.display.show = lambda frame, dirty=None: order.append("frame") or show(frame, dirty)
    clock.port.write = lambda data: order.append(bytes(data)[:3]) or write(data)
    clock.run_until(9000)  # the pass that takes the press
    assert order[:2] == ["frame", b"EV "], order
    press = json.loads(clock.port.take()[0][3:])
    assert press["event"] == "press" and press["entry"]["elapsed_ms"] == 8000


def test_a_correction_before_the_first_ply_is_the_logs_first_entry():
    clock = played("Rapid 15+10", [(5000, b.PLAY)])  # paused 4 s into the first move
    clock.app.game.adjust_time(0, 60000)  # as the arbiter menu's correction does
    record = game(clock)
    assert record["plies"] == []
    first = record["clock"]["log"][0]
    assert first["entry"] == "adjust" and first["at_ms"] == 4000 and first["amount_ms"] == 60000
    assert first["first"]["remaining_ms"] == 15 * 60000 + 10000 - 4000 + 60000
