# SPDX-License-Identifier: MIT
# The board's slot ring inside littlefs (hal/lfs_slots.py), held to littlefs itself: the unix
# port's VfsLfs2, mounted as rp2's _boot.py mounts it (4 KB blocks, progsize 256), on a NOR flash
# fake. Thousands of slot writes and erases among the files' own writes, and power cuts in both:
# the filesystem mounts after each, its files read back as written (old or new), the ring's
# newest save is the last whole one, and a slot lost or copied is made anew.
import gc
import os

import vfs

from fakes.fake_fs import PowerCut
from fakes.fake_nor import BLOCK, FakeNor
from hal import lfs_slots
from hal.slots import BASE, END, LOST, READY
from hal.storage import Storage
from support import raises

MOUNT = "/flash"
ROOT = MOUNT + "/data"
BLOCKS = 64  # 256 KB: the board's littlefs is 352 blocks; this keeps the test quick
COUNT = 8  # the ring's slots here


class Power:
    """Cuts the flash after `budget` changed bytes; `budget` None: never."""

    def __init__(self):
        self.dead = False
        self.budget = None
        self.ends = []
        self.steps = 0

    def step(self):
        if self.dead:
            raise PowerCut()
        if self.budget is not None:
            if self.budget == 0:
                self.dead = True
                raise PowerCut()
            self.budget -= 1
        self.steps += 1


class Rng:
    """The same numbers every run."""

    def __init__(self, seed):
        self.state = seed

    def below(self, limit):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % limit


def mount(flash):
    try:
        vfs.umount(MOUNT)
    except OSError:
        pass
    vfs.mount(vfs.VfsLfs2(flash, progsize=256), MOUNT)


_FLASH = []  # one flash for every test


def fresh():
    try:
        vfs.umount(MOUNT)
    except OSError:
        pass
    gc.collect()
    if not _FLASH:
        _FLASH.append(FakeNor(BLOCKS))
    flash = _FLASH[0]
    erased = b"\xff" * BLOCK
    for sector in flash.sectors:
        sector[:] = erased
    flash.power = None
    flash.silent = flash.erase_down = False
    vfs.VfsLfs2.mkfs(flash, progsize=256)
    mount(flash)
    os.mkdir(ROOT)
    return flash


def ring_of(flash):
    ring = lfs_slots.open_ring(os, open, flash, ROOT, COUNT)
    assert ring is not None
    return ring


def tidied(ring):
    while ring.tidy():
        pass
    return ring


def put(ring, seq, flags, data):
    ring.payload[: len(data)] = data
    return ring.append(seq, flags, len(data))


def chain_bytes(ring):
    newest = ring.newest()
    if newest is None:
        return newest, b""
    return newest, b"".join([bytes(payload) for payload in ring.chain(newest[0], newest[1])])


def test_a_first_boot_makes_the_slots_one_a_tidy_and_finds_their_blocks_again():
    flash = fresh()
    ring = ring_of(flash)
    assert ring.ready() == 0 and ring.untidy()
    assert ring.tidy() and ring.ready() == 1  # one file made a call: a pass's work
    tidied(ring)
    assert ring.ready() == COUNT and not ring.untidy()
    names = sorted(os.listdir(ROOT + "/" + lfs_slots.FOLDER))
    assert names == sorted([str(index) for index in range(COUNT)])
    for name in names:
        assert os.stat(ROOT + "/slots/" + name)[6] == BLOCK
    blocks = list(ring._blocks)
    assert len(set(blocks)) == COUNT and min(blocks) > 1  # not the superblock pair
    mount(flash)  # a boot
    assert list(ring_of(flash)._blocks) == blocks and ring_of(flash).ready() == COUNT


def test_a_filesystem_that_is_not_littlefs_on_this_flash_gets_no_ring():
    fresh()
    assert lfs_slots.open_ring(os, open, FakeNor(2), ROOT, COUNT) is None  # not its 64 blocks


def test_a_first_start_without_the_storage_folder_makes_it_and_its_ring():
    flash = fresh()
    ring = lfs_slots.open_ring(os, open, flash, MOUNT + "/new/data", COUNT)
    assert ring is not None and os.stat(MOUNT + "/new/data")[0] & 0x4000
    tidied(ring)
    assert ring.ready() == COUNT


