# SPDX-License-Identifier: MIT
# The model refuses what the clock cannot run, and says why.
from clock.model import (
    BRONSTEIN,
    DELAY,
    FISCHER,
    MAX_MS,
    SET,
    ClockError,
    Control,
    Setup,
    Stage,
)
from support import raises


def test_values_the_board_cannot_hold_are_refused_where_they_enter():
    error = raises(ClockError, Stage, MAX_MS + 1)
    assert "more than the clock can hold" in str(error)
    assert Stage(MAX_MS).duration_ms == MAX_MS
    raises(ClockError, Stage, 1 << 40)
    raises(ClockError, Setup, Control([Stage(1000)]), limit_ms=1 << 31)


def test_bad_values_are_refused():
    raises(ClockError, Stage, -1)
    raises(ClockError, Stage, 1.5)
    raises(ClockError, Stage, True)
    raises(ClockError, Stage, "90")
    raises(ClockError, Stage, 1000, moves=-1)
    raises(ClockError, Stage, 1000, mode=7)
    raises(ClockError, Stage, 1000, increment_ms=5, mode=FISCHER, increment_every=2)
    raises(ClockError, Stage, 0, periods=3)
    raises(ClockError, Control, [1000])
    raises(ClockError, Control, [Stage(1000), Stage(1000)], move_ms=1000)
    raises(ClockError, Control, [Stage(1000)], move_ms=1000, reserve_percent=101)
    raises(ClockError, Setup, "G/30")


def test_equality_ignores_the_mode_of_a_zero_increment():
    assert Stage(1000, mode=BRONSTEIN) == Stage(1000, mode=DELAY)
    assert Stage(1000, increment_ms=5, mode=BRONSTEIN) != Stage(1000, increment_ms=5, mode=DELAY)
    assert Setup(Control([Stage(1000)])) == Setup(Control([Stage(1000)]), Control([Stage(1000)]))
    assert Setup(Control([Stage(1000)])) != Setup(Control([Stage(1000)]), hourglass=True)
    assert Stage(1, moves=1, on_repeat=SET).is_period() and not Stage(1, moves=2).is_period()
