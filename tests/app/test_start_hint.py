# SPDX-License-Identifier: MIT
# A new game says how to start it, on every display: the OLED's status line, the 7-segment
# modules between the times; a lever starts the game and the hint goes.
from hal import buttons as b
from harness import MINIMAL, Clock
from ui import canvas, font
from ui.seg7 import HINT_AFTER_MS, HINT_EVERY_MS, HINT_MS, SegScreen, encode


def find_text(frame, text, y):
    """The x where `text` is drawn in the 5x7 font with its top at row y, or -1."""
    for x in range(canvas.WIDTH - len(text) * font.ADVANCE):
        if all(
            canvas.pixel(frame, x + n * font.ADVANCE + c, y + r)
            == font.glyph_column(ord(text[n]), c) >> r & 1
            for n in range(len(text))
            for c in range(font.WIDTH)
            for r in range(font.HEIGHT)
        ):
            return x
    return -1


def test_the_oled_s_status_line_says_press_lever_until_a_lever_does():
    for present in (None, MINIMAL):
        clock = Clock(preset="Blitz 5+3") if present is None else Clock(present)
        clock.run_until(1500)
        frame = clock.app.screen.frame
        x = find_text(frame, "PRESS LEVER", 57)
        assert x == (canvas.WIDTH - canvas.text_width(11)) // 2, x
        clock.press(b.LEFT, 2000)
        clock.run_until(2100)
        assert find_text(clock.app.screen.frame, "PRESS LEVER", 57) == -1


def modules(text, start=0):
    out = bytearray(16)
    encode(text, out, 0)
    return list(out[start : start + 8])


def test_the_seven_segment_modules_scroll_the_hint_between_the_times():
    clock = Clock(screen=SegScreen(), preset="Blitz 5+3")  # ready from 1000
    clock.run_until(1000 + HINT_AFTER_MS - 1)
    times = list(clock.app.screen.frame)[:8]
    assert times == modules("05:0005:00")
    assert clock.app.next_wake(clock.hal.now) == 1000 + HINT_AFTER_MS  # woken for it
    clock.run_until(1000 + HINT_AFTER_MS)
    assert list(clock.app.screen.frame)[:8] == modules("PRESS LEVER")
    clock.run_until(1000 + HINT_AFTER_MS + 700)
    assert list(clock.app.screen.frame)[:8] == modules("PRESS LEVER", 1)
    clock.run_until(1000 + HINT_AFTER_MS + 1400)
    assert list(clock.app.screen.frame)[:8] == modules("PRESS LEVER", 3)  # "SS LEVER"
    clock.run_until(1000 + HINT_AFTER_MS + HINT_MS)
    assert list(clock.app.screen.frame)[:8] == times
    clock.run_until(1000 + HINT_AFTER_MS + HINT_EVERY_MS)
    assert list(clock.app.screen.frame)[:8] == modules("PRESS LEVER")
    clock.press(b.RIGHT, 11500)  # a lever: the game runs, the times stay
    clock.run_until(20000)
    assert list(clock.app.screen.frame)[4:8] != modules("PRESS LEVER")[4:8]
    assert clock.state() == "running"


def test_the_lcd_modules_show_a_word_each_between_the_times():
    from ui.lcd import LcdScreen

    clock = Clock(screen=LcdScreen(), preset="Blitz 5+3")  # ready from 1000
    clock.run_until(1000 + HINT_AFTER_MS - 1)
    times = bytes(clock.app.screen.frame)
    hint = bytearray(12)
    encode("PRESS", hint, 1)
    encode("LEVER", hint, 7)
    assert times != hint
    assert clock.app.next_wake(clock.hal.now) == 1000 + HINT_AFTER_MS  # woken for it
    clock.run_until(1000 + HINT_AFTER_MS)
    assert bytes(clock.app.screen.frame) == hint  # " PRESS" " LEVER": nothing to scroll
    clock.run_until(1000 + HINT_AFTER_MS + HINT_MS - 1)
    assert bytes(clock.app.screen.frame) == hint
    clock.run_until(1000 + HINT_AFTER_MS + HINT_MS)
    assert bytes(clock.app.screen.frame) == times
    clock.run_until(1000 + HINT_AFTER_MS + HINT_EVERY_MS)
    assert bytes(clock.app.screen.frame) == hint
    clock.press(b.RIGHT, clock.hal.now + 100)  # a lever: the game runs, the hint is gone
    clock.run_until(clock.hal.now + 3000)
    assert clock.state() == "running" and bytes(clock.app.screen.frame) != hint
    clock.run_until(clock.hal.now + HINT_EVERY_MS)
    assert bytes(clock.app.screen.frame) != hint
