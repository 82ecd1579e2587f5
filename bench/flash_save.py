# SPDX-License-Identifier: MIT
# What the game's saves do to the flash, and so to a lever press that lands during one.
#   micropython bench/flash_save.py ROOT
# prints "name value" lines for bench/run.py.
#
# On the RP2040 every flash erase and program runs with interrupts off (rp2.Flash: the XIP cache
# is off while the flash is busy), so a lever edge in that window is stamped when they come back:
# late by what is left of the one operation in progress. Which operations a save makes is
# littlefs's business for the files, the slot ring's (hal/slots.py) for a save in play, and the
# unix port has the same littlefs: here it runs on a RAM block device shaped like the board's
# (4 KB blocks, progsize 256 as rp2's _boot.py mounts it), the ring in its files as on the board
# (hal/lfs_slots.py), and each erase and program is counted. The same 400-ply game is played
# twice: its saves all to the files (the way before the ring, and the browser's), then as the
# board saves (the ring in play, the files once play stops). Their duration on the chip is the
# Pico's flash (W25Q16JV) datasheet's: sector erase 45 ms typical, 400 ms at most; page program
# 0.4 ms typical, 3 ms at most. Nothing here is timed: the counts are exact, the durations quoted.
import gc
import os
import sys
import vfs

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
for path in ("tests", "", "firmware"):
    sys.path.insert(0, ROOT + "/" + path if path else ROOT)

from app import saved  # noqa: E402
from app.game_store import SLOTS, GameStore  # noqa: E402
from app.presets import Presets  # noqa: E402
from app.settings import Settings  # noqa: E402
from clock.game import RUNNING, Game  # noqa: E402
from clock.record import Record  # noqa: E402
from hal import lfs_slots  # noqa: E402
from hal.slots import BLOCK, START  # noqa: E402
from hal.storage import Storage  # noqa: E402
import notation  # noqa: E402

PAGE = 256
BLOCKS = 1408 * 1024 // BLOCK  # the RPI_PICO firmware's filesystem: 1408 KB
ERASE_MS = (45, 400)  # typical, at most
PAGE_MS = (0.4, 3)
SAVE_EVERY_MS = 10000
PLIES = 400
SPEC = "chessclock:G/90/30"
MOUNT = "/flash"


class CountingFlash:
    """A block device as rp2.Flash is one: writeblocks(n, buf) erases first, writeblocks(n, buf,
    offset) only programs (each byte becomes old AND new), ioctl 6 erases a block. Counts each
    operation."""

    def __init__(self):
        self.data = bytearray(BLOCKS * BLOCK)
        self.erases = 0
        self.programs = 0
        self.longest_program_pages = 0

    def readblocks(self, number, buf, offset=0):
        start = number * BLOCK + offset
        buf[:] = self.data[start : start + len(buf)]

    def writeblocks(self, number, buf, offset=None):
        if offset is None:
            self._erase(number)
            offset = 0
        start = number * BLOCK + offset
        data = self.data
        for index in range(len(buf)):
            data[start + index] &= buf[index]
        self.programs += 1
        pages = (offset % PAGE + len(buf) + PAGE - 1) // PAGE
        if pages > self.longest_program_pages:
            self.longest_program_pages = pages

    def _erase(self, number):
        self.erases += 1
        start = number * BLOCK
        self.data[start : start + BLOCK] = b"\xff" * BLOCK

    def ioctl(self, op, arg):
        if op == 4:
            return BLOCKS
        if op == 5:
            return BLOCK
        if op == 6:
            self._erase(arg)
        return 0


def move_ms(ply):
    """A spread of move times, 2 s to 38 s, the same every run: 400 plies take 2 h 15 min."""
    return 2000 + (ply * 7919) % 36000


class Counts:
    def __init__(self, flash):
        self.flash = flash
        self.saves = self.erasing_saves = self.most_programs = 0
        self.mark()

    def mark(self):
        self.erases, self.programs = self.flash.erases, self.flash.programs

    def save(self, store, game, now):
        erases, programs = self.flash.erases, self.flash.programs
        if store.save(SPEC, 0, game, now) is not None:
            raise OSError("a save refused")
        self.saves += 1
        self.erasing_saves += self.flash.erases > erases
        self.most_programs = max(self.most_programs, self.flash.programs - programs)

    def since(self):
        return self.flash.erases - self.erases, self.flash.programs - self.programs


def board(with_ring):
    """A fresh filesystem as the board has it (presets and settings written), and its store."""
    flash = CountingFlash()
    vfs.VfsLfs2.mkfs(flash, progsize=PAGE)
    try:
        vfs.umount(MOUNT)
    except OSError:
        pass
    vfs.mount(vfs.VfsLfs2(flash, progsize=PAGE), MOUNT)
    root = MOUNT + "/data"
    storage = Storage(root, os, open)
    Presets(storage).save()
    Settings(storage).store(False, "Rapid 15+10")
    ring = None
    made = (0, 0)
    if with_ring:
        ring = lfs_slots.open_ring(os, open, flash, root)
        counts = Counts(flash)
        while ring.tidy():  # the first boot makes the slot files, one a loop pass
            pass
        made = counts.since()
    return flash, GameStore(storage, ring), made


def play(with_ring):
    flash, store, made = board(with_ring)
    counts = Counts(flash)
    game = Game(notation.parse(SPEC), Record())
    now = 1000
    game.start(now, 0)
    game.record.tag = saved.new_tag()
    longest = flash.longest_program_pages = 0
    ply = 0
    for ply in range(PLIES):
        move_end = now + move_ms(ply)
        saved_at = now
        while move_end - saved_at >= SAVE_EVERY_MS:  # the move in progress, every 10 s
            saved_at += SAVE_EVERY_MS
            counts.save(store, game, saved_at)
        now = move_end
        game.press(game.turn(), now)
        if game.state() != RUNNING:
            break
        counts.save(store, game, None)
    in_play = counts.since()
    longest = flash.longest_program_pages
    mode = store.mode()
    room = None if store.ring is None else store.ring.room()
    counts.mark()
    game.pause(now + 5000)  # play stops: the files take the save, then the ring is erased
    if store.save(SPEC, 0, game, None) is not None:
        raise OSError("a save refused")
    while store.untidy():
        store.tidy()
    after = counts.since()
    vfs.umount(MOUNT)
    found = {
        "saves": counts.saves,
        "erases": in_play[0],
        "programs": in_play[1],
        "erasing_saves": counts.erasing_saves,
        "most_programs_per_save": counts.most_programs,
        "longest_program_pages": longest,
        "after_erases": after[0],
        "after_programs": after[1],
    }
    if room is not None:
        assert mode == SLOTS  # the ring took every save in play
        found["bytes"] = lfs_slots.COUNT * (BLOCK - START) - room
        found["make_erases"], found["make_programs"] = made
    return found


def report(name, found):
    for key in sorted(found):
        print("flash.%s.%s %d" % (name, key, found[key]))


def main():
    files = play(False)
    gc.collect()  # the first 1.4 MB device goes before the second
    slots = play(True)
    print("flash.plies %d" % PLIES)
    report("files", files)
    report("slots", slots)
    print("flash.ring_blocks %d" % lfs_slots.COUNT)
    print("flash.program_ms %s %s" % PAGE_MS)
    print("flash.erase_ms %d %d" % ERASE_MS)


main()
