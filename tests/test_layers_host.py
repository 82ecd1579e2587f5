# SPDX-License-Identifier: MIT
# The layers of .importlinter, held by import-linter: app over ui over notation over clock, hal/
# beside them knowing none of them, nothing on the board importing the simulator, a pure core.
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINT = os.path.join(os.path.dirname(sys.executable), "lint-imports")


def lint(root):
    done = subprocess.run(
        [LINT, "--config", os.path.join(root, ".importlinter"), "--no-cache"],
        cwd=root,
        env=dict(os.environ, PYTHONPATH=os.path.join(root, "firmware") + os.pathsep + root),
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode, done.stdout + done.stderr


def test_every_layer_imports_only_downward():
    status, said = lint(ROOT)
    assert status == 0 and "4 kept, 0 broken" in said, said


def test_an_upward_import_breaks_the_contract(tmp_path):
    for folder in ("firmware", "hal", "sim", "boards"):
        shutil.copytree(os.path.join(ROOT, folder), tmp_path / folder)
    shutil.copy(os.path.join(ROOT, ".importlinter"), tmp_path)
    with open(tmp_path / "firmware" / "ui" / "status.py", "a") as status:
        status.write("from app.lights import level  # upward\n")
    status, said = lint(str(tmp_path))
    assert status != 0 and "ui.status -> app.lights" in said, said
