# SPDX-License-Identifier: MIT
# The hall page in headless Chromium (tier 6, after tests/web/setup.sh): five clocks on a real
# Mosquitto in every phase, the page's tiles, order, filters, a command confirmed and answered,
# a clock's time on its tile within the display's step of the clock's own; and the page's own
# module (web/hall_figure.js, under node) running every system's figures at random instants of
# a game exactly as the clock's core does.
import json
import os
import subprocess
import threading

from broker_support import Watcher, broker, wait_for
from page_support import RealTime
from clock import display
from clock.game import View
from hal import buttons as b
from sim import web
from test_broker_host import on_broker

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_the_page_shows_every_board_sorted_and_obeys_a_confirmed_command(tmp_path):
    with broker(tmp_path, range(1, 6)) as brokered:
        clocks = [
            on_broker(brokered, 1, preset="Bullet 1+0"),  # running, in time trouble
            on_broker(brokered, 2, preset="Bullet 1+0"),  # lost on time
            on_broker(brokered, 3),  # paused
            on_broker(brokered, 4),  # ready
            on_broker(brokered, 5),  # running, plenty of time
        ]
        for clock in clocks:
            now = clock.hal.now
            if clock.app.hall.board != 4:
                clock.press(b.RIGHT, now + 100)
            if clock.app.hall.board == 3:
                clock.press(b.LEFT, now + 2000)
                clock.press(b.PLAY, now + 3000)
            clock.run_until(now + {1: 35000, 2: 65000}.get(clock.app.hall.board, 4000))
        watcher = Watcher(brokered)
        wait_for(lambda: len({t for t, _p, _r in watcher.messages if t.endswith("/state")}) == 5)
        watcher.close()
        httpd = web.server("127.0.0.1", 0)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        page = "http://127.0.0.1:%d/hall.html#broker=ws://127.0.0.1:%d&hall=club" % (
            httpd.server_address[1],
            brokered.ws_port,
        )
        arbiter = page + "&user=arbiter&password=%s&by=Anna" % brokered.passwords["arbiter"]
        viewer = page + "&user=viewer&password=%s" % brokered.passwords["viewer"]
        runner = RealTime(clocks)
        runner.start()
        out = tmp_path / "page.json"
        try:
            subprocess.run(
                [
                    "node",
                    os.path.join(ROOT, "tests/hall/hall_page.mjs"),
                    arbiter,
                    viewer,
                    str(out),
                ],
                timeout=120,
                check=True,
            )
        finally:
            runner.stop.set()
            runner.join(5)
            httpd.shutdown()
            httpd.server_close()
        seen = json.loads(out.read_text())
        assert seen["errors"] == [], seen["errors"]
        tiles = seen["tiles"]
        assert sorted(tiles) == ["1", "2", "3", "4", "5"]
        # time trouble first (the running clock with least time), then the other games by the
        # mover's time, then the ready board, the finished one last
        assert seen["order"][0] == 1 and seen["order"][-2:] == [4, 2], seen["order"]
        assert "trouble" in tiles["1"]["classes"] and "flagged" in tiles["2"]["classes"], tiles
        # (no recorder runs here: the finished game waits on its clock, and the tile says so)
        assert tiles["2"]["flags"] == "1st lost on time · 1 result not yet recorded", tiles["2"]
        assert tiles["2"]["left"] == "0.0"
        assert tiles["3"]["flags"] == "paused" and tiles["4"]["left"] == "05:00"
        assert tiles["1"]["preset"] == "Bullet 1+0" and tiles["1"]["leftWho"] == "1st ▶"
        assert seen["filters"] == {"flagged": [2], "paused": [3], "finished": [2], "trouble": [1]}
        # the clock and its tile never disagree by more than the display's step (100 ms < 20 s)
        clock = clocks[0]
        for epoch_ms, left, right in seen["samples"]:
            at = runner.virtual(0, epoch_ms)
            view = clock.app.game.view(clock.app.player_on(0), at, View())
            truth = view.time_ms
            shown = [display.text(ms) for ms in range(truth - 150, truth + 151, 10)]
            assert left in shown, (left, display.text(truth))
            assert right == "01:00"
        assert seen["question"] == "Pause board 5?" and seen["auditAfterNo"] == 0
        audit = seen["audit"]
        assert [(row["board"], row["command"]["do"], row["seq"]) for row in audit] == [
            (5, "pause", 1),
            (5, "adjust", 2),
            (4, "resume", 1),
        ]
        assert audit[0]["who"] == "Anna (arbiter)" and audit[0]["answer"]["said"] == "paused"
        assert audit[1]["answer"]["ok"] and audit[1]["command"]["ms"] == 60000
        assert audit[2]["answer"] == dict(
            audit[2]["answer"], ok=False, said="the game is not paused"
        )
        assert clocks[4].app.game.state() == 2 and clocks[4].app.hall.seq == 2
        assert "paused" in seen["tile5"]
        assert seen["viewer"] == {"boards": 5, "controls": "none", "tileControls": "none"}


