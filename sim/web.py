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
import urllib.parse
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import sim  # noqa: F401  (puts the firmware on the path)
from sim import annotate
from sim.text_edits import AnnotateError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WEB = os.path.join(ROOT, "web")
ENGINE_PARTS = ["node_modules", "@micropython", "micropython-webassembly-pyscript"]
MQTT_PARTS = ["node_modules", "mqtt", "dist"]  # MQTT.js for the hall page (web/hall.html)
ENGINE = os.path.join(WEB, *ENGINE_PARTS)
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
    """The page's files from `directory` (web/) and POST /annotate. Every refusal is one line of
    plain text; a malformed request is a 400 saying what is wrong."""

    # A client that connects and sends nothing, or half a request, holds a thread: it is dropped
    # after this many seconds without a byte. The page's own requests arrive whole at once, even
    # from a phone on Wi-Fi; 15 s also outlasts a browser's idle preconnection, so no thread is
    # ended while the browser means to use it.
    timeout = 15
    default_request_version = "HTTP/1.0"  # error answers to a bad request line get a status line
    extensions_map = dict(
        SimpleHTTPRequestHandler.extensions_map,
        **{".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm"},
    )
    url_path = None  # the request's path, unquoted and checked
    file = None  # the real path of the file it names, if the page's
    said = None  # what an error answer said, for its log line

    def parse_request(self):
        if not super().parse_request():
            return False
        if len(self.requestline.split()) != 3:
            return self.refuse("the request line is not METHOD PATH HTTP/VERSION")
        if self.headers.defects:
            return self.refuse("a header line is not NAME: VALUE")
        try:
            self.url_path = url_path(self.path)
        except ValueError as error:
            return self.refuse(str(error))
        return True

    def refuse(self, why):
        self.send_error(HTTPStatus.BAD_REQUEST, why)
        return False

    def send_head(self):
        self.file = served(self.directory, self.url_path)
        if self.file is None:
            self.send_error(HTTPStatus.NOT_FOUND, "not found: %s" % self.path.split("?")[0])
            return None
        return super().send_head()

    def translate_path(self, path):
        return self.file

    def list_directory(self, path):
        self.send_error(HTTPStatus.NOT_FOUND, "no directory is listed")

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def do_POST(self):
        if self.url_path != "/annotate":
            self.send_error(HTTPStatus.NOT_FOUND, "only POST /annotate")
            return
        try:
            length = content_length(self.headers)
            if length > MAX_BODY:
                self.send_error(413, "the record is larger than %d bytes" % MAX_BODY)
                return
            body = request_body(self.rfile.read(length))
            text = annotated(body.get("kind"), body.get("record"), body.get("moves") or "")
        except (ValueError, AttributeError, TypeError, KeyError) as error:
            self.send_error(HTTPStatus.BAD_REQUEST, str(error))
            return
        self._answer(HTTPStatus.OK, text)

    def send_error(self, code, message=None, explain=None):
        """One line of plain text, never a page of HTML. http.server's 414 and 431 (a request
        or header line over 64 KB, over 100 headers) are malformed requests too: a 400."""
        if code == HTTPStatus.REQUEST_URI_TOO_LONG:
            code, message = HTTPStatus.BAD_REQUEST, "the request line is over 65536 bytes"
        elif code == HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE:
            code = HTTPStatus.BAD_REQUEST
            if message == "Too many headers":
                message = "over 100 header lines"
            else:
                message = "a header line is over 65536 bytes"
        message = " ".join((message or self.responses[code][0]).split())
        if len(message) > 1000:  # a 64 KB request line quoted back
            message = message[:997] + "..."
        self._answer(code, message, close=True)

    def _answer(self, status, text, close=False):
        data = text.encode("utf-8", "surrogateescape")
        self.said = text if status >= 400 else None
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        if close:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def log_request(self, code="-", size="-"):
        # A malformed request is one line on the console; any other only with --verbose.
        if code == HTTPStatus.BAD_REQUEST or self.server.verbose:
            said = ": %s" % self.said if self.said else ""
            self.log_message('"%s" %s%s', self.requestline[:200], int(code), said)

    def log_error(self, format, *args):
        if self.server.verbose:
            super().log_error(format, *args)


class Server(ThreadingHTTPServer):
    verbose = False

    def handle_error(self, request, client_address):
        """One line, not a traceback (the traceback with --verbose); a client that went away
        is said only with --verbose."""
        error = sys.exc_info()[1]
        if self.verbose:
            super().handle_error(request, client_address)
        elif not isinstance(error, ConnectionError):
            print("%s: %s: %s" % (client_address[0], type(error).__name__, error), file=sys.stderr)


def url_path(path):
    """The path of a request's target, unquoted; ValueError saying what is wrong with it."""
    path = path.split("?", 1)[0].split("#", 1)[0]
    if not path.startswith("/"):
        raise ValueError("the path does not start with /")
    try:
        path = urllib.parse.unquote(path, errors="strict")
    except UnicodeDecodeError:
        raise ValueError("the path is not UTF-8 once its %-escapes are decoded")
    if "\0" in path:
        raise ValueError("the path has a NUL character")
    if any(part in (".", "..") for part in path.replace("\\", "/").split("/")):
        raise ValueError("the path has a . or .. segment")
    return path


def served(root, path):
    """The real path of the file `path` names if it is one of the page's, else None: a file of
    web/ itself, of web/build/ (the bundle) or of the engine. Symlinks are resolved first, so
    one cannot lead out of those; a directory is its index.html (the page at /), never a list."""
    root = os.path.realpath(root)
    name = os.path.join(root, *path.split("/"))
    if path.endswith("/"):
        name = os.path.join(name, "index.html")
    real = os.path.realpath(name)
    if not os.path.isfile(real):
        return None
    inside = os.path.relpath(real, root).split(os.sep)
    if inside[0] == os.pardir:
        return None
    if len(inside) == 1 or inside[0] == "build" or inside[: len(ENGINE_PARTS)] == ENGINE_PARTS:
        return real
    if inside[: len(MQTT_PARTS)] == MQTT_PARTS:
        return real
    return None


def content_length(headers):
    """POST's Content-Length, a number of bytes; ValueError when there is none, or not one."""
    found = headers.get_all("Content-Length") or []
    if headers.get("Transfer-Encoding"):
        raise ValueError("POST /annotate takes a Content-Length, not a Transfer-Encoding")
    if not found:
        raise ValueError("POST /annotate needs a Content-Length")
    text = found[0].strip()
    if len(set(found)) > 1 or not (text.isascii() and text.isdigit()):
        raise ValueError(
            "Content-Length: expected one number of bytes, found %r" % ", ".join(found)
        )
    return int(text)


def request_body(data):
    """The JSON object POST /annotate sends; ValueError saying why it is not one."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError("the body is not UTF-8 (byte %d)" % error.start)
    try:
        body = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise ValueError("the body is not JSON: %s" % error)
    if not isinstance(body, dict):
        raise ValueError("the body is not a JSON object")
    if not isinstance(body.get("moves") or "", str):
        raise ValueError("moves: expected the game's moves as text")
    return body


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


def server(host="127.0.0.1", port=8000, verbose=False, root=WEB):
    """The page's server for the page in `root`, not yet serving (port 0: any free port)."""
    handler = partial(Handler, directory=root)
    httpd = Server((host, port), handler)
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
