# SPDX-License-Identifier: MIT
# The one-line description players read in menus and docs.
from clock.model import DELAY, FISCHER, NEXT, SET, SOFT, Control, Setup, Stage
from notation import registry
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
    assert describe(Setup(byoyomi)) == "10 min; then 5x30 s byo-yomi"
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


def test_counts_of_one_move_read_as_one_move():
    one_in_five = Control([Stage(5 * M, moves=1, increment_ms=50000, mode=FISCHER)])
    assert describe(Setup(one_in_five)) == "5 min + 50 s/move; +5 min every move"
    each_move = Control([Stage(10 * M, on_expire=NEXT), Stage(M, moves=1)])
    assert describe(Setup(each_move)) == "10 min; then 1 min for each move"


def test_a_phase_ended_by_its_flag():
    flagged = Control([Stage(90 * M, increment_ms=30000), Stage(30 * M, increment_ms=30000)])
    assert describe(Setup(flagged)) == "90 min + 30 s/move; flag, then 30 min + 30 s/move"


# Every preset the clock accepts is described, in ASCII: the line goes over the serial line.
PRESETS = (
    "5+3",
    "90 min + 30 sec/move",
    "40/90+30, 30+30",
    "90+30, 30+30 bronstein",
    "G/5/5 delay hourglass word",
    "1/5/50",
    "arimaa:0/30",
    "2/10/100/5/120t/3",
    "30:00,N0//5:00,N10",
    "2:00,0/12,N1/0",
    '[{"duration_ms": 600000}, {"duration_ms": 30000, "plies": 1}]',
    '{"time_control": "byoyomi", "main_time": 600, "period_time": 30, "periods": 5}',
    '{"time_control": "canadian", "main_time": 600, "period_time": 300, "stones_per_period": 25}',
    '{"time_control": "simple", "per_move": 30}',
    "pgn:300+2",
    "40/7200:3600",
    "*180",
    "300S5=300B5",
    "pgn:-",
    "tc=40/60+0.5",
    "st=5",
    "TM[1800]OT[5x30 byo-yomi]",
    "TM[600]OT[25/300 Canadian]",
    "TM[600]OT[30 Fischer]",
    "kgs-time_settings byoyomi 600 30 5",
    "time_settings 600 300 25",
)


def test_every_description_is_ascii():
    for text in PRESETS:
        line = describe(registry.parse(text))
        assert line and all(" " <= char <= "~" for char in line), "%s: %s" % (text, line)


def test_the_players_are_named_as_their_game_names_them():
    from notation.describe import players
    from notation.factory import DEFAULTS

    named = dict((name, players(spec, name)) for name, spec in DEFAULTS)
    assert named["Blitz 5+3"] == named["Armageddon 5/4"] == ("White", "Black")
    for name in ("Go 30m 5x30s byoyomi", "Go 30m + 25/5m", "Shogi 10m + 30s", "Othello 30 min"):
        assert named[name] == ("Black", "White"), name
    assert named["Arimaa 30s/5m"] == ("Gold", "Silver")
    assert players("go:45m 3x30s", "Typed in the page") == ("Black", "White")
    assert players("chessclock:G/5/3", "Typed in the page") == ("White", "Black")
