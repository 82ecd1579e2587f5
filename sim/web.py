# SPDX-License-Identifier: MIT
# `python -m sim web` (make web): serves the page in web/ and writes its records as PGN and SGF.
#
# The page is static: the firmware runs in the browser (MicroPython WebAssembly, installed by
# `make web` into web/node_modules). This server adds one thing the page cannot do itself:
# POST /annotate runs the project's annotate code (sim/annotate.py, CPython only: its PGN reader
# needs `re` features MicroPython lacks) on the page's record and moves.
import argparse
import json
import os
import sys
import tempfile
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import sim  # noqa: F401  (puts the firmware on the path)
from sim import annotate
from sim.text_edits import AnnotateError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WEB = os.path.join(ROOT, "web")
ENGINE = os.path.join(WEB, "node_modules", "@micropython", "micropython-webassembly-pyscript")
MAX_BODY = 4 << 20
KINDS = ("pgn", "sgf")


def skeleton(kind, plies, result=None):
    """A game file whose moves are unknown (the clock does not see them): a PGN of null moves
    (`--`) and an SGF of moves without a point, one per ply, for annotate to time."""
    if kind == "pgn":
        tokens = []
        for ply in range(plies):
            if ply % 2 == 0:
                tokens.append("%d." % (ply // 2 + 1))
            tokens.append("--")
        outcome = "*"
        if result and result.get("loser") in ("first", "second"):
            outcome = "0-1" if result["loser"] == "first" else "1-0"
        tokens.append(outcome)
        tags = '[Event "Game clock"]\n[White "?"]\n[Black "?"]\n[Result "%s"]\n' % outcome
        return tags + "\n" + " ".join(tokens) + "\n"
    nodes = "".join(";%s[]" % ("B" if ply % 2 == 0 else "W") for ply in range(plies))
    return (
        "(;FF[4]GM[1]C[The clock does not see the moves: each is written as a pass]%s)\n" % nodes
    )


def annotated(kind, record, moves):
    """The record's times written into `moves` (PGN or SGF text; empty: a skeleton), by
    sim/annotate.py; AnnotateError as it says it."""
    if kind not in KINDS:
        raise AnnotateError("kind: pgn or sgf")
    if not isinstance(record, dict):
        raise AnnotateError("the record is not the clock's game record")
    if not moves.strip():
        plies = record.get("plies")
        clock = record.get("clock")
        clock = clock if isinstance(clock, dict) else {}
        moves = skeleton(kind, len(plies) if isinstance(plies, list) else 0, clock.get("result"))
    with tempfile.TemporaryDirectory(prefix="clock-web-") as folder:
        record_path = os.path.join(folder, "game.json")
        moves_path = os.path.join(folder, "moves." + kind)
        out = os.path.join(folder, "out." + kind)
        with open(record_path, "w", encoding="utf-8") as handle:
            json.dump(record, handle)
        with open(moves_path, "w", encoding="utf-8") as handle:
            handle.write(moves)
        args = argparse.Namespace(
            record=record_path,
            pgn=moves_path if kind == "pgn" else None,
            sgf=moves_path if kind == "sgf" else None,
            game=None,
            emt=False,
            exact=False,
            out=out,
        )
        notes = []
        try:
            annotate.run(args, notes.append)
        except AnnotateError as error:
            said = str(error).replace(record_path, "the record").replace(moves_path, "the moves")
            raise AnnotateError(said)
        with open(out, encoding="utf-8", errors="surrogateescape") as handle:
            return handle.read()


class Handler(SimpleHTTPRequestHandler):
    extensions_map = dict(
        SimpleHTTPRequestHandler.extensions_map,
        **{".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm"},
    )

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def do_POST(self):
        if self.path.split("?")[0] != "/annotate":
            self.send_error(404)
            return
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            return self._answer(413, "the record is larger than %d bytes" % MAX_BODY)
        try:
            body = json.loads(self.rfile.read(length).decode("utf-8"))
            text = annotated(body.get("kind"), body.get("record"), body.get("moves") or "")
        except (ValueError, AttributeError, TypeError, KeyError) as error:
            return self._answer(400, str(error).replace("\n", " "))
        return self._answer(200, text)

    def _answer(self, status, text):
        data = text.encode("utf-8", "surrogateescape")
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):
        if self.server.verbose:
            super().log_message(format, *args)


def build():
    """The page's bundle (web/bundle.py); ValueError when the MicroPython build is missing."""
    if not os.path.exists(os.path.join(ENGINE, "micropython.mjs")):
        raise ValueError(
            "web/node_modules has no MicroPython WebAssembly build: run `make web` (npm installs it)"
        )
    import subprocess

    sys.path.insert(0, WEB)
    try:
        import bundle
    finally:
        sys.path.pop(0)
    try:
        return bundle.write()
    except subprocess.CalledProcessError as error:
        said = (error.stderr or b"").decode("utf-8", "replace").strip().splitlines()
        raise ValueError("mpy-cross refused %s: %s" % (error.cmd[-1], said[-1] if said else "?"))


def server(host="127.0.0.1", port=8000, verbose=False):
    """The page's server, not yet serving (port 0: any free port)."""
    handler = partial(Handler, directory=WEB)
    httpd = ThreadingHTTPServer((host, port), handler)
    httpd.verbose = verbose
    return httpd


def add_command(commands):
    web = commands.add_parser("web", help="serve the clock in a web page (make web)")
    web.add_argument("--port", type=int, default=8000, help="the port (default 8000; 0: any)")
    web.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (0.0.0.0: a phone on the LAN)",
    )
    web.add_argument("--verbose", action="store_true", help="log every request")
    web.set_defaults(run=web_command)


def web_command(args):
    try:
        path, data = build()
        httpd = server(args.host, args.port, args.verbose)
    except (ValueError, OSError) as error:
        print("error: %s" % error, file=sys.stderr)
        return 2
    host, port = httpd.server_address[:2]
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    count = len(data["files"]) + len(data["compiled"])
    print("the clock's page: http://%s:%d/  (%d modules; Ctrl-C stops)" % (shown, port, count))
    if host == "0.0.0.0":
        print("from a phone on the same network: http://THIS-COMPUTER'S-ADDRESS:%d/" % port)
    sys.stdout.flush()
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
    return 0
