# SPDX-License-Identifier: MIT
# The browser HAL (sim/web_hal.py) under CPython and the MicroPython unix port: its storage in a
# key-value store, its wait that never sleeps, its lights and serial line, the app running on it.
import json

from support import raises

from app.clock_app import ClockApp
from app.runner import Runner
from boards import pico_oled
from hal import buttons
from hal.storage import Storage
from sim.web_hal import StoredFs, WebHal, folded
from ui import kinds

PREFIX = "tournament-clock/pico_oled"


class Store:
    """localStorage as the page hands it to StoredFs: every put and drop is kept in `log`."""

    def __init__(self, items=None):
        self.items = dict(items or {})
        self.log = []
        self.full = False

    def get_all(self, prefix):
        found = {}
        for key, value in self.items.items():
            if key.startswith(prefix + "/"):
                found[key] = value
        return json.dumps(found)

    def put(self, key, text):
        self.log.append(("put", key))
        if self.full:
            return False
        self.items[key] = text
        return True

    def drop(self, key):
        self.log.append(("drop", key))
        self.items.pop(key, None)


class Page:
    def __init__(self, now=1000):
        self.now = now
        self.tones = []
        self.lights = []
        self.out = []

    def ticks_ms(self):
        return self.now

    def tone(self, hz, ms):
        self.tones.append((hz, ms))

    def leds(self, left, right):
        self.lights.append((left, right))

    def serial(self, text):
        self.out.append(text)


def rig(store=None, now=1000):
    store = store if store is not None else Store()
    fs = StoredFs(store, PREFIX)
    page = Page(now)
    hal = WebHal(Storage("/data", fs, fs.open), page.ticks_ms, page.tone, page.leds, page.serial)
    return hal, page, store


def test_a_page_stamp_folds_as_the_boards_ticks():
    assert folded(12.7) == 12
    assert folded(2.0**30 + 5.5) == 5


def test_a_write_is_one_put_of_the_whole_file_and_reads_back_after_a_reload():
    hal, _page, store = rig()
    hal.storage.write("presets.txt", b"Blitz = 5+3\n")
    assert store.log == [("put", PREFIX + "/data/presets.txt")]  # the .tmp never reaches it
    again, _page, _store = rig(Store(store.items))
    assert again.storage.read("presets.txt") == b"Blitz = 5+3\n"
    assert again.storage.read("missing.txt") is None
    assert again.storage.names() == ["presets.txt"]


def test_folders_and_removal_reach_the_store():
    hal, _page, store = rig()
    record = hal.storage.within("record")
    record.write("1.txt", b"one")
    assert PREFIX + "/data/record/1.txt" in store.items
    assert hal.storage.names() == []  # a folder is not a file
    assert record.names() == ["1.txt"]
    record.remove("1.txt")
    record.remove("1.txt")  # no error when it is not there
    assert store.items == {}


def test_a_full_store_fails_the_write_as_a_full_flash_and_keeps_the_old_file():
    hal, _page, store = rig()
    hal.storage.write("settings.txt", b"old")
    store.full = True
    error = raises(OSError, hal.storage.write, "settings.txt", b"new")
    assert error.args[0] == 28
    assert hal.storage.read("settings.txt") == b"old"
    assert hal.storage.names() == ["settings.txt"]  # no temporary copy left


def test_a_stored_value_that_is_not_base64_is_left_out_and_named():
    store = Store({PREFIX + "/data/game.txt": "%%% not base64", PREFIX + "/data/ok.txt": "b2s="})
    fs = StoredFs(store, PREFIX)
    assert fs.unreadable == ["/data/game.txt"]
    assert Storage("/data", fs, fs.open).read("ok.txt") == b"ok"
    assert raises(OSError, fs.open, "/data/game.txt", "rb").args[0] == 2


def test_wait_never_sleeps_and_says_when_the_next_pass_is_due():
    hal, page, _store = rig()
    hal.wait(1250)
    assert hal.due_in() == 250
    page.now = 1300
    assert hal.due_in() == 0
    hal.wait(None)
    assert hal.due_in() == -1
    hal.edge(buttons.LEFT, True, 1290)
    assert hal.due_in() == 0  # an edge is due at once
    assert hal.trace == [(1290, buttons.LEFT, True)]


def test_the_lights_are_told_only_when_a_level_changes():
    hal, page, _store = rig()
    hal.leds.set(True, False)
    hal.leds.set(True, False)
    hal.leds.set(False, False)
    assert page.lights == [(True, False), (False, False)]
    assert (hal.leds.left_on, hal.leds.right_on) == (False, False)


def test_a_muted_page_keeps_the_tone_from_its_speaker_not_from_the_clock():
    hal, page, _store = rig()
    hal.buzzer.muted = True
    hal.buzzer.play(2000, 50, 1000)
    assert page.tones == [] and hal.buzzer.last == (2000, 50, 1000)


def test_the_app_runs_on_it_a_press_charged_from_its_stamp():
    hal, page, _store = rig()
    app = ClockApp(hal, tuple(pico_oled.BUTTONS), kinds.screen_for(pico_oled), hal.ticks_ms())
    runner = Runner(hal, app)
    runner.channel.repl = False
    app.render(page.now)
    hal.edge(buttons.LEFT, True, 1000)  # starts the right clock
    hal.edge(buttons.LEFT, False, 1060)
    page.now = 1100
    runner.step()
    assert app.state_name() == "running"
    hal.edge(buttons.RIGHT, True, 4000)
    hal.edge(buttons.RIGHT, False, 4060)
    page.now = 9000  # the page came late (a sleeping tab): the press is charged at 4000
    runner.step()
    hal.serial.feed("GAME\n")
    assert hal.due_in() == 0
    runner.step()
    answer = "".join(page.out)
    assert answer.startswith("OK ")
    game = json.loads(answer[3:])
    assert game["plies"] == [{"elapsed_ms": 3000}]
    assert hal.display.writes >= 2


def test_a_full_browser_store_stops_no_game():
    hal, page, store = rig()
    app = ClockApp(hal, tuple(pico_oled.BUTTONS), kinds.screen_for(pico_oled), hal.ticks_ms())
    runner = Runner(hal, app)
    runner.channel.repl = False
    store.full = True  # localStorage's quota reached: every put refused
    hal.edge(buttons.LEFT, True, 1000)
    hal.edge(buttons.LEFT, False, 1060)
    page.now = 1100
    runner.step()  # once: OSError out of the loop, the page's clock dead
    hal.edge(buttons.RIGHT, True, 4000)
    page.now = 4100
    runner.step()
    assert app.state_name() == "running" and app.game.plies() == 1
    assert app.status.message == "NO SAVE" and app.store_problem == "the store is full"
    store.full = False
    page.now = 9200  # the next try, 5 s after the last refusal
    runner.step()
    assert hal.due_in() == 0  # and at once a pass that draws it
    runner.step()
    assert app.status.message == "" and app.store_problem is None
    assert PREFIX + "/data/game.txt" in store.items


def test_it_keeps_the_hal_contract_but_for_a_wait_that_sleeps():
    import hal_contract

    hal, page, _store = rig()
    hal_contract.check_interface(hal)
    hal_contract.check_storage_round_trips(hal.storage)
    contract_rig = type("Rig", (), {"hal": hal, "frame_bytes": 1024})()
    hal_contract.check_display_shows_and_clears_the_windows(contract_rig)
    hal_contract.check_buzzer_plays_updates_and_stops(hal)
    hal_contract.check_edges_pushed_come_back_in_order(hal)
    assert page.tones == [(2000, 50), (1000, 500)]  # each tone reaches the page's speaker
