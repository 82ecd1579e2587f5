# The one-line description players read in menus and docs.
from clock.model import DELAY, FISCHER, NEXT, SET, SOFT, Control, Setup, Stage
from notation.describe import describe, duration

M = 60000


def test_durations_as_players_say_them():
    assert duration(90 * M) == "90 min"
    assert duration(150 * M) == "2 h 30 min"
    assert duration(3 * 3600000 + 5000) == "3 h 5 s"
    assert duration(1500) == "1.5 s"
    assert duration(0) == "0 s"


def test_chess_controls():
    fide = Control(
        [
            Stage(90 * M, moves=40, increment_ms=30000, mode=FISCHER),
            Stage(30 * M, increment_ms=30000, mode=FISCHER),
        ]
    )
    assert describe(Setup(fide)) == "90 min + 30 s/move; +30 min after move 40"
    repeating = Control([Stage(60 * M, moves=40), Stage(10 * M, moves=20)])
    assert describe(Setup(repeating)) == "1 h; +10 min after move 40; +10 min every 20 moves"
    capped = Control([Stage(5 * M, increment_ms=3000)], max_ms=10 * M)
    assert describe(Setup(capped)) == "5 min + 3 s/move, at most 10 min"


def test_go_and_othello_controls():
    byoyomi = Control(
        [
            Stage(10 * M, on_expire=NEXT),
            Stage(30000, moves=1, periods=5, on_enter=SET, on_repeat=SET),
        ]
    )
    assert describe(Setup(byoyomi)) == "10 min; then 5 × 30 s byo-yomi"
    canadian = Control(
        [Stage(10 * M, on_expire=NEXT), Stage(5 * M, moves=25, on_enter=SET, on_repeat=SET)]
    )
    assert describe(Setup(canadian)) == "10 min; then 25 moves in 5 min"
    per_move = Control([Stage(30000, moves=1, on_enter=SET, on_repeat=SET)])
    assert describe(Setup(per_move)) == "30 s per move"
    othello = Control([Stage(30 * M, on_expire=SOFT), Stage(2 * M)])
    assert describe(Setup(othello)) == "30 min; soft time-out, then 2 min"


def test_options_handicaps_and_arimaa():
    armageddon = Setup(
        Control([Stage(5 * M, increment_ms=5000, mode=DELAY)]), Control([Stage(4 * M)])
    )
    assert describe(armageddon) == "first: 5 min, delay 5 s/move | second: 4 min"
    arimaa = Control(
        [Stage(10 * M)],
        move_ms=2 * M,
        reserve_percent=50,
        reserve_limit_ms=5 * M,
        move_limit_ms=3 * M,
    )
    assert describe(Setup(arimaa, limit_turns=120)) == (
        "2 min/move + 10 min reserve, 50% of unused move time to the reserve, "
        "reserve at most 5 min, no move over 3 min; game halted after 120 moves each"
    )
    assert describe(Setup(Control([]))) == "no time control"
    sandglass = Setup(Control([Stage(3 * M)]), hourglass=True, start_ms=30000)
    assert describe(sandglass) == "3 min; 30 s to make the first move; hourglass"
