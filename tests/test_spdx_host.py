# SPDX-License-Identifier: MIT
# Every source file says its licence (LICENSE) in an SPDX line at its top, after a shebang.
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TAG = "SPDX-License-Identifier: MIT"
SOURCE_ENDINGS = (".py", ".sh", ".mjs", ".js", ".html", ".css")
SOURCE_PATHS = (".ci/run",)
# Not the project's: caches, tools, what a test run leaves behind.
SKIPPED = ("__pycache__", "node_modules", "build")
TOP_LINES = 3  # a shebang, a comment opener (<!DOCTYPE html>, /*), the SPDX line


def sources():
    for top, folders, files in os.walk(ROOT):
        folders[:] = sorted(
            name
            for name in folders
            if name not in SKIPPED and (not name.startswith(".") or name == ".ci")
        )
        for name in sorted(files):
            path = os.path.relpath(os.path.join(top, name), ROOT)
            if name.endswith(SOURCE_ENDINGS) or name == "Makefile" or path in SOURCE_PATHS:
                yield path


def test_every_source_file_opens_with_its_licence():
    found = list(sources())
    assert "firmware/clock/game.py" in found and "Makefile" in found and ".ci/run" in found
    missing = []
    for path in found:
        with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
            top = [handle.readline() for _ in range(TOP_LINES)]
        if not any(TAG in line for line in top):
            missing.append(path)
    assert not missing, "%d source files lack '%s' in their first %d lines: %s" % (
        len(missing),
        TAG,
        TOP_LINES,
        ", ".join(missing),
    )


def test_the_licence_is_mit():
    with open(os.path.join(ROOT, "LICENSE"), encoding="utf-8") as handle:
        text = handle.read()
    assert text.startswith("MIT License\n\nCopyright (c) 2026 the tournament clock authors\n")
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in text
