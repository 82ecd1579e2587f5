# SPDX-License-Identifier: MIT
# Small files that survive a power cut: write a temporary copy in full, then rename it over the old.
#
# Shared by the board and the simulator. `fs` is an os-like module (os on both; a fault-injecting
# fake in tests) and `opener` the open() that goes with it. A rename is atomic on littlefs (the
# rp2 default filesystem) and on POSIX, so whatever instant the power goes, `name` is the old
# file or the new one, complete; a leftover `name.tmp` is never read and the next write replaces
# it. FAT (and Windows) refuse to rename over a file: there we remove the old one first, which
# leaves a moment when only `name.tmp` exists and read() returns None.
from micropython import const

_ENOENT = const(2)
_EEXIST = const(17)
_ENOSPC = const(28)
_S_IFDIR = const(0x4000)
TMP = ".tmp"


def _errno(error):
    return error.args[0] if error.args else 0


def problem_text(error):
    """What a refused write (an OSError) says, in a few words."""
    if _errno(error) == _ENOSPC:
        return "the store is full"
    return "the store failed (%d)" % _errno(error)


class Storage:
    def __init__(self, root, fs, opener=open, parent=None):
        self._fs = fs
        self._open = opener
        self._dir = root if root == "/" else root.rstrip("/")
        self._prefix = "/" if root == "/" else self._dir + "/"
        self._parent = parent

    def within(self, name):
        """The Storage of a folder in this one (made at its first write, this one first)."""
        return Storage(self._path(name), self._fs, self._open, self)

    def _path(self, name):
        if not name or "/" in name or name in (".", "..") or name.endswith(TMP):
            raise ValueError("bad file name")
        return self._prefix + name

    def read(self, name):
        """The file's bytes, or None when there is no such file."""
        path = self._path(name)
        try:
            f = self._open(path, "rb")
        except OSError as error:
            if _errno(error) == _ENOENT:
                return None
            raise
        with f:
            return f.read()

    def write(self, name, data):
        """Replace the file with `data` (bytes-like), atomically."""
        path = self._path(name)
        temporary = path + TMP
        self._ensure_dir()
        try:
            with self._open(temporary, "wb") as f:
                written = f.write(data)
                if written is not None and written != len(data):
                    raise OSError(_ENOSPC)
                f.flush()
        except OSError:
            self._discard(temporary)  # a full disk: give the space back; the old file stays
            raise
        self._replace(temporary, path)

    def _replace(self, temporary, path):
        fs = self._fs
        try:
            fs.rename(temporary, path)
        except OSError as error:
            if _errno(error) != _EEXIST:
                raise
            fs.remove(path)
            fs.rename(temporary, path)

    def _discard(self, path):
        try:
            self._fs.remove(path)
        except OSError:
            pass

    def _ensure_dir(self):
        if self._parent is not None:
            self._parent._ensure_dir()
        try:
            self._fs.stat(self._dir)
        except OSError:
            self._fs.mkdir(self._dir)

    def remove(self, name):
        """Delete the file; no error when it is not there."""
        try:
            self._fs.remove(self._path(name))
        except OSError as error:
            if _errno(error) != _ENOENT:
                raise

    def names(self):
        """The stored files, sorted (temporary copies and directories left out)."""
        fs = self._fs
        try:
            entries = fs.listdir(self._dir)
        except OSError:
            return []
        found = []
        for name in entries:
            if name.endswith(TMP):
                continue
            try:
                mode = fs.stat(self._prefix + name)[0]
            except OSError:
                continue
            if not mode & _S_IFDIR:
                found.append(name)
        found.sort()
        return found
