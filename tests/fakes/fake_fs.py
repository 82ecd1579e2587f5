# SPDX-License-Identifier: MIT
# An os-like in-memory filesystem whose power can be cut after any number of steps.
#
# Each byte written, each flush, close, rename and remove is one step, and it reaches the "disk"
# at once (the worst case for a half-written file). After the budget of steps the power goes:
# that step and everything after it raise PowerCut, until reboot(). A store that says no is the
# other fault: after `refuse_after` steps every step raises OSError(ENOSPC), as a full or worn
# flash does, until refuse_after is None again; reads still work.
#
# Beside the files, `flash` is a raw NOR flash of `flash_blocks` blocks (fakes/fake_nor.py) for
# the game's slot ring (hal/slots.py), on the same power: each byte a program or an erase changes
# is one step too, so a cut or a refusal falls at every byte of the ring's writes as of the files'.
# It starts erased, each block with its slot's header, as a clock in service has it.
from fakes.fake_nor import FakeNor

SLOT_BLOCKS = 4  # the tests' ring: a few blocks are room for any game they play


class PowerCut(Exception):
    pass


class _Writer:
    def __init__(self, fs, path):
        self._fs = fs
        self._path = path
        self.closed = False

    def write(self, data):
        content = self._fs.files[self._path]
        for byte in bytes(data):
            self._fs.step()
            content.append(byte)
        return len(data)

    def flush(self):
        self._fs.step()

    def close(self):
        if not self.closed:
            self._fs.step()
            self.closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class _Reader:
    def __init__(self, content):
        self._content = content

    def read(self):
        return self._content

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass


class FakeFs:
    def __init__(self, dirs=("/",), flash_blocks=SLOT_BLOCKS):
        self.files = {}  # path -> bytearray
        self.flash = None
        if flash_blocks:
            # Erased and given its headers, as on a clock in service (hal.slots' tidy()).
            from hal.slots import whole_device

            self.flash = FakeNor(flash_blocks)
            ring = whole_device(self.flash, flash_blocks)
            while ring.tidy():
                pass
            self.flash.power = self
        self.dirs = set(dirs)
        self.budget = None  # steps left before the power goes; None: never
        self.refuse_after = None  # steps the store still takes before it says no; None: all
        self.refused = 0  # steps it said no to
        self.ends = []  # the step of each rename, and of a flash program's last byte
        self.dead = False
        self.steps = 0
        self.renames = 0

    def step(self):
        if self.dead:
            raise PowerCut()
        if self.refuse_after is not None:
            if self.refuse_after == 0:
                self.refused += 1
                raise OSError(28)  # ENOSPC
            self.refuse_after -= 1
        if self.budget is not None:
            if self.budget == 0:
                self.dead = True
                raise PowerCut()
            self.budget -= 1
        self.steps += 1

    def copy(self):
        """Another fs holding the same files: a restart that leaves this one as it is."""
        other = FakeFs(tuple(self.dirs), 0)
        for path in self.files:
            other.files[path] = bytearray(self.files[path])
        if self.flash is not None:
            other.flash = self.flash.copy(other)
        return other

    def reboot(self):
        self.dead = False
        self.budget = None

    def _parent(self, path):
        parent = path.rsplit("/", 1)[0]
        return parent or "/"

    def open(self, path, mode="r"):
        if self.dead:
            raise PowerCut()
        if mode == "rb":
            if path not in self.files:
                raise OSError(2)
            return _Reader(bytes(self.files[path]))
        if mode != "wb":
            raise ValueError("the fake opens 'rb' or 'wb' only")
        if self._parent(path) not in self.dirs:
            raise OSError(2)
        self.files[path] = bytearray()
        return _Writer(self, path)

    def rename(self, old, new):
        self.ends.append(self.steps)
        self.step()
        if old not in self.files:
            raise OSError(2)
        self.files[new] = self.files.pop(old)  # atomic, as on littlefs and POSIX
        self.renames += 1

    def remove(self, path):
        self.step()
        if path not in self.files:
            raise OSError(2)
        del self.files[path]

    def stat(self, path):
        if path in self.dirs:
            return (0x4000, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        if path in self.files:
            return (0x8000, 0, 0, 0, 0, 0, len(self.files[path]), 0, 0, 0)
        raise OSError(2)

    def mkdir(self, path):
        self.dirs.add(path)

    def listdir(self, path):
        if path not in self.dirs:
            raise OSError(2)
        prefix = path if path.endswith("/") else path + "/"
        found = []
        for name in list(self.files) + list(self.dirs):
            if name != path and name.startswith(prefix) and "/" not in name[len(prefix) :]:
                found.append(name[len(prefix) :])
        return found
