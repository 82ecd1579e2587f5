# SPDX-License-Identifier: MIT
# The arbiter's menu on the 7-segment board: the modules show the value being corrected, to the
# unit PLUS and MINUS change, on the corrected side's own module; a second in an hour game too.
from hal import buttons as b
from harness import Clock
from ui.seg7 import SegScreen, encode

MIN = 60000


def modules(text):
    """The eight digit bytes `text` lights on the two modules."""
    out = bytearray(8)
    encode(text, out, 0)
    return list(out)


def _arbiter(preset):
    clock = Clock(screen=SegScreen(), preset=preset)
    clock.press(b.RIGHT, 1000)  # the left clock runs
    clock.press(b.LEFT, 5000)  # ply 1: 4 s; the right clock runs
    clock.press(b.PLAY, 6000)
    clock.press(b.SET, 7000)
    clock.run_until(7500)
    assert clock.state() == "arbiter"
    return clock


def shown(clock):
    return list(clock.app.screen.frame)[:8]


def test_each_field_shows_its_value_on_its_side_s_module():
    clock = _arbiter("Blitz 5+3")  # left 5:03 - 4 s = 4:59, right 5:00 + 3 s - 1 s
    assert shown(clock) == modules("04:59 Min")
    clock.press(b.PLUS, 8000)
    clock.run_until(8100)
    assert shown(clock) == modules("05:59 Min")  # the correction, on the module at once
    clock.press(b.MINUS, 8500)  # and back: a correction clears the undo, so undo it first
    clock.run_until(8600)
    wanted = ("04:59 SEC", " Min05:02", " SEC05:02", "n  1    ", "    n  0")
    for index, text in enumerate(wanted):
        clock.press(b.SET, 9000 + index * 500)
        clock.run_until(9100 + index * 500)
        assert shown(clock) == modules(text), text
    clock.press(b.SET, 12500)  # undo: there is none after a correction; its question else
    clock.run_until(12600)
    assert shown(clock) == modules("Nothing ")
    fresh = _arbiter("Blitz 5+3")
    for index in range(6):
        fresh.press(b.SET, 8000 + index * 200)
    fresh.press(b.PLUS, 10000)
    fresh.run_until(10100)
    assert shown(fresh) == modules("Undo ply")  # the question, scrolling
    assert fresh.app.open_menu().lines()[-1] == "Undo ply 1? PLUS again: yes"


def test_a_second_in_an_hour_game_shows():
    clock = _arbiter("FIDE classical")  # 90 min + 30 s: the left 1:30:26 after its 4 s
    assert shown(clock) == modules(" 1:30 Min")  # H:MM, as the clock face shows it
    clock.press(b.SET, 8000)  # the seconds: minutes and seconds of the hour, the hours beside
    clock.run_until(8100)
    assert shown(clock) == modules("30:26  1h")
    clock.press(b.PLUS, 8500)
    clock.run_until(8600)
    assert shown(clock) == modules("30:27  1h")
    assert clock.view(0).time_ms == 90 * MIN + 30000 - 4000 + 1000
    clock.press(b.PLAY, 9000)  # done: the clock face again, dimmed in the pause
    clock.run_until(9100)
    assert clock.state() == "paused" and shown(clock) != modules("30:27  1h")


def test_the_oled_keeps_its_five_lines():
    clock = Clock(preset="Blitz 5+3")
    clock.press(b.RIGHT, 1000)
    clock.press(b.PLAY, 2000)
    clock.press(b.SET, 3000)
    clock.run_until(3500)
    menu = clock.app.open_menu()
    assert len(menu.lines()) == 4 and menu.lines()[menu.selected] == "Left time +-1 min"
