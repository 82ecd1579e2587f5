# SPDX-License-Identifier: MIT
# The OLED screen lists the windows it changed: small ones for a tick or a press, and always
# every changed pixel (the display driver sends nothing else).
from clock.game import View
from ui.oled import OledScreen
from ui.status import Status


def views(left_ms=300000, right_ms=300000):
    left, right = View(), View()
    left.time_ms = left_ms
    right.time_ms = right_ms
    return left, right


def windows(screen):
    dirty = screen.dirty
    boxes = dirty.boxes
    found = [tuple(boxes[i : i + 4]) for i in range(0, 4 * dirty.count, 4)]
    dirty.clear()
    return found


def uncovered(before, after, found):
    """Bytes of the frame that changed but lie in no window: (index) list."""
    missing = []
    for i in range(1024):
        if before[i] == after[i]:
            continue
        page, x = i // 128, i % 128
        if not any(x0 <= x <= x1 and p0 <= page <= p1 for x0, x1, p0, p1 in found):
            missing.append(i)
    return missing


def test_the_first_frame_is_whole_then_a_tick_is_one_digit():
    screen = OledScreen()
    left, right = views(299999, 300000)
    assert screen.clock(left, right, Status())
    assert screen.dirty.whole
    screen.dirty.clear()
    left.time_ms = 298999  # 04:59 -> 04:58: the last digit only
    assert screen.clock(left, right, Status())
    found = windows(screen)
    assert len(found) == 1
    x0, x1, p0, p1 = found[0]
    assert (p0, p1) == (1, 4) and x1 - x0 + 1 == 12  # one 12-wide digit on pages 1..4
    assert x0 > 40  # the last digit of the left half


def test_a_press_changes_the_bars_and_the_counter_only():
    screen = OledScreen()
    left, right = views()
    left.running = True
    screen.clock(left, right, Status())
    screen.dirty.clear()
    left.running = False
    left.moves = 1
    right.running = True
    assert screen.clock(left, right, Status())
    found = windows(screen)
    pages = sorted((p0, p1) for _, _, p0, p1 in found)
    assert pages == [(0, 0), (5, 5)]
    # "#1", and both bands in one window across the screen (the divider's 4 columns with them)
    assert sum(x1 - x0 + 1 for x0, x1, _, _ in found) == 6 + 128


def test_one_band_that_changes_alone_is_its_half_only():
    screen = OledScreen()
    left, right = views()
    left.running = True
    screen.clock(left, right, Status())
    screen.dirty.clear()
    left.running = False  # a pause: the band of the side on move is outlined, the other stays
    status = Status()
    assert screen.clock(left, right, status)
    assert windows(screen) == [(0, 61, 5, 5)]


def test_a_new_shape_redraws_the_half():
    screen = OledScreen()
    left, right = views(20000, 300000)
    screen.clock(left, right, Status())
    screen.dirty.clear()
    left.time_ms = 19900  # 00:20 -> 19.9
    screen.clock(left, right, Status())
    assert windows(screen) == [(0, 61, 1, 4)]


def test_the_windows_cover_every_changed_byte():
    screen = OledScreen()
    status = Status()
    left, right = views(3700000, 20500)
    screen.clock(left, right, status)
    screen.dirty.clear()
    steps = 0
    for n in range(120):
        before = bytes(screen.frame)
        left.time_ms -= 997 * (n % 7)
        right.time_ms = max(0, right.time_ms - 311)
        left.running = n % 2 == 0
        right.running = not left.running
        left.moves = n // 2
        right.delay_ms = 5000 - 40 * n if n % 3 == 0 else 0
        right.flagged = right.time_ms == 0
        status.paused = n % 11 == 5
        status.battery_percent = 90 - n // 10
        if screen.clock(left, right, status):
            steps += 1
            assert not screen.dirty.whole
            assert uncovered(before, screen.frame, windows(screen)) == []
    assert steps > 100
