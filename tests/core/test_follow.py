# SPDX-License-Identifier: MIT
# What Game keeps between calls (a View brought up to a later `now`, the next event, update's
# quick answer) always equals what it works out afresh, across periods, stages, flags and edits.
import ticks
from clock.game import OVER, PAUSED, RUNNING, STAGE_BEGAN, Game, View
from clock.model import (
    BRONSTEIN,
    DELAY,
    FISCHER,
    FISCHER_AFTER,
    NEXT,
    SET,
    SOFT,
    Control,
    Setup,
    Stage,
)
from twins import VIEW_FIELDS as FIELDS

TOP = (1 << 30) - 1


class Lcg:
    """A small repeatable random source (the same under CPython and MicroPython)."""

    def __init__(self, seed):
        self.state = seed

    def below(self, bound):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % bound


def setups():
    byoyomi = Control(
        [
            Stage(20000, on_expire=NEXT),
            Stage(5000, moves=1, periods=3, on_enter=SET, on_repeat=SET),
        ]
    )
    canadian = Control([Stage(15000, on_expire=SOFT), Stage(20000, moves=3, on_enter=SET)])
    fide = Control([Stage(30000, moves=4, increment_ms=2000), Stage(20000, increment_ms=2000)])
    return (
        Setup(Control([Stage(40000, increment_ms=3000, mode=FISCHER)])),
        Setup(Control([Stage(40000, increment_ms=3000, mode=FISCHER_AFTER)])),
        Setup(Control([Stage(40000, increment_ms=4000, mode=BRONSTEIN)])),
        Setup(Control([Stage(40000, increment_ms=5000, mode=DELAY)])),
        Setup(byoyomi),
        Setup(canadian),
        Setup(fide),
        Setup(fide, word=True),
        Setup(Control([Stage(30000, increment_ms=2000, mode=DELAY)]), hourglass=True),
        Setup(Control([Stage(60000)]), hourglass=True),
        Setup(Control([Stage(40000)], move_ms=8000, reserve_percent=50, move_limit_ms=30000)),
        Setup(Control([Stage(40000, increment_ms=2000)]), start_ms=6000),
        Setup(Control([]), Control([Stage(30000)])),
        Setup(Control([Stage(50000)]), limit_ms=70000),
        Setup(Control([Stage(50000, increment_ms=1000)]), limit_turns=4),
    )


def same(kept, fresh, what):
    for name in FIELDS:
        a, b = getattr(kept, name), getattr(fresh, name)
        assert a == b, "%s: %s kept %r, afresh %r" % (what, name, a, b)


def twin(game):
    """The same game in a new Game object: nothing kept from earlier calls."""
    other = Game(game.setup)
    other._values[:] = game._values
    # What update() told already is the game's too: the twin tells the same changes.
    other._told_stage, other._told_periods = game._told_stage, game._told_periods
    other._told_marks = game._told_marks
    return other


def unscratched(game):
    """The game's state but the third player slot (what-if runs of the mover: scratch)."""
    values = game.snapshot()
    return values[:20] + values[30:]


def check(game, views, now, what, fixed=None):
    """`fixed`: View.fixed -> what the views showed at it; a number seen again must come with
    the same figures (a display skips a side whose number stayed)."""
    for player in (0, 1):
        kept = game.view(player, now, views[player])
        same(kept, game.view(player, now, View()), what)
        same(kept, twin(game).view(player, now, View()), what)
        if fixed is not None and kept.fixed >= 0:
            shown = tuple(getattr(kept, name) for name in FIELDS)
            assert fixed.setdefault(kept.fixed, shown) == shown, what
        assert kept.fixed == -1 or not kept.running, what
    assert game.next_event(now) == twin(game).next_event(now), what


