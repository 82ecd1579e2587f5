# SPDX-License-Identifier: MIT
# The hal/__init__.py contract, as checks any HAL must pass: tests/hal/test_hal_contract.py runs
# them on the virtual HAL and on Rp2040Hal on the fake machine (both interpreters),
# tests/sim/test_hal_contract_host.py on the real-time and pty HALs (CPython).
#
# A rig holds one HAL and the world around it:
#   hal          the HAL
#   press(button, at)  makes the button go down at stamp `at` and up hold_ms later, as the
#                HAL's own input does (a scheduled edge, a GPIO, a key)
#   hold_ms      how long press() holds
#   slack_ms     how late a real clock may be (0 for a fake one)
#   frame_bytes  the size of a frame its display takes
#   battery_mv   what battery_mv() must read
#   lit()        (optional) the two lights as the world sees them, (left, right) bools; without
#                it, the desktop's levels hal.leds.left_on and right_on
import ticks
from hal import buttons
from ui.dirty import Dirty


def check(rig):
    """Every check on the rig's HAL, the interface first."""
    check_interface(rig.hal)
    check_storage_round_trips(rig.hal.storage)
    check_display_shows_and_clears_the_windows(rig)
    check_buzzer_plays_updates_and_stops(rig.hal)
    check_leds_show_what_was_set(rig)
    assert rig.hal.battery_mv() == rig.battery_mv, (rig.hal.battery_mv(), rig.battery_mv)
    check_edges_pushed_come_back_in_order(rig.hal)
    check_wait_returns_by_the_deadline(rig)
    check_wait_returns_at_once_with_an_edge_pending_or_the_stamp_past(rig)
    check_a_press_ends_the_wait_then_its_release_does(rig)


def check_interface(hal):
    """What the app and its Runner use, and the serial channel where there is one."""
    now = hal.ticks_ms()
    assert isinstance(now, int) and 0 <= now < ticks.PERIOD
    for name in ("wait", "battery_mv", "feed"):
        assert callable(getattr(hal, name)), name
    for name in ("push", "pop", "pending"):
        assert callable(getattr(hal.edges, name)), name
    assert callable(hal.display.show)
    assert callable(hal.leds.set)
    for name in ("play", "update", "stop"):
        assert callable(getattr(hal.buzzer, name)), name
    for name in ("read", "write", "remove"):
        assert callable(getattr(hal.storage, name)), name
    slots = hal.slots  # the game's slot ring, or None
    if slots is not None:
        for name in ("append", "newest", "chain", "release", "untidy", "tidy", "ready"):
            assert callable(getattr(slots, name)), name
    assert isinstance(hal.battery_mv(), int)
    assert hal.feed() is None
    serial = hal.serial
    if serial is not None:
        buf = bytearray(16)
        count = serial.read_into(buf)  # never blocks
        assert isinstance(count, int) and 0 <= count <= len(buf)
        assert callable(serial.write)


def check_storage_round_trips(storage):
    storage.write("contract.txt", b"muted = on\n")
    assert storage.read("contract.txt") == b"muted = on\n"
    storage.write("contract.txt", b"")
    assert storage.read("contract.txt") == b""
    storage.remove("contract.txt")
    assert storage.read("contract.txt") is None and storage.read("never.txt") is None


def check_display_shows_and_clears_the_windows(rig):
    frame = bytearray(rig.frame_bytes)
    frame[0] = 0x7F
    rig.hal.display.show(frame, None)
    if rig.frame_bytes == 1024:  # an OLED frame comes with its windows
        dirty = Dirty()
        dirty.clear()
        dirty.add(0, 7, 0, 7)
        frame[0] = 0x01
        rig.hal.display.show(frame, dirty)
        assert dirty.count == 0 and not dirty.whole


def check_buzzer_plays_updates_and_stops(hal):
    now = hal.ticks_ms()
    hal.buzzer.play(2000, 50, now)
    hal.buzzer.update(ticks.add(now, 10))
    hal.buzzer.update(ticks.add(now, 60))
    hal.buzzer.play(1000, 500, now)
    hal.buzzer.stop()


def check_leds_show_what_was_set(rig):
    leds = rig.hal.leds
    lit = getattr(rig, "lit", None)
    if lit is None:
        lit = lambda: (leds.left_on, leds.right_on)  # noqa: E731
    assert lit() == (False, False)  # dark from the start
    for left, right in ((True, False), (True, False), (False, True), (True, True), (False, False)):
        leds.set(left, right)
        assert lit() == (left, right), (left, right, lit())


def taken(hal):
    found = []
    edges = hal.edges
    while edges.pop():
        found.append((edges.button, edges.pressed, edges.stamp))
    return found


def check_edges_pushed_come_back_in_order(hal):
    now = hal.ticks_ms()
    later = ticks.add(now, 5)
    hal.edges.push(buttons.LEFT, True, now)
    hal.edges.push(buttons.PLAY, True, later)
    hal.edges.push(buttons.LEFT, False, later)
    assert hal.edges.pending()
    expected = [(buttons.LEFT, True, now), (buttons.PLAY, True, later)]
    expected.append((buttons.LEFT, False, later))
    assert taken(hal) == expected
    assert not hal.edges.pending()


def check_wait_returns_by_the_deadline(rig):
    hal = rig.hal
    start = hal.ticks_ms()
    hal.wait(ticks.add(start, 50))
    waited = ticks.diff(hal.ticks_ms(), start)
    assert 50 <= waited <= 50 + rig.slack_ms, waited
    assert taken(hal) == []


def check_wait_returns_at_once_with_an_edge_pending_or_the_stamp_past(rig):
    hal = rig.hal
    start = hal.ticks_ms()
    hal.wait(ticks.add(start, -10))
    assert ticks.diff(hal.ticks_ms(), start) <= rig.slack_ms
    hal.edges.push(buttons.SET, True, start)
    hal.wait(ticks.add(start, 10000))
    assert ticks.diff(hal.ticks_ms(), start) <= rig.slack_ms
    assert taken(hal) == [(buttons.SET, True, start)]


def check_a_press_ends_the_wait_then_its_release_does(rig):
    hal = rig.hal
    start = hal.ticks_ms()
    at = ticks.add(start, 100)
    rig.press(buttons.RIGHT, at)
    deadline = ticks.add(start, 1000 + rig.hold_ms)
    found = []
    woke = []  # the stamp each wait returned at that brought an edge
    while len(found) < 2 and ticks.diff(deadline, hal.ticks_ms()) > 0:
        hal.wait(deadline)
        more = taken(hal)
        if more:
            woke.append(hal.ticks_ms())
        found.extend(more)
    assert len(found) == 2 and len(woke) == 2, found
    (button, pressed, stamp), release = found
    assert button == buttons.RIGHT and pressed, found
    assert 0 <= ticks.diff(stamp, at) <= rig.slack_ms, (stamp, at)
    assert release == (buttons.RIGHT, False, ticks.add(stamp, rig.hold_ms)), found
    assert 0 <= ticks.diff(woke[0], stamp) <= rig.slack_ms, (woke, stamp)
    assert 0 <= ticks.diff(woke[1], release[2]) <= rig.slack_ms, (woke, release)
