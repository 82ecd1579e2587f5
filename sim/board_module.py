# SPDX-License-Identifier: MIT
# A board file by its name, imported and checked as the board checks it: for the simulator and the
# page (under CPython and under MicroPython's WebAssembly build alike).
from hal.board_check import BoardError, check


def load(name):
    """The module boards/`name`.py, checked by hal.board_check; BoardError (a ValueError, one
    line) for a file that does not import, or that the board would refuse. Its NAME must be the
    file's name: the simulator's and the page's stored files are kept under it."""
    try:
        module = __import__("boards." + name, None, None, ("NAME",))
    except Exception as error:  # a syntax error, or anything the module raises as it runs
        text = " ".join(str(error).split())
        raise BoardError(
            "board %s: boards/%s.py does not import: %s: %s"
            % (name, name, type(error).__name__, text)
        )
    if not hasattr(module, "NAME"):
        raise BoardError("board %s: NAME is missing" % name)
    if module.NAME != name:
        raise BoardError(
            "board %s: NAME is %r, not the file's name %r" % (name, module.NAME, name)
        )
    return check(module)
