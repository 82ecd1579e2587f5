# SPDX-License-Identifier: MIT
# A NOR flash in memory, as rp2.Flash is one, whose power a FakeFs can cut at any byte it changes.
#
# writeblocks(n, buf, offset) programs: each byte becomes old AND new (bits only go 1 -> 0);
# writeblocks(n, buf) erases the block first (the basic block protocol, which littlefs never
# uses); ioctl(6, n) erases a 4 KB block to 0xFF. Each byte a program or an erase changes is
# one step of `power` (a fakes.fake_fs.FakeFs: its budget cuts the power, after which every
# call raises PowerCut; its refusal raises OSError(ENOSPC) instead), so a cut can fall at every
# byte that matters: a byte left as it was is no step, a cut there being the cut at the next
# one. An erase changes its bytes from the block's start, or from its end (`erase_down`).
# With `silent`, a cut raises nothing: the flash takes no more changes and the code above it runs
# on unknowing (littlefs in C, its file objects' finalisers), as the chip it stands for would be
# off; the test then boots a copy of the flash.
BLOCK = 4096


class FakeNor:
    """`sectors[n]`: block n's bytes (a bytearray a block: no large allocation, which the unix
    port's fragmented heap may not have in one piece)."""

    def __init__(self, blocks, power=None, sectors=None):
        self.blocks = blocks
        if sectors is None:
            erased = b"\xff" * BLOCK
            sectors = [bytearray(erased) for _ in range(blocks)]
        else:
            sectors = [bytearray(sector) for sector in sectors]
        self.sectors = sectors
        self.power = power
        self.erase_down = False
        self.silent = False
        self.erases = 0  # erase operations
        self.programs = 0  # program operations (writeblocks calls)
        self.bytes_programmed = 0

    def copy(self, power=None):
        other = FakeNor(self.blocks, power, self.sectors)
        other.erase_down = self.erase_down
        return other

    def image(self):
        """The whole flash's bytes."""
        return b"".join([bytes(sector) for sector in self.sectors])

    def _alive(self):
        if self.power is not None and self.power.dead and not self.silent:
            from fakes.fake_fs import PowerCut

            raise PowerCut()

    def _step(self):
        """Whether the next byte changes: False once the power is off (silent)."""
        power = self.power
        if power is None:
            return True
        if not self.silent:
            power.step()
            return True
        if power.dead:
            return False
        from fakes.fake_fs import PowerCut

        try:
            power.step()
        except PowerCut:
            return False
        return True

    def _check(self, block, offset, size):
        if not 0 <= block < self.blocks or offset < 0 or offset + size > BLOCK:
            raise ValueError("outside the flash: block %d, %d + %d" % (block, offset, size))

    def readblocks(self, block, buf, offset=0):
        self._alive()
        self._check(block, offset, len(buf))
        buf[:] = self.sectors[block][offset : offset + len(buf)]

    def writeblocks(self, block, buf, offset=None):
        self._alive()
        if offset is None:
            self._erase(block)
            offset = 0
        self._check(block, offset, len(buf))
        self.programs += 1
        sector = self.sectors[block]
        changed = False
        for index in range(len(buf)):
            old = sector[offset + index]
            new = old & buf[index]
            if new != old:
                if not self._step():
                    return
                sector[offset + index] = new
                self.bytes_programmed += 1
                changed = True
        if changed and self.power is not None:
            self.power.ends.append(self.power.steps - 1)  # a write's last step, as a rename is

    def _erase(self, block):
        self._check(block, 0, BLOCK)
        self.erases += 1
        sector = self.sectors[block]
        if self.power is None:
            sector[:] = b"\xff" * BLOCK
            return
        order = range(BLOCK - 1, -1, -1) if self.erase_down else range(BLOCK)
        for index in order:
            if sector[index] != 0xFF:
                if not self._step():
                    return
                sector[index] = 0xFF

    def ioctl(self, op, arg):
        self._alive()
        if op == 4:
            return self.blocks
        if op == 5:
            return BLOCK
        if op == 6:
            self._erase(arg)
        return 0
