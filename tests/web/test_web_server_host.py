# SPDX-License-Identifier: MIT
# `python -m sim web` as a server: malformed requests get a one-line 400, a stalled connection is
# dropped, no directory is listed and nothing outside the page's own files is served. Each test
# serves a temporary copy of web/ (with a stand-in bundle and engine) on a free port.
import http.client
import json
import os
import re
import shutil
import socket
import threading
import time

import pytest

from sim import web
from test_web_host import RECORD

ENGINE = os.path.relpath(web.ENGINE, web.WEB)


@pytest.fixture
def served(tmp_path):
    """(port, the served root, the folder beside it) for a copy of web/'s own files."""
    root = tmp_path / "web"
    root.mkdir()
    for name in os.listdir(web.WEB):
        if os.path.isfile(os.path.join(web.WEB, name)):
            shutil.copy(os.path.join(web.WEB, name), root / name)
    (root / "build").mkdir()
    (root / "build" / "bundle.json").write_text('{"files": {}}')
    engine = root / ENGINE
    engine.mkdir(parents=True)
    (engine / "micropython.mjs").write_text("export const loadMicroPython = null;\n")
    (engine / "micropython.wasm").write_bytes(b"\0asm\1\0\0\0")
    mqtt = root / "node_modules" / "mqtt"
    (mqtt / "dist").mkdir(parents=True)
    (mqtt / "dist" / "mqtt.esm.js").write_text("export default null;\n")  # the hall page's
    (mqtt / "package.json").write_text("{}\n")  # not the page's
    (root / "node_modules" / "other").mkdir()
    (root / "node_modules" / "other" / "index.js").write_text("// not the page's\n")
    (root / "web-subdir").mkdir()
    (root / "web-subdir" / "notes.js").write_text("// not the page's\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret\n")
    httpd = web.server("127.0.0.1", 0, root=str(root))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd.server_address[1], root, outside
    finally:
        httpd.shutdown()
        httpd.server_close()


