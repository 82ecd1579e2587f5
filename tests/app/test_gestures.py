# SPDX-License-Identifier: MIT
# Gestures: levers at once, long presses stand in for the buttons a minimal board lacks.
from app import gestures as g
from hal import buttons as b


class Recorder:
    def __init__(self):
        self.seen = []

    def sink(self, action, stamp):
        self.seen.append((action, stamp))


def make(present, at_once=None):
    recorder = Recorder()
    return g.Gestures(present, recorder.sink, at_once), recorder.seen


FULL = (b.LEFT, b.RIGHT, b.PLAY, b.SET, b.PLUS, b.MINUS)
MINIMAL = (b.LEFT, b.RIGHT, b.PLAY)


def test_levers_and_plus_minus_act_on_the_leading_edge():
    gestures, seen = make(FULL)
    gestures.edge(b.LEFT, True, 100)
    gestures.edge(b.LEFT, False, 180)
    gestures.edge(b.RIGHT, True, 200)
    gestures.edge(b.PLUS, True, 300)
    gestures.edge(b.MINUS, True, 400)
    assert seen == [(g.LEVER_LEFT, 100), (g.LEVER_RIGHT, 200), (g.PLUS, 300), (g.MINUS, 400)]


def test_full_board_play_at_once_set_on_release_and_long_set_resets():
    gestures, seen = make(FULL)
    gestures.edge(b.PLAY, True, 50)
    gestures.edge(b.SET, True, 100)
    assert seen == [(g.PLAY, 50)] and gestures.due() == 100 + g.RESET_MS
    gestures.edge(b.SET, False, 400)
    assert seen[-1] == (g.SET, 400) and gestures.due() is None
    gestures.edge(b.SET, True, 1000)
    gestures.poll(1000 + g.RESET_MS - 1)
    assert seen[-1] == (g.SET, 400)
    gestures.poll(1000 + g.RESET_MS + 7)
    assert seen[-1] == (g.RESET, 1000 + g.RESET_MS)
    gestures.edge(b.SET, False, 5000)  # the release after a reset does nothing more
    assert len(seen) == 3


def test_minimal_board_short_long_and_very_long_play():
    running = [False]
    gestures, seen = make(MINIMAL, lambda: running[0])
    gestures.edge(b.PLAY, True, 0)
    gestures.edge(b.PLAY, False, 300)
    gestures.edge(b.PLAY, True, 1000)
    gestures.edge(b.PLAY, False, 1000 + g.LONG_MS)
    gestures.edge(b.PLAY, True, 5000)
    gestures.poll(5000 + g.RESET_MS)
    assert seen == [(g.PLAY, 300), (g.SET, 1000 + g.LONG_MS), (g.RESET, 5000 + g.RESET_MS)]
    running[0] = True  # a game runs: pause at the press itself
    gestures.edge(b.PLAY, True, 9000)
    assert seen[-1] == (g.PLAY, 9000)
