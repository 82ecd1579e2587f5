# SPDX-License-Identifier: MIT
# Where the game is saved (the slot ring while a clock runs, else the files) and which save is read back.
#
# Every save takes the next number: game.txt carries its save's (app/saved.py), each record of
# the ring its own (hal/slots.py), and at boot the newest whole save of the two is the game. While
# a clock runs a save is programmed into the ring's erased blocks (app/slot_save.py): no erase,
# so no press waits for one. A pause, a result, a correction, a new game, and a game read back
# from the ring at boot are saved to the files, whose littlefs erases as it needs: no clock runs
# then. Once the files hold a save, the ring's records are older and tidy() erases their blocks,
# one a loop pass, while no clock runs. A game whose ring runs out of erased room in play is
# saved to the files for the rest of that run (`slow`: the status line says SLOW SAVE), as a
# board without a ring (the browser) always is.
from app import saved
from clock.game import RUNNING, Game
from clock.model import ClockError
import notation
from notation.errors import PresetError

FILES = "files"
SLOTS = "slots"


class GameStore:
    """The game's saves on `storage` (hal.storage) and `ring` (a hal.slots.SlotRing, or None).
    `feed` (the HAL's watchdog feed) is called between the record's chunks of a save to the
    files: after a long run of play in the ring there are many (400 plies: 50 chunks, some
    9 erases, 4 s of a pass at the flash's maximum times), more than a watchdog period."""

    def __init__(self, storage, ring=None, feed=None):
        self.storage = storage
        self.ring = ring
        self._feed = feed
        self._slots = None
        if ring is not None:  # the ring's code is loaded only where there is one (not the browser)
            from app import slot_save

            self._slots = slot_save.SlotSaves(ring)
        self.seq = 0  # the number of the newest save on flash
        self.slow = False  # out of erased room in play: the files take this run's saves
        self.from_slots = False  # load() read the game from the ring
        self._stuck = False  # tidy() failed: no more till the files take a save

    def mode(self):
        """Where a save in play goes now: SLOTS, or FILES (no ring, or out of room)."""
        return FILES if self._slots is None or self.slow else SLOTS

    def ready(self):
        """Erased slots waiting for a game's records, or None without a ring."""
        return None if self.ring is None else self.ring.ready()

    # --- writing ---------------------------------------------------------------------------

    def save(self, spec, left_player, game, now):
        """Save the game as of `now`. Returns the OSError of a store that refused, else None."""
        slots = self._slots
        if slots is not None and game.state() == RUNNING and not self.slow:
            try:
                last = slots.save(self.seq + 1, spec, left_player, game, now)
            except OSError as error:
                slots.restart()
                self._renumber()
                return error
            self._renumber()
            if last >= 0:
                if slots.began >= 0:  # a whole chain from here: older records are not needed
                    self.ring.release(slots.began)
                return None
            self.slow = True  # the ring is full: the files, till no clock runs
        elif game.state() != RUNNING:
            self.slow = False
        self._take_seq()
        error = saved.save(self.storage, spec, left_player, game, now, self.seq, self._feed)
        if error is None:
            self._filed()
        return error

    def _take_seq(self):
        """The next number, for the files: the ring's chain cannot go on past it (its next
        record would not follow its last), so its next save begins a chain, whether or not
        the files take this one."""
        self.seq += 1
        if self._slots is not None:
            self._slots.restart()

    def _renumber(self):
        if self.ring.top > self.seq:
            self.seq = self.ring.top

    def _filed(self):
        """The files hold the newest save: every record of the ring is older."""
        self._stuck = False
        if self.ring is not None:
            self.ring.release(self.seq)

    def retire(self):
        """A new game is set up: the saved one is offered no more (app.saved.retire). Returns
        the OSError of a store that refused, else None."""
        if self.ring is None:
            return saved.retire(self.storage)
        self._take_seq()
        error = saved.retire(self.storage, self.seq, self.ring.top)
        if error is None:
            self._filed()
        return error

    # --- reading ---------------------------------------------------------------------------

    def load(self, record=None):
        """app.saved.load's answer for the newest whole save, the ring's or the files'."""
        storage = self.storage
        ring = self.ring
        filed = saved.stored_seq(storage)
        self.seq = filed if filed > 0 else 0
        if ring is None:
            return saved.load(storage, record)
        self._renumber()
        newest = ring.newest(filed)
        if newest is not None:
            offer = self._from_ring(newest[0], newest[1], record)
            if offer is not None:
                ring.release(newest[0])
                self.from_slots = True
                return offer
        ring.release(self.seq + 1)  # older than the files', or not readable: none needed
        return saved.load(storage, record)

    def _from_ring(self, base, end, record):
        ring = self.ring
        try:
            from app import slot_save

            found, count = slot_save.read(ring, base, end)
            spec = found[slot_save.SPEC]
            setup = notation.parse(spec)
            game = Game(setup, record)
            game.restore(found[slot_save.SNAPSHOT])
        except (ValueError, UnicodeError, IndexError, PresetError, ClockError):
            return None
        if record is not None:
            if not found[slot_save.HAS_RECORD]:
                record.clear()
                record.cut = True
            else:
                sealed = found[slot_save.SEALED]
                tail = slot_save.entries(ring, base, end)
                saved.read_record(
                    self.storage,
                    record,
                    setup,
                    found[slot_save.TAG],
                    sealed,
                    sealed + count,
                    found[slot_save.CUT],
                    tail,
                )
            record.owner = game
            record.spec = spec
        game.freeze()
        return spec, found[slot_save.LEFT], game

    # --- upkeep ----------------------------------------------------------------------------

    def untidy(self):
        """Whether tidy() has work (an erase, a slot to make)."""
        return self.ring is not None and not self._stuck and self.ring.untidy()

    def tidy(self):
        """One piece of the ring's upkeep: an erase at most. Only while no clock runs."""
        try:
            self.ring.tidy()
        except OSError:
            self._stuck = True
