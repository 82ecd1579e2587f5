# SPDX-License-Identifier: MIT
# The game on flash as files, with its record: what is saved while no clock runs (a pause, a
# result, a correction, a new game), and in play where the board has no slot ring (the browser).
#
# game.txt holds the number of its save (app/game_store.py: the newest save of the files and the
# slot ring is the game), the preset, who sits left, the core's state as integers, and the
# record's latest entries; each time CHUNK of them are in (up to _SEAL_MOST at once after a run
# of play in the slot ring), they go to a file of their own (record/<N>.txt, N the first entry's
# index / CHUNK) before game.txt drops them, so game.txt stays a few hundred bytes. The chunks
# have a folder of their own: littlefs keeps small files inside their folder's metadata, which is
# erased and rewritten when full, and chunks beside game.txt would fill it sooner
# (bench/flash_save.py). An entry is stored as its kind and player, time and amount: the figures
# come back by replaying the entries (clock.record.replay).
# Every file is replaced whole and atomically (hal.storage), so whatever instant the power goes,
# game.txt names only entries a finished write holds.
import random

from clock.game import Game
from clock.model import ClockError
from clock.record import AMOUNT, AT, CODE, RecordError, replay
import notation
from notation.errors import PresetError

FILE = "game.txt"
FOLDER = "record"
CHUNK = 8
# A chunk file holds CHUNK entries, or a multiple of them up to this many: after a run of play
# in the slot ring (app/game_store.py) the files take all its entries at once, and 50 small
# files rewrote the record folder's metadata block at each (a 4 KB erase each, 400 ms at the
# flash's maximum times); files of 128 entries (some 1.5 KB: a block of their own) take one
# erase each and keep the folder's metadata small.
_SEAL_MOST = 128
_VERSION = "clock-game 3"  # then a space and the save's number
_RETIRED = " retired"  # after who sits left: a game not to offer again
_VERSION_2 = "clock-game 2"  # before save numbers: read as number 0
_VERSION_1 = "clock-game 1"  # before records: 5 lines, read as a game whose record is lost
_CHUNK_VERSION = "clock-record 1"


def _chunk_name(number):
    return "%d.txt" % number


def _entries_text(record, start, end):
    field = record.field
    parts = []
    for index in range(start, end):
        amount = field(index, AMOUNT)
        if amount:
            parts.append("%d,%d,%d" % (field(index, CODE), field(index, AT), amount))
        else:  # a ply's: most entries, so game.txt stays small
            parts.append("%d,%d" % (field(index, CODE), field(index, AT)))
    return " ".join(parts)


def save(storage, spec, left_player, game, now=None, seq=0, between=None):
    """The preset, who sits left, the core's state (a running move as of `now`) and the game's
    record (sealing a chunk first when one is full), as save number `seq`. Returns the OSError
    of a store that refused a write (the files then as they were, but for whole chunks sealed),
    else None: the app goes on either way. `between` is called after each chunk written: the
    board's watchdog fed through the many chunks a run of play in the slot ring leaves."""
    try:
        _save(storage, spec, left_player, game, now, seq, between)
    except OSError as error:
        return error
    return None


