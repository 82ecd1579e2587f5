# SPDX-License-Identifier: MIT
# The hall link on a real Mosquitto through paho-mqtt: state and commands, the ACL's refusals, no
# account taking another's place, commands that wait for a clock away (and expire), a broker
# restart mid-round, a flood of what is not a command. What must not arrive is checked after a
# marker sent behind it on the same path has arrived.
import json
import time

from app import hall as halls
from app.hall_link import Link
from broker_support import Watcher, broker, marker, wait_for
from hal import buttons as b
from harness import Clock
from sim.mqtt_transport import PahoTransport

TOPIC = "clock/club/12/"


def on_broker(brokered, board=12, user=None, preset="Blitz 5+3", client_id=None):
    clock = Clock(preset=preset)
    hall = halls.of(clock.app)
    hall.set(hall="club", board=board)
    user = user or "clock-%d" % board
    transport = PahoTransport(
        brokered.host, brokered.port, user, brokered.passwords[user], client_id or user
    )
    hall.link = Link(hall, transport, clock.hal.now)
    return clock


def step(clock, ms=50):
    clock.run_until(clock.hal.now + ms)


def online(clock):
    link = clock.app.hall.link
    return link.online and not link.transport.lost


def test_a_clock_on_mosquitto_publishes_its_state_and_obeys_the_arbiter(tmp_path):
    with broker(tmp_path) as brokered:
        arbiter = Watcher(brokered)
        clock = on_broker(brokered)
        wait_for(lambda: arbiter.last(TOPIC + "state"), step=lambda: step(clock))
        clock.press(b.RIGHT, clock.hal.now + 100)
        clock.press(b.LEFT, clock.hal.now + 8100)
        clock.run_until(clock.hal.now + 8200)
        state = wait_for(
            lambda: arbiter.seen(TOPIC + "state", lambda s: s["plies"] == 1),
            step=lambda: step(clock),
        )
        assert state["hall"] == "club" and state["board"] == 12 and state["turn"] == "second"
        assert state["left"]["remaining_ms"] == 303000 - 8000
        arbiter.publish(TOPIC + "cmd", json.dumps({"seq": 1, "do": "pause", "by": "Anna"}))
        answer = wait_for(lambda: arbiter.last(TOPIC + "answer"), step=lambda: step(clock))
        assert (answer["ok"], answer["said"], answer["by"]) == (True, "paused", "Anna")
        assert wait_for(lambda: arbiter.last(TOPIC + "state")["state"] == "paused")
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
        recorder = Watcher(brokered, "broadcast")
        twelve = Watcher(brokered, "clock-12", topic=None)
        # clock 13 writes on board 12's topics: never arrives (its own marker, after, does)
        thirteen.publish("clock/club/12/state", b'{"forged": true}')
        thirteen.publish("clock/club/12/game", b'{"forged": true}')
        marker(thirteen, arbiter, "clock/club/13/state")
        assert arbiter.on("clock/club/12/state") == arbiter.on("clock/club/12/game") == []
        # the viewer and the recorder publish a command: never goes out
        viewer.publish("clock/club/13/cmd", b'{"seq": 1, "do": "pause"}')
        recorder.publish("clock/club/13/cmd", b'{"seq": 1, "do": "pause"}')
        viewer.publish("clock/club/13/ack", b'{"game": 1, "version": 1}')
        marker(arbiter, arbiter, "clock/club/13/cmd")
        assert len(arbiter.on("clock/club/13/cmd")) == 1  # the marker alone
        assert arbiter.on("clock/club/13/ack") == []
        # the arbiter's command for 12: 13 does not read it, and neither do the viewer and the
        # recorder (a command is the arbiter's and its clock's), who read the clock's state
        arbiter.publish("clock/club/12/cmd", b'{"seq": 1, "do": "pause"}')
        marker(twelve, viewer, "clock/club/12/state")
        marker(twelve, recorder, "clock/club/12/state")
        assert arbiter.on("clock/club/12/cmd") == [b'{"seq": 1, "do": "pause"}']
        assert thirteen.on("clock/club/12/cmd") == []
        assert viewer.on("clock/club/12/cmd") == recorder.on("clock/club/12/cmd") == []
        for watcher in (arbiter, thirteen, viewer, recorder, twelve):
            watcher.close()