def _write_files(storage, rng, kept, count):
    """`count` writes of files of 10 to 2000 bytes: littlefs allocates, erases, compacts."""
    for _ in range(count):
        name = "f%d.txt" % rng.below(12)
        data = bytes([65 + rng.below(26)]) * (10 + rng.below(2000))
        kept.setdefault(name, []).append(data)
        storage.write(name, data)
        kept[name] = kept[name][-1:]  # written whole: only this one now


def _check_files(storage, kept, pending):
    """Every file reads back as its last whole write, or the one in flight at the cut."""
    for name in kept:
        data = storage.read(name)
        allowed = kept[name] + pending.get(name, [])
        assert data in allowed or (data is None and not kept[name]), name


class Play:
    """A board's life on the flash: the files' writes, runs of play saved in the ring, the
    ring's erases between them; the power cut anywhere in them (the flash `silent`: littlefs
    and the ring run on unknowing, as an unpowered chip would not, and nothing more reaches the
    flash), then a boot on what the flash holds."""

    def __init__(self, seed):
        self.rng = Rng(seed)
        self.flash = self.boot_flash(fresh())
        self.storage = Storage(ROOT, os, open)
        self.kept = {}  # file name: what it may read back as (None: no such file)
        self.ring = tidied(ring_of(self.flash))
        self.seq = 0
        self.base = 1
        self.whole = None  # the newest whole save in the ring: (base, end, its bytes)
        self.appends = self.erases = self.cuts = 0

    def boot_flash(self, flash):
        """`flash` on a fresh power, littlefs mounted on it anew (the old mount, which ran on
        unknowing after the cut, has no file open: each write closed its own)."""
        flash.power = Power()
        flash.silent = True
        mount(flash)
        return flash

    def cut_after(self, bytes_at_most):
        self.flash.power.budget = self.rng.below(bytes_at_most)

    def dead(self):
        return self.flash.power.dead

    def files(self):
        for _ in range(3):
            name = "f%d.txt" % self.rng.below(12)
            data = bytes([65 + self.rng.below(26)]) * (10 + self.rng.below(2000))
            self.kept[name] = self.kept.get(name, [None])[-1:] + [data]  # old or new, if cut
            if self.rng.below(40) == 0:
                self.cut_after(2200)
            self.storage.write(name, data)
            if self.dead():
                return
            self.kept[name] = [data]
            self.flash.power.budget = None

    def play(self):
        """A run of play: saves, chains of them, till the ring is full or the run ends."""
        for _ in range(60 + self.rng.below(80)):
            self.seq += 1
            flags = END | (BASE if self.seq == self.base else 0)
            data = bytes([self.seq & 0xFF]) * (5 + self.rng.below(200))
            if self.rng.below(300) == 0:
                self.cut_after(len(data) + 12)
            if not put(self.ring, self.seq, flags, data):
                return
            if self.dead():
                return
            self.flash.power.budget = None
            self.appends += 1
            before = b"" if flags & BASE else self.whole[2]
            self.whole = (self.base, self.seq, before + data)

    def stop(self):
        """Play stops: the files take a save, and the ring's blocks are erased one by one."""
        data = b"save %d" % self.seq
        self.kept["game.txt"] = self.kept.get("game.txt", [None])[-1:] + [data]
        if self.rng.below(12) == 0:
            self.cut_after(300)
        self.storage.write("game.txt", data)
        if self.dead():
            return
        self.flash.power.budget = None
        self.kept["game.txt"] = [data]
        self.seq += 1
        self.base = self.seq + 1
        self.ring.release(self.seq)
        self.whole = None
        while self.ring.untidy():
            if self.rng.below(20) == 0:
                self.cut_after(BLOCK + 40)
            self.ring.tidy()
            if self.dead():
                return
            self.flash.power.budget = None
            self.erases += 1

    def reboot(self):
        """The power back: littlefs mounts, every file reads back as its last whole write or the
        one the cut fell in, and the ring's newest save is the last whole one (or the one in
        flight, when its last byte was in)."""
        self.cuts += 1
        self.flash = self.boot_flash(self.flash)
        for name in self.kept:
            data = self.storage.read(name)
            assert data in self.kept[name], name
            self.kept[name] = [data]
        self.ring = ring_of(self.flash)
        newest = self.ring.newest()
        whole = self.whole
        if whole is not None:
            assert newest is not None and newest[0] == whole[0], (newest, whole)
            data = b"".join([bytes(payload) for payload in self.ring.chain(newest[0], newest[1])])
            assert newest[1] in (whole[1], self.seq) and data.startswith(whole[2])
        self.seq = self.ring.top + 1
        self.ring.release(self.seq)  # as the app does: the files hold a newer save
        while self.ring.tidy():
            self.erases += 1
        self.base = self.seq + 1
        self.whole = None


