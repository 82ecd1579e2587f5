# SPDX-License-Identifier: MIT
# The hall link on a real Mosquitto through paho-mqtt: state and commands, the ACL's refusals, a
# broker restart mid-round, a flood of what is not a command.
import json
import time

from app import hall as halls
from app.hall_link import Link
from broker_support import Watcher, broker, wait_for
from hal import buttons as b
from harness import Clock
from sim.mqtt_transport import PahoTransport

TOPIC = "clock/club/12/"


def on_broker(brokered, board=12, user=None, preset="Blitz 5+3"):
    clock = Clock(preset=preset)
    hall = halls.of(clock.app)
    hall.set(hall="club", board=board)
    user = user or "clock-%d" % board
    transport = PahoTransport(
        brokered.host, brokered.port, user, brokered.passwords[user], "test-%s" % user
    )
    hall.link = Link(hall, transport, clock.hal.now)
    return clock


def step(clock, ms=50):
    clock.run_until(clock.hal.now + ms)


def test_a_clock_on_mosquitto_publishes_its_state_and_obeys_the_arbiter(tmp_path):
    with broker(tmp_path) as brokered:
        arbiter = Watcher(brokered)
        clock = on_broker(brokered)
        wait_for(lambda: arbiter.last(TOPIC + "state"), step=lambda: step(clock))
        clock.press(b.RIGHT, clock.hal.now + 100)
        clock.press(b.LEFT, clock.hal.now + 8100)
        clock.run_until(clock.hal.now + 8200)
        state = wait_for(
            lambda: (arbiter.last(TOPIC + "state") or {}).get("plies") == 1
            and arbiter.last(TOPIC + "state"),
            step=lambda: step(clock),
        )
        assert state["hall"] == "club" and state["board"] == 12 and state["turn"] == "second"
        assert state["left"]["remaining_ms"] == 303000 - 8000
        arbiter.publish(TOPIC + "cmd", json.dumps({"seq": 1, "do": "pause", "by": "Anna"}))
        answer = wait_for(lambda: arbiter.last(TOPIC + "answer"), step=lambda: step(clock))
        assert (answer["ok"], answer["said"], answer["by"]) == (True, "paused", "Anna")
        assert wait_for(lambda: arbiter.last(TOPIC + "state")["state"] == "paused")
        # The events come on their own topic: on a loaded machine the pause's may come later.
        events = wait_for(
            lambda: len(arbiter.on(TOPIC + "event")) >= 3
            and [json.loads(p) for p in arbiter.on(TOPIC + "event")],
            step=lambda: step(clock),
        )
        assert [e["event"] for e in events][:3] == ["start", "press", "pause"]
        assert events[1]["log"][0]["elapsed_ms"] == 8000
        arbiter.close()


def test_no_anonymous_access_and_each_account_only_its_own_topics(tmp_path):
    with broker(tmp_path) as brokered:
        assert Watcher(brokered, "arbiter", password="wrong").refused == "Not authorized"
        assert Watcher(brokered, "", password="").refused == "Not authorized"  # anonymous
        arbiter = Watcher(brokered)
        thirteen = Watcher(brokered, "clock-13", topic="clock/club/12/cmd")
        viewer = Watcher(brokered, "viewer")
        # clock 13 writes on board 12's topics, and reads board 12's commands: neither happens
        thirteen.publish("clock/club/12/state", b'{"forged": true}')
        viewer.publish("clock/club/13/cmd", b'{"seq": 1, "do": "pause"}')
        arbiter.publish("clock/club/12/cmd", b'{"seq": 1, "do": "pause"}')
        time.sleep(0.3)
        assert arbiter.on("clock/club/12/state") == []
        assert arbiter.on("clock/club/13/cmd") == []  # the viewer's command never went out
        assert thirteen.on("clock/club/12/cmd") == []
        assert arbiter.on("clock/club/12/cmd") == [b'{"seq": 1, "do": "pause"}']
        for watcher in (arbiter, thirteen, viewer):
            watcher.close()


def test_a_broker_restart_mid_round_the_clock_goes_on_and_the_page_gets_it_back(tmp_path):
    with broker(tmp_path) as brokered:
        clock = on_broker(brokered)
        alone = Clock(preset="Blitz 5+3")  # the same presses on a clock in no hall
        arbiter = Watcher(brokered)
        start = clock.hal.now
        for one in (clock, alone):
            one.press(b.RIGHT, start + 100)
        wait_for(lambda: arbiter.last(TOPIC + "state"), step=lambda: step(clock))
        brokered.stop()
        stamp = start + 100
        for ply in range(6):
            stamp += 1500
            for one in (clock, alone):
                one.press(b.LEFT if ply % 2 == 0 else b.RIGHT, stamp)
        clock.run_until(stamp + 100)
        alone.run_until(stamp + 100)
        wait_for(lambda: not clock.app.hall.link.online, step=lambda: step(clock))
        alone.run_until(clock.hal.now)
        assert clock.app.game.snapshot(stamp) == alone.app.game.snapshot(stamp)
        brokered.start()
        page = Watcher(brokered)  # the page reconnects
        state = wait_for(
            lambda: (page.last(TOPIC + "state") or {}).get("plies") == 6
            and page.last(TOPIC + "state"),
            seconds=10,
            step=lambda: step(clock, 200),
        )
        assert state["dropped"] == 0 and state["left"]["running"]
        assert json.loads(page.on(TOPIC + "alive")[-1])["online"] is True
        page.close()
        arbiter.close()


def test_a_flood_of_what_is_not_a_command_is_dropped_and_disturbs_no_clock(tmp_path):
    with broker(tmp_path) as brokered:
        clock = on_broker(brokered)
        alone = Clock(preset="Blitz 5+3")
        arbiter = Watcher(brokered)
        start = clock.hal.now
        for one in (clock, alone):
            one.press(b.RIGHT, start + 100)
            one.press(b.LEFT, start + 3100)
        wait_for(lambda: arbiter.last(TOPIC + "state"), step=lambda: step(clock))
        junk = [b"", b"\x00" * 50, b"{", b'{"seq": "1", "do": "pause"}', b"[]" * 100]
        junk += [b'{"seq": %d, "do": "end", "x": "%s"}' % (n, b"y" * 600) for n in range(1, 50)]
        for n in range(300):
            arbiter.client.publish(TOPIC + "cmd", junk[n % len(junk)])
        arbiter.client.publish(TOPIC + "cmd", b"z" * 20000)  # over the broker's 8 KB
        refused = -1
        while clock.app.hall.link.refused != refused:  # till the flood is over
            refused = clock.app.hall.link.refused
            for _ in range(20):
                step(clock, 20)
                time.sleep(0.005)
        stamp = clock.hal.now
        alone.run_until(stamp)
        for ply in range(1, 6):
            stamp += 700
            for one in (clock, alone):
                one.press(b.RIGHT if ply % 2 else b.LEFT, stamp)
        clock.run_until(stamp + 2000)
        alone.run_until(stamp + 2000)
        assert clock.app.game.snapshot(stamp + 2000) == alone.app.game.snapshot(stamp + 2000)
        assert clock.app.game.plies() == alone.app.game.plies() >= 4
        assert clock.app.hall.seq == 0 and arbiter.on(TOPIC + "answer") == []
        # the transport keeps the newest 64 of a burst; each of those was refused
        assert clock.app.hall.link.refused >= 64, clock.app.hall.link.refused
        assert clock.app.hall.notes[-1].startswith("dropped a command: ")
        arbiter.close()
