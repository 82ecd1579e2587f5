# SPDX-License-Identifier: MIT
# web/clock_page.py's answers to the page, under CPython: what a phone types read as printed, a
# name with "=" refused as a name, the players named by their game, a game saved as the tab goes.
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "web"))

import clock_page  # noqa: E402
from test_page_boards_host import JsPage  # noqa: E402


def test_a_name_with_an_equals_sign_is_refused_as_a_name():
    said = json.loads(clock_page.check_name_spec("A=B", "5+3"))
    assert said == {
        "error": "preset \"A=B\": a name has no '=' (it separates the name from the"
        " time control)"
    }
    assert json.loads(clock_page.check_name_spec("Club", "90\u2019+30\u2019\u2019")) == {
        "reads": "90 min + 30 s/move"
    }


def test_the_page_folds_what_it_sends_and_names_the_players():
    assert clock_page.fold("PRESET ADD Go = 45m 3\u00d730s") == "PRESET ADD Go = 45m 3x30s"
    assert json.loads(clock_page.players("go:45m 3x30s", "Typed in the page")) == [
        "Black",
        "White",
    ]
    assert json.loads(clock_page.players("chessclock:G/5/3", None)) == ["White", "Black"]
    listed = json.loads(clock_page.check_presets("Club = 90\u2032+30\u2033\n"))
    assert listed["entries"][0]["spec"] == "90'+30\"" and not listed["problems"]


class Store(JsPage):
    def __init__(self):
        self.items = {}
        self.clock = 1000.0

    def now(self):
        return self.clock

    def get_all(self, prefix):
        return json.dumps({k: v for k, v in self.items.items() if k.startswith(prefix + "/")})

    def put(self, key, text):
        self.items[key] = text
        return True

    def drop(self, key):
        self.items.pop(key, None)


def test_a_running_game_saved_as_the_tab_goes_is_charged_to_that_moment():
    store = Store()
    page = clock_page.Page("pico_oled", store)
    page.edge(1, True, 1000.0)  # the right lever starts the left clock
    page.edge(1, False, 1080.0)
    store.clock = 1100.0
    page.step()
    store.clock = 4100.0  # 3.1 s into the move: no 10 s save yet
    page.step()
    page.save_now()
    again = clock_page.Page("pico_oled", store)  # the reload
    assert again.app.state_name() == "resume"
    view = again.app.views(again.hal.ticks_ms())[0]
    assert 5 * 60000 + 3000 - view.time_ms == 3100  # Blitz 5+3: charged from 1000 to 4100


def test_the_page_says_its_battery_figure_is_simulated():
    page = clock_page.Page("pico_oled", Store())
    info = json.loads(page.info())
    mv = page.hal.battery_mv()
    percent = page.hal.gauge.percent(mv)
    assert info["battery"] == "%d.%02d V, %d %%" % (mv // 1000, mv % 1000 // 10, percent)
    assert page.app.status.battery_percent == percent  # the figure the display shows
    with open(os.path.join(ROOT, "web", "page.js"), encoding="utf-8") as handle:
        assert "simulated (the page has no cell to read)" in handle.read()
