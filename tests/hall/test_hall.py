# SPDX-License-Identifier: MIT
# The hall link on a broker in memory: the state and record out at every event, commands in, a
# broker that goes away. Both interpreters.
import json

from app import game_record
from app import hall as halls
from fakes.fake_mqtt import FakeBroker, FakeTransport
from hal import buttons as b
from harness import Clock
from hall_clock import TOPIC, command, hall_clock, log_of, settle, state
from support import raises


def game_log(clock):
    parts = []
    game_record.write(clock.app, parts.append)
    return json.loads("".join(parts))["clock"]["log"]


def test_every_event_publishes_the_state_retained_and_the_record_entries():
    broker = FakeBroker()
    clock = hall_clock(FakeTransport(broker))
    settle(clock)
    assert json.loads(broker.retained[(TOPIC + "alive").encode()])["online"] is True
    hello = state(broker)
    assert (hello["hall"], hello["board"], hello["state"], hello["event"]) == (
        "club",
        12,
        "ready",
        "hello",
    )
    clock.press(b.RIGHT, 2000)  # the left clock starts
    clock.press(b.LEFT, 10000)  # ply 1: 8 s
    clock.press(b.RIGHT, 22500)  # ply 2: 12.5 s
    settle(clock, 23000)
    now = state(broker)
    assert now["event"] == "press" and now["plies"] == 2 and now["turn"] == "first"
    assert now["left"]["running"] and now["left"]["rate"] == -1 and now["right"]["rate"] == 0
    # 5 min + 3 s (given as a move begins): 303 - 8 + 3 = 298 s on the left at the second
    # press, the instant the state was sent at
    assert now["left"]["remaining_ms"] == 298000 and now["stamp"] == 22500
    assert now["at"] == 22500 and now["dropped"] == 0
    assert log_of(broker) == game_log(clock)
    events = [json.loads(p)["event"] for p in broker.on(TOPIC + "event")]
    assert events[:3] == ["start", "press", "press"], events


def test_a_pause_and_a_correction_on_the_clock_reach_the_broker():
    broker = FakeBroker()
    clock = hall_clock(FakeTransport(broker))
    clock.press(b.RIGHT, 2000)
    clock.press(b.LEFT, 5000)
    clock.press(b.PLAY, 6000)
    clock.press(b.SET, 7000)  # the arbiter's menu: PLUS adds a minute to the left clock
    clock.press(b.PLUS, 8000)
    settle(clock, 9000)
    assert state(broker)["state"] == "arbiter"
    # left: 303 - 3 s, and a minute; right: 303 - 1 s when paused
    assert state(broker)["left"]["remaining_ms"] == 300000 + 60000
    assert state(broker)["right"]["remaining_ms"] == 302000
    assert log_of(broker) == game_log(clock)
    assert log_of(broker)[-1]["entry"] == "adjust"


def test_commands_apply_where_the_buttons_could_and_are_answered():
    broker = FakeBroker()
    clock = hall_clock(FakeTransport(broker))
    settle(clock)
    said = command(broker, clock, seq=1, do="pause", by="Anna")
    assert (said["ok"], said["said"], said["by"], said["board"]) == (
        False,
        "no clock runs",
        "Anna",
        12,
    )
    said = command(broker, clock, seq=2, do="preset", spec="3+2", name="Round 1")
    assert said["ok"] and said["said"] == "using Round 1: 3 min + 2 s/move", said
    assert state(broker)["preset"] == "Round 1" and state(broker)["seq"] == 2
    said = command(broker, clock, seq=3, do="start", in_ms=5000)
    assert said["ok"] and said["said"] == "starts in 5000 ms"
    started_at = clock.hal.now + 5000
    settle(clock, started_at + 1000)
    assert clock.app.game.state() == 1  # RUNNING
    assert state(broker)["left"]["running"] and state(broker)["at"] == started_at
    assert state(broker)["left"]["remaining_ms"] == 180000 + 2000  # Fischer, as the move begins
    assert state(broker)["stamp"] == started_at
    late = json.loads(broker.on(TOPIC + "answer")[-1])
    assert (late["seq"], late["said"]) == (3, "started")
    said = command(broker, clock, seq=4, do="adjust", side="left", ms=60000)
    assert not said["ok"] and said["said"] == "pause the clock first"
    assert command(broker, clock, seq=5, do="pause")["said"] == "paused"
    said = command(broker, clock, seq=6, do="adjust", side="right", ms=-30000)
    assert said["ok"], said
    assert state(broker)["right"]["remaining_ms"] == 180000 - 30000
    assert command(broker, clock, seq=7, do="moves", side="left", moves=20)["ok"]
    assert state(broker)["left"]["moves"] == 20
    assert command(broker, clock, seq=8, do="resume")["said"] == "resumed"
    assert command(broker, clock, seq=9, do="end")["said"] == "pause the clock first"
    assert command(broker, clock, seq=10, do="pause")["ok"]
    assert command(broker, clock, seq=11, do="end")["said"] == "game ended by the arbiter"
    assert state(broker)["state"] == "over" and state(broker)["result"] == {"reason": "arbiter"}
    assert command(broker, clock, seq=12, do="new")["ok"]
    assert state(broker)["state"] == "ready"
    assert log_of(broker) == game_log(clock)  # the last game's, till the next starts


