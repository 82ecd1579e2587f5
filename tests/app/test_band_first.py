# SPDX-License-Identifier: MIT
# A display that sends while the app goes on (DMA: display.overlaps) gets a lever press's bands
# first, built from the side on move alone, and the rest after; the frame is the same as ever.
from hal import buttons as b
from harness import Clock
from sim.hal_base import KeptDisplay
from ui.oled import OledScreen

BAND = (0, 127, 5, 5)  # page 5 across the screen: both halves' bands
LINE = (0, 127, 7, 7)  # the status line


def windows(dirty):
    if dirty is None or dirty.whole:
        return "whole"
    return [tuple(dirty.boxes[i : i + 4]) for i in range(0, 4 * dirty.count, 4)]


class OverlappingDisplay(KeptDisplay):
    """The kept frame, with send() as a DMA driver has it: each call's windows in `calls`."""

    overlaps = True

    def __init__(self, hal):
        KeptDisplay.__init__(self, hal)
        self.calls = []

    def send(self, frame, dirty=None):
        self.calls.append(("send", windows(dirty)))
        self.frame = bytes(frame)
        if dirty is not None:
            dirty.clear()

    def show(self, frame, dirty=None):
        self.calls.append(("show", windows(dirty)))
        KeptDisplay.show(self, frame, dirty)


def fresh(app):
    """The frame a screen drawn from nothing shows for the app's views now."""
    screen = OledScreen()
    screen.clock(app.left, app.right, app.status)
    return bytes(screen.frame)


def test_a_press_sends_the_band_alone_first_then_the_digits():
    clock = Clock(preset="Blitz 5+3", display=OverlappingDisplay)
    display = clock.hal.display
    clock.run_until(1999)
    display.calls = []
    clock.press(b.RIGHT, 2000)  # the left clock starts: its band; the start hint goes after
    clock.run_until(2001)
    assert display.calls[0] == ("send", [(0, 61, 5, 5)]), display.calls
    assert display.calls[1][0] == "show" and LINE not in display.calls[1][1]
    assert display.calls[2] == ("send", [LINE])  # after the save: the status line
    assert display.frame == fresh(clock.app)
    clock.run_until(3000)
    for at, lever in ((5432, b.LEFT), (9876, b.RIGHT), (12345, b.LEFT)):
        clock.run_until(at - 1)
        display.calls = []
        clock.press(lever, at)
        clock.run_until(at + 1)
        assert display.calls[0] == ("send", [BAND]), display.calls
        show = display.calls[1]
        assert show[0] == "show" and show[1] and BAND not in show[1]
        assert all(p1 < 5 or p0 > 5 for _x0, _x1, p0, p1 in show[1])  # nothing on page 5 again
        assert display.frame == bytes(clock.app.screen.frame) == fresh(clock.app)
        running = clock.app.right if lever == b.LEFT else clock.app.left
        assert running.running  # the band built from the side on move is the views' band


def test_what_is_not_a_press_goes_by_send_alone_and_a_press_waits_for_it():
    clock = Clock(preset="Blitz 5+3", display=OverlappingDisplay)
    display = clock.hal.display
    clock.press(b.RIGHT, 2000)
    clock.run_until(2100)
    display.calls = []
    clock.run_until(7000)  # seconds tick away: each goes out while the loop goes on
    clock.press(b.PLAY, 7100)  # a pause moves the band too, but is not a lever's press
    clock.run_until(7300)
    assert display.calls and {kind for kind, _windows in display.calls} == {"send"}
    assert display.frame == fresh(clock.app)
    clock.press(b.PLAY, 7400)
    clock.run_until(7999)
    display.calls = []
    clock.press(b.LEFT, 8000)  # a press's pass ends with show(), which waits for every send
    clock.run_until(8000)
    assert [kind for kind, _windows in display.calls[:2]] == ["send", "show"]


def test_a_display_that_waits_gets_no_send():
    clock = Clock(preset="Blitz 5+3")
    assert not clock.app._early
    clock.press(b.RIGHT, 2000)
    clock.press(b.LEFT, 4000)
    clock.run_until(4100)  # KeptDisplay has no send(): it would raise
    assert clock.hal.display.frame == fresh(clock.app)