# --- the page's figure is the clock's, for every system, at any instant --------------------------

SYSTEMS = (
    ("Fischer", "fischer 1 2"),
    ("Bronstein", "bronstein 1 3"),
    ("US delay", "G/1 d5"),
    ("byo-yomi", "go:30s 3x10s"),
    ("Canadian", "go:30s 5/30s"),
    ("hourglass", "G/1 hourglass"),
    ("Arimaa", "arimaa:10s/1"),
    ("stages", "chessclock:2/1/0, G/1/5"),
    ("GGS", "ggs:1:00,N0//10"),
)


def figure_cases(name, spec, rng):
    """A game of `spec` on a clock whose link publishes to a broker in memory, with random
    presses; at random instants the clock's own figures and the states the page had then (the
    last one, and an earlier one of the same event, as a page that lags has it)."""
    from fakes.fake_mqtt import FakeBroker, FakeTransport
    from hall_clock import TOPIC, hall_clock

    broker = FakeBroker()
    clock = hall_clock(FakeTransport(broker))
    app = clock.app
    app.choose_preset(app.add_preset("Test", spec, True))
    start = clock.hal.now + 100
    presses = [start]
    for _ in range(14):
        presses.append(presses[-1] + rng.choice((300, 900, 2500, 6000, 12000, 21000, 35000)))
    for index, stamp in enumerate(presses):
        clock.press(b.RIGHT if index % 2 == 0 else b.LEFT, stamp)
    instants = sorted(rng.randrange(start + 1, presses[-1] + 30000) for _ in range(120))
    cases = []
    for now in instants:
        clock.run_until(now)
        states = [json.loads(p) for p in broker.on(TOPIC + "state")]
        states = [s for s in states if s["stamp"] <= now or now - s["stamp"] > 1 << 29]
        if not states:
            continue
        latest = states[-1]
        lagged = [
            s
            for s in states[:-1]
            if s["at"] == latest["at"] and 0 < now - s["stamp"] and s["event"] == latest["event"]
        ]
        for side, player in (("left", app.player_on(0)), ("right", app.player_on(1))):
            view = app.game.view(player, now, View())
            truth = {
                "main": view.time_ms,
                "delay": view.delay_ms,
                "reserve": view.reserve_ms if view.reserve_ms >= 0 else None,
            }
            for state in [latest] + lagged[-1:]:
                cases.append(
                    {"system": name, "state": state, "now": now, "side": side, "want": truth}
                )
        if app.game.state() == 3:
            break
    return cases


def test_the_page_runs_each_system_as_its_clock_does(tmp_path):
    import random

    rng = random.Random(38)
    cases = []
    for name, spec in SYSTEMS:
        found = figure_cases(name, spec, rng)
        assert len(found) > 40, (name, len(found))
        cases += found
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases))
    out = tmp_path / "figures.json"
    subprocess.run(
        ["node", os.path.join(ROOT, "tests/hall/hall_figures.mjs"), str(path), str(out)],
        timeout=60,
        check=True,
    )
    seen = json.loads(out.read_text())
    wrong = [
        (case["system"], case["now"] - case["state"]["stamp"], case["side"], case["want"], got)
        for case, got in zip(cases, seen)
        if (got["main"], got["delay"], got["reserve"])
        != (case["want"]["main"], case["want"]["delay"], case["want"]["reserve"])
    ]
    assert not wrong, (len(wrong), len(cases), wrong[:5])
    lagged = sum(
        1
        for case in cases
        if case["state"]["then"]
        and case["now"] - case["state"]["stamp"] >= case["state"]["next_ms"]
    )
    assert lagged > 20, lagged  # the states' `then` tried: a page behind a change of rule
