# SPDX-License-Identifier: MIT
# pytest: put the firmware, the HAL, the CPython shims and the test helpers on the path.
import os
import sys

ROOT = os.path.dirname(os.path.abspath(__file__))
for path in ("sim/shim", "firmware", "tests", ""):
    sys.path.insert(0, os.path.join(ROOT, path))

# Tests named *_mp.py need the MicroPython unix port (heap locks); tests/mprun.py runs them.
collect_ignore_glob = ["*_mp.py"]
