# SPDX-License-Identifier: MIT
# What a display shows (docs/time-controls.md "What the display shows") and when its text changes.
from clock import display


def test_formats_by_range():
    assert display.text(2 * 3600000 + 5 * 60000 + 7000) == "2:05:07"
    assert display.text(2 * 3600000 + 5 * 60000 + 7000, four_digits=True) == "2:05"
    assert display.text(12 * 3600000) == "12:00:00"
    assert display.text(3599999) == "59:59"
    assert display.text(65000) == "01:05"
    assert display.text(20000) == "00:20"
    assert display.text(19999) == "19.9"
    assert display.text(9050) == "9.0"
    assert display.text(0) == "0.0"
    assert display.text(-5) == "0.0"


def test_render_writes_into_a_buffer():
    buf = bytearray(10)
    n = display.render(754000, buf)
    assert bytes(buf[:n]) == b"12:34"


def test_when_the_text_changes():
    assert display.until_change(65000) == 1  # 01:05 -> 01:04 one ms later
    assert display.until_change(65999) == 1000
    assert display.until_change(20000) == 1  # 00:20 -> 19.9
    assert display.until_change(12345) == 46
    assert display.until_change(3600000 + 59999, four_digits=True) == 60000
    assert display.until_change(0) == -1
    assert display.until_change(5500, counting_up=True) == 100
    assert display.until_change(25500, counting_up=True) == 500


def test_beeps_are_due_at_the_marks():
    assert display.until_alert(12000) == 2000
    assert display.until_alert(10000) == 5000
    assert display.until_alert(5500) == 500
    assert display.until_alert(1000) == -1
    assert display.until_alert(9500, display.PERIOD_ALERTS) == 500
