# SPDX-License-Identifier: MIT
# Under the MicroPython unix port: a press, a tick update and the display queries allocate nothing.
import micropython

from clock import display
from clock.game import Game, View
from clock.model import DELAY, NEXT, SET, Control, Setup, Stage
from clock.record import Record


def exercise(setup, elapsed, record=None):
    game = Game(setup, record)
    game.start(1000, 0)
    first, second = View(), View()
    buf = bytearray(12)
    now = 1000
    for e in elapsed:
        for step in (1, e // 2, e):
            t = now + step
            micropython.heap_lock()
            try:
                game.update(t)
                game.next_event(t)
                game.view(0, t, first)
                game.view(1, t, second)
                display.render(first.time_ms, buf)
                display.until_change(second.time_ms)
                display.until_alert(first.time_ms)
            finally:
                micropython.heap_unlock()
        now += e
        micropython.heap_lock()
        try:
            pressed = game.press(game.turn(), now)
        finally:
            micropython.heap_unlock()
        assert pressed
    micropython.heap_lock()
    try:
        game.pause(now + 10)
        game.resume(now + 20)
        game.undo(now + 30)
        game.flag_at()
    finally:
        micropython.heap_unlock()


def test_hot_path_allocates_nothing():
    exercise(Setup(Control([Stage(300000, increment_ms=3000)])), [8000, 12000, 15000, 5000])
    byoyomi = Control(
        [
            Stage(10000, on_expire=NEXT),
            Stage(30000, moves=1, periods=5, on_enter=SET, on_repeat=SET),
        ]
    )
    exercise(Setup(byoyomi), [75000, 2000, 31000, 100])
    exercise(
        Setup(Control([Stage(60000, increment_ms=5000, mode=DELAY)]), hourglass=True), [7000, 3000]
    )
    exercise(Setup(Control([Stage(60000)], move_ms=30000, reserve_percent=50)), [10000, 45000])
    arimaa_cut = Control([Stage(60000)], move_ms=30000, reserve_limit_ms=40000)
    exercise(Setup(arimaa_cut), [10000, 45000, 0])


def test_a_lock_does_catch_allocation():
    raised = False
    micropython.heap_lock()
    try:
        list((1, 2, 3))
    except MemoryError:
        raised = True
    finally:
        micropython.heap_unlock()
    assert raised


def test_a_game_writing_its_record_allocates_nothing_even_once_the_record_is_full():
    byoyomi = Control(
        [
            Stage(10000, on_expire=NEXT),
            Stage(30000, moves=1, periods=5, on_enter=SET, on_repeat=SET),
        ]
    )
    record = Record()
    exercise(Setup(byoyomi), [75000, 2000, 31000, 100], record)
    assert record.length == 4 + 1  # four plies and the undo
    arimaa = Control([Stage(60000)], move_ms=30000, reserve_limit_ms=40000)
    full = Record(3)
    exercise(Setup(arimaa), [10000, 45000, 0, 5000], full)
    assert full.length == 3 and full.cut
