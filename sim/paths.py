# SPDX-License-Identifier: MIT
# Puts the firmware and the CPython shims of MicroPython's modules on the path (`import sim` does).
import os
import sys

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _path in ("firmware", "sim/shim"):
    _full = os.path.join(_ROOT, _path)
    if _full not in sys.path:
        sys.path.insert(0, _full)
