# SPDX-License-Identifier: MIT
# The app as a shell over the core: tones and events from the core's bits, one state setter,
# one battery rule, and the small public API the menus, the commands and the simulator use.
from app import clock_app
from app.clock_app import EVENT_NAMES
from app.sounds import FLAG_HZ, PERIOD_HZ, STAGE_HZ
from hal import buttons as b
from harness import Clock

BYOYOMI = 'ogs:{"time_control": "byoyomi", "main_time": 10, "period_time": 5, "periods": 3}'
INTERIM = "chessclock:2/10s, G/1"  # 2 moves in 10 s (a flag at its end), then 1 min


def clock_with(spec):
    clock = Clock()
    clock.app.choose_preset(clock.app.add_preset("Test", spec))
    events = []
    clock.app.listener = lambda event, stamp: events.append((EVENT_NAMES[event], stamp))
    return clock, events


def tones(clock, hz):
    return [tone[0] for tone in clock.hal.buzzer.tones if tone[1] == hz]


def test_a_byoyomi_game_chimes_at_the_periods_and_each_period_used_once():
    clock, events = clock_with(BYOYOMI)
    clock.press(b.RIGHT, 1000)  # the left player's clock runs
    clock.run_until(1000 + 10000 + 3 * 5000 - 1000)
    # The main time ends at 11 s (into the periods), the first period at 16 s, the second at 21 s.
    assert tones(clock, STAGE_HZ) == [11001]
    assert tones(clock, PERIOD_HZ) == [16001, 21001]
    assert [event for event in events if event[0] == "stage"] == [("stage", 11001)]
    assert clock.state() == "running"


def test_an_interim_flag_is_sounded_told_and_shown_then_play_goes_on():
    clock, events = clock_with(INTERIM)
    clock.press(b.RIGHT, 1000)
    clock.run_until(12000)
    assert tones(clock, FLAG_HZ) == [11001]
    assert ("flag", 11001) in events and ("stage", 11001) not in events  # the flag says it
    assert clock.state() == "interim" and clock.view(0).flagged
    clock.press(b.LEFT, 12500)  # the game goes on in the next stage
    clock.run_until(13000)
    assert clock.state() == "interim" and clock.app.game.plies() == 1


def test_a_press_that_finds_the_flag_fallen_ends_the_game_at_the_flag():
    clock, events = clock_with("chessclock:G/5s")
    clock.press(b.RIGHT, 1000)
    clock.run_until(1000)
    clock.app.on_action(clock_app.act.LEVER_LEFT, 6500)  # no tick since the flag at 6001
    assert clock.state() == "over" and clock.app.game.end_stamp() == 6001
    assert events[-1] == ("over", 6001)


def test_play_acts_at_the_press_exactly_while_a_clock_runs():
    clock = Clock(preset="Blitz 5+3")
    gestures = clock.app.gestures
    assert not gestures.at_once()  # ready
    clock.press(b.RIGHT, 1000)
    clock.run_until(1100)
    assert gestures.at_once()  # running
    clock.press(b.PLAY, 2000)
    clock.run_until(2200)
    assert clock.state() == "paused" and not gestures.at_once()
    clock.press(b.PLAY, 3000)
    clock.run_until(3200)
    assert clock.state() == "running" and gestures.at_once()


def test_the_low_battery_warning_has_the_hals_hysteresis():
    clock = Clock()
    app = clock.app
    for millivolts, low in ((3600, False), (3499, True), (3550, True), (3600, False)):
        clock.hal._battery_mv = millivolts
        app._check_battery(0)
        assert app.status.battery_low == low, millivolts
    assert app.status.battery_percent == 33  # (3600 - 3300) * 100 // 900


def test_the_public_api_for_menus_commands_and_the_simulator():
    clock = Clock(preset="Blitz 5+3")
    app = clock.app
    assert not app.in_progress() and not app.editing_presets()
    index = app.add_preset("Club", "chessclock:G/10/5")
    app.choose_preset(index)
    assert app.game_preset_name() == "Club" and clock.view(0).time_ms == 10 * 60000
    app.set_muted(True)
    assert app.settings.muted and app.sounds.muted and app.status.muted
    clock.press(b.RIGHT, 1000)
    clock.run_until(1100)
    assert app.in_progress() and app.state_name() == "running"
    left, right = app.views(1600)
    assert left.running and left.time_ms == 10 * 60000 + 5000 - 600  # Fischer: +5 s first
    try:
        app.delete_preset(index)
        raise AssertionError("deleted the game in progress's preset")
    except ValueError:
        pass
    app.choose_preset(0)  # for the next game: this one goes on
    assert app.game_preset_name() == "Club" and app.in_progress()


def test_a_preset_is_stored_with_the_prefix_of_the_notation_that_read_it():
    # A later firmware that reads an unprefixed text otherwise still reads the stored one alike.
    app = Clock().app
    quick = app.add_preset("Quick", "5+3")
    armageddon = app.add_preset("Armageddon", "300+2=180+2")
    go = app.add_preset("Go", "gtp:time_settings 600 30 5")
    specs = [app.presets.items[index].spec for index in (quick, armageddon, go)]
    assert specs == ["chessclock:5+3", "pgn:300+2=180+2", "gtp:time_settings 600 30 5"]
    assert app.presets.items[quick].setup().first.stages[0].duration_ms == 5 * 60000


def test_a_paused_clock_sleeps_till_the_light_on_move_blinks_on_either_screen():
    from ui.seg7 import SegScreen

    # The OLED says PAUSE, the modules dim: only the light of the side on move changes, 1 s
    # after the pause at 2000 (its blink is phased from there).
    for screen, wake in ((None, 3000), (SegScreen(), 3000)):
        clock = Clock(screen=screen, preset="Blitz 5+3")
        clock.press(b.RIGHT, 1000)
        clock.press(b.PLAY, 2000)
        clock.run_until(2100)
        assert clock.state() == "paused"
        app = clock.app
        app.flush(2100)
        assert clock.hal.now == 2100 and app.next_wake(2100) == wake, screen
