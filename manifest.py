# SPDX-License-Identifier: MIT
# MicroPython manifest of the clock's own image (make firmware): what flash.sh installs, frozen.
#
# Read by MicroPython's tools/makemanifest.py with the board in the environment:
#   CLOCK_BOARD=pico_oled make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=$PWD/manifest.py
# Frozen: every module board_files.txt has mpy-cross compile, each as it lands on the board
# (firmware/app/x.py as app/x.py, hal/x.py as hal/x.py), the board file as board.py, and
# main.py (a frozen main.py runs at every boot; the app's own way to the REPL stays: PLAY held
# at power-on, or the REPL command). Modules copied later onto the file system take precedence
# over the frozen ones, so flash.sh still installs a newer checkout on top. The port's own
# modules come too: _boot.py mounts the file system. A Wi-Fi board (`WIFI = True` in its file,
# built for RPI_PICO_W) also gets micropython-lib's umqtt.simple, which its hall link publishes
# with (require() takes it from the MicroPython checkout's lib/micropython-lib).
import os
import re

options.defaults(board=os.environ.get("CLOCK_BOARD", ""), root=os.getcwd())
freeze("$(PORT_DIR)/modules")

_ROOT = options.root  # the manifest's folder: the repository's root
_WORDS = {"modules": 3, "source": 3, "board": 3, "exclude": 2}


def _entries():
    with open(os.path.join(_ROOT, "board_files.txt")) as listing:
        for number, line in enumerate(listing, 1):
            words = line.split()
            if words and not words[0].startswith("#"):
                if _WORDS.get(words[0]) != len(words):
                    raise ValueError("board_files.txt:%d: not an entry: %s" % (number, line))
                yield words


def _base(path, target):
    """The folder `module()` takes `target` from, for a file at `path` on the desktop."""
    if not path.endswith(target):
        raise ValueError("%s cannot be frozen as %s" % (path, target))
    return os.path.join(_ROOT, path[: len(path) - len(target)] or ".")


def wifi_board(text):
    """Whether a board file's text says WIFI = True (firmware.sh reads it the same way)."""
    return re.search(r"^WIFI = True\b", text, re.M) is not None


def _staged_board(pattern):
    """The board's file copied as board.py (module() freezes a file under its own name)."""
    if not options.board:
        raise ValueError("CLOCK_BOARD names the board to freeze (e.g. pico_oled)")
    source = os.path.join(_ROOT, pattern.replace("NAME", options.board))
    if not os.path.isfile(source):
        raise ValueError("no board %s (%s)" % (options.board, source))
    folder = os.path.join(_ROOT, "build", "frozen-" + options.board)
    os.makedirs(folder, exist_ok=True)
    with open(source) as board, open(os.path.join(folder, "board.py"), "w") as copy:
        text = board.read()
        copy.write(text)
    if wifi_board(text):
        require("umqtt.simple")
    return folder


_entries_read = list(_entries())
_skipped = [w[1] for w in _entries_read if w[0] in ("exclude", "source")]
for _kind, _path, *_rest in _entries_read:
    if _kind == "modules":
        _target = _rest[0].strip("/")
        for _top, _folders, _files in sorted(os.walk(os.path.join(_ROOT, _path))):
            _folders.sort()
            for _name in sorted(_files):
                _file = os.path.relpath(os.path.join(_top, _name), _ROOT)
                if _name.endswith(".py") and _file not in _skipped:
                    _module = os.path.join(_target, os.path.relpath(_file, _path))
                    module(_module, base_path=_base(_file, _module))
    elif _kind == "source":
        module(_rest[0].strip("/"), base_path=_base(_path, _rest[0].strip("/")))
    elif _kind == "board":
        module(_rest[0].strip("/"), base_path=_staged_board(_path))
