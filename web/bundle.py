# The page's Python: the firmware's own modules, hal/ (not hal/rp2040), boards/ and the browser
# HAL, gathered into web/build/bundle.json ({"files": {path: text}, "boards": [names]}) that
# web/clock.js writes into MicroPython's filesystem. `python web/bundle.py` (make web runs it).
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDERS = ("firmware", "hal", "boards")
LEFT_OUT = ("firmware/main.py", "firmware/notation/pcn_toml.py", "hal/rp2040/")
DESKTOP = ("sim/__init__.py", "sim/hal_base.py", "sim/web_hal.py")
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
    """The boards/ modules that are boards (NAME, DISPLAY, BUTTONS), the default first."""
    found = []
    for name in sorted(os.listdir(os.path.join(ROOT, "boards"))):
        if name.endswith(".py") and name != "__init__.py":
            with open(os.path.join(ROOT, "boards", name), encoding="utf-8") as handle:
                text = handle.read()
            if all("\n%s = " % attr in text for attr in ("NAME", "DISPLAY", "BUTTONS")):
                found.append(name[:-3])
    found.sort(key=lambda name: name != DEFAULT_BOARD)
    return found


def bundle():
    files = {}
    for path in sources():
        with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
            files[path] = handle.read()
    return {"files": files, "boards": boards()}


def write(out=None):
    out = out or os.path.join(ROOT, "web", "build", "bundle.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    data = bundle()
    temporary = out + ".tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        json.dump(data, handle, separators=(",", ":"), sort_keys=True)
    os.replace(temporary, out)
    return out, data


if __name__ == "__main__":
    path, data = write(sys.argv[1] if len(sys.argv) > 1 else None)
    size = os.path.getsize(path)
    print(
        "%s: %d files, %d KB, boards %s"
        % (path, len(data["files"]), size // 1024, ", ".join(data["boards"]))
    )
