# SPDX-License-Identifier: MIT
# The record over generated games (CPython: hypothesis): whatever the clock went through, its
# entries replay to the same record, and the plies that stand are the moves as they stand.
from hypothesis import given, settings
from hypothesis import strategies as st

from app.presets import DEFAULTS
import ticks
from clock.game import OVER, PAUSED, RUNNING, Game
from clock.record import AMOUNT, AT, Record, replay
import notation

SETUPS = [notation.parse(spec) for _name, spec in DEFAULTS]
actions = st.lists(
    st.tuples(
        st.sampled_from(("press", "press", "press", "wait", "pause", "undo", "adjust", "set")),
        st.integers(0, 90000),
    ),
    max_size=40,
)


@settings(max_examples=200, deadline=None)
@given(setup=st.sampled_from(SETUPS), script=actions, start=st.integers(0, (1 << 30) - 1))
def test_any_game_replays_to_the_same_record(setup, script, start):
    game = Game(setup, Record())
    game.start(start, 0)
    now = start
    for action, amount in script:
        if game.state() == OVER:
            break
        now = ticks.add(now, amount)
        if action == "press" and game.state() == RUNNING:
            game.press(game.turn(), now)
        elif action == "wait":
            game.update(now)
        elif action == "pause":
            if game.state() == RUNNING:
                game.pause(now)
            elif game.state() == PAUSED:
                game.resume(now)
        elif action == "undo":
            game.undo(now)
        elif game.state() == PAUSED:
            if action == "adjust":
                game.adjust_time(amount % 2, amount - 45000)
            else:
                game.set_time(amount % 2, amount)
    record = game.record
    entries = [
        (record.kind(i), record.player(i), record.field(i, AT), record.field(i, AMOUNT))
        for i in range(record.length)
    ]
    again = Game(setup, Record())
    replay(again, entries)
    assert again.record.rows() == record.rows()
    assert len(record.plies()) == game.plies()
