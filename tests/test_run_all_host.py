# SPDX-License-Identifier: MIT
# make test's own runner: every pytest it runs prints how many tests ran (pyproject.toml's addopts
# make pytest quiet once; quiet twice drops the count line).
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def pytest_lines():
    with open(os.path.join(ROOT, "tests", "run_all.sh"), encoding="utf-8") as handle:
        return [line for line in handle if '"$BIN/pytest"' in line]


def addopts():
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as handle:
        found = re.search(r'^addopts = "(.*)"$', handle.read(), re.M)
    return shlex.split(found.group(1)) if found else []


def test_each_pytest_tier_prints_its_count():
    lines = pytest_lines()
    assert len(lines) >= 2
    for line in lines:
        flags = shlex.split(line.split("||")[0])[1:]
        quiet = [flag for flag in flags + addopts() if re.fullmatch(r"-q+|--quiet", flag)]
        assert sum(len(flag) - 1 if flag != "--quiet" else 1 for flag in quiet) <= 1, line
        options = [flag for flag in flags if flag.startswith("-") or flag == "no:cacheprovider"]
        done = subprocess.run(
            [sys.executable, "-m", "pytest"] + options + ["tests/core/test_ticks.py"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert re.search(r"^\d+ passed in ", done.stdout, re.M), (line, done.stdout[-300:])
