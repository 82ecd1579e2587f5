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
