# SPDX-License-Identifier: MIT
# A NOR flash in a file, for the game's slot ring on the desktop: erases to 0xFF, programs AND, as rp2.Flash.
#
# The simulator's storage folder holds it beside the game's files (slots.bin, COUNT blocks of 4
# KB: the board's ring, hal/lfs_slots.py), so a game in play is saved and read back there by the
# board's own ring code (hal/slots.py), and a simulator killed mid-game resumes as a board after
# a power cut. The whole file is the ring's: a block without its header is erased and given one.
import os

from hal.lfs_slots import COUNT
from hal.slots import BLOCK, whole_device

FILE = "slots.bin"


class NorFile:
    """readblocks(n, buf, offset), writeblocks(n, buf, offset) (a program: each byte becomes the
    old AND the new), ioctl(6, n) (an erase) on a file of `blocks` blocks, made erased if it is
    missing or not that long."""

    def __init__(self, path, blocks):
        self.path = path
        self.blocks = blocks
        size = blocks * BLOCK
        if not os.path.isfile(path) or os.path.getsize(path) != size:
            with open(path, "wb") as f:
                f.write(b"\xff" * size)

    def _place(self, block, offset, size):
        if not 0 <= block < self.blocks or offset < 0 or offset + size > BLOCK:
            raise ValueError("outside the flash: block %d, %d + %d" % (block, offset, size))
        return block * BLOCK + offset

    def readblocks(self, block, buf, offset=0):
        start = self._place(block, offset, len(buf))
        with open(self.path, "rb") as f:
            f.seek(start)
            buf[:] = f.read(len(buf))

    def writeblocks(self, block, buf, offset=None):
        if offset is None:
            self._erase(block)
            offset = 0
        start = self._place(block, offset, len(buf))
        with open(self.path, "r+b") as f:
            f.seek(start)
            old = f.read(len(buf))
            f.seek(start)
            f.write(bytes(a & b for a, b in zip(old, bytes(buf))))

    def _erase(self, block):
        start = self._place(block, 0, BLOCK)
        with open(self.path, "r+b") as f:
            f.seek(start)
            f.write(b"\xff" * BLOCK)

    def ioctl(self, op, arg):
        if op == 4:
            return self.blocks
        if op == 5:
            return BLOCK
        if op == 6:
            self._erase(arg)
        return 0


def folder_ring(root, blocks=COUNT):
    """The slot ring in folder `root`'s slots.bin."""
    return whole_device(NorFile(os.path.join(root, FILE), blocks), blocks)
