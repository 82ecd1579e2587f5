# `python -m sim` until the interactive simulator lands: a game on the default preset, ply by ply.
from clock import display
from clock.game import Game, View
from notation import registry
from notation.describe import describe

DEFAULT_PRESET = "chessclock:40/90/30, G/30/30"
# Move times (ms) of the opening plies of a rapid game.
PLIES = (4100, 6300, 15800, 9200, 61000, 44000, 130500, 98000, 5200, 7700)


def render(view):
    text = display.text(view.time_ms)
    marks = []
    if view.running:
        marks.append("running")
    if view.moves_left >= 0:
        marks.append("%d to go" % view.moves_left)
    if view.flagged:
        marks.append("flag")
    return "%-9s %s" % (text, " ".join(marks))


def main():
    setup = registry.parse(DEFAULT_PRESET)
    print("Preset: %s  (%s)" % (DEFAULT_PRESET, describe(setup)))
    game = Game(setup)
    game.start(0, 0)
    now = 0
    first, second = View(), View()
    print("%-5s %-28s %-28s" % ("ply", "first", "second"))
    for ply, elapsed in enumerate(PLIES, 1):
        now += elapsed
        game.press(game.turn(), now)
        game.view(0, now, first)
        game.view(1, now, second)
        print("%-5d %-28s %-28s" % (ply, render(first), render(second)))
    print("(The interactive simulator is `python -m sim` once it lands; see README.)")
    return 0