def _save(storage, spec, left_player, game, now, seq, between):
    record = game.record
    if record is None or record.owner is not game:
        tail = "-\n"
    else:
        sealed = record.sealed
        while record.length - sealed >= CHUNK:
            count = min(record.length - sealed, _SEAL_MOST) // CHUNK * CHUNK
            text = "%s %d %d\n%s\n" % (
                _CHUNK_VERSION,
                record.tag,
                sealed,
                _entries_text(record, sealed, sealed + count),
            )
            storage.within(FOLDER).write(_chunk_name(sealed // CHUNK), text.encode())
            sealed += count
            record.sealed = sealed
            if between is not None:
                between()
        tail = "%d %d %d %d\n%s" % (
            record.tag,
            record.length,
            sealed,
            1 if record.cut else 0,
            _entries_text(record, sealed, record.length),
        )
    numbers = ",".join([str(value) for value in game.snapshot(now)])
    text = "%s %d\n%s\n%d\n%s\n%s\n" % (_VERSION, seq, spec, left_player, numbers, tail)
    storage.write(FILE, text.encode())


def _lines(storage):
    """game.txt's lines with the version line as "clock-game 3" and the save's number, or
    (None, -1): no file, or one that does not read."""
    data = storage.read(FILE)
    if data is None:
        return None, -1
    try:
        lines = data.decode().split("\n")
        head = lines[0].split(" ")
        if len(head) == 3 and lines[0].startswith(_VERSION + " "):
            lines[0] = _VERSION
            return lines, int(head[2])
    except (UnicodeError, ValueError):
        return None, -1
    if lines[0] == _VERSION_2:
        lines[0] = _VERSION
        return lines, 0
    return lines, 0 if lines[0] == _VERSION_1 else -1


def stored_seq(storage):
    """The number of the save game.txt holds (0: one from before numbers), or -1: none, or
    one that does not read."""
    return _lines(storage)[1]


def new_tag():
    """A number for a new game's record: its stored chunks are told from another game's."""
    return random.getrandbits(30)


def retire(storage, seq=None, above=-1):
    """A new game is set up: the saved one is no longer offered, and only its record is read
    back (it stays until the next game starts, across a restart too). Returns the OSError of a
    store that refused the write, else None.

    Given `seq` (a board with a slot ring), game.txt is left numbered above `above` (the ring's
    newest record, -1: none), renumbered `seq` if it is not: a game the ring holds is then
    older than the files' and not offered either; with no game in the file, it holds the
    number alone."""
    try:
        _retire(storage, seq, above)
    except OSError as error:
        return error
    return None


def _retire(storage, seq, above):
    lines, number = _lines(storage)
    renumber = seq is not None and 0 <= above and number <= above  # the ring's is as new
    game = lines is not None and len(lines) == 7 and lines[0] == _VERSION
    if game and lines[2].endswith(_RETIRED) and not renumber:
        return
    if game and (lines[2] in ("0", "1") or lines[2].endswith(_RETIRED)):
        if not lines[2].endswith(_RETIRED):
            lines[2] += _RETIRED
        lines[0] = "%s %d" % (_VERSION, seq if renumber else number)
        storage.write(FILE, "\n".join(lines).encode())
    elif renumber:
        storage.write(FILE, ("%s %d\n" % (_VERSION, seq)).encode())
    elif lines is not None or storage.read(FILE) is not None:
        storage.remove(FILE)


def load(storage, record=None):
    """(spec, left_player, game) of the saved game, in play (a running one paused) or finished
    (its result stands till a new game), or None: none saved, or one a new game retired. Never
    raises: a file that does not read back exactly is ignored (and the next save replaces it).

    Given a Record, the saved game's record is read into it (for a finished game too, whose
    record stays until the next game starts), its owner the saved game; a record that does
    not read back whole keeps the entries it could, and is marked cut."""
    lines = _lines(storage)[0]
    if lines is None:
        return None
    try:
        if lines[0] == _VERSION_1 and len(lines) == 5:
            lines[4:] = ["", "", ""]
        elif lines[0] != _VERSION or len(lines) != 7:
            return None
        if lines[6] != "":
            return None
        spec = lines[1]
        retired = lines[2].endswith(_RETIRED)
        left_player = int(lines[2][:1] if retired else lines[2])
        if left_player not in (0, 1):
            return None
        setup = notation.parse(spec)
        game = Game(setup, record)
        game.restore([int(item) for item in lines[3].split(",")])
    except (ValueError, UnicodeError, PresetError, ClockError):
        return None
    if record is not None:
        if lines[4] == "-":  # saved without a record
            record.clear()
            record.cut = True
        else:
            _load_record(storage, record, setup, lines[4], lines[5])
        record.owner = game
        record.spec = spec
    if retired:
        return None
    game.freeze()
    return spec, left_player, game


def _load_record(storage, record, setup, header, tail):
    tag = sealed = 0
    length = -1
    cut = 1
    try:
        tag, length, sealed, cut = [int(item) for item in header.split()]
    except ValueError:
        tail = ""
    read_record(storage, record, setup, tag, sealed, length, cut, _entries(tail))


def read_record(storage, record, setup, tag, sealed, length, cut, tail):
    """Read the record into `record` by replaying its entries on a game of `setup`, an entry at
    a time as they are read (640 entries as a list would take tens of KB at boot): the `sealed`
    entries of game `tag`'s chunks, then those `tail` yields, `length` in all. The record is
    marked cut when it was (`cut`) or when they do not all read back."""
    whole = [False]  # _stored() read every entry there is
    try:
        replay(Game(setup, record), _stored(storage, tag, sealed, tail, whole))
    except (RecordError, ClockError):
        record.clear()
        whole[0] = False
    record.tag = tag
    if cut or not whole[0] or record.length != length:
        # What was lost stays lost; the next save stores whole what the record still holds.
        record.cut = True
        record.sealed = 0
    else:
        record.sealed = sealed


def _stored(storage, tag, sealed, tail, whole):
    """The entries of the sealed chunks, then those of `tail`; at the first that does not read
    back, no more (`whole` tells whether all did)."""
    chunks = storage.within(FOLDER)
    try:
        at = 0
        while at < sealed:
            data = chunks.read(_chunk_name(at // CHUNK))
            if data is None:
                return  # a chunk missing
            chunk = data.decode().split("\n")
            if chunk[0] != "%s %d %d" % (_CHUNK_VERSION, tag, at):
                return  # a chunk of another game
            count = 0
            for entry in _entries(chunk[1]):
                count += 1
                yield entry
            if count == 0 or count % CHUNK:
                return  # not whole chunks
            at += count
        if at != sealed:
            return
        for entry in tail:
            yield entry
    except (ValueError, UnicodeError, IndexError):
        return
    whole[0] = True


def _entries(text):
    for item in text.split():
        numbers = [int(number) for number in item.split(",")]
        if len(numbers) == 2:
            numbers.append(0)
        code, at, amount = numbers
        yield (code >> 1, code & 1, at, amount)
