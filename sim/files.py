# SPDX-License-Identifier: MIT
# Files the desktop tools write for others to read: whole or not at all.
import os
import tempfile


def replace(path, data):
    """Write bytes `data` as `path`: a temporary file beside it, flushed to the disk, then
    renamed over it, so a reader (or a power cut) sees the old file or the new one, never half.
    A new file gets the mode the umask gives; a replaced one keeps its own. Raises OSError."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.exists(path):
        mode = os.stat(path).st_mode & 0o777
    else:
        mask = os.umask(0o22)
        os.umask(mask)
        mode = 0o666 & ~mask
    handle, temporary = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
