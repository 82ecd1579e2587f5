# SPDX-License-Identifier: MIT
# The hall page on its bad day, in headless Chromium (tier 6) on a real Mosquitto: a clock account
# publishing random and mutated messages, retained too, marks its own tile and no other tile stops
# updating, before and after a reload; a board gone and the broker gone are stale (greyed, "last
# seen", not counting) and come back live by themselves; a display gone dark marks its tile and
# sorts it first; a command's fate in the audit: carried out once its board is back, expired when
# its validity ends first.
import copy
import json
import random
import socket

from app import commands
from broker_support import Watcher, broker
from hal import buttons as b
from page_support import Page, RealTime, Served, tile
from test_broker_host import on_broker

VALUES = [
    None,
    True,
    False,
    -1,
    0,
    1.5,
    2**31,
    2**53 + 1,
    10**30,
    -(10**18),
    1e308,
    "",
    "x" * 3000,
    "NaN",
    "<img src=x onerror=alert(1)>",
    "\u202e\u0000\ufffe",
    [],
    [1, [2, [3]]],
    {},
    {"a": {"b": {"c": {}}}},
]


def paths(doc, prefix=()):
    """Every key path of a JSON object, nested ones too."""
    found = []
    if isinstance(doc, dict):
        for key, value in doc.items():
            found.append(prefix + (key,))
            found += paths(value, prefix + (key,))
    return found


def mutated(base, rng):
    """A state a clock account could publish: `base` with a key gone, a value of the wrong kind,
    huge numbers, an unknown system, junk around it, or not a state at all."""
    doc = copy.deepcopy(base)
    kind = rng.randrange(8)
    keys = paths(doc)
    if kind == 0:
        path = rng.choice(keys)
        holder = doc
        for key in path[:-1]:
            holder = holder[key]
        del holder[path[-1]]
    elif kind in (1, 2):
        for _ in range(1 + kind):
            path = rng.choice(paths(doc) or [("x",)])
            holder = doc
            for key in path[:-1]:
                holder = holder[key] if isinstance(holder.get(key), dict) else {}
            holder[path[-1]] = rng.choice(VALUES)
    elif kind == 3:
        doc["spec"] = rng.choice(["martian:3+2", "", "x" * 400, None, 7])
        doc["left"]["rate"] = rng.choice([2, -5, 0.5, "down", None])
    elif kind == 4:
        doc["then"] = rng.choice([{"left": 1}, [], {"left": {}, "right": {}}, "later"])
    elif kind == 5:
        doc["left"]["remaining_ms"] = rng.choice([10**30, -5, 1e308, 2**53 + 7, 0.25])
        doc["stamp"] = rng.choice([2**40, -1, "now"])
    elif kind == 6:
        return json.dumps(rng.choice(VALUES)).encode()
    else:
        raw = [b"", b"\xff\xfe{", b"{", b"[" * 7000 + b"]" * 7000, b'{"a": NaN}', b"{}" * 3]
        return rng.choice(raw)
    return json.dumps(doc).encode()


def scheduled(clock, count, every_ms):
    """`count` presses on `clock`, one each `every_ms`, the first side first (virtual time)."""
    stamp = clock.hal.now + 300
    clock.press(b.RIGHT, stamp)
    for ply in range(count):
        stamp += every_ms
        clock.press(b.LEFT if ply % 2 == 0 else b.RIGHT, stamp)


def plies(page, board):
    return page.eval(
        "window.hall.boards.get(%d).state ? window.hall.boards.get(%d).state.plies : -1"
        % (board, board)
    )


def test_no_clock_account_can_stop_the_page(tmp_path):
    with broker(tmp_path, range(1, 5)) as brokered:
        clocks = [on_broker(brokered, n, preset="Rapid 15+10") for n in (1, 2, 3)]
        for clock in clocks:
            scheduled(clock, 200, 700)
        runner = RealTime(clocks)
        runner.start()
        served = Served()
        page = Page()
        fuzzer = Watcher(brokered, "clock-4", topic=None)
        try:
            page.goto(served.url(brokered))
            page.wait("window.hall && [1, 2, 3].every((n) => window.hall.boards.has(n))", 15)
            with runner.lock:
                base = commands.state(clocks[0].app, clocks[0].hal.now)
            base.update(hall="club", board=4, event="press", at=base["stamp"], dropped=0)
            base["display"] = {"showing": True, "lost": 2, "recovered": 2, "failed_writes": 5}
            fuzzer.publish("clock/club/4/state", json.dumps(base), retain=True)
            page.wait("window.hall.boards.has(4) && window.hall.boards.get(4).state !== null")
            rng = random.Random(4)
            topics = ["state"] * 6 + ["alive", "answer", "game", "event"]
            for count in range(400):
                topic = "clock/club/4/" + rng.choice(topics)
                fuzzer.client.publish(topic, mutated(base, rng), 1, rng.random() < 0.5)
            # the last word retained on board 4 is a bad state: a reload meets it first
            fuzzer.publish("clock/club/4/state", b'{"state": "running", "plies": 1}', retain=True)
            page.wait("window.hall.stats.refused > 100", 20)
            for attempt in ("live", "reloaded"):
                if attempt == "reloaded":
                    page.goto("about:blank")
                    page.goto(served.url(brokered))
                    page.wait("window.hall && window.hall.boards.size >= 4", 15)
                page.wait(tile(4, ".bad-note") + ".match(/^bad [a-z]+ from board 4: /)", 10)
                before = [plies(page, n) for n in (1, 2, 3)]
                for board, seen in zip((1, 2, 3), before):  # every other tile goes on
                    page.wait("window.hall.boards.get(%d).state.plies > %d" % (board, seen), 10)
                    page.wait(tile(board, ".time") + " !== ''")
                texts = page.eval(
                    "[1, 2, 3].map((n) => document.querySelector("
                    "'#tiles .tile[data-board=\"' + n + '\"] .right .time').textContent)"
                )
                page.wait(
                    "[1, 2, 3].every((n, i) => document.querySelector('#tiles .tile[data-board=\""
                    "' + n + '\"] .right .time').textContent !== %s[i])" % json.dumps(texts),
                    5,
                )
            assert page.eval("window.hall.stats.errors") == 0  # refused, never a fault
            assert page.errors() == []
            status = page.eval("document.getElementById('status').textContent")
            assert status.startswith("connected"), status
        finally:
            fuzzer.close()
            page.close()
            served.close()
            runner.close()


