# SPDX-License-Identifier: MIT
# The slot ring (hal/slots.py) on a NOR flash fake: records read back in order, the newest whole
# save wins, a cut at any byte of a program or an erase leaves the old save or the new one, and
# no block is written but erased ones, no block erased but the ring's own.
from fakes.fake_fs import PowerCut
from fakes.fake_nor import BLOCK, FakeNor
from hal.slots import (
    BASE,
    DIRTY,
    END,
    LOST,
    MAX_PAYLOAD,
    READY,
    START,
    USED,
    SlotRing,
    header,
    whole_device,
)
from support import raises


class Power:
    """The flash's power: cut after `budget` changed bytes, or refusing (OSError) after
    `refuse_after`."""

    def __init__(self):
        self.dead = False
        self.budget = None
        self.refuse_after = None
        self.steps = 0
        self.ends = []

    def step(self):
        if self.dead:
            raise PowerCut()
        if self.refuse_after is not None:
            if self.refuse_after == 0:
                raise OSError(28)
            self.refuse_after -= 1
        if self.budget is not None:
            if self.budget == 0:
                self.dead = True
                raise PowerCut()
            self.budget -= 1
        self.steps += 1


def formatted(blocks=4):
    flash = FakeNor(blocks)
    ring = whole_device(flash, blocks)
    while ring.tidy():
        pass
    return flash, ring


def put(ring, seq, flags, text):
    data = text.encode()
    ring.payload[: len(data)] = data
    return ring.append(seq, flags, len(data))


def old_chain(ring):
    """Records 1 to 20, a chain of 5 KB: block 0 full, block 1 begun; then a chain of its own
    from 21, in block 1. Returns 21."""
    put(ring, 1, BASE | END, "o" * 240)
    for seq in range(2, 21):
        put(ring, seq, END, "o" * 240)
    put(ring, 21, BASE | END, "new")
    return 21


def saves(ring):
    """Every record, as (seq, flags, text)."""
    return [(seq, flags, bytes(payload).decode()) for seq, flags, payload in ring.records()]


def newest_text(ring):
    newest = ring.newest()
    if newest is None:
        return None
    return "".join([bytes(payload).decode() for payload in ring.chain(newest[0], newest[1])])


def test_a_fresh_flash_is_formatted_by_tidy_one_block_a_call():
    flash = FakeNor(3)
    ring = whole_device(flash, 3)
    assert ring.ready() == 0 and ring.untidy() and ring.newest() is None
    assert ring.tidy() and ring.ready() == 1
    assert ring.tidy() and ring.tidy() and not ring.tidy() and ring.ready() == 3
    for block in range(3):
        assert flash.sectors[block][:20] == header(block, bytes(8))
        assert flash.sectors[block][20:] == b"\xff" * (BLOCK - 20)
    assert flash.erases == 3


def test_records_read_back_in_order_and_the_newest_whole_save_wins():
    flash, ring = formatted()
    assert put(ring, 1, BASE | END, "game")
    assert put(ring, 2, END, "+ply")
    assert put(ring, 3, 0, "+half")  # a save of two records...
    assert ring.newest() == (1, 2)  # ... not whole yet
    assert put(ring, 4, END, "+rest")
    assert ring.newest() == (1, 4) and newest_text(ring) == "game+ply+half+rest"
    again = whole_device(flash, 4)  # a boot
    assert saves(again) == saves(ring) and again.newest() == (1, 4) and again.top == 4


def test_a_gap_in_the_seqs_breaks_the_chain_and_a_base_begins_another():
    flash, ring = formatted()
    put(ring, 1, BASE | END, "a")
    put(ring, 3, END, "c")  # 2 missing: this save is not on a whole chain
    assert ring.newest() == (1, 1)
    put(ring, 4, BASE | END, "d")
    put(ring, 5, END, "e")
    assert ring.newest() == (4, 5) and newest_text(ring) == "de"
    assert ring.newest(5) is None and ring.newest(4) == (4, 5)  # only saves above a floor


def test_records_share_pages_span_them_and_go_on_in_the_next_block():
    flash, ring = formatted(3)
    size = 200
    seq = 1
    put(ring, seq, BASE | END, "x" * size)
    while ring._state[1] == READY:  # the first block full, the next begun
        seq += 1
        assert put(ring, seq, END, chr(65 + seq % 26) * size)
    chain = newest_text(ring)
    assert len(chain) == seq * size
    assert flash.programs > seq  # records across a page take a program for each page
    again = whole_device(flash, 3)
    assert newest_text(again) == chain and again.ready() == 1
    assert raises(ValueError, put, ring, seq + 1, END, "y" * (MAX_PAYLOAD + 1))


def test_a_full_ring_says_so_and_writes_nothing():
    flash, ring = formatted(2)
    seq = 1
    while put(ring, seq, END if seq > 1 else BASE | END, "z" * MAX_PAYLOAD):
        seq += 1
    before = flash.image()
    assert not put(ring, seq, END, "z")
    assert flash.image() == before and ring.room() < MAX_PAYLOAD + 11
    assert ring.newest() == (1, seq - 1)


def test_a_boot_writes_no_more_into_a_block_it_found_records_in():
    flash, ring = formatted(3)
    put(ring, 1, BASE | END, "a")
    again = whole_device(flash, 3)
    put(again, 2, END, "b")
    assert again._state[0] == USED and again._open == 1  # "b" went to the next block
    assert flash.sectors[0][START + 12 : START + 40] == b"\xff" * 28  # nothing after "a"'s
    assert again.newest() == (1, 2) and newest_text(again) == "ab"