def test_no_account_can_knock_a_clock_off_by_asking_for_its_client_id(tmp_path):
    with broker(tmp_path) as brokered:
        clock = on_broker(brokered)
        arbiter = Watcher(brokered)
        wait_for(lambda: arbiter.last(TOPIC + "alive"), step=lambda: step(clock))
        intruders = []
        for user, asked in (
            ("viewer", "clock-12"),
            ("broadcast", "clock-12"),
            ("clock-13", "clock-12"),
            ("viewer", "sim-clock-12"),
        ):
            intruder = Watcher(brokered, user, topic=None, client_id=asked)
            intruders.append(intruder)
            marker(arbiter, arbiter, "clock/club/13/cmd")  # any last will is in by then
        step(clock)
        assert online(clock), "the clock was knocked off"
        assert json.loads(arbiter.on(TOPIC + "alive")[-1])["online"] is True  # no last will
        clock.press(b.RIGHT, clock.hal.now + 100)
        state = wait_for(
            lambda: arbiter.seen(TOPIC + "state", lambda s: s["state"] == "running"),
            step=lambda: step(clock),
        )
        assert state["board"] == 12
        # the same account twice is one connection: the second takes the first's place
        again = Watcher(brokered, "viewer", topic=None)
        assert wait_for(lambda: intruders[0].dropped.is_set() or intruders[3].dropped.is_set())
        for one in intruders + [again, arbiter]:
            one.close()


def test_a_command_sent_while_the_clock_is_away_is_carried_out_when_it_is_back(tmp_path):
    with broker(tmp_path) as brokered:
        clock = on_broker(brokered)
        arbiter = Watcher(brokered, version=5)
        clock.press(b.RIGHT, clock.hal.now + 100)
        wait_for(
            lambda: arbiter.seen(TOPIC + "state", lambda s: s["state"] == "running"),
            step=lambda: step(clock),
        )
        link = clock.app.hall.link
        link.lost("away", clock.hal.now)  # the Wi-Fi goes: the connection closes
        sent = time.monotonic()
        arbiter.publish(TOPIC + "cmd", json.dumps({"seq": 1, "do": "adjust"}), expiry=1)
        arbiter.publish(TOPIC + "cmd", json.dumps({"seq": 2, "do": "pause"}), expiry=60)
        # the first expires on the broker (its 1 s) while the clock is away; the second waits
        wait_for(lambda: time.monotonic() > sent + 2.1, 5)  # whole seconds on the broker
        link.retry(clock.hal.now)
        answer = wait_for(
            lambda: arbiter.last(TOPIC + "answer"), 20, step=lambda: step(clock, 100)
        )
        assert (answer["seq"], answer["ok"], answer["said"]) == (2, True, "paused")
        # a marker behind them on the same path: once the clock has answered it (as what is not
        # a command), the expired command would have come before it, or never will
        marker(arbiter, arbiter, TOPIC + "cmd")
        wait_for(
            lambda: arbiter.seen(TOPIC + "answer", lambda a: a.get("error")),
            step=lambda: step(clock),
        )
        assert [json.loads(p)["seq"] for p in arbiter.on(TOPIC + "answer")] == [2, None]
        arbiter.close()


def test_a_broker_restart_mid_round_the_clock_goes_on_and_the_page_gets_it_back(tmp_path):
    with broker(tmp_path) as brokered:
        clock = on_broker(brokered)
        alone = Clock(preset="Blitz 5+3")  # the same presses on a clock in no hall
        arbiter = Watcher(brokered)
        start = clock.hal.now
        for one in (clock, alone):
            one.press(b.RIGHT, start + 100)
        wait_for(lambda: arbiter.last(TOPIC + "state"), step=lambda: step(clock))
        brokered.kill()
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
            lambda: page.seen(TOPIC + "state", lambda s: s["plies"] == 6),
            seconds=20,
            step=lambda: step(clock, 200),
        )
        assert state["dropped"] == 0 and state["left"]["running"]
        wait_for(lambda: page.seen(TOPIC + "alive", lambda a: a["online"] is True), 20)
        page.close()
        arbiter.close()


def test_a_flood_of_what_is_not_a_command_is_answered_and_disturbs_no_clock(tmp_path):
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
            arbiter.client.publish(TOPIC + "cmd", junk[n % len(junk)], 1)
        arbiter.publish(TOPIC + "cmd", b"z" * 12000)  # within the broker's 16 KB, over 512
        # every one is taken: till the last, the clock keeps being stepped
        wait_for(
            lambda: clock.app.hall.link.refused >= 64
            and arbiter.seen(TOPIC + "answer", lambda a: "12000 bytes" in a["said"]),
            30,
            step=lambda: step(clock, 20),
        )
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
        assert clock.app.hall.seq == 0
        answers = [json.loads(p) for p in arbiter.on(TOPIC + "answer")]
        assert answers and all(a["ok"] is False and a["error"] for a in answers), answers[:3]
        assert clock.app.hall.notes[-1].startswith("dropped a command: ")
        arbiter.close()
