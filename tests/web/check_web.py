# SPDX-License-Identifier: MIT
# What the browser saw (tests/web/browser.mjs wrote it into build/web-test), checked under CPython:
# the drawn display against the frame bytes, the page's frame against the simulator's for the same
# presses, and the downloaded PGN read back by python-chess. Run by the browser tier after
# browser.mjs (`pytest tests/web/check_web.py`); not collected on its own (no test_ prefix).
import base64
import io
import json
import os

import chess.pgn

from app.clock_app import ClockApp
from app.runner import Runner
from hal.storage import Storage
from sim import boards
from sim.virtual_hal import VirtualHal
from sim.web_hal import StoredFs
from ui import canvas, kinds

OUT = os.environ.get("WEB_TEST_OUT", os.path.join("build", "web-test"))
KEY_PREFIX = "tournament-clock/"


def result():
    with open(os.path.join(OUT, "result.json"), encoding="utf-8") as handle:
        return json.load(handle)


class DictStore:
    """localStorage as StoredFs sees it, in a dict."""

    def __init__(self, items):
        self.items = dict(items)

    def get_all(self, prefix):
        return json.dumps({k: v for k, v in self.items.items() if k.startswith(prefix + "/")})

    def put(self, key, text):
        self.items[key] = text

    def drop(self, key):
        self.items.pop(key, None)


def replayed_frame(trace):
    """The frame the CPython app draws on the virtual HAL from the page's start files and its
    edges at their stamps, brought up to the stamp of the page's last frame."""
    prefix = KEY_PREFIX + trace["board"]
    fs = StoredFs(DictStore({prefix + p: t for p, t in trace["files"].items()}), prefix)
    hal = VirtualHal(Storage("/data", fs, fs.open), trace["start"])
    board = boards.load(trace["board"])
    boards.fit(hal, board)  # the board's battery gauge and lights, as the page's HAL has them
    app = ClockApp(hal, tuple(board.BUTTONS), kinds.screen_for(board), trace["start"])
    runner = Runner(hal, app)
    for stamp, button, pressed in trace["edges"]:
        hal.schedule(stamp, button, pressed)
    hal.horizon = trace["frame_stamp"]
    app.render(trace["start"])
    for _ in range(10000):
        runner.step()
        if hal.next_edge() is None and hal.now == hal.horizon:
            break
    runner.step()
    return hal.display.frame


def test_every_browser_check_passed():
    failed = [c for c in result()["checks"] if not c["ok"]]
    assert failed == [], failed


def test_the_canvas_shows_the_frame_bytes_pixel_for_pixel():
    oled = result()["oled"]
    frame = bytes.fromhex(oled["trace"]["frame"])
    drawn = oled["canvas"]
    assert len(drawn) == canvas.HEIGHT and all(len(row) == canvas.WIDTH for row in drawn)
    want = [
        "".join(str(canvas.pixel(frame, x, y)) for x in range(canvas.WIDTH))
        for y in range(canvas.HEIGHT)
    ]
    assert drawn == want
    assert sum(row.count("1") for row in drawn) > 200  # times are drawn, not a blank screen


def test_the_page_frame_is_the_simulators_for_the_same_presses():
    trace = result()["oled"]["trace"]
    presses = [edge for edge in trace["edges"] if edge[2]]
    assert len(presses) == 7  # the start, five plies, the pause
    assert replayed_frame(trace).hex() == trace["frame"]


def test_the_downloaded_pgn_reads_back_with_the_clock_times():
    with open(os.path.join(OUT, "clock-game.json"), encoding="utf-8") as handle:
        record = json.load(handle)
    with open(os.path.join(OUT, "clock-game.pgn"), encoding="utf-8") as handle:
        game = chess.pgn.read_game(handle)
    nodes = list(game.mainline())
    plies = [e for e in record["clock"]["log"] if e["entry"] == "ply"]
    assert len(nodes) == len(record["plies"]) == len(plies) >= 6
    for node, entry in zip(nodes, plies):
        assert node.move == chess.Move.null()
        left = entry[entry["side"]]["remaining_ms"] // 1000
        assert round(node.clock()) == left
    assert record["clock"]["preset"] == "pgn:15+1"


def test_the_downloaded_sgf_has_each_players_time_left():
    with open(os.path.join(OUT, "clock-game.sgf"), encoding="utf-8") as handle:
        text = handle.read()
    with open(os.path.join(OUT, "clock-game.json"), encoding="utf-8") as handle:
        record = json.load(handle)
    assert text.count("BL[") + text.count("WL[") == len(record["plies"])


def test_the_page_keeps_its_storage_as_base64_that_reads_back():
    trace = result()["oled"]["trace"]
    for path, text in trace["files"].items():
        assert path.startswith("/data/")
        base64.b64decode(text, validate=True)
    assert "/data/presets.txt" in trace["files"]  # the preset typed in the page, stored
    presets = base64.b64decode(trace["files"]["/data/presets.txt"]).decode()
    assert "Typed in the page = " in presets


def test_a_null_move_pgn_is_what_python_chess_reads():
    game = chess.pgn.read_game(io.StringIO("1. -- -- 2. -- *"))
    assert len(list(game.mainline_moves())) == 3


def test_inverted_text_reads_as_the_frame_at_every_zoom():
    # Four frames with text dark on lit pixels, each shown at seven zooms by the page's drawing
    # and by an ideal one of plain squares: no screen pixel lit in one and dark in the other.
    seen = result()["legibility"]
    assert {entry["frame"] for entry in seen} == {"menu", "paused", "question", "flagged"}
    assert sorted({entry["scale"] for entry in seen}) == [0.3, 0.45, 0.6, 0.8, 1, 1.5, 2]
    assert all(entry["lit"] > 1000 for entry in seen)  # text and figures were drawn
    assert [entry for entry in seen if entry["differ"]] == []


def test_a_typed_preset_is_stored_as_the_event_printed_it():
    typed = result()["typed"]
    assert typed["90\u2019+30\u2019\u2019"] == "using Typed in the page: 90 min + 30 s/move"
    assert typed["45m 3\u00d730s"] == "using Typed in the page: 45 min; then 3x30 s byo-yomi"
    assert all(char["folded"] and char["reads"] for char in typed["each"])


def test_the_record_table_names_the_players_and_writes_clock_times():
    table = result()["table"]
    assert table["head"] == ["ply", "by", "took", "White", "Black"]
    assert [row[1] for row in table["rows"]] == ["White", "Black", "White"]  # newest first
    assert table["rows"][0][3].startswith("1:30:")  # 90 min + 30 s, less a fraction of a second