def test_release_and_tidy_erase_only_what_holds_nothing_needed():
    flash, ring = formatted(3)
    new = old_chain(ring)
    ring.release(new)  # the chain from 6 is whole: older records are not needed
    assert [ring._state[i] for i in range(3)] == [DIRTY, 1, READY]  # block 1 takes records
    assert ring.tidy() and not ring.untidy() and flash.erases == 3 + 1
    assert newest_text(ring) == "new" and ring.newest() == (new, new)
    again = whole_device(flash, 3)
    assert again.newest() == (new, new) and again.ready() == 2
    again.release(new + 1)  # the files took a save: nothing in the ring is needed
    assert again.tidy() and not again.tidy() and again.ready() == 3


def _cut_an_append_at_every_byte(erase_down):
    """A save programmed over a page edge, cut at each byte it changes: the boot after reads
    the save before it or this one, never a mix."""
    budget = 0
    seen = set()
    while True:
        flash, ring = formatted(2)
        flash.erase_down = erase_down
        put(ring, 1, BASE | END, "a" * 230)  # the next record crosses into the second page
        power = Power()
        power.budget = budget
        flash.power = power
        try:
            put(ring, 2, END, "b" * 60)
        except PowerCut:
            pass
        flash.power = None
        again = whole_device(flash, 2)
        text = newest_text(again)
        assert text in ("a" * 230, "a" * 230 + "b" * 60), (budget, text)
        seen.add(text)
        if not power.dead:
            break
        assert again.ready() == 1  # the block a record was cut in takes no more
        put(again, 3, BASE | END, "c")
        assert whole_device(flash, 2).newest() == (3, 3)
        budget += 1
    assert len(seen) == 2 and budget >= 60  # its bytes and CRC, its header, none of its 0xFFs


def test_a_cut_at_every_byte_of_a_slot_write_leaves_the_old_save_or_the_new():
    _cut_an_append_at_every_byte(False)


def _cut_an_erase_at_every_byte(erase_down, owned):
    """A stale block erased, cut at each byte the erase or the header's program changes: the
    newest save (in another block) reads back, and the block is erased whole again, or (on the
    board, where the ring owns only what it can find) made anew."""
    template, ring = formatted(3)
    new = old_chain(ring)
    slots = [(block, header(block, bytes(8))) for block in range(3)]
    budget = 0
    while True:
        flash = template.copy()
        ring = SlotRing(flash, slots, owned)
        ring.release(new)
        flash.erase_down = erase_down
        power = Power()
        power.budget = budget
        flash.power = power
        try:
            ring.tidy()
        except PowerCut:
            pass
        flash.power = None
        again = SlotRing(flash, slots, owned)
        assert again.newest() == (new, new) and newest_text(again) == "new", budget
        again.release(new)  # as the app does after its boot
        state = again._state[0]
        if not power.dead:
            assert state == READY
            break
        if owned:
            assert state in (DIRTY, READY), (budget, state)
            while again.tidy():
                pass
            assert again._state[0] == READY
        else:
            assert state in (DIRTY, LOST, READY), (budget, state)
            if state == LOST:  # its header gone: never touched till a maker makes it anew
                before = bytes(flash.sectors[0])
                while again.tidy():
                    pass
                assert bytes(flash.sectors[0]) == before
        budget += 1
    return budget


def test_a_cut_at_every_byte_of_an_erase_leaves_the_newest_save():
    for down in (False, True):
        steps = _cut_an_erase_at_every_byte(down, True)
        assert steps > BLOCK - 200  # the block's changed bytes, then its header's


def test_on_the_board_a_block_an_erase_was_cut_in_is_erased_again_or_left_for_the_maker():
    _cut_an_erase_at_every_byte(True, False)


def test_a_block_whose_header_changed_is_never_programmed_nor_erased():
    flash, ring = formatted(3)
    slots = [(block, header(block, bytes(8))) for block in range(3)]
    board = SlotRing(flash, slots, False)
    new = old_chain(board)
    flash.sectors[0][3] = 0  # block 0 is no longer the ring's (a file's now, say)
    board.release(new + 1)
    before = bytes(flash.sectors[0])
    while board.tidy():
        pass
    assert board._state[0] == LOST and bytes(flash.sectors[0]) == before
    assert board._state[1] == READY  # its own block, erased
    flash.sectors[2][3] = 0  # and block 2 too, before its first record
    assert board._take() == 2
    assert raises(OSError, put, board, new + 1, BASE | END, "c").args[0] == 5
    assert board._state[2] == LOST and flash.sectors[2][START] == 0xFF


def test_a_refused_program_closes_the_block_only_if_it_changed_a_byte():
    flash, ring = formatted(2)
    put(ring, 1, BASE | END, "a")
    power = Power()
    flash.power = power
    power.refuse_after = 0
    raises(OSError, put, ring, 2, END, "b")
    assert ring._state[0] == 1  # OPEN still: nothing of it was programmed
    power.refuse_after = 5
    raises(OSError, put, ring, 3, BASE | END, "c" * 20)
    assert ring._state[0] == USED and ring.top == 3  # half a record: the block is closed
    power.refuse_after = None
    assert put(ring, 4, BASE | END, "d")
    assert whole_device(flash, 2).newest() == (4, 4)
