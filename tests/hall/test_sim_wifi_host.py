# SPDX-License-Identifier: MIT
# Wi-Fi clocks (picow_oled) in the simulated hall: the firmware's own network and MQTT code through
# micropython-lib's umqtt.simple, on the desktop's sockets and a simulated Wi-Fi, to a real
# Mosquitto; the Wi-Fi dropped and restored, the broker killed and started: each time back on the
# broker by themselves, a command sent meanwhile carried out, the record as the clock has it.
import json
import time

import pytest

import notation
from app import game_record
from app.hall_mqtt import Transport
from broker_support import Watcher, broker, wait_for
from test_broadcast_host import Recorder
from sim.hall_sim import SimHall
from sim.hall_wifi import umqtt_path

BACK_S = 10


def running(hall, seconds):
    """Run the hall `seconds` in slices (the checks go between them)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        hall.run(0.1)


def until(hall, test, seconds):
    """Run the hall until test() holds; its value. AssertionError after `seconds`."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        hall.run(0.1)
        value = test()
        if value:
            return value
    raise AssertionError("not within %g s" % seconds)


def online(hall, boards):
    return all(hall.clocks[n - 1].app.hall.link.online for n in boards)


def recorded_log(recorder, board, tag):
    """The game's entries as the recorder holds them (it asks for what it missed)."""
    broadcast = recorder.broadcast
    with broadcast.lock:
        game = broadcast.games.get((board, tag))
        return list(game.log) if game is not None else None


def clock_log(clock):
    parts = []
    game_record.write(clock.app, parts.append)
    return json.loads("".join(parts))["clock"]["log"]


@pytest.mark.skipif(umqtt_path() is None, reason="no micropython-lib's umqtt.simple")
def test_wifi_clocks_in_the_hall_come_back_by_themselves(tmp_path, monkeypatch):
    monkeypatch.setattr(notation, "forget", lambda: None)  # the recorder in this process
    with broker(tmp_path, (1, 2, 3)) as brokered:
        hall = SimHall(brokered, 3, "club", wifi=2, pace=0.2)
        arbiter = Watcher(brokered)
        recorder = Recorder(brokered, tmp_path / "out")
        try:
            wifi = [hall.clocks[0], hall.clocks[1]]
            assert all(isinstance(c.transport, Transport) for c in wifi)
            assert hall.clocks[0].app.hall.net is not None and hall.clocks[2].app.hall.net is None
            until(hall, lambda: online(hall, (1, 2, 3)), 15)
            until(hall, lambda: all(c.app.game.plies() >= 2 for c in hall.clocks), 30)
            assert all(c.app.net_note == "NET" for c in wifi)
            # a command, and its answer, through umqtt.simple
            arbiter.publish("clock/club/1/cmd", json.dumps({"seq": 1, "do": "pause"}))
            answer = until(
                hall, lambda: arbiter.seen("clock/club/1/answer", lambda a: a["seq"] == 1), 10
            )
            assert answer["ok"] and answer["said"] == "paused", answer
            # the Wi-Fi goes: the Wi-Fi clocks notice (the chip's status, 5 s at most), say NO
            # NET and play on; the USB clock is not touched
            plies = [c.app.game.plies() for c in hall.clocks]
            hall.drop_wifi()
            until(hall, lambda: not any(c.app.hall.link.online for c in wifi), 10)
            assert all(c.app.net_note == "NO NET" for c in wifi)
            arbiter.publish("clock/club/1/cmd", json.dumps({"seq": 2, "do": "resume"}))
            until(hall, lambda: hall.clocks[1].app.game.plies() > plies[1] + 1, 30)
            assert hall.clocks[2].app.hall.link.online
            # back: within 10 s, and the command sent meanwhile carried out
            hall.restore_wifi()
            since = time.monotonic()
            until(hall, lambda: online(hall, (1, 2)), BACK_S)
            assert time.monotonic() - since < BACK_S
            answer = until(
                hall, lambda: arbiter.seen("clock/club/1/answer", lambda a: a["seq"] == 2), 10
            )
            assert answer["ok"] and answer["said"] == "resumed", answer
            # the broker killed and started again: every clock back by itself
            brokered.kill()
            until(hall, lambda: not any(c.app.hall.link.online for c in hall.clocks), 30)
            brokered.start()
            since = time.monotonic()
            until(hall, lambda: online(hall, (1, 2, 3)), BACK_S + 5)
            took = time.monotonic() - since
            # no entry lost or doubled: what the recorder holds of each game in play is the
            # clock's record (it asks a clock for what it missed while it was away itself)
            hall.playing = False
            for clock in hall.clocks:
                tag = clock.app.record.tag
                until(
                    hall, lambda: recorded_log(recorder, clock.board, tag) == clock_log(clock), 20
                )
            assert took < BACK_S + 5, took
        finally:
            recorder.close()
            hall.close()
            arbiter.close()


@pytest.mark.skipif(umqtt_path() is None, reason="no micropython-lib's umqtt.simple")
def test_a_served_wifi_clock_joins_the_broker_it_is_told(tmp_path):
    import os
    import sys

    from sim import serial_cli

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "sim"))
    from test_record_follow_host import Served

    clock = Served("--board", "picow_oled")
    try:
        with broker(tmp_path, (5,)) as brokered:
            watcher = Watcher(brokered)
            link = serial_cli.Link(clock.path, timeout=5)
            try:
                hall = json.loads(link.command("HALL")[1][3:])
                assert hall["net"]["state"] == "idle", hall  # no Wi-Fi stored: in no hall
                for line in (
                    "SET BOARD 5",
                    "SET HALL club",
                    "SET BROKER 127.0.0.1 %d clock-5 %s"
                    % (brokered.port, brokered.passwords["clock-5"]),
                    "SET WIFI hall-net secret",
                ):
                    assert link.command(line)[1].startswith("OK"), line
                wait_for(lambda: json.loads(link.command("HALL")[1][3:])["link"]["online"], 15)
                hall = json.loads(link.command("HALL")[1][3:])
                assert hall["net"]["state"] == "up" and hall["wifi"] == "hall-net", hall
                state = wait_for(lambda: watcher.last("clock/club/5/state"), 20)
                assert state["board"] == 5 and state["hall"] == "club"
            finally:
                link.close()
                watcher.close()
    finally:
        clock.stop()
