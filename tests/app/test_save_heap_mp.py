# SPDX-License-Identifier: MIT
# Under the MicroPython unix port: a save in play into the slot ring allocates less than a save
# to the files did (and does, where there is no ring): about 1 KB here (8-byte pointers, 32-byte
# blocks; the fake flash's reads allocate, rp2.Flash's do not), against 4 to 6 KB.
import gc

from fakes.fake_fs import FakeFs
from hal import buttons as b
from harness import Clock


def bytes_a_save_allocates(flash_blocks):
    """The most one save allocates over a game's presses and 10 s saves, and where they went."""
    clock = Clock(preset="Blitz 5+3", fs=FakeFs(flash_blocks=flash_blocks))
    store = clock.app.store
    save = store.save
    most = [0]

    def measured(spec, left_player, game, now):
        gc.collect()
        gc.disable()
        before = gc.mem_alloc()
        refused = save(spec, left_player, game, now)
        most[0] = max(most[0], gc.mem_alloc() - before)
        gc.enable()
        return refused

    store.save = measured
    now = 1000
    clock.press(b.RIGHT, now)
    for ply in range(20):
        now += 1500 if ply % 5 else 12000  # some moves saved after 10 s too
        clock.press(b.LEFT if ply % 2 == 0 else b.RIGHT, now)
    clock.run_until(now + 100)
    assert clock.app.game.plies() == 20
    return most[0], store.mode()


def test_a_save_into_the_slot_ring_allocates_less_than_a_save_to_the_files():
    ring, mode = bytes_a_save_allocates(4)
    files, other = bytes_a_save_allocates(0)
    assert mode == "slots" and other == "files"
    assert ring < 1536 and ring * 3 < files, (ring, files)
