# SPDX-License-Identifier: MIT
# What the game's saves do to the flash, and so to a lever press that lands during one.
#   micropython bench/flash_save.py ROOT
# prints "name value" lines for bench/run.py.
#
# On the RP2040 every flash erase and program runs with interrupts off (rp2.Flash: the XIP cache
# is off while the flash is busy), so a lever edge in that window is stamped when they come back:
# late by what is left of the one operation in progress. Which operations a save makes is
# littlefs's business, and the unix port has the same littlefs: here it runs on a RAM block
# device shaped like the board's (4 KB blocks, progsize 256 as rp2's _boot.py mounts it), and
# each erase and program a save asks for is counted. Their duration on the chip is the Pico's
# flash (W25Q16JV) datasheet's: sector erase 45 ms typical, 400 ms at most; page program 0.4 ms
# typical, 3 ms at most. Nothing here is timed: the counts are exact, the durations quoted.
import os
import sys
import vfs

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
for path in ("tests", "", "firmware"):
    sys.path.insert(0, ROOT + "/" + path if path else ROOT)

from app import saved  # noqa: E402
from app.presets import Presets  # noqa: E402
from app.settings import Settings  # noqa: E402
from clock.game import RUNNING, Game  # noqa: E402
from clock.record import Record  # noqa: E402
from hal.storage import Storage  # noqa: E402
import notation  # noqa: E402

BLOCK = 4096
PAGE = 256
BLOCKS = 1408 * 1024 // BLOCK  # the RPI_PICO firmware's filesystem: 1408 KB
ERASE_MS = (45, 400)  # typical, at most
PAGE_MS = (0.4, 3)
SAVE_EVERY_MS = 10000
PLIES = 300
SPEC = "chessclock:G/90/30"


class CountingFlash:
    """A block device as rp2.Flash is one: writeblocks(n, buf) erases first, writeblocks(n, buf,
    offset) only programs, ioctl 6 erases a block. Counts each operation."""

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
        self.data[start : start + len(buf)] = buf
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
    """A spread of move times, 2 s to 75 s, the same every run."""
    return 2000 + (ply * 7919) % 73000


def main():
    flash = CountingFlash()
    vfs.VfsLfs2.mkfs(flash, progsize=PAGE)
    vfs.mount(vfs.VfsLfs2(flash, progsize=PAGE), "/flash")
    storage = Storage("/flash/data", os, open)
    Presets(storage).save()
    Settings(storage).store(False, None)
    game = Game(notation.parse(SPEC), Record())
    now = 1000
    game.start(now, 0)
    game.record.tag = saved.new_tag()
    saves = erasing_saves = 0
    most_programs = 0
    for ply in range(PLIES):
        move_end = now + move_ms(ply)
        saved_at = now
        while move_end - saved_at >= SAVE_EVERY_MS:  # the move in progress, every 10 s
            saved_at += SAVE_EVERY_MS
            stamps = (flash.erases, flash.programs)
            saved.save(storage, SPEC, 0, game, saved_at)
            saves += 1
            erasing_saves += flash.erases > stamps[0]
            most_programs = max(most_programs, flash.programs - stamps[1])
        now = move_end
        game.press(game.turn(), now)
        if game.state() != RUNNING:
            break
        stamps = (flash.erases, flash.programs)
        saved.save(storage, SPEC, 0, game)
        saves += 1
        erasing_saves += flash.erases > stamps[0]
        most_programs = max(most_programs, flash.programs - stamps[1])
    program_ms = [flash.longest_program_pages * ms for ms in PAGE_MS]
    print("flash.plies", ply + 1)
    print("flash.saves", saves)
    print("flash.erases", flash.erases)
    print("flash.erasing_saves", erasing_saves)
    print("flash.programs", flash.programs)
    print("flash.most_programs_per_save", most_programs)
    print("flash.longest_program_pages", flash.longest_program_pages)
    print("flash.program_ms %s %s" % tuple(program_ms))
    print("flash.erase_ms %d %d" % ERASE_MS)


main()