def step_or_cut(life, step):
    """Run `step`; whatever littlefs makes of the flash not taking writes after a cut is what
    the cut did (its reads then disagree with what it thinks it wrote)."""
    try:
        step()
    except OSError:
        if not life.dead():
            raise
    if life.dead():
        life.reboot()
        return False
    return True


def test_littlefs_stays_whole_through_thousands_of_slot_writes_erases_and_cuts():
    life = Play(37)
    for _ in range(100):
        for step in (life.files, life.play, life.stop):
            if not step_or_cut(life, step):
                break
    life.reboot()  # and once more, with no cut
    assert life.ring.ready() == COUNT
    assert life.appends > 6000 and life.erases > 200 and life.cuts > 30, (
        life.appends,
        life.erases,
        life.cuts,
    )
    for _ in range(20):  # littlefs still takes files, and they read back
        step_or_cut(life, life.files)
    life.reboot()


def test_a_slot_whose_header_a_cut_erased_is_made_anew_and_littlefs_is_whole():
    flash = fresh()
    storage = Storage(ROOT, os, open)
    storage.write("presets.txt", b"Blitz = 3+2\n")
    ring = tidied(ring_of(flash))
    put(ring, 1, BASE | END, b"game")
    ring.release(2)
    block = ring._blocks[0]
    power = Power()
    power.budget = 12  # the erase cut in its first bytes: the header gone, the file there
    flash.power = power
    flash.sectors[block][40] = 0  # a byte for the erase to change besides the record's
    raises(PowerCut, ring.tidy)
    flash.power = None
    mount(flash)
    ring = ring_of(flash)
    assert ring._state[0] == LOST and ring.untidy()
    tidied(ring)
    assert ring._state[0] == READY and ring.ready() == COUNT
    assert storage.read("presets.txt") == b"Blitz = 3+2\n"
    assert os.stat(ROOT + "/slots/0")[6] == BLOCK


def test_a_copy_of_a_slot_file_is_never_written_and_the_slot_is_made_anew():
    flash = fresh()
    ring = tidied(ring_of(flash))
    with open(ROOT + "/slots/3", "rb") as f:
        data = f.read()
    with open(ROOT + "/copy", "wb") as f:  # a user's copy: the same header in another block
        f.write(data)
    mount(flash)
    ring = ring_of(flash)
    assert ring._state[3] == LOST
    tidied(ring)
    assert ring._state[3] == READY
    for seq in range(1, 400):
        if not put(ring, seq, END if seq > 1 else BASE | END, b"x" * 200):
            break
    ring.release(seq + 1)
    tidied(ring)
    with open(ROOT + "/copy", "rb") as f:
        assert f.read() == data  # never programmed nor erased


def test_a_slot_file_removed_under_the_ring_is_never_written_once_littlefs_reuses_its_block():
    flash = fresh()
    storage = Storage(ROOT, os, open)
    ring = tidied(ring_of(flash))
    os.remove(ROOT + "/slots/0")  # littlefs frees the block: its bytes are the ring's no more
    rng = Rng(5)
    kept = {}
    _write_files(storage, rng, kept, 200)  # till littlefs has taken that block again
    raises(OSError, put, ring, 1, BASE | END, b"a")
    assert ring._state[0] == LOST
    mount(flash)
    _check_files(storage, kept, {})
    ring = tidied(ring_of(flash))
    assert ring.ready() == COUNT
