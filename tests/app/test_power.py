# SPDX-License-Identifier: MIT
# What the clock does for its batteries: the OFF hold (saved, dark, woken by a lever or PLAY and
# nothing else), and on battery the flashing running light, the TM1637's lower brightness and the
# OLED's dimmer face with its thin band.
from app import saved
from clock.game import PAUSED, READY, RUNNING, View
from clock.record import Record
from hal import buttons as b
from harness import MINIMAL, Clock
from ui.seg7 import BATTERY_BRIGHT, BATTERY_DIM, BRIGHT, DIM, SegScreen

FLASH_MS = 60


def paused_game():
    clock = Clock(preset="Blitz 5+3")
    clock.press(b.RIGHT, 2000)  # the left player's clock starts
    clock.press(b.LEFT, 4000)
    clock.press(b.PLAY, 6000)
    clock.run_until(7000)
    assert clock.app.game.state() == PAUSED
    return clock


def dark(clock):
    hal = clock.hal
    return hal.standing_by and not hal.display.on and not (hal.leds.left_on or hal.leds.right_on)


def test_set_held_five_seconds_in_a_pause_saves_the_game_and_switches_off():
    clock = paused_game()
    times = (clock.view(0).time_ms, clock.view(1).time_ms)
    clock.press(b.SET, 8000, hold_ms=6000)
    clock.run_until(10600)  # the reset hold's question at 2.5 s
    assert clock.state() == "confirm"
    clock.run_until(13100)  # held on to 5 s: off, the question dropped
    assert clock.state() == "off" and dark(clock)
    spec, left_player, game = saved.load(clock.storage, Record())
    assert game.state() == PAUSED and game.plies() == 1
    assert (game.view(0, 13100, View()).time_ms, game.view(1, 13100, View()).time_ms) == times
    clock.run_until(60000)  # the release and a long time after: nothing
    assert clock.state() == "off" and dark(clock)


def test_a_lever_wakes_it_and_acts_no_further():
    clock = Clock(preset="Blitz 5+3")
    clock.press(b.SET, 2000, hold_ms=5500)  # ready: the reset hold is a new game, then off
    clock.run_until(8000)
    assert clock.state() == "off"
    clock.press(b.LEFT, 20000)
    clock.run_until(20100)
    assert clock.state() == "ready" and not clock.hal.standing_by and clock.hal.display.on
    assert clock.app.game.state() == READY  # the waking press did not start the game
    clock.press(b.LEFT, 21000)
    clock.run_until(21100)
    assert clock.app.game.state() == RUNNING


def test_play_wakes_it_set_and_plus_do_not():
    clock = paused_game()
    clock.press(b.SET, 8000, hold_ms=5500)
    clock.run_until(14000)
    assert clock.state() == "off"
    clock.press(b.SET, 20000)
    clock.press(b.PLUS, 21000)
    clock.run_until(22000)
    assert clock.state() == "off"
    clock.press(b.PLAY, 23000)
    clock.run_until(23100)
    assert clock.state() == "paused" and clock.app.game.state() == PAUSED  # PLAY only woke it
    clock.press(b.PLAY, 24000)
    clock.run_until(24100)
    assert clock.app.game.state() == RUNNING


def test_a_running_clock_is_never_switched_off_by_a_hold():
    clock = Clock(preset="Blitz 5+3")
    clock.press(b.RIGHT, 2000)
    clock.press(b.SET, 3000, hold_ms=6000)
    clock.run_until(10000)
    assert clock.state() == "running" and not clock.hal.standing_by


def test_the_minimal_board_holds_its_one_button():
    clock = Clock(present=MINIMAL, preset="Blitz 5+3")
    clock.press(b.PLAY, 2000, hold_ms=5500)
    clock.run_until(8000)
    assert clock.state() == "off" and dark(clock)
    clock.press(b.PLAY, 9000)  # a tap: the one button acts at its release
    clock.run_until(9200)
    assert clock.state() == "ready" and clock.hal.display.on


def on_battery(clock, flash_ms=FLASH_MS):
    clock.hal.battery_powered = True
    clock.hal.leds.flash_ms = flash_ms
    clock.app._check_battery(clock.hal.now)  # the app looks every 10 s; here at once


def test_on_battery_the_running_light_flashes_once_a_second_and_the_loop_wakes_for_it():
    clock = Clock(preset="Blitz 5+3")
    on_battery(clock)
    assert clock.app.status.on_battery and clock.hal.display.saving  # the OLED's dimmer face
    clock.hal.leds.changes = []
    clock.press(b.RIGHT, 2000)  # the left clock runs
    clock.run_until(4500)
    lit = [(stamp, left) for stamp, left, right in clock.hal.leds.changes]
    assert lit == [(2000, True), (2060, False), (3000, True), (3060, False), (4000, True)] + [
        (4060, False)
    ]
    assert all(not right for stamp, left, right in clock.hal.leds.changes)


def test_with_usb_power_the_running_light_is_steady():
    clock = Clock(preset="Blitz 5+3")
    clock.hal.leds.flash_ms = FLASH_MS
    clock.press(b.RIGHT, 2000)
    clock.run_until(4500)
    assert clock.hal.leds.left_on and not clock.app.status.on_battery


def test_the_tm1637_modules_are_dimmer_on_battery():
    clock = Clock(screen=SegScreen(), preset="Blitz 5+3")
    clock.press(b.RIGHT, 2000)
    clock.run_until(2500)
    assert clock.hal.display.frame[8] == BRIGHT
    on_battery(clock)
    clock.run_until(3500)
    assert clock.hal.display.frame[8] == BATTERY_BRIGHT == 2
    clock.press(b.PLAY, 4000)
    clock.run_until(4500)
    assert clock.hal.display.frame[8] == BATTERY_DIM == 0
    clock.hal.battery_powered = False
    clock.app._check_battery(clock.hal.now)
    clock.run_until(5000)
    assert clock.hal.display.frame[8] == DIM


def band_pixels(frame):
    """Lit pixels of the band rows (41..46) under both halves (not the divider between)."""
    count = 0
    for x in list(range(62)) + list(range(66, 128)):
        for y in range(41, 47):
            count += frame[(y >> 3) * 128 + x] >> (y & 7) & 1
    return count


def test_the_oled_band_is_a_thin_line_on_battery():
    clock = Clock(preset="Blitz 5+3")
    clock.press(b.RIGHT, 2000)
    clock.run_until(2500)
    assert band_pixels(clock.hal.display.frame) == 62 * 6
    on_battery(clock)
    clock.run_until(2600)
    assert band_pixels(clock.hal.display.frame) == 62 * 2
    clock.press(b.PLAY, 3000)  # paused: the side on move's band is one row
    clock.run_until(3100)
    assert band_pixels(clock.hal.display.frame) == 62


def test_on_battery_a_pause_flashes_the_side_on_move_every_two_seconds():
    clock = Clock(preset="Blitz 5+3")
    on_battery(clock)
    clock.press(b.RIGHT, 2000)  # the left clock runs
    clock.press(b.PLAY, 3000)  # paused: the left player is on move
    clock.run_until(2500)
    clock.hal.leds.changes = []
    clock.run_until(7500)
    lit = [(stamp, left) for stamp, left, right in clock.hal.leds.changes]
    assert lit == [(3000, True), (3060, False), (5000, True), (5060, False), (7000, True)] + [
        (7060, False)
    ]
