# SPDX-License-Identifier: MIT
# `python -m sim web`'s server side: the PGN and SGF of a page's record, by sim/annotate.py.
import io

import chess.pgn

from sim import web
from sim.text_edits import AnnotateError
from support import raises

RECORD = {
    "periods": [{"duration_ms": 60000, "increment_ms": 2000}],
    "plies": [{"elapsed_ms": 3000}, {"elapsed_ms": 1500}, {"elapsed_ms": 2500}],
    "clock": {
        "record": 1,
        "preset": "pgn:60+2",
        "reads": "1 min + 2 s/move",
        "name": None,
        "state": "paused",
        "result": None,
        "complete": True,
        "log": [
            {
                "entry": "ply",
                "ply": 1,
                "side": "first",
                "elapsed_ms": 3000,
                "first": {"remaining_ms": 59000, "stage": 0},
                "second": {"remaining_ms": 60000, "stage": 0},
            },
            {
                "entry": "ply",
                "ply": 2,
                "side": "second",
                "elapsed_ms": 1500,
                "first": {"remaining_ms": 59000, "stage": 0},
                "second": {"remaining_ms": 60500, "stage": 0},
            },
            {
                "entry": "ply",
                "ply": 3,
                "side": "first",
                "elapsed_ms": 2500,
                "first": {"remaining_ms": 58500, "stage": 0},
                "second": {"remaining_ms": 60500, "stage": 0},
            },
        ],
    },
}


def test_without_moves_the_pgn_has_a_null_move_a_ply_with_its_clock():
    game = chess.pgn.read_game(io.StringIO(web.annotated("pgn", RECORD, "")))
    clocks = [node.clock() for node in game.mainline()]
    assert clocks == [59, 60, 58]  # whole seconds, rounded down, as annotate writes them
    assert all(node.move == chess.Move.null() for node in game.mainline())


def test_the_moves_given_get_the_times():
    text = web.annotated("pgn", RECORD, "1. e4 e5 2. Nf3 *\n")
    game = chess.pgn.read_game(io.StringIO(text))
    assert [n.san() for n in game.mainline()] == ["e4", "e5", "Nf3"]
    assert [n.clock() for n in game.mainline()] == [59, 60, 58]


def test_the_sgf_has_bl_and_wl():
    text = web.annotated("sgf", RECORD, "")
    assert text.endswith(";B[]BL[59];W[]WL[60.5];B[]BL[58.5])\n")
    assert "TM[60]OT[2 Fischer]" in text


def test_moves_that_do_not_match_the_record_are_refused_with_annotates_message():
    error = raises(AnnotateError, web.annotated, "pgn", RECORD, "1. e4 *\n")
    assert "the record's plies 2 to 3 have no move" in str(error)
    assert "/tmp" not in str(error) and "clock-web-" not in str(error)


def test_a_record_that_is_not_one_is_refused_naming_the_record_not_a_temporary_file():
    for record, said in (
        ({"plies": [1]}, "the record: plies[0] has no elapsed_ms"),
        ({"clock": 5}, "the record: clock: expected an object with a log list"),
        ([], "the record is not the clock's game record"),
    ):
        assert str(raises(AnnotateError, web.annotated, "pgn", record, "")) == said


def test_a_skeleton_says_the_loser():
    assert '[Result "1-0"]' in web.skeleton("pgn", 2, {"reason": "time", "loser": "second"})


def serving():
    import threading

    httpd = web.server("127.0.0.1", 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, "http://127.0.0.1:%d/" % httpd.server_address[1]


def post(url, body):
    import json
    import urllib.error
    import urllib.request

    request = urllib.request.Request(
        url + "annotate", data=body, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_the_server_answers_annotate_and_refuses_bad_input_in_one_line():
    import json

    httpd, url = serving()
    try:
        status, text = post(url, json.dumps({"kind": "pgn", "record": RECORD}).encode())
        assert status == 200 and "{[%clk 0:00:59]}" in text
        status, text = post(url, json.dumps({"kind": "pdf", "record": RECORD}).encode())
        assert (status, text) == (400, "kind: pgn or sgf")
        status, text = post(url, b"{not json")
        assert status == 400 and "\n" not in text
        status, text = post(
            url, json.dumps({"kind": "pgn", "record": {"plies": "x"}, "moves": ""}).encode()
        )
        assert status == 400 and text
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_the_server_serves_the_page_and_its_module_types():
    import urllib.request

    httpd, url = serving()
    try:
        with urllib.request.urlopen(url, timeout=10) as page:
            assert b"Tournament game clock" in page.read()
        with urllib.request.urlopen(url + "clock.js", timeout=10) as script:
            assert script.headers["Content-Type"].startswith("text/javascript")
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_web_without_the_webassembly_build_says_how_to_get_it(monkeypatch, capsys):
    monkeypatch.setattr(web, "ENGINE", "/nonexistent/engine")
    assert (
        web.web_command(type("Args", (), {"host": "127.0.0.1", "port": 0, "verbose": False})) == 2
    )
    assert "run `make web`" in capsys.readouterr().err


def test_the_service_worker_keeps_every_file_the_page_loads():
    # Offline after a reload needs a copy of every module the page imports and every file it
    # fetches; one left out of web/sw.js would fail only with the server gone.
    import os
    import re

    with open(os.path.join(web.WEB, "sw.js"), encoding="utf-8") as handle:
        source = handle.read()
    kept = set(re.findall(r'^\s+(?:ENGINE \+ )?"([^"]+)",$', source, re.M))
    kept = {("ENGINE/" + name) if name.startswith("micropython.") else name for name in kept}
    wanted = {"./", "index.html", "style.css", "build/bundle.json"}
    wanted |= {"ENGINE/micropython.mjs", "ENGINE/micropython.wasm"}
    # The clock page's modules: page.js (index.html's script) and what it imports, on down. The
    # hall's page is not kept: without its broker it has nothing to show.
    todo = ["page.js"]
    while todo:
        name = todo.pop()
        if name in wanted:
            continue
        wanted.add(name)
        with open(os.path.join(web.WEB, name), encoding="utf-8") as handle:
            todo += re.findall(r'from "\./([\w.]+)"', handle.read())
    assert kept == wanted
    # The engine is installed by `make web` (npm), which a clean checkout has not run yet: its
    # folder is checked here, its files by the browser tier, which loads them through sw.js.
    engine = re.search(r'^const ENGINE = "([^"]+)";$', source, re.M)
    assert engine and engine.group(1) == "/".join(web.ENGINE_PARTS) + "/"
    for name in wanted - {"./", "build/bundle.json"}:
        if not name.startswith("ENGINE/"):
            assert web.served(web.WEB, "/" + name) is not None, name
