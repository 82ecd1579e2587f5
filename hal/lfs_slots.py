# SPDX-License-Identifier: MIT
# The slot ring's blocks on the board: littlefs files of exactly one block each, written raw.
#
# rp2's _boot.py mounts littlefs on the whole rp2.Flash() and formats it afresh when a mount
# fails (as a littlefs whose block count is not the device's fails), so no raw region beside
# the filesystem would live through a boot of the stock image. The ring lives inside littlefs
# instead, in files of exactly one 4 KB block (<storage root>/slots/0 ... /23), on what littlefs
# v2 (lib/littlefs/lfs2.c in MicroPython v1.28.0) does and does not do:
# - A file longer than inline_max (512 bytes as rp2 mounts it: 1 KB of cache, 4 KB blocks) keeps
#   its data in a CTZ skip list of blocks, the list's first block data alone: its pointers back
#   begin in the second (lfs2_ctz_extend writes none in block 0; lfs2_ctz_traverse and
#   lfs2_ctz_find never read block 0 for one). A file of 4096 bytes is one block, all its bytes
#   the file's, and littlefs reads none of them but to read the file.
# - A file's data blocks move only when it is written (copy on write: lfs2_file_relocate, and
#   lfs2_file_flush after a write); wear levelling moves metadata pairs alone (block_cycles), and
#   compaction copies a file's (head, size) and not its blocks. A file never opened to write
#   keeps its block for as long as it exists.
# - Data blocks carry no checksum: what the ring programs there breaks nothing littlefs checks.
# - The allocator hands out only blocks that no file or directory holds (lfs2_alloc marks in
#   use whatever lfs2_fs_traverse reaches), and erases each block it hands out before its first
#   program: it never writes over a live slot, and a freed one's old bytes are erased first.
# A slot's file is written once through littlefs (its HEADER, then 0xFF to 4096 bytes) and never
# again. Its block is found by that header, unique to each making of the file (8 random bytes):
# read through littlefs from the file, then looked for at the start of every block of the flash.
# A slot whose header does not read back from its file (a cut between an erase and the header's
# program) or that starts more than one block (a copy of the file) is made anew: the file
# removed and written again, with new random bytes, at the ring's tidy(), while no clock runs.
# tests/hal/test_hal_slots_lfs_mp.py holds littlefs itself (the unix port's VfsLfs2) to all this.
from micropython import const

from hal.slots import BLOCK, HEADER, MAGIC, PAGE, SlotRing, header

COUNT = const(24)  # 96 KB: room for a two-hour game's saves twice over (docs/design.md)
FOLDER = "slots"
_BLOCK_COUNT = const(4)  # ioctl: the device's blocks
_ENOENT = const(2)


def open_ring(fs, opener, device, root, count=COUNT):
    """The SlotRing of the files in `root`/slots on `device` (rp2.Flash()), which the littlefs
    that `fs` (os) reaches must span; None where it does not (the ring then cannot find them)."""
    maker = _Maker(fs, opener, device, root.rstrip("/") + "/" + FOLDER, count)
    try:
        _folders(fs, root)  # a first start: the storage folder is not there yet
        shape = fs.statvfs(root)
    except (AttributeError, OSError):
        return None
    if shape[0] != BLOCK or shape[2] != device.ioctl(_BLOCK_COUNT, 0):
        return None
    wanted = [maker.stored(index) for index in range(count)]
    found = maker.locate(wanted)
    slots = []
    for index in range(count):
        if wanted[index] is None or found[index] < 0:
            slots.append(None)
        else:
            slots.append((found[index], wanted[index]))
    return SlotRing(device, slots, False, maker.make)


class _Maker:
    def __init__(self, fs, opener, device, folder, count):
        self._fs = fs
        self._open = opener
        self._device = device
        self._folder = folder
        self._count = count

    def _path(self, index):
        return "%s/%d" % (self._folder, index)

    def stored(self, index):
        """The header slot `index`'s file holds, read through littlefs, or None: no such file,
        not one block long, or not a slot's header."""
        path = self._path(index)
        try:
            if self._fs.stat(path)[6] != BLOCK:
                return None
            with self._open(path, "rb") as f:
                data = f.read(HEADER)
        except OSError:
            return None
        if len(data) != HEADER or data[:4] != MAGIC or data[4] | data[5] << 8 != index:
            return None
        return data if header(index, data[8:16]) == data else None

    def locate(self, wanted):
        """Per slot, the one block that starts with its wanted header: -1 none, -2 several."""
        count = self._count
        found = [-1] * count
        check = bytearray(HEADER)
        device = self._device
        for block in range(device.ioctl(_BLOCK_COUNT, 0)):
            device.readblocks(block, check, 0)
            if check[:4] != MAGIC:
                continue
            index = check[4] | check[5] << 8
            if index < count and wanted[index] is not None and check == wanted[index]:
                found[index] = block if found[index] == -1 else -2
        return found

    def make(self, index):
        """Write slot `index`'s file anew (a new header) and find its block: (block, header),
        or None when the store refused or the block is not found once."""
        fs = self._fs
        path = self._path(index)
        made = header(index, fs.urandom(8))
        try:
            try:
                fs.remove(path)
            except OSError as error:
                if not error.args or error.args[0] != _ENOENT:
                    raise
            _folders(fs, self._folder)
            page = bytearray(b"\xff" * PAGE)
            page[:HEADER] = made
            with self._open(path, "wb") as f:
                f.write(page)
                page[:HEADER] = b"\xff" * HEADER
                for _ in range(BLOCK // PAGE - 1):
                    f.write(page)
        except OSError:
            return None
        wanted = [None] * self._count
        wanted[index] = made
        block = self.locate(wanted)[index]
        return None if block < 0 else (block, made)


def _folders(fs, folder):
    """Make `folder` and the folders above it that are missing."""
    path = ""
    for part in folder.split("/"):
        if part:
            path += "/" + part
            try:
                fs.stat(path)
            except OSError:
                fs.mkdir(path)
