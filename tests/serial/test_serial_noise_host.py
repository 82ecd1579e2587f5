# SPDX-License-Identifier: MIT
# Noise on the serial line during a game: answered with errors, never obeyed, and every charged
# millisecond the same as a plain Game fed the same presses. The EV stream at each event.
import json
import random

from app.clock_app import E_START
from app.serial_channel import SerialChannel
from clock.game import Game, View
from hal import buttons as b
from harness import Clock
from notation import registry
from serial_fakes import FakePort, SerialClock

MIN = 60000
GARBAGE = (
    b"PRESET USE 3\x03\n",  # a command spoilt by Ctrl-C
    b"\x00" * 40 + b"\n",
    b"Z" * 10240 + b"\n",  # 10 KB: too long
    b"PRESET DEL 1\n",  # the game in progress's preset: refused
    b"PRESET USE 2\r\n",  # a game in progress: refused
    b"REPL\n",
    b"hello clock\n",
)


def noise(seed, count):
    """`count` chunks of random bytes (some with line ends), the same for a seed."""
    rng = random.Random(seed)
    return [rng.randbytes(rng.randrange(1, 200)) for _ in range(count)]


def test_noise_during_a_game_is_refused_and_the_times_stay_exact():
    presses = [
        (b.RIGHT, 2000),
        (b.LEFT, 9345),
        (b.RIGHT, 21346),
        (b.LEFT, 40000),
        (b.RIGHT, 47001),
    ]
    clock = SerialClock(preset="Blitz 5+3")
    for button, stamp in presses:
        clock.press(button, stamp)
    chunks = noise(2024, 300) + list(GARBAGE)
    replies = []
    now = 1500
    for chunk in chunks:
        now += 157
        clock.run_until(now)
        replies += clock.send(chunk)
    clock.run_until(now + 1000)
    replies += clock.send(b"\n")  # ends whatever half line the noise left
    assert replies and all(line.startswith("ERR ") for line in replies), replies[:5]
    assert clock.state() == "running"

    game = Game(registry.parse("chessclock:G/5/3"))
    game.start(presses[0][1], 0)  # right lever: left (the first player) moves first
    for index, (button, stamp) in enumerate(presses[1:]):
        assert game.press(index % 2, stamp)
    end = clock.hal.now
    for player in (0, 1):
        expected = game.view(player, end, View())
        shown = clock.app.game.view(player, end, View())
        assert shown.time_ms == expected.time_ms and shown.moves == expected.moves
    assert clock.app.game.plies() == 4 and clock.app.preset().name == "Blitz 5+3"


def test_noise_with_the_game_paused_changes_nothing_either():
    clock = SerialClock(preset="Blitz 5+3")
    clock.press(b.RIGHT, 2000)
    clock.press(b.LEFT, 5000)
    clock.press(b.PLAY, 8000)
    clock.run_until(9000)
    assert clock.state() == "paused"
    left, right = clock.view(0).time_ms, clock.view(1).time_ms
    for chunk in noise(7, 100) + list(GARBAGE) + [b"\n"]:
        assert all(line.startswith("ERR ") for line in clock.send(chunk))
    clock.run_until(60000)
    assert (clock.view(0).time_ms, clock.view(1).time_ms) == (left, right)
    assert clock.view(1).time_ms == 5 * MIN + 3000 - 3000  # Fischer before: 5:03 at the start


def events(lines):
    assert all(line.startswith("EV ") for line in lines), lines
    return [json.loads(line[3:]) for line in lines]


def test_the_stream_tells_start_press_pause_resume_with_the_times():
    clock = SerialClock(preset="Blitz 5+3")
    assert clock.ask("STREAM on") == ["OK stream on"]
    clock.press(b.RIGHT, 2000)
    clock.press(b.LEFT, 9345)
    clock.run_until(10000)
    start, press = events(clock.port.take())
    assert start["event"] == "start" and start["stamp"] == 2000 and start["turn"] == "first"
    assert press["event"] == "press" and press["stamp"] == 9345 and press["plies"] == 1
    assert press["left"]["remaining_ms"] == 5 * MIN + 3000 - 7345  # Fischer before
    assert press["right"]["remaining_ms"] == 5 * MIN + 3000 and press["right"]["running"]
    assert not press["left"]["running"] and press["turn"] == "second"
    clock.press(b.PLAY, 12000)
    clock.run_until(13000)
    clock.press(b.PLAY, 20000)
    clock.run_until(21000)
    pause, resume = events(clock.port.take())
    assert pause["event"] == "pause" and pause["state"] == "paused"
    assert pause["right"]["remaining_ms"] == 5 * MIN + 3000 - (12000 - 9345)
    assert resume["event"] == "resume" and resume["right"]["running"]
    assert clock.ask("STREAM off") == ["OK stream off"]
    clock.press(b.RIGHT, 22000)
    clock.run_until(23000)
    assert clock.port.take() == []


def test_the_stream_tells_an_interim_flag_and_a_final_one():
    clock = SerialClock(preset="FIDE classical")
    clock.ask("STREAM ON")
    clock.press(b.RIGHT, 1000)
    clock.run_until(1000 + 90 * MIN + 30000 + 5)
    records = events(clock.port.take())
    assert [record["event"] for record in records] == ["start", "flag"]
    flag = records[1]
    assert flag["state"] == "interim" and flag["left"]["flagged"] and flag["result"] is None

    bullet = SerialClock(preset="Bullet 1+0")
    bullet.ask("STREAM ON")
    bullet.press(b.RIGHT, 1000)
    bullet.run_until(1000 + MIN + 500)
    over = events(bullet.port.take())[-1]
    assert over["event"] == "over" and over["stamp"] == 1000 + MIN + 1
    assert over["result"] == {"reason": "time", "loser": "first"}
    assert over["left"]["remaining_ms"] == 0 and over["state"] == "over"


def test_the_stream_chains_to_an_earlier_listener():
    clock = Clock(preset="Blitz 5+3")
    heard = []
    clock.app.listener = lambda event, stamp: heard.append((event, stamp))
    port = FakePort()
    clock.runner.channel = SerialChannel(port, clock.app)
    clock.runner.channel.streaming = True
    clock.press(b.RIGHT, 2000)
    clock.run_until(3000)
    assert heard == [(E_START, 2000)]
    assert events(port.take())[0]["event"] == "start"
