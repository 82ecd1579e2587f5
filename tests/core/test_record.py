# SPDX-License-Identifier: MIT
# A game's record: each ply's time and both sides' figures after it, for every system; undo,
# corrections and the end as entries of their own; replaying the entries rebuilds it exactly.
from app.presets import DEFAULTS
from clock.game import ABORTED, ARBITER, HALTED, OVER, RUNNING, TIME, Game, View
from clock.model import Control, Setup, Stage
from clock.record import (
    ADJUST,
    AMOUNT,
    AT,
    CAPACITY,
    END,
    LEFT,
    PLY,
    SET_MOVES,
    SET_TIME,
    UNDO,
    Record,
    RecordError,
    replay,
)
import notation
from support import raises

MIN = 60000
# Move times that cross stages, periods, blocks and flags in the presets' systems.
SCHEDULE = (3000, 41000, 12000, 29000, 95000, 1000, 31000, 7000, 240000, 500, 30000, 61000)
EXTRA = (
    'pcn:[{"duration_ms": 60000, "plies": 3}, {"duration_ms": 20000, "plies": 2}]',
    "ggs:1:00//0:30,3",
    "gtp:time_settings 60 20 2",
    'ogs:{"time_control": "simple", "per_move": 30}',
    "chessclock:G/2 word",
    'ogs:{"time_control": "none"}',
)


def entries(record):
    return [
        (record.kind(i), record.player(i), record.field(i, AT), record.field(i, AMOUNT))
        for i in range(record.length)
    ]


def shown_figures(game, player, now):
    """What the display shows of `player` at `now`, in the record's terms: (left, stage, count)."""
    view = game.view(player, now, View())
    left = view.reserve_ms if view.reserve_ms >= 0 else view.time_ms
    count = view.periods_left if view.periods_left >= 0 else view.moves_left
    return left, view.stage, count


def recorded_figures(record, index, player):
    return (
        record.field(index, LEFT + player),
        record.stage(index, player),
        record.count(index, player),
    )


def play(spec, schedule=SCHEDULE, plies=60):
    """A game of `spec` through `plies` presses of the schedule's times, each checked against
    the display as it shows the two sides right after the press; then until the game ends."""
    game = Game(notation.parse(spec), Record())
    record = game.record
    game.start(1000, 0)
    now = 1000
    for ply in range(plies):
        now += schedule[ply % len(schedule)]
        player = game.turn()
        if not game.press(player, now) & 1:
            break
        index = record.length - 1 if game.state() != OVER else record.length - 2
        assert record.kind(index) == PLY and record.player(index) == player, (spec, ply)
        assert record.field(index, AT) == schedule[ply % len(schedule)]
        for side in (0, 1):
            assert recorded_figures(record, index, side) == shown_figures(game, side, now), (
                spec,
                ply,
                side,
            )
    game.update(now + 10 * 60 * MIN)
    return game


def test_every_system_records_each_ply_as_the_display_shows_it_and_replays_exactly():
    for _name, spec in DEFAULTS + tuple(("", spec) for spec in EXTRA):
        game = play(spec)
        record = game.record
        assert record.length > 0 and not record.cut
        again = Game(game.setup, Record())
        replay(again, entries(record))
        assert again.record.length == record.length, spec
        assert again.record.rows() == record.rows(), spec
        assert again.plies() == game.plies() and again.state() == game.state()


def test_a_flag_is_an_end_entry_at_the_instant_it_fell():
    game = Game(notation.parse("chessclock:G/1"), Record())
    game.start(0, 0)
    game.press(0, 20000)
    game.update(90000)  # the second player had 60 s
    record = game.record
    assert game.state() == OVER and record.length == 2
    assert record.kind(1) == END and record.player(1) == 1
    assert record.field(1, AT) == 60001 and record.field(1, AMOUNT) == TIME
    assert recorded_figures(record, 1, 1) == (0, 0, -1)


def test_an_undo_is_an_entry_and_the_ply_it_takes_back_no_longer_stands():
    game = Game(notation.parse("chessclock:G/5/3"), Record())
    game.start(0, 0)
    game.press(0, 8000)
    game.press(1, 20000)  # 12 s
    game.pause(21000)
    game.undo(21000)  # the second player's move goes on from its 12 s
    game.resume(30000)
    game.press(1, 35000)  # 12 s + 5 s
    record = game.record
    assert [record.kind(i) for i in range(record.length)] == [PLY, PLY, UNDO, PLY]
    assert record.plies() == [0, 3]
    assert record.field(3, AT) == 17000
    assert recorded_figures(record, 2, 1) == (303000 - 12000, 0, -1)  # its clock where it stood
    again = Game(game.setup, Record())
    replay(again, entries(record))
    assert again.record.rows() == record.rows()


