# SPDX-License-Identifier: MIT
# A clock's finished games, kept on flash until the hall's recorder acknowledges them; bounded.
#
# A game that ends on a clock with a board number is kept as the message the hall's `game` topic
# carries (docs/hall.md): its id (the record's tag), its version, the board, the preset, who sat
# left, the result and the record's entries as the clock stores them. It stays until an
# acknowledgement of that id and version comes (the recorder's `ack`, over the link or the USB
# gateway's OUTBOX ACK); the ids acknowledged are remembered (the last _DONE of them), so a game
# still on the clock after a restart is not kept a second time. A file's name holds its order,
# id and version (`3-998996339-1.txt`): the folder's listing is the whole index. At most
# MAX_GAMES wait (a round's games and a break's); one more drops the oldest, said in the log.
#
# Every write is made where no clock runs (a LittleFS write may erase a sector with interrupts
# masked): at a game's end, and acknowledgements in RAM until a pass with no clock running.
import json

from micropython import const

from clock.record import AMOUNT, AT, CODE

FOLDER = "outbox"
DONE_FILE = "acked.txt"
MAX_GAMES = const(8)
_DONE = const(16)  # ids acknowledged, remembered
_SUFFIX = ".txt"


def record_text(record, end=None):
    """The record's entries as the clock stores them: `code,at[,amount]` each (code = kind * 2
    + player; amount left out when 0), space apart."""
    field = record.field
    parts = []
    for index in range(record.length if end is None else end):
        amount = field(index, AMOUNT)
        if amount:
            parts.append("%d,%d,%d" % (field(index, CODE), field(index, AT), amount))
        else:
            parts.append("%d,%d" % (field(index, CODE), field(index, AT)))
    return " ".join(parts)


def message(app, board, hall, version=1):
    """The `game` message of the game on the clock (finished), as bytes."""
    from clock import report

    record = app.record
    game = record.owner
    doc = {
        "board": board,
        "hall": hall,
        "game": record.tag,
        "version": version,
        "spec": record.spec,
        "preset": app.presets.name_of(record.spec),
        "left": report.SIDES[app.left_player],
        "result": report.result(game),
        "plies": game.plies(),
        "complete": not record.cut,
        "record": record_text(record),
    }
    return json.dumps(doc).encode()


def _parse(name):
    """(order, tag, version) of a game file's name, or None."""
    if not name.endswith(_SUFFIX):
        return None
    parts = name[: -len(_SUFFIX)].split("-")
    if len(parts) != 3:
        return None
    for part in parts:
        if not part.isdigit():
            return None
    return int(parts[0]), int(parts[1]), int(parts[2])


class Outbox:
    def __init__(self, storage):
        self.storage = storage.within(FOLDER)
        self.games = []  # (order, tag, version, name), oldest first, not yet acknowledged
        self.done = []  # (tag, version) acknowledged and stored, oldest first
        self.dropped = 0  # games dropped from a full outbox (since the boot)
        self._acks = []  # (tag, version) acknowledged, not yet stored
        self._load()

    def _load(self):
        text = self.storage.read(DONE_FILE)
        if text:
            for word in text.decode().split():
                tag, _, version = word.partition(":")
                if tag.isdigit() and version.isdigit():
                    self.done.append((int(tag), int(version)))
        found = []
        for name in self.storage.names():
            parsed = _parse(name)
            if parsed is not None:
                found.append(parsed + (name,))
        found.sort()
        for item in found:
            if self._acknowledged(item[1], item[2]):
                self._acks.append((item[1], item[2]))  # its removal cut short: again, later
            else:
                self._insert(item)

    def _acknowledged(self, tag, version):
        for done_tag, done_version in self.done:
            if done_tag == tag and done_version >= version:
                return True
        return False

    def _insert(self, item):
        """Into `games`, a game's older version (left by a power cut) put aside."""
        games = self.games
        for index in range(len(games)):
            if games[index][1] == item[1]:
                if games[index][2] >= item[2]:
                    return
                del games[index]
                break
        games.append(item)

    # --- what the clock asks ---------------------------------------------------------------

    def __len__(self):
        return len(self.games)

    def holds(self, tag, version=1):
        """Whether the game `tag` at `version` (or later) is kept or was acknowledged."""
        for item in self.games:
            if item[1] == tag and item[2] >= version:
                return True
        if self._acknowledged(tag, version):
            return True
        for done_tag, done_version in self._acks:
            if done_tag == tag and done_version >= version:
                return True
        return False

    def read(self, item):
        """The game's message (bytes), or None when its file is gone."""
        return self.storage.read(item[3])

    def find(self, tag):
        for item in self.games:
            if item[1] == tag:
                return item
        return None

    def listing(self):
        """[{"game", "version"}] of the games waiting, oldest first (OUTBOX)."""
        return [{"game": item[1], "version": item[2]} for item in self.games]

    # --- writes: never while a clock runs --------------------------------------------------

    def add(self, tag, version, payload):
        """Keep a finished game (OSError: the store refused, nothing kept); the tag of a game
        dropped to make room, or None."""
        order = self.games[-1][0] + 1 if self.games else 1
        name = "%d-%d-%d%s" % (order, tag, version, _SUFFIX)
        self.storage.write(name, payload)
        older = self.find(tag)
        self._insert((order, tag, version, name))
        if older is not None and older[2] < version:
            self._remove(older)
        dropped = None
        if len(self.games) > MAX_GAMES:
            oldest = self.games[0]
            self._remove(oldest)
            self.dropped += 1
            dropped = oldest[1]
        return dropped

    def _remove(self, item):
        if item in self.games:
            self.games.remove(item)
        try:
            self.storage.remove(item[3])
        except OSError:
            pass  # left on flash: the next boot finds it acknowledged (or sends it again)

    def ack(self, tag, version):
        """The recorder has game `tag` at `version`: it leaves the list at once, and flash at the
        next store(). True when it was waiting."""
        item = self.find(tag)
        if item is None or item[2] > version:
            return False
        self.games.remove(item)
        self._acks.append((tag, version))
        return True

    def owes(self):
        """Whether acknowledgements wait to be stored."""
        return len(self._acks) > 0

    def store(self):
        """The acknowledgements to flash (a pass with no clock running): the ids remembered
        first, then the files gone. OSError: tried again at a later pass."""
        done = [pair for pair in self.done if pair not in self._acks] + self._acks
        done = done[-_DONE:]
        self.storage.write(DONE_FILE, " ".join(["%d:%d" % pair for pair in done]).encode())
        acks, self._acks = self._acks, []
        self.done = done
        for tag, version in acks:
            for name in self.storage.names():
                parsed = _parse(name)
                if parsed is not None and parsed[1] == tag and parsed[2] <= version:
                    self.storage.remove(name)
