# SPDX-License-Identifier: MIT
# A Wi-Fi clock's network (app/hall_net.py) on a fake `network` module with real state, its link on
# a broker in memory: it joins in the background, connects only once joined, says NET or NO NET,
# notices a lost network within 5 s, comes back by itself, and plays exactly as a clock in no hall
# all along, with no chip at all too. Both interpreters.
import json

from app import hall as halls
from app import hall_net
from fakes.fake_mqtt import FakeBroker, FakeTransport
from fakes.fake_network import JOIN_MS, Air
from hal import buttons as b
from harness import Clock
from hall_clock import KEY, SSID, log_of, state, wifi_clock

# Presses (button, stamp): a start and 11 plies of a 5+3 game, 2.5 s to 9 s apart.
PRESSES = [(b.RIGHT, 2000)]
for _ply in range(11):
    PRESSES.append((b.LEFT if _ply % 2 == 0 else b.RIGHT, 4500 + 6500 * _ply))


def play(clock, presses=PRESSES, until=80000):
    for button, stamp in presses:
        clock.press(button, stamp)
    clock.run_until(until)


def same_play(clock, presses=PRESSES, until=80000):
    """Whether the clock's game and display (but the status line, page 7) are those of a
    clock in no hall after the same presses."""
    alone = Clock(preset="Blitz 5+3")
    play(alone, presses, until)
    game = clock.app.game
    return (
        game.snapshot(until) == alone.app.game.snapshot(until)
        and game.plies() == alone.app.game.plies()
        and clock.hal.display.frame[:896] == alone.hal.display.frame[:896]
    )


def word(clock):
    """The status line's message as the app last drew it."""
    return clock.app.status.message


def test_it_joins_in_the_background_and_connects_only_once_joined():
    clock = wifi_clock()
    air = clock.air
    assert air.called("active") == [1000]  # the chip started at boot, before the loop
    assert air.called("connect") == [1000]
    clock.run_until(1000 + JOIN_MS - 1)
    assert clock.net.state == hall_net.JOINING and clock.transport.connects == 0
    assert word(clock) == "NO NET" and clock.broker.log == []
    polls = air.called("status")
    assert polls and all(later - earlier >= 2000 for earlier, later in zip(polls, polls[1:]))
    clock.run_until(7000)  # joined at the poll after 4000: the link connects at once
    assert clock.app.hall.link.online and clock.transport.connects == 1
    assert word(clock) == "NET"
    assert state(clock.broker)["board"] == 12
    said = clock.app.hall.notes
    assert "Wi-Fi: joined hall-net" in said and "broker: online as clock/club/12/" in said


def test_a_lost_network_is_noticed_within_5_s_and_the_clock_plays_on():
    clock = wifi_clock()
    clock.run_until(10000)
    assert clock.app.hall.link.online
    clock.press(b.RIGHT, 12000)
    clock.press(b.LEFT, 15000)
    clock.run_until(20000)
    clock.air.close(SSID)  # the access point goes at 20 s
    clock.press(b.RIGHT, 21000)
    clock.run_until(26000)
    assert not clock.net.up and not clock.app.hall.link.online
    assert not clock.transport.connected  # closed at once: a socket would hang on
    assert word(clock) == "NO NET"
    assert "Wi-Fi: lost (status 1)" in clock.app.hall.notes
    published = len(clock.broker.log)
    presses = [(b.RIGHT, 12000), (b.LEFT, 15000), (b.RIGHT, 21000)]
    presses += [(b.LEFT, 30000), (b.RIGHT, 33500)]
    for button, stamp in presses[3:]:
        clock.press(button, stamp)
    clock.run_until(38000)
    assert len(clock.broker.log) == published  # nothing goes out without the network
    assert same_play(clock, presses, 38000)  # charged exactly as a clock in no hall
    # The access point is back within 20 s: the chip rejoins by itself, the link comes back
    # with the state and the record.
    clock.air.open(SSID, KEY)
    clock.run_until(38000 + JOIN_MS + 2000 + 1000)
    assert clock.net.up and clock.app.hall.link.online and word(clock) == "NET"
    assert state(clock.broker)["plies"] == 4
    assert [entry["entry"] for entry in log_of(clock.broker)].count("ply") == 4
    assert clock.air.called("connect") == [1000]  # no new join was needed


