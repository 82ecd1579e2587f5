# The running game on flash: written after each switch, and every 10 s while a clock runs, so a
# power cut loses no press and at most 10 s of the move in progress.
from clock.game import OVER, Game
from clock.model import ClockError
import notation
from notation.errors import PresetError

FILE = "game.txt"
_VERSION = "clock-game 1"


def save(storage, spec, left_player, game, now=None):
    """A few hundred bytes: the preset, who sits left, the core's state as integers (a running
    move as of `now`)."""
    numbers = ",".join([str(value) for value in game.snapshot(now)])
    text = "%s\n%s\n%d\n%s\n" % (_VERSION, spec, left_player, numbers)
    storage.write(FILE, text.encode())


def clear(storage):
    storage.remove(FILE)


def load(storage):
    """(spec, left_player, game) of a saved game still in play, or None. Never raises: a file
    that does not read back exactly is ignored (and the next save replaces it)."""
    data = storage.read(FILE)
    if data is None:
        return None
    try:
        lines = data.decode().split("\n")
        if len(lines) != 5 or lines[0] != _VERSION or lines[4] != "":
            return None
        spec = lines[1]
        left_player = int(lines[2])
        if left_player not in (0, 1):
            return None
        game = Game(notation.parse(spec))
        game.restore([int(item) for item in lines[3].split(",")])
    except (ValueError, UnicodeError, PresetError, ClockError):
        return None
    if game.state() == OVER:
        return None
    game.freeze()
    return spec, left_player, game
