# SPDX-License-Identifier: MIT
# board_files.txt, the one list of what goes on the board, read under CPython and MicroPython
# (flash.sh reads it in bash). `python tests/board_files.py` prints every source file some
# install puts on a board (tests/run_all.sh compiles them), one a line.
import os
import sys

FILE = "board_files.txt"
WORDS = {"modules": 3, "source": 3, "board": 3, "exclude": 2}
_DIRECTORY = 0x4000  # in os.stat()[0]


class Manifest:
    def __init__(self, root, text):
        self.root = root
        self.modules = []  # (folder, target folder on the board)
        self.sources = []  # (file, target): copied as they are
        self.boards = []  # (pattern with NAME, target)
        self.excluded = []
        pairs = {"modules": self.modules, "source": self.sources, "board": self.boards}
        for number, line in enumerate(text.splitlines(), 1):
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            if WORDS.get(words[0]) != len(words):
                raise ValueError("%s:%d: not an entry: %s" % (FILE, number, line.strip()))
            if words[0] == "exclude":
                self.excluded.append(words[1])
            else:
                pairs[words[0]].append((words[1], words[2]))

    def compiled(self):
        """[(source, target .mpy on the board)] of every module mpy-cross compiles, sorted."""
        skipped = self.excluded + [source for source, _ in self.sources]
        found = []
        for folder, target in self.modules:
            for source in python_files(self.root, folder):
                if source not in skipped:
                    module = source[len(folder) + 1 : -3] + ".mpy"
                    found.append((source, target.rstrip("/") + "/" + module))
        return sorted(found)

    def board_files(self):
        """[(board name, its file)] of every board the `board` entries offer."""
        found = []
        for pattern, _ in self.boards:
            folder, _, name = pattern.rpartition("/")
            before, _, after = name.partition("NAME")
            for source in python_files(self.root, folder):
                name = source[len(folder) + 1 :]
                if "/" in name or source in self.excluded:
                    continue
                if name.startswith(before) and name.endswith(after):
                    found.append((name[len(before) : len(name) - len(after)], source))
        return sorted(found)

    def installed(self, board):
        """[(source, target)] of everything an install for `board` puts on it: the compiled
        modules, each board entry's file for `board`, then the sources (copied last)."""
        found = self.compiled()
        for pattern, target in self.boards:
            found.append((pattern.replace("NAME", board), target))
        return found + self.sources

    def every_source(self):
        """Every file some install puts on a board, compiled or copied."""
        found = [source for source, _ in self.compiled()]
        found += [source for _, source in self.board_files()]
        return found + [source for source, _ in self.sources]


def read(root):
    with open(root + "/" + FILE) as manifest:
        return Manifest(root, manifest.read())


def python_files(root, folder):
    """The .py files under `folder` (relative to `root`), as paths from `root`, sorted."""
    found = []
    for name in sorted(os.listdir(root + "/" + folder)):
        path = folder + "/" + name
        if os.stat(root + "/" + path)[0] & _DIRECTORY:
            found.extend(python_files(root, path))
        elif name.endswith(".py"):
            found.append(path)
    return found


if __name__ == "__main__":
    here = sys.argv[0].rsplit("/", 1)[0] if "/" in sys.argv[0] else "."
    for source in read(here + "/..").every_source():
        print(source)