def test_what_is_gone_is_stale_and_a_command_has_a_fate(tmp_path):
    with broker(tmp_path, (1, 2)) as brokered:
        clocks = [on_broker(brokered, n, preset="Rapid 15+10") for n in (1, 2)]
        for clock in clocks:
            scheduled(clock, 400, 1100)
        runner = RealTime(clocks)
        runner.start()
        served = Served()
        page = Page()
        try:
            page.goto(served.url(brokered, extra="&by=Anna"))
            page.wait("[1, 2].every((n) => window.hall.boards.has(n))", 15)
            page.wait(
                "!document.querySelector('#tiles .tile[data-board=\"2\"]').classList"
                ".contains('offline') && window.hall.boards.get(2).sync !== null",
                15,
            )
            # board 2's panel stops taking frames (its driver says so): within a heartbeat its
            # tile says so, marked, and sorts first; back, and the tile says it was lost once
            with runner.lock:
                clocks[1].hal.display.health = lambda: (False, 1, 0, 2)
            page.wait(tile(2, ".flags") + '.includes("display dark")', 10)
            assert page.eval("(window.hall.reorder(), window.hall.order()[0])") == 2
            assert page.eval(
                "document.querySelector('#tiles .tile[data-board=\"2\"]').classList"
                ".contains('fault')"
            )
            with runner.lock:
                clocks[1].hal.display.health = lambda: (True, 1, 1, 2)
            page.wait(tile(2, ".flags") + '.includes("display lost 1 time, back")', 10)
            # board 2 goes (its Wi-Fi, without a word): the broker sends its last will, offline
            with runner.lock:
                link = clocks[1].app.hall.link
                link.transport.client.socket().shutdown(socket.SHUT_RDWR)
                link.lost("gone", clocks[1].hal.now)
                link._retry_at = clocks[1].hal.now + 10**8  # not back till the test says
            page.wait(tile(2, ".flags") + '.includes("offline, last seen")', 10)
            frozen = page.eval(tile(2, ".right .time") + " + " + tile(2, ".left .time"))
            # two commands while it is away: one valid 5 s, one 60 s
            page.fill("#validity", "5")
            page.click('#tiles .tile[data-board="2"] button[data-do="pause"]')
            page.click("#confirm-yes")
            page.fill("#validity", "60")
            page.click('#tiles .tile[data-board="2"] button[data-do="end"]')
            page.click("#confirm-yes")
            fates = "window.hall.audit.map((row) => row.element.lastChild.textContent)"
            seen = page.wait("%s.length === 2 && %s" % (fates, fates))
            assert all(fate.startswith("waiting") for fate in seen), seen
            page.wait("%s[0].startsWith('expired: no answer within 5 s')" % fates, 15)
            assert page.eval(tile(2, ".right .time") + " + " + tile(2, ".left .time")) == frozen
            # back: the second command (end, which needs a pause: refused, with the reason)
            with runner.lock:
                link._retry_at = clocks[1].hal.now
            page.wait("%s[1].startsWith('refused: pause the clock first')" % fates, 20)
            page.wait("!" + tile(2, ".flags") + '.includes("offline")', 10)
            assert clocks[1].app.game.state() == 1  # the expired pause was never carried out
            # the broker goes: every tile stale, not counting; back, live by themselves
            brokered.kill()
            page.wait(tile(1, ".flags") + '.includes("broker gone, last seen")', 10)
            still = page.eval(tile(1, ".right .time") + " + " + tile(1, ".left .time"))
            page.wait(tile(1, ".flags") + '.includes("last seen 2 s ago")', 10)
            assert page.eval(tile(1, ".right .time") + " + " + tile(1, ".left .time")) == still
            brokered.start()
            page.wait("window.hall.connected()", 15)
            page.wait(
                "[1, 2].every((n) => !document.querySelector('#tiles .tile[data-board=\"' + n"
                " + '\"]').classList.contains('offline'))",
                20,
            )
            # the browser's own line for each try while the broker was gone, and nothing else
            said = [e for e in page.errors() if "ERR_CONNECTION_REFUSED" not in e]
            assert said == [], said
            # a wrong password: said plainly
            wrong = served.url(brokered).replace(brokered.passwords["arbiter"], "wrong")
            page.goto("about:blank")
            page.goto(wrong)
            refused = "document.getElementById('status').textContent"
            assert page.wait(refused + ".includes('wrong user or password') && " + refused) == (
                "the broker refused arbiter: wrong user or password (connect again)"
            )
        finally:
            page.close()
            served.close()
            runner.close()
