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
    def __init__(self, blocks, power=None, data=None):
        self.blocks = blocks
        if data is None:
            data = bytearray(blocks * BLOCK)  # one allocation: the tests' heaps are small
            erased = b"\xff" * BLOCK
            for block in range(blocks):
                data[block * BLOCK : (block + 1) * BLOCK] = erased
        else:
            data = bytearray(data)
        self.data = data
        self.power = power
        self.erase_down = False
        self.silent = False
        self.erases = 0  # erase operations
        self.programs = 0  # program operations (writeblocks calls)
        self.bytes_programmed = 0

    def copy(self, power=None):
        other = FakeNor(self.blocks, power, self.data)
        other.erase_down = self.erase_down
        return other

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
        start = block * BLOCK + offset
        buf[:] = self.data[start : start + len(buf)]

    def writeblocks(self, block, buf, offset=None):
        self._alive()
        if offset is None:
            self._erase(block)
            offset = 0
        self._check(block, offset, len(buf))
        self.programs += 1
        start = block * BLOCK + offset
        data = self.data
        changed = False
        for index in range(len(buf)):
            old = data[start + index]
            new = old & buf[index]
            if new != old:
                if not self._step():
                    return
                data[start + index] = new
                self.bytes_programmed += 1
                changed = True
        if changed and self.power is not None:
            self.power.ends.append(self.power.steps - 1)  # a write's last step, as a rename is

    def _erase(self, block):
        self._check(block, 0, BLOCK)
        self.erases += 1
        start = block * BLOCK
        data = self.data
        if self.power is None:
            data[start : start + BLOCK] = b"\xff" * BLOCK
            return
        order = range(BLOCK - 1, -1, -1) if self.erase_down else range(BLOCK)
        for index in order:
            if data[start + index] != 0xFF:
                if not self._step():
                    return
                data[start + index] = 0xFF

    def ioctl(self, op, arg):
        self._alive()
        if op == 4:
            return self.blocks
        if op == 5:
            return BLOCK
        if op == 6:
            self._erase(arg)
        return 0
