# SPDX-License-Identifier: MIT
# Debounce by timestamp: the leading edge acts, bounce is ignored, and a week later too.
import ticks
from hal import buttons as b
from hal.debounce import Debouncer


def test_leading_edge_then_lockout():
    debouncer = Debouncer(b.COUNT)
    assert debouncer.accept(b.LEFT, True, 1000)
    assert not debouncer.accept(b.LEFT, False, 1003)  # bounce
    assert not debouncer.accept(b.LEFT, True, 1006)  # still held
    assert debouncer.accept(b.LEFT, False, 1100)
    assert debouncer.accept(b.LEFT, True, 1500)


def test_a_short_tap_inside_the_lockout_does_not_eat_the_next_press():
    debouncer = Debouncer(b.COUNT)
    assert debouncer.accept(b.PLUS, True, 0)
    assert not debouncer.accept(b.PLUS, False, 10)  # released within the lockout
    assert debouncer.accept(b.PLUS, True, 500)  # the next press counts


def test_a_button_unused_for_more_than_half_the_tick_period_still_works():
    debouncer = Debouncer(b.COUNT)
    assert debouncer.accept(b.MINUS, True, 0)
    assert debouncer.accept(b.MINUS, False, 100)
    later = ticks.add(100, (1 << 29) + 12345)  # about six days on, the difference wraps
    assert debouncer.accept(b.MINUS, True, later)


def test_a_release_inside_the_lockout_is_handed_over_once_the_lockout_ends():
    debouncer = Debouncer(b.COUNT)
    assert debouncer.accept(b.SET, True, 1000)
    assert not debouncer.accept(b.SET, False, 1012)  # a 12 ms touch: inside the lockout
    assert debouncer.due() == 1030
    assert debouncer.settle(1029) == -1
    assert debouncer.settle(1030) == b.SET and debouncer.stamp == 1012  # when it came
    assert debouncer.settle(1031) == -1 and debouncer.due() == -1  # once
    assert debouncer.accept(b.SET, True, 1500)  # the next press counts


def test_bounce_that_ends_pressed_hands_over_nothing():
    debouncer = Debouncer(b.COUNT)
    assert debouncer.accept(b.SET, True, 1000)
    assert not debouncer.accept(b.SET, False, 1003)
    assert not debouncer.accept(b.SET, True, 1006)  # held after all
    assert debouncer.due() == -1 and debouncer.settle(2000) == -1
