# SPDX-License-Identifier: MIT
# Button chaos and the tick counter wrapping: presses are charged at their instants, once.
import ticks
from clock.game import Game, View
from hal import buttons as b
from harness import Clock

MIN = 60000
TOP = (1 << 30) - 1


def bounce(clock, button, at, edges=6, gap=3):
    """A press with contact bounce: alternating edges `gap` ms apart, ending pressed, then up."""
    for index in range(edges):
        clock.hal.schedule(ticks.add(at, index * gap), button, index % 2 == 0)
    clock.hal.schedule(ticks.add(at, edges * gap), button, True)
    clock.hal.schedule(ticks.add(at, 200), button, False)


def test_a_bounce_burst_is_one_press_at_its_first_edge():
    clock = Clock(preset="Blitz 5+3")
    clock.press(b.RIGHT, 1000)
    bounce(clock, b.LEFT, 5000)
    clock.run_until(6000)
    assert clock.app.game.plies() == 1
    assert clock.view(0).time_ms == 5 * MIN + 3000 - 4000


def test_both_levers_at_once_switch_once():
    clock = Clock(preset="Blitz 5+3")
    clock.press(b.RIGHT, 1000)
    clock.press(b.LEFT, 5000)
    clock.press(b.RIGHT, 5000)  # the same instant: a chord, not a 0 ms move
    clock.press(b.RIGHT, 5020)  # still inside the chord window
    clock.run_until(7000)
    assert clock.app.game.plies() == 1 and clock.view(1).running


def test_the_waiting_lever_a_lever_in_pause_and_a_held_lever_do_nothing():
    clock = Clock(preset="Blitz 5+3")
    clock.press(b.RIGHT, 1000)
    clock.press(b.RIGHT, 2000)  # the waiting player's lever
    clock.hal.schedule(4000, b.LEFT, True)  # held down for 10 s
    clock.hal.schedule(14000, b.LEFT, False)
    clock.press(b.RIGHT, 9000)  # the right player answers while the left lever is held
    clock.press(b.PLAY, 10000)
    clock.press(b.RIGHT, 11000)  # a lever in pause
    clock.press(b.PLAY, 12000)
    clock.run_until(15000)
    assert clock.app.game.plies() == 2
    assert clock.view(1).time_ms == 5 * MIN + 3000 - 5000  # right moved from 4 s to 9 s


def test_the_tick_counter_wrapping_during_a_game():
    start = TOP - 30000
    clock = Clock(preset="Go 30m 5x30s byoyomi", start=start)
    reference = Game(clock.app.preset().setup())
    at = ticks.add(start, 1000)
    clock.press(b.RIGHT, at)
    reference.start(0, 0)
    offset = 0
    for elapsed in (12345, 20000, 9999, 40000, 1):
        at = ticks.add(at, elapsed)
        offset += elapsed
        clock.press(b.LEFT if reference.turn() == 0 else b.RIGHT, at)
        reference.press(reference.turn(), offset)
    clock.run_until(at)
    assert at < start  # the stamps wrapped
    for side in (0, 1):
        assert clock.view(side).time_ms == reference.view(side, offset, View()).time_ms


def test_a_press_while_the_loop_is_busy_saving_is_charged_at_its_own_stamp():
    clock = Clock(preset="Blitz 5+3")
    hal = clock.hal
    write = hal.storage.write

    def slow_write(name, data):  # the loop spends 25 ms in each save
        write(name, data)
        hal.now = ticks.add(hal.now, 25)

    hal.storage.write = slow_write
    clock.press(b.RIGHT, 1000)  # the save after this start runs from 1000 to 1025
    clock.press(b.LEFT, 1010)  # ... and the left lever is pressed at 1010, meanwhile
    clock.run_until(1100)
    assert clock.app.game.plies() == 0  # within the 30 ms chord: the same press
    clock.press(b.LEFT, 5000)  # saved from 5000 to 5025
    clock.press(b.RIGHT, 5040)  # a 40 ms bullet reply, while the loop is still catching up
    clock.run_until(6000)
    assert clock.app.game.plies() == 2
    assert clock.view(0).time_ms == 5 * MIN + 3000 - 4000 + 3000 - (6000 - 5040)
    assert clock.view(1).time_ms == 5 * MIN + 3000 - 40