def play(setup, seed, start):
    rng = Lcg(seed)
    game = Game(setup)
    views = (View(), View())
    fixed = {}
    now = start
    game.press(1, now)
    for ply in range(14):
        if game.state() == OVER:
            break
        what = "setup %r seed %d ply %d" % (setup, seed, ply)
        length = 500 + rng.below(45000)
        for _ in range(12):
            now = ticks.add(now, 1 + rng.below(length // 6))
            alone = twin(game)
            ended = game.update(now)
            assert ended == alone.update(now), what
            assert unscratched(game) == unscratched(alone), what
            check(game, views, now, what, fixed)
            if game.state() == OVER:
                break
            if rng.below(9) == 0 and game.pause(now):
                check(game, views, now, what, fixed)
                if rng.below(2) and game.can_undo():
                    game.undo(now)
                elif rng.below(2):
                    game.adjust_time(game.turn(), 1000 * rng.below(5))
                now = ticks.add(now, 1000)
                check(game, views, now, what, fixed)
                game.resume(now)
        if game.state() == RUNNING:
            game.press(game.turn(), now)
            check(game, views, now, what, fixed)
    return game


def test_kept_views_and_events_match_a_fresh_reckoning():
    for index, setup in enumerate(setups()):
        for seed in (1, 2, 3):
            play(setup, seed * 31 + index, 1000)


def test_the_same_across_the_wrap_of_the_stamps():
    for index, setup in enumerate(setups()):
        play(setup, 7 + index, TOP - 60000)


def test_a_view_filled_by_another_game_or_for_the_other_player_is_worked_out_afresh():
    setup = Setup(Control([Stage(60000)]))
    first, second = Game(setup), Game(setup)
    first.start(0, 0)
    second.start(0, 1)
    view = View()
    assert first.view(0, 5000, view).time_ms == 55000 and view.running
    assert second.view(0, 5000, view).time_ms == 60000 and not view.running
    assert first.view(1, 6000, view).time_ms == 60000 and not view.running
    assert first.view(0, 6000, view).time_ms == 54000 and view.running


def test_a_view_or_an_event_asked_for_an_earlier_instant_goes_back():
    game = Game(Setup(Control([Stage(20000, on_expire=NEXT), Stage(10000, moves=1, periods=3)])))
    game.start(0, 0)
    view = View()
    assert game.view(0, 25000, view).stage == 1  # into the periods
    assert game.view(0, 15000, view).stage == 0 and view.time_ms == 5000
    game = Game(Setup(Control([Stage(60000, increment_ms=5000, mode=DELAY)])))
    game.start(0, 0)
    assert game.next_event(7000) == 65001  # the delay is over: the flag is next
    assert game.next_event(3000) == 5000  # the delay ends


def test_a_press_says_when_a_quota_began_the_next_stage():
    game = Game(Setup(Control([Stage(60000, moves=2), Stage(30000)])))
    game.start(0, 0)
    entered = []
    for now in (1000, 2000, 3000, 4000, 5000):
        entered.append(bool(game.press(game.turn(), now) & STAGE_BEGAN))
    assert entered == [False, False, True, True, False]


def test_a_paused_game_keeps_its_views_still():
    game = Game(Setup(Control([Stage(60000, increment_ms=5000, mode=DELAY)])))
    game.start(0, 0)
    view = View()
    game.pause(7000)
    assert game.state() == PAUSED
    assert game.view(0, 8000, view).time_ms == 58000 and view.delay_ms == 0
    assert game.view(0, 90000, view).time_ms == 58000


def test_a_waiting_side_keeps_its_fixed_number_until_the_game_changes():
    game = Game(Setup(Control([Stage(60000, increment_ms=2000)])))
    view, mover = View(), View()
    assert game.view(0, 0, view).fixed >= 0  # ready: nothing runs
    game.start(0, 0)
    assert game.view(0, 1000, mover).fixed == -1  # the running side's figures move
    waiting = game.view(1, 1000, view).fixed
    assert waiting >= 0 and waiting != game.view(0, 1000, View()).fixed
    assert game.view(1, 50000, view).fixed == waiting
    game.press(0, 60000)
    assert game.view(0, 60000, view).fixed not in (-1, waiting)
    assert game.view(1, 60000, View()).fixed == -1
    game.pause(61000)
    paused = game.view(1, 61000, view).fixed
    assert paused >= 0 and game.view(1, 99000, view).fixed == paused
    game.adjust_time(1, 1000)
    assert game.view(1, 99000, view).fixed not in (-1, paused)
