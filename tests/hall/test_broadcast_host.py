# SPDX-License-Identifier: MIT
# `hall broadcast` on a real Mosquitto: one PGN per board, python-chess reads every %clk and %emt
# back equal to the clock's own record, a correction and an undo included.
import io
import json
import threading

import chess.pgn

from app import game_record
from broker_support import Watcher, broker, wait_for
from hal import buttons as b
from sim import records
from sim.hall_broadcast import Broadcast
from test_broker_host import on_broker, step


def clock_record(clock):
    parts = []
    game_record.write(clock.app, parts.append)
    return json.loads("".join(parts))


def test_every_board_a_pgn_whose_clock_times_are_the_record(tmp_path):
    with broker(tmp_path, (1, 2)) as brokered:
        clocks = [on_broker(brokered, 1), on_broker(brokered, 2, preset="Rapid 15+10")]
        out = tmp_path / "broadcast"
        stop = threading.Event()
        broadcast = Broadcast(
            brokered.host,
            brokered.port,
            "broadcast",
            brokered.passwords["broadcast"],
            "club",
            str(out),
        )
        thread = threading.Thread(target=broadcast.run, kwargs={"stop": stop})
        thread.start()
        try:
            start = clocks[0].hal.now
            for number, clock in enumerate(clocks):
                stamp = start + 500
                clock.press(b.RIGHT, stamp)
                for ply in range(9 + number):
                    stamp += 1234 + 777 * ply + 50 * number
                    clock.press(b.LEFT if ply % 2 == 0 else b.RIGHT, stamp)
            first = clocks[0]
            first.press(b.PLAY, stamp + 1000)  # a pause, an undo, a minute for the left
            first.press(b.MINUS, stamp + 1500)
            first.press(b.MINUS, stamp + 2000)
            first.press(b.SET, stamp + 2500)
            first.press(b.PLUS, stamp + 3000)
            first.press(b.PLAY, stamp + 3500)
            first.press(b.PLAY, stamp + 4000)
            first.press(b.RIGHT, stamp + 5000)  # ply 9 again
            for clock in clocks:
                clock.run_until(stamp + 6000)
            wait_for(
                lambda: all(
                    c.app.hall.link.wake_by(c.hal.now + 9, c.hal.now) != c.hal.now for c in clocks
                ),
                step=lambda: [step(c, 10) for c in clocks],
            )

            def read(number):
                try:
                    return chess.pgn.read_game(
                        io.StringIO((out / ("board-%d.pgn" % number)).read_text())
                    )
                except OSError:
                    return None

            for number, clock in enumerate(clocks, 1):
                want = records.standing(clock_record(clock))
                game = wait_for(
                    lambda: (read(number) is not None)
                    and len(list(read(number).mainline())) == len(want)
                    and read(number),
                    10,
                )
                nodes = list(game.mainline())
                assert game.headers["Board"] == str(number)
                for node, entry in zip(nodes, want):
                    mover = entry["side"]
                    assert round(node.clock() * 1000) == entry[mover]["remaining_ms"]
                    assert round(node.emt() * 1000) == entry["elapsed_ms"]
            kinds = [e["entry"] for e in clock_record(clocks[0])["clock"]["log"]]
            assert "undo" in kinds and "adjust" in kinds, kinds
        finally:
            stop.set()
            thread.join(5)
