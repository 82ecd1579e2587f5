# SPDX-License-Identifier: MIT
# The PIO program that watches the two levers and pushes their levels, with a running count, at every change.
#
# The state machine's IN pins start at the lower lever's GPIO; the other lever is the next one
# (GP14 and GP15 on every board). It samples both every 4 cycles (32 ns at 125 MHz) and, when
# they differ from the levels it pushed last (kept in Y), pushes one word: bits 31..2 a count
# that goes down by one at each push (kept in OSR: a reader tells from it how many words it
# missed), bits 1..0 the levels (bit 0 the lower GPIO; 1 released, the pull-up's level). From
# the edge to the push takes at most 16 cycles (128 ns at 125 MHz), the input synchroniser's two
# included; DMA has the word and its microsecond a few cycles later. Y starts at 0, so the first
# word, pushed at once, is the levers' levels when the machine starts: a baseline, not an edge.
# rp2.asm_pio gives the names below (mov, isr, ...) while it assembles: they are not globals.


def program(rp2):
    """The assembled program (rp2.asm_pio's list), the IN shift to the left."""

    @rp2.asm_pio(in_shiftdir=rp2.PIO.SHIFT_LEFT)
    def levers():
        label("sample")
        wrap_target()
        mov(isr, null)
        in_(pins, 2)
        mov(x, isr)
        jmp(x_not_y, "changed")
        wrap()
        label("changed")
        mov(y, x)  # the levels pushed, for the next comparison
        mov(x, osr)
        jmp(x_dec, "counted")  # X - 1, whichever way it jumps
        label("counted")
        mov(osr, x)
        mov(isr, null)
        in_(x, 30)
        in_(y, 2)
        push(noblock)
        jmp("sample")

    return levers