def test_a_network_gone_for_good_is_joined_again_with_backoff():
    clock = wifi_clock()
    clock.run_until(10000)
    clock.air.close(SSID)
    clock.run_until(200000)
    connects = clock.air.called("connect")
    # lost by 15 s, given 20 s to come back, then joins 5, 10, 20, 40 s apart (each 20 s long)
    assert 3 <= len(connects) <= 6, connects
    gaps = [later - earlier for earlier, later in zip(connects[1:], connects[2:])]
    assert gaps == sorted(gaps), connects
    assert word(clock) == "NO NET" and not clock.app.hall.link.online
    assert len(clock.air.called("status")) <= 200000 // 2000 + 1


def test_a_wrong_password_is_said_and_tried_again_later():
    air = None
    clock = wifi_clock(air)
    clock.air.points[SSID] = "another-key"
    clock.run_until(30000)
    notes = clock.app.hall.notes
    assert "Wi-Fi: wrong password; again in 5 s" in notes, notes
    assert not clock.app.hall.link.online and word(clock) == "NO NET"
    assert 2 <= len(clock.air.called("connect")) <= 3
    said = clock.app.hall.net.status()
    assert said["state"] in ("joining", "waiting") and said["joins"] >= 2


def test_no_wireless_chip_the_clock_plays_standalone_and_says_so():
    clock = wifi_clock(chip=False)
    air = clock.air
    assert air.called("active") == [1000] and air.called("connect") == [1000]
    assert clock.net.state == hall_net.DEAD
    play(clock)
    assert same_play(clock)
    assert word(clock) in ("NO NET", "")  # a game over has its own word
    assert len(air.calls) == 2  # the chip is never asked again
    note = clock.app.hall.notes[0]
    assert note.startswith("Wi-Fi: the wireless chip did not start"), note
    assert clock.broker.log == []


def test_a_clock_with_no_wifi_stored_is_a_clock_in_no_hall():
    clock = wifi_clock(stored=False)
    play(clock)
    assert clock.air.calls == [] and clock.broker.log == []
    assert same_play(clock) and clock.net.state == hall_net.IDLE
    clock.app.new_game()
    clock.run_until(clock.hal.now + 1000)
    assert word(clock) == "PRESS LEVER"  # as on any clock: no word about a network


def test_set_wifi_while_a_clock_runs_starts_the_chip_only_at_the_pause():
    from serial_fakes import SerialClock

    clock = SerialClock(preset="Blitz 5+3")
    air = Air(lambda: clock.hal.now)
    air.open(SSID, KEY)
    hall = halls.of(clock.app)
    hall.set(hall="club", board=12, broker="192.168.4.1")
    transport = FakeTransport(FakeBroker())
    net = hall_net.attach(hall, air, transport, clock.hal.now)
    clock.press(b.RIGHT, 2000)
    clock.run_until(3000)
    assert clock.ask("SET WIFI %s %s" % (SSID, KEY)) == ["OK wifi hall-net"]
    clock.run_until(20000)
    assert air.calls == [] and net.state == hall_net.STARTING  # a clock runs: not now
    clock.press(b.PLAY, 21000)  # paused
    clock.run_until(21500)
    assert air.called("active") == [21000] and air.called("connect") == [21000]
    clock.run_until(21000 + JOIN_MS + 2500)
    assert net.up and hall.link.online
    said = json.loads(clock.ask("HALL")[0][3:])
    assert said["net"] == {"state": "up", "joins": 1, "address": "192.168.4.23"}
    assert said["link"]["online"] is True


def test_set_broker_takes_an_address_not_a_name():
    from serial_fakes import SerialClock

    clock = SerialClock()
    assert clock.ask("SET BROKER hall.local 1883")[0].startswith("ERR usage: SET BROKER <address>")
    assert clock.ask("SET BROKER 10.0.0.300")[0].startswith("ERR usage")
    assert clock.ask("SET BROKER 10.0.0.30") == ["OK broker 10.0.0.30 port 1883"]


def test_the_status_line_keeps_a_pause_and_a_result_their_words():
    clock = wifi_clock()
    clock.press(b.RIGHT, 2000)
    clock.run_until(9000)
    assert word(clock) == "NET"
    clock.press(b.PLAY, 9500)
    clock.run_until(10000)
    assert clock.app.status.paused and word(clock) == ""  # the OLED shows PAUSE
    clock.press(b.PLAY, 10500)
    clock.run_until(11000)
    assert word(clock) == "NET"
    clock.run_until(400000)  # the left flag falls
    assert clock.app.status.over and word(clock) == ""  # the OLED shows OVER