def test_a_replayed_command_is_refused_and_the_number_survives_a_restart():
    broker = FakeBroker()
    clock = hall_clock(FakeTransport(broker))
    clock.press(b.RIGHT, 2000)
    settle(clock, 3000)
    assert command(broker, clock, seq=5, do="pause")["ok"]
    said = command(broker, clock, seq=5, do="resume")
    assert not said["ok"] and said["said"] == "replayed: seq 5, the clock is at 5"
    assert command(broker, clock, seq=4, do="resume")["ok"] is False
    assert clock.app.game.state() == 2  # still PAUSED
    again = halls.HallSettings(clock.storage)
    assert (again.get("seq"), again.get("board"), again.get("hall")) == (5, 12, "club")


def test_what_is_not_a_command_is_answered_as_an_error_and_touches_nothing():
    broker = FakeBroker()
    clock = hall_clock(FakeTransport(broker))
    clock.press(b.RIGHT, 2000)
    settle(clock, 3000)
    before = clock.app.game.snapshot(3000)
    bad = [
        (b"\xff\xfe", None, "not UTF-8"),
        (b"not json", None, "not JSON"),
        (b"[1, 2]", None, "not a JSON object"),
        (b'{"do": "pause"}', None, "seq: expected a whole number from 1 to 1073741823"),
        (b'{"seq": 0, "do": "pause"}', None, "seq: expected"),
        (b'{"seq": true, "do": "pause"}', None, "seq: expected"),
        (b'{"seq": 1000000000000000000000000000000, "do": "pause"}', None, "seq: expected"),
        (b'{"seq": 9, "do": "explode"}', 9, "do: expected one of preset, new"),
        (b'{"seq": 9, "do": "adjust", "side": "up", "ms": 1000}', 9, "side: expected"),
        (b'{"seq": 9, "do": "adjust", "side": "left", "ms": 1e9}', 9, "ms: expected"),
        (b'{"seq": 9, "do": "start", "in_ms": -5}', 9, "in_ms: expected"),
        (b'{"seq": 9, "do": "pause", "by": "' + b"x" * 60 + b'"}', 9, "by: expected"),
        (b'{"seq": 9, "do": "pause", "pad": "' + b"x" * 600 + b'"}', None, "636 bytes, over 512"),
        (b"[" * 200 + b"]" * 200, None, ("not JSON", "not a JSON object")),  # deep: either
    ]
    for payload, _seq, _said in bad:
        broker.deliver(TOPIC + "cmd", payload)
    settle(clock, 4000)
    answers = [json.loads(p) for p in broker.on(TOPIC + "answer")]
    assert len(answers) == len(bad), answers
    for answer, (_payload, seq, said) in zip(answers, bad):
        assert answer["ok"] is False and answer["error"] is True and answer["board"] == 12
        assert answer["seq"] == seq, (answer, seq)
        saids = said if isinstance(said, tuple) else (said,)
        assert [s for s in saids if answer["said"].startswith("not a command: " + s)], answer
    link = clock.app.hall.link
    assert link.refused == len(bad)
    assert clock.app.hall.notes[-1].startswith("dropped a command: ")
    assert clock.app.game.snapshot(3000) == before and clock.app.game.state() == 1
    assert clock.app.hall.seq == 0


