# SPDX-License-Identifier: MIT
# The layers of .importlinter, held by import-linter: app over ui over notation over clock, hal/
# beside them knowing none of them, nothing on the board importing the simulator or the
# benchmarks, the simulator never importing the benchmarks, a pure core; no module cycle on
# either side; the imports picture in docs/design.md is the code's.
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from tools import imports  # noqa: E402

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
    assert status == 0 and "5 kept, 0 broken" in said, said


def test_an_upward_import_breaks_the_contract(tmp_path):
    copy_house(tmp_path)
    shutil.copy(os.path.join(ROOT, ".importlinter"), tmp_path)
    with open(tmp_path / "firmware" / "ui" / "status.py", "a") as status:
        status.write("from app.lights import level  # upward\n")
    status, said = lint(str(tmp_path))
    assert status != 0 and "ui.status -> app.lights" in said, said


def copy_house(into):
    for folder in ("firmware", "hal", "sim", "boards", "bench"):
        shutil.copytree(
            os.path.join(ROOT, folder),
            into / folder,
            ignore=shutil.ignore_patterns("node_modules"),
        )


def test_the_simulator_importing_a_benchmark_breaks_the_contract(tmp_path):
    copy_house(tmp_path)
    shutil.copy(os.path.join(ROOT, ".importlinter"), tmp_path)
    with open(tmp_path / "sim" / "trf.py", "a") as trf:
        trf.write("from bench import hall  # upward\n")
    status, said = lint(str(tmp_path))
    assert status != 0 and "sim.trf -> bench.hall" in said, said


def test_no_module_imports_itself_round_a_loop_on_either_side():
    graph = imports.module_graph()
    assert "sim.hall" in graph and "bench.chip.run" in graph and "app.clock_app" in graph
    assert imports.cycles(graph) == []


def test_the_loop_finder_finds_every_loop_and_only_loops():
    graph = {
        "a": {"b"},
        "b": {"c"},
        "c": {"a", "d"},
        "d": set(),
        "e": {"e"},
        "f": {"d"},
    }
    assert imports.cycles(graph) == [["a", "b", "c"], ["e"]]
    graph["c"] = {"d"}
    assert imports.cycles(graph) == [["e"]]


def test_a_script_importing_its_sibling_by_name_is_read_as_that_sibling():
    graph = imports.module_graph()
    assert "bench.chip.chip" in graph["bench.chip.run"]


def test_the_imports_picture_in_design_md_is_the_codes():
    with open(imports.DOC, encoding="utf-8") as handle:
        text = handle.read()
    assert imports.doc_with(text, imports.module_graph()) == text, "run make imports"
