# SPDX-License-Identifier: MIT
# The bench's ".mpy bytes on the board" are those of the modules board_files.txt compiles.
import importlib.util
import os

import board_files
from test_serial_cli_host import ROOT


def test_the_bench_counts_the_modules_board_files_lists(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("bench_run", os.path.join(ROOT, "bench/run.py"))
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    monkeypatch.setattr(bench, "MPY", str(tmp_path))
    listed = board_files.read(ROOT).compiled()
    on_board = bench.compile_tree()
    assert on_board == sum(
        os.path.getsize(tmp_path / (source[:-3] + ".mpy")) for source, _ in listed
    )