def test_a_number_that_would_run_ahead_is_refused_and_the_next_one_taken():
    broker = FakeBroker()
    clock = hall_clock(FakeTransport(broker))
    settle(clock)
    said = command(broker, clock, seq=1001, do="new")
    assert not said["ok"], said
    assert said["said"] == "seq 1001 is too far ahead: the clock is at 0, the next is 1"
    assert clock.app.hall.seq == 0
    assert command(broker, clock, seq=1000, do="new")["ok"]  # within 1000 of the last
    assert command(broker, clock, seq=1001, do="new")["ok"]
    assert halls.HallSettings(clock.storage).get("seq") == 1001


def hall_writes(clock):
    """Every write to hall.txt or the outbox, with whether a clock was running then."""
    writes = []
    fs = clock.fs
    opened = fs.open

    def open_(path, mode="r"):
        if "w" in mode and (path.startswith("/hall.txt") or path.startswith("/outbox")):
            writes.append((path, clock.app.game.state() == 1))
        return opened(path, mode)

    fs.open = open_
    clock.storage._open = open_
    return writes


def test_no_write_for_the_hall_while_a_clock_runs():
    broker = FakeBroker()
    clock = hall_clock(FakeTransport(broker))
    writes = hall_writes(clock)
    clock.press(b.RIGHT, 2000)
    settle(clock, 3000)
    # refused while running (a correction needs a pause): the number is kept, not stored
    assert not command(broker, clock, seq=1, do="adjust", side="left", ms=5000)["ok"]
    assert clock.app.hall.seq == 1 and halls.HallSettings(clock.storage).get("seq") == 0
    assert command(broker, clock, seq=2, do="pause")["ok"]  # the pause: stored at its pass
    assert halls.HallSettings(clock.storage).get("seq") == 2
    assert command(broker, clock, seq=3, do="end")["ok"]
    settle(clock, clock.hal.now + 100)
    assert len(clock.app.hall.outbox) == 1
    assert writes and not [path for path, running in writes if running], writes


def test_a_broker_down_never_stops_the_clock_and_the_link_catches_up():
    broker = FakeBroker()
    transport = FakeTransport(broker)
    clock = hall_clock(transport)
    clock.press(b.RIGHT, 2000)
    settle(clock, 3000)
    broker.down = True
    transport.drop()
    assert json.loads(broker.retained[(TOPIC + "alive").encode()])["online"] is False
    alone = Clock(preset="Blitz 5+3")  # the same game on a clock in no hall
    alone.press(b.RIGHT, 2000)
    stamp = 4000
    for ply in range(40):  # 40 presses, 2 s each, none of them sent
        stamp += 2000
        for one in (clock, alone):
            one.press(b.LEFT if ply % 2 == 0 else b.RIGHT, stamp)
    clock.run_until(stamp + 500)
    alone.run_until(stamp + 500)
    assert clock.app.game.plies() == 40
    assert clock.app.game.snapshot(stamp + 500) == alone.app.game.snapshot(stamp + 500)
    assert clock.hal.display.frame == alone.hal.display.frame
    link = clock.app.hall.link
    assert not link.online and link.dropped == 40 - 16  # the ring keeps the newest 16
    broker.down = False
    settle(clock, stamp + 12000)  # the next try comes within the longest wait, 10 s
    assert link.online and transport.connects == 2
    now = state(broker)
    assert now["plies"] == 40 and now["dropped"] == 24
    assert log_of(broker) == game_log(clock)  # the record again, from its first entry


