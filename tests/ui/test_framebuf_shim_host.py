# SPDX-License-Identifier: MIT
# The simulator's framebuf stand-in draws the same bytes as MicroPython's C framebuf.
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "tests", "ui", "draw_frames.py")


def run(interpreter):
    done = subprocess.run(
        [interpreter, SCRIPT, ROOT], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return done.stdout.splitlines()


def test_shim_and_c_framebuf_draw_the_same_frames():
    shim = run(sys.executable)
    real = run(os.path.join(ROOT, ".venv", "bin", "micropython"))
    assert len(shim) == 7 and all(len(line) == 2048 for line in shim)
    assert len(set(shim)) == 7  # every case draws something different
    for n, (a, b) in enumerate(zip(shim, real)):
        assert a == b, "frame %d differs" % n
    assert len(real) == len(shim)
