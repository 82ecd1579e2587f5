# SPDX-License-Identifier: MIT
# The emulator's clock model (bench/chip/clocks.mjs) against its self-tests, where node and
# rp2040js are installed (make bench-chip installs rp2040js; tier 6 installs node).
import os
import shutil
import subprocess

import pytest
from test_serial_cli_host import ROOT

CHIP = os.path.join(ROOT, "bench", "chip")


@pytest.mark.skipif(
    shutil.which("node") is None
    or not os.path.isdir(os.path.join(CHIP, "node_modules", "rp2040js")),
    reason="node and bench/chip's rp2040js are not installed",
)
def test_every_clock_the_reference_sleep_uses_behaves_as_the_datasheet_says():
    done = subprocess.run(
        ["node", os.path.join(CHIP, "clocks_selftest.mjs")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert " 0 failed" in done.stdout