def test_a_display_gone_dark_and_a_store_refusing_reach_the_hall_within_a_heartbeat():
    broker = FakeBroker()
    clock = hall_clock(FakeTransport(broker))
    health = [True, 0, 0, 0]  # as an OLED driver counts: showing, lost, recovered, failed
    clock.hal.display.health = lambda: tuple(health)
    clock.press(b.RIGHT, 2000)
    settle(clock, 3000)
    assert state(broker)["display"] == {
        "showing": True,
        "lost": 0,
        "recovered": 0,
        "failed_writes": 0,
    }
    assert state(broker)["store"] is None
    health[:] = [False, 1, 0, 1]  # the panel stops taking frames: no event says so
    settle(clock, 8100)  # the heartbeat at 8 s
    now = state(broker)
    assert now["display"]["showing"] is False and now["display"]["lost"] == 1
    assert now["plies"] == 0 and now["left"]["running"]  # the game goes on, as it was
    sent = len(broker.on(TOPIC + "state"))
    settle(clock, 13100)  # a heartbeat with nothing changed: no state again
    assert len(broker.on(TOPIC + "state")) == sent
    health[:] = [True, 1, 1, 1]
    clock.fs.refuse_after = 0  # the store refuses the running game's next save (every 10 s)
    refused = until(clock, lambda: clock.app.store_problem is not None, 12000)
    settle(clock, refused + 5000)
    now = state(broker)
    assert now["display"] == {"showing": True, "lost": 1, "recovered": 1, "failed_writes": 1}
    assert now["store"] == clock.app.store_problem  # the clock's own words for it
    clock.fs.refuse_after = None
    taken = until(clock, lambda: clock.app.store_problem is None, 12000)
    settle(clock, taken + 5000)
    assert state(broker)["store"] is None and state(broker)["left"]["running"]


def until(clock, condition, longest):
    """The clock run 100 ms at a time till `condition()` holds (within `longest` ms): when."""
    end = clock.hal.now + longest
    while not condition():
        assert clock.hal.now < end, "not within %d ms" % longest
        clock.run_until(clock.hal.now + 100)
    return clock.hal.now


def test_settings_over_serial():
    from serial_fakes import SerialClock

    clock = SerialClock()
    assert clock.ask("SET BOARD 12") == ["OK board 12"]
    assert clock.ask("SET HALL Club-Open_2") == ["OK hall Club-Open_2"]
    assert clock.ask("SET HALL a/b")[0].startswith("ERR usage: SET HALL")
    assert clock.ask("SET BOARD 10000")[0].startswith("ERR usage: SET BOARD")
    assert clock.ask("SET BROKER 192.168.1.5 1883 clock-12 s3cret") == [
        "OK broker 192.168.1.5 port 1883"
    ]
    assert clock.ask("SET WIFI hall-net pass word") == ["OK wifi hall-net"]
    said = json.loads(clock.ask("HALL")[0][3:])
    assert said["board"] == 12 and said["hall"] == "Club-Open_2" and "password" not in said
    assert said["broker"] == "192.168.1.5:1883" and said["wifi"] == "hall-net"
    again = halls.HallSettings(clock.storage)
    assert (again.get("password"), again.get("wifi")) == ("s3cret", "pass word")


def test_commands_over_serial_the_gateways_way():
    from serial_fakes import SerialClock

    clock = SerialClock()
    answer = clock.ask('HALL CMD {"seq": 1, "do": "start"}')[0]
    assert answer.startswith("OK ") and json.loads(answer[3:])["said"] == "started"
    assert clock.app.game.state() == 1
    assert clock.ask("HALL CMD {nope")[0] == "ERR not a command: not JSON"
    said = json.loads(clock.ask('HALL CMD {"seq": 1, "do": "pause"}')[0][3:])
    assert said["ok"] is False and said["said"].startswith("replayed")


def test_parse_refuses_what_is_not_a_command():
    error = raises(halls.CommandError, halls.parse, b"x" * 513)
    assert str(error) == "513 bytes, over 512"
    assert halls.parse('{"seq": 3, "do": "start"}')[:2] == (3, "start")


def test_a_new_board_or_hall_starts_the_numbers_over_the_same_one_does_not():
    broker = FakeBroker()
    clock = hall_clock(FakeTransport(broker))
    settle(clock)
    assert command(broker, clock, seq=7, do="new")["ok"]
    hall = clock.app.hall
    hall.set(board=12, hall="club")  # set up again as it was: the number stands
    assert hall.seq == 7 and halls.HallSettings(clock.storage).get("seq") == 7
    hall.set(board=13)  # another board: its commands are numbered from 1
    assert hall.seq == 0 and halls.HallSettings(clock.storage).get("seq") == 0