def raw(port, data, wait=10):
    """What the server answers `data` sent on a fresh connection, until it closes it."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        sock.sendall(data)
        answer = b""
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return answer
            answer += chunk


def split(answer):
    """(status, headers as a lower-cased dict, body) of a raw answer."""
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return status, {k.lower(): v for k, v in headers.items()}, body


def assert_one_line(answer, status):
    code, headers, body = split(answer)
    assert code == status, answer[:300]
    assert headers["content-type"] == "text/plain; charset=utf-8"
    assert int(headers["content-length"]) == len(body)
    text = body.decode("utf-8")
    assert text and "\n" not in text and "<" not in text and len(text) <= 1000, text
    return text


def get(port, path, method="GET"):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path)
        answer = connection.getresponse()
        return answer.status, answer.headers, answer.read()
    finally:
        connection.close()


def post(port, body, headers=None):
    """The raw answer to POST /annotate with `body` and these headers (Content-Length by
    default the body's)."""
    if headers is None:
        headers = {"Content-Length": str(len(body))}
    head = "".join("%s: %s\r\n" % item for item in headers.items())
    return raw(port, b"POST /annotate HTTP/1.1\r\nHost: x\r\n" + head.encode() + b"\r\n" + body)


def assert_quiet(capsys, requests):
    """No traceback on the console, at most one line a request."""
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    assert len(err.splitlines()) <= requests, err


def test_a_malformed_request_line_is_a_400_saying_so_in_one_line(served, capsys):
    port = served[0]
    lines = (
        b"GARBAGE\r\n\r\n",
        b"GET / HTTX/1.0\r\n\r\n",
        b"GET / HTTP/1.0 more\r\n\r\n",
        b"GET /\r\n\r\n",
        b"GET http://127.0.0.1/ HTTP/1.1\r\n\r\n",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",
    )
    for line in lines:
        assert_one_line(raw(port, line), 400)
    assert "request version" in assert_one_line(raw(port, lines[1]), 400)
    assert_quiet(capsys, len(lines) + 1)


def test_bad_or_oversized_headers_are_a_400(served, capsys):
    port = served[0]
    cases = (
        (b"GET / HTTP/1.1\r\nthis is no header\r\nHost: x\r\n\r\n", "header"),
        (b"GET / HTTP/1.1\r\nHost: x\r\nX-Long: " + b"a" * 70000 + b"\r\n\r\n", "65536"),
        (b"GET / HTTP/1.1\r\n" + b"X: y\r\n" * 101 + b"\r\n", "100"),
        (b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n", "65536"),
    )
    for request, said in cases:
        assert said in assert_one_line(raw(port, request), 400)
    assert_quiet(capsys, len(cases))


def test_a_path_with_nul_dot_segments_or_bad_escapes_is_a_400(served, capsys):
    port = served[0]
    paths = (
        b"/index.html%00.js",
        b"/../outside/secret.txt",
        b"/build/%2e%2e/%2e%2e/outside/secret.txt",
        b"/build/..%2f..%2foutside%2fsecret.txt",
        b"/./index.html",
        b"/%ff.js",
    )
    for path in paths:
        for method in (b"GET", b"HEAD", b"POST"):
            request = method + b" " + path + b" HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
            answer = raw(port, request)
            if method == b"HEAD":
                assert split(answer)[0] == 400 and split(answer)[2] == b""
            else:
                assert "path" in assert_one_line(answer, 400)
    assert_quiet(capsys, 3 * len(paths))


def test_annotate_answers_a_good_body_and_a_400_in_one_line_for_a_bad_one(served, capsys):
    port = served[0]
    good = json.dumps({"kind": "pgn", "record": RECORD}).encode()
    status, headers, body = split(post(port, good))
    assert status == 200 and b"{[%clk 0:00:59]}" in body
    bad = (
        (good, {"Content-Length": "abc"}, "Content-Length"),
        (good, {"Content-Length": "-5"}, "Content-Length"),
        (good, {"Content-Length": "1e3"}, "Content-Length"),
        (good, {}, "Content-Length"),
        (good, {"Content-Length": "%d, 5" % len(good)}, "Content-Length"),
        (b"\xff\xfe{}", None, "UTF-8"),
        (b"{not json", None, "JSON"),
        (b"[" * 100000, None, "JSON"),
        (b"[1, 2]", None, "JSON object"),
        (json.dumps({"kind": "pgn", "record": RECORD, "moves": 5}).encode(), None, "moves"),
        (json.dumps({"kind": "pdf", "record": RECORD}).encode(), None, "kind: pgn or sgf"),
        (json.dumps({"kind": "pgn", "record": {"plies": "x"}}).encode(), None, "record"),
    )
    for body, headers, said in bad:
        assert said in assert_one_line(post(port, body, headers), 400), body[:40]
    assert split(post(port, b"{}", {"Content-Length": str(web.MAX_BODY + 1)}))[0] == 413
    assert_quiet(capsys, len(bad) + 2)


def test_a_stalled_connection_is_dropped_after_the_timeout_while_others_are_served(
    served, monkeypatch
):
    assert 5 <= web.Handler.timeout <= 30  # seconds; a real client sends a request at once
    monkeypatch.setattr(web.Handler, "timeout", 0.5)
    port = served[0]
    silent = socket.create_connection(("127.0.0.1", port), timeout=10)
    half = socket.create_connection(("127.0.0.1", port), timeout=10)
    body = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        start = time.monotonic()
        half.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        body.sendall(b"POST /annotate HTTP/1.1\r\nContent-Length: 100\r\n\r\n{")
        assert get(port, "/")[0] == 200  # served while three connections stall
        for sock in (silent, half, body):
            assert sock.recv(4096) == b""  # closed by the server, with nothing to say
        assert 0.4 < time.monotonic() - start < 5
    finally:
        for sock in (silent, half, body):
            sock.close()


def test_no_directory_is_listed(served):
    port = served[0]
    for path in (
        "/node_modules/",
        "/node_modules",
        "/build/",
        "/build",
        "/web-subdir/",
        "/" + ENGINE + "/",
        "/index.html/",
    ):
        status, headers, body = get(port, path)
        assert status == 404, path
        assert headers["Content-Type"] == "text/plain; charset=utf-8"
        assert b"<" not in body and b"\n" not in body
    status, headers, body = get(port, "/")
    assert status == 200 and b"Tournament game clock" in body


def test_only_the_pages_own_files_are_served_symlinks_resolved(served):
    port, root, outside = served
    os.symlink(outside / "secret.txt", root / "leak.txt")
    os.symlink(outside / "secret.txt", root / "build" / "leak.json")
    os.symlink(outside, root / "build" / "out")
    os.symlink(root / "web-subdir" / "notes.js", root / "notes.js")
    os.symlink(root / "page.js", root / "build" / "alias.js")
    for path in (
        "/leak.txt",
        "/build/leak.json",
        "/build/out/secret.txt",
        "/notes.js",
        "/web-subdir/notes.js",
        "/node_modules/other/index.js",
        "/node_modules/mqtt/package.json",
        "/nonexistent.js",
    ):
        status, headers, body = get(port, path)
        assert (status, body) == (404, b"not found: " + path.encode()), path
    status, headers, body = get(port, "/build/alias.js")  # resolves inside web/: the page's
    assert status == 200 and body == (root / "page.js").read_bytes()


def page_requests():
    """Every file web/index.html and web/*.js ask the server for (POST /annotate aside), and the
    WebAssembly file the engine's micropython.mjs loads beside itself."""
    found = {"/", "/" + ENGINE + "/micropython.wasm"}
    for name in os.listdir(web.WEB):
        if name.endswith((".js", ".html")):
            with open(os.path.join(web.WEB, name), encoding="utf-8") as handle:
                text = handle.read()
            for match in re.finditer(
                r'(?:from |import\(|src=|href=|fetch\()\s*"(?:\./)?([^":]+)"', text
            ):
                if match.group(1) != "annotate":
                    found.add("/" + match.group(1))
    return found


def test_every_file_the_page_asks_for_is_served_with_its_type_and_no_cache(served):
    port = served[0]
    asked = page_requests()
    assert {"/page.js", "/style.css", "/build/bundle.json", "/" + ENGINE + "/micropython.mjs"} <= (
        asked
    )
    types = {
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".css": "text/css",
        ".json": "application/json",
        ".wasm": "application/wasm",
        "/": "text/html",
    }
    for path in sorted(asked):
        status, headers, body = get(port, path)
        assert status == 200, path
        kind = next(t for end, t in types.items() if path.endswith(end))
        assert headers["Content-Type"].startswith(kind), path
        assert headers["Cache-Control"] == "no-cache"
    status, headers, body = get(port, "/index.html", "HEAD")
    assert status == 200 and body == b"" and headers["Content-Type"].startswith("text/html")