def test_arbiter_corrections_are_entries_with_where_they_happened():
    game = Game(notation.parse("chessclock:40/90/30, G/30/30"), Record())
    game.start(0, 0)
    game.press(0, 60000)
    game.pause(100000)  # 40 s into the second player's move
    game.adjust_time(1, -5 * MIN)
    game.set_time(0, 80 * MIN)
    game.set_moves(0, 38)
    game.resume(100000)
    game.press(1, 130000)
    record = game.record
    kinds = [record.kind(i) for i in range(record.length)]
    assert kinds == [PLY, ADJUST, SET_TIME, SET_MOVES, PLY]
    assert [record.field(i, AT) for i in range(5)] == [60000, 40000, 40000, 40000, 70000]
    assert [record.field(i, AMOUNT) for i in range(1, 4)] == [-5 * MIN, 80 * MIN, 38]
    second_after_adjust = 90 * MIN + 30000 - 40000 - 5 * MIN
    assert recorded_figures(record, 1, 1) == (second_after_adjust, 0, 40)
    assert recorded_figures(record, 3, 0) == (80 * MIN, 0, 2)  # 38 moves: 2 to the control
    again = Game(game.setup, Record())
    replay(again, entries(record))
    assert again.record.rows() == record.rows()


def test_each_way_a_game_ends_is_recorded_and_replayed():
    ended = []
    game = Game(notation.parse("arimaa:30s/1/100/0/2t"), Record())  # 2 turns each, then halt
    game.start(0, 0)
    for t in (5000, 10000, 15000, 20000):
        game.press(game.turn(), t)
    ended.append(game)
    game = Game(notation.parse('ogs:{"time_control": "absolute", "total_time": 600}'), Record())
    game.start(0, 0)
    game.pause(1000)
    game.end_by_arbiter(1000)
    ended.append(game)
    start_clock = Setup(Control([Stage(MIN)]), start_ms=10000)
    game = Game(start_clock, Record())
    game.start(0, 0)
    game.update(20000)
    ended.append(game)
    reasons = []
    for game in ended:
        record = game.record
        assert game.state() == OVER and record.kind(record.length - 1) == END
        reasons.append(record.field(record.length - 1, AMOUNT))
        again = Game(game.setup, Record())
        replay(again, entries(record))
        assert again.record.rows() == record.rows()
    assert reasons == [HALTED, ARBITER, ABORTED]


def test_the_record_holds_six_hundred_plies_and_past_its_capacity_stops_and_says_so():
    assert CAPACITY >= 600 + 40
    game = Game(notation.parse("chessclock:G/600/1"), Record())
    game.start(0, 0)
    now = 0
    for ply in range(CAPACITY + 10):
        now += 1000 + ply % 7
        assert game.press(game.turn(), now)
    record = game.record
    assert record.length == CAPACITY and record.cut
    assert record.plies() == list(range(CAPACITY))  # a true start of the game
    assert game.plies() == CAPACITY + 10 and game.state() == RUNNING


def test_a_start_clears_the_record_and_until_then_it_is_the_last_games():
    record = Record()
    game = Game(notation.parse("chessclock:G/5"), record)
    game.start(0, 0)
    game.press(0, 1000)
    game.end_by_arbiter(2000)
    following = Game(notation.parse("chessclock:G/5"), record)
    assert record.length == 2 and record.owner is game  # set up, not started: still the last
    following.adjust_time(0, 60000)  # before its start: the last game's record is left alone
    following.end_by_arbiter(4000)
    assert record.length == 2 and record.kind(1) == END
    following = Game(notation.parse("chessclock:G/5"), record)
    following.start(5000, 0)
    assert record.length == 0 and record.owner is following


def test_a_game_that_does_not_own_the_record_leaves_it_alone():
    # As at boot: the saved game is offered while a fresh game has taken the record.
    record = Record()
    offered = Game(notation.parse("G/30s/2"), record)
    offered.start(0, 0)
    offered.press(0, 1000)
    fresh = Game(notation.parse("G/5/3"), record)
    fresh.start(2000, 0)
    fresh.press(0, 3500)
    fresh.press(1, 6000)
    rows = record.rows()
    assert record.length == 2 and record.owner is fresh
    for now in (7000, 9000, 40000):  # two plies, then a press after the flag fell
        assert offered.press(offered.turn(), now)
    offered.undo(41000)
    offered.end_by_arbiter(42000)
    assert offered.plies() == 3 and offered.state() == OVER
    assert record.length == 2 and record.rows() == rows and record.owner is fresh


def test_replay_refuses_entries_that_are_not_this_games():
    game = Game(notation.parse("chessclock:G/1"), Record())
    raises(RecordError, replay, game, [(PLY, 1, 1000, 0)])  # the first player moves first
    game = Game(notation.parse("chessclock:G/1"), Record())
    raises(RecordError, replay, game, [(PLY, 0, 1000, 0), (END, 1, 5000, TIME)])  # 5 s of 60
