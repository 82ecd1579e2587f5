# SPDX-License-Identifier: MIT
# `hall broadcast` on a real Mosquitto: one PGN per board, python-chess reads every %clk and %emt
# back equal to the clock's own record, a correction and an undo included.
import io
import json
import threading

import chess.pgn

import notation
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


def held(broadcast, numbers):
    """Whether the broadcast holds each board's state: its subscription is in place."""
    with broadcast.lock:
        return all(n in broadcast.boards and broadcast.boards[n].state for n in numbers)


def pgn_times(path):
    """(the Board header, each move's (%clk, %emt) in ms) of the PGN at `path`, or None."""
    try:
        game = chess.pgn.read_game(io.StringIO(path.read_text()))
    except OSError:
        return None
    if game is None:
        return None
    times = [(round(n.clock() * 1000), round(n.emt() * 1000)) for n in game.mainline()]
    return game.headers.get("Board"), times


def test_every_board_a_pgn_whose_clock_times_are_the_record(tmp_path, monkeypatch):
    # The clocks' firmware unloads the notation modules after each use (notation.forget: the
    # board's RAM is small) while the broadcast's thread imports them for sim/annotate.py in
    # this same process: an unload in the middle of that import is a KeyError that ends the
    # thread. In a hall they are processes apart; here the modules stay loaded.
    monkeypatch.setattr(notation, "forget", lambda: None)
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
            # The events are not retained: the broadcast subscribes before the first press, and
            # its subscription is in place once the clocks' (retained) states reach it.
            wait_for(
                lambda: held(broadcast, (1, 2)), 60, step=lambda: [step(c, 10) for c in clocks]
            )
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
            first.press(b.LEFT, stamp + 5000)  # ply 9 again, the minute in its %clk
            for clock in clocks:
                clock.run_until(stamp + 6000)
            wait_for(
                lambda: all(
                    c.app.hall.link.wake_by(c.hal.now + 9, c.hal.now) != c.hal.now for c in clocks
                ),
                60,
                step=lambda: [step(c, 10) for c in clocks],
            )
            # Each file is rewritten at every event: it comes to hold the whole record once the
            # broadcast has every event, however loaded the machine. A wrong one never does.
            for number, clock in enumerate(clocks, 1):
                want = (
                    str(number),
                    [
                        (entry[entry["side"]]["remaining_ms"], entry["elapsed_ms"])
                        for entry in records.standing(clock_record(clock))
                    ],
                )
                path = out / ("board-%d.pgn" % number)
                try:
                    wait_for(lambda: pgn_times(path) == want, 60)
                except AssertionError:
                    assert pgn_times(path) == want
            kinds = [e["entry"] for e in clock_record(clocks[0])["clock"]["log"]]
            assert "undo" in kinds and "adjust" in kinds, kinds
        finally:
            stop.set()
            thread.join(5)
