# SPDX-License-Identifier: MIT
# OGS clock display: the seed's algorithm with numbers worked out by hand; parse_clock's checks.
from notation.errors import PresetError
from notation.ogs_clock import display, parse_clock
from support import raises

L = 1000000000000  # epoch ms of the last move
BLACK, WHITE = 100, 200
FISCHER = {"time_control": "fischer", "initial_time": 600, "time_increment": 10, "max_time": 600}
BYOYOMI = {"time_control": "byoyomi", "main_time": 600, "period_time": 30, "periods": 5}
CANADIAN = {
    "time_control": "canadian",
    "main_time": 600,
    "period_time": 300,
    "stones_per_period": 25,
}
SIMPLE = {"system": "simple", "per_move": 30}
ABSOLUTE = {"time_control": "absolute", "total_time": 600}
NONE = {"time_control": "none"}


def clock(black_time, white_time, to_move=BLACK, **extra):
    """A clock sent by the server 10 s after the last move."""
    state = {
        "black_time": black_time,
        "white_time": white_time,
        "current_player": to_move,
        "last_move": L,
        "now": L + 10000,
        "black_player_id": BLACK,
        "white_player_id": WHITE,
    }
    state.update(extra)
    return state


def at(tc, state, elapsed, pause=None):
    """Both sides `elapsed` ms after the last move (server time), seen by a viewer whose clock is
    500 ms ahead of the server's and who received the clock when it was sent."""
    return display(tc, state, pause, L + elapsed + 500, received_ms=L + 10000 + 500)


def test_fischer_running_and_waiting_with_the_skew_corrected():
    state = clock(
        {"thinking_time": 60.5, "skip_bonus": False}, {"thinking_time": 360.90599999999995}
    )
    shown = at(FISCHER, state, 12000)
    assert shown["black"] == {"mode": "running", "ms": 48500, "expired": False}  # 60.5 s - 12 s
    assert shown["white"] == {"mode": "waiting", "ms": 360906, "expired": False}  # rounded
    # White to move instead: 360.906 s - 12 s; black shows what it has stored.
    shown = at(FISCHER, clock(state["black_time"], state["white_time"], WHITE), 12000)
    assert shown["white"] == {"mode": "running", "ms": 348906, "expired": False}
    assert shown["black"] == {"mode": "waiting", "ms": 60500, "expired": False}


def test_both_nows_read_at_once_show_the_clock_as_the_server_sent_it():
    # now_delta = NOW() - clock.now and "- now" with one NOW(): 10 s elapsed at the server.
    state = clock({"thinking_time": 60.5}, {"thinking_time": 300})
    for now_ms in (L, L + 10000, L + 999999):
        assert display(FISCHER, state, None, now_ms)["black"]["ms"] == 50500


def test_fischer_flag_and_the_exact_zero():
    state = clock({"thinking_time": 12}, {"thinking_time": 300})
    assert at(FISCHER, state, 12000)["black"] == {"mode": "running", "ms": 0, "expired": False}
    assert at(FISCHER, state, 12001)["black"] == {"mode": "running", "ms": 0, "expired": True}
    assert at(ABSOLUTE, state, 2000)["black"] == {"mode": "running", "ms": 10000, "expired": False}


def byoyomi(thinking, periods):
    return {"thinking_time": thinking, "periods": periods, "period_time": 30}


def test_byoyomi_in_main_time():
    shown = at(BYOYOMI, clock(byoyomi(100, 5), byoyomi(200, 5)), 12000)
    black = {
        "mode": "running",
        "ms": 88000,
        "expired": False,
        "periods_left": 5,
        "overtime": False,
    }
    assert shown["black"] == black
    assert shown["white"]["ms"] == 200000 and shown["white"]["periods_left"] == 5


def test_byoyomi_in_the_second_period():
    # 5 s of main time left, 40 s elapsed: 35 s into overtime, so the first 30 s period is used
    # up and the second has 25 s left; 4 periods left counting the one in use.
    shown = at(BYOYOMI, clock(byoyomi(5, 5), byoyomi(0, 5)), 40000)
    black = {"mode": "running", "ms": 25000, "expired": False, "periods_left": 4, "overtime": True}
    assert shown["black"] == black
    # The waiting side in overtime shows a full period.
    white = {"mode": "waiting", "ms": 30000, "expired": False, "periods_left": 5, "overtime": True}
    assert shown["white"] == white


def test_byoyomi_already_in_overtime():
    state = clock(byoyomi(0, 3), byoyomi(0, 3))
    assert at(BYOYOMI, state, 12000)["black"]["ms"] == 18000
    assert at(BYOYOMI, state, 12000)["black"]["periods_left"] == 3
    # At the very start of the move the period is full (the seed's loop would leave 0).
    assert at(BYOYOMI, state, 0)["black"]["ms"] == 30000


def test_byoyomi_periods_run_out_only_below_zero():
    # docs/time-controls.md "Byo-yomi": 3 left, 30 s each: 90 s leaves 1 period at 0; 90.001 s flags.
    state = clock(byoyomi(0, 3), byoyomi(0, 3))
    black = at(BYOYOMI, state, 90000)["black"]
    assert (black["ms"], black["periods_left"], black["expired"]) == (0, 1, False)
    black = at(BYOYOMI, state, 90001)["black"]
    assert (black["ms"], black["periods_left"], black["expired"]) == (0, 0, True)
    black = at(BYOYOMI, state, 60001)["black"]
    assert (black["ms"], black["periods_left"], black["expired"]) == (29999, 1, False)


def test_byoyomi_past_all_periods_shows_zero_expired():
    black = at(BYOYOMI, clock(byoyomi(0, 2), byoyomi(0, 2)), 61000)["black"]
    assert black == {
        "mode": "running",
        "ms": 0,
        "expired": True,
        "periods_left": 0,
        "overtime": True,
    }
    # From main time straight through every period in one move: 10 s main + 2 x 30 s.
    black = at(BYOYOMI, clock(byoyomi(10, 2), byoyomi(0, 2)), 70001)["black"]
    assert (black["ms"], black["expired"]) == (0, True)


def canadian(thinking, moves, block):
    return {"thinking_time": thinking, "moves_left": moves, "block_time": block}


def test_canadian_in_main_time():
    shown = at(CANADIAN, clock(canadian(100, 25, 300), canadian(200, 25, 300)), 12000)
    black = {"mode": "running", "ms": 88000, "expired": False, "moves_left": 25, "overtime": False}
    assert shown["black"] == black
    assert shown["white"]["ms"] == 200000


def test_canadian_crossing_into_the_block():
    # 10 s of main time, 40 s elapsed: the block of 300 s has 270 s left.
    black = at(CANADIAN, clock(canadian(10, 25, 300), canadian(0, 25, 300)), 40000)["black"]
    assert (black["ms"], black["overtime"], black["moves_left"]) == (270000, True, 25)


def test_canadian_in_a_block():
    # thinking_time 0: the block's 95.5 s left, 12 s elapsed, 7 stones to play.
    shown = at(CANADIAN, clock(canadian(0, 7, 95.5), canadian(0, 3, 40)), 12000)
    black = {"mode": "running", "ms": 83500, "expired": False, "moves_left": 7, "overtime": True}
    assert shown["black"] == black
    white = {"mode": "waiting", "ms": 40000, "expired": False, "moves_left": 3, "overtime": True}
    assert shown["white"] == white
    black = at(CANADIAN, clock(canadian(0, 7, 10), canadian(0, 3, 40)), 10001)["black"]
    assert (black["ms"], black["expired"]) == (0, True)


def test_simple_counts_down_to_the_deadline():
    # The player to move has a deadline in epoch ms (server time): the last move + 30 s.
    state = clock(L + 30000, 0)
    shown = at(SIMPLE, state, 12000)
    assert shown["black"] == {"mode": "running", "ms": 18000, "expired": False}
    assert shown["white"] == {"mode": "waiting", "ms": 30000, "expired": False}  # per_move
    assert at(SIMPLE, state, 30001)["black"] == {"mode": "running", "ms": 0, "expired": True}


def test_start_mode_shows_the_time_until_expiration():
    state = clock({"thinking_time": 600}, {"thinking_time": 600}, start_mode=True)
    state["expiration"] = L + 55000
    shown = at(FISCHER, state, 13000)
    assert shown["black"] == {"mode": "start", "ms": 42000, "expired": False}
    assert shown["white"] == {"mode": "waiting", "ms": 600000, "expired": False}
    assert at(FISCHER, state, 55001)["black"] == {"mode": "start", "ms": 0, "expired": True}
    state["start_mode"] = False
    assert at(FISCHER, state, 13000)["black"]["mode"] == "running"


def test_a_non_empty_pause_control_pauses_both_sides():
    state = clock({"thinking_time": 60.5}, {"thinking_time": 300})
    pause = {"paused": {"pauses_left": 4, "pausing_player_id": BLACK}}
    shown = at(FISCHER, state, 40000, pause)
    assert shown["black"] == {"mode": "paused", "ms": 60500, "expired": False}
    assert shown["white"] == {"mode": "paused", "ms": 300000, "expired": False}
    for reason in ({"weekend": True}, {"system": True}, {"vacation-200": True}):
        assert at(FISCHER, state, 40000, reason)["white"]["mode"] == "paused"


def test_paused_since_freezes_the_player_to_move():
    # Paused 7 s after the last move; the seed gives paused_since in seconds, newer servers ms.
    for since in ((L + 7000) // 1000, L + 7000):
        state = clock({"thinking_time": 60.5}, {"thinking_time": 300}, paused_since=since)
        shown = at(FISCHER, state, 40000, {"paused": {"pausing_player_id": WHITE}})
        assert shown["black"] == {"mode": "paused", "ms": 53500, "expired": False}
        assert shown["white"]["ms"] == 300000


def test_an_empty_pause_control_is_not_a_pause():
    state = clock({"thinking_time": 60.5}, {"thinking_time": 300})
    for pause in ({}, None):
        assert at(FISCHER, state, 12000, pause)["black"] == {
            "mode": "running",
            "ms": 48500,
            "expired": False,
        }


def test_no_time_control():
    shown = at(NONE, clock(None, None), 12000)
    assert shown["black"] == {"mode": "running", "ms": None, "expired": False}
    assert shown["white"] == {"mode": "waiting", "ms": None, "expired": False}


SEED_GAME = """{
  "game_id": 989449,
  "time_control": {"system": "byoyomi", "time_control": "byoyomi", "speed": "correspondence",
                   "main_time": 1200, "period_time": 30, "periods": 5, "pause_on_weekends": false},
  "clock": {
    "black_time": {"period_time": 30, "periods": 5, "thinking_time": 1200},
    "white_time": {"period_time": 30, "periods": 5, "thinking_time": 360.90599999999995},
    "current_player": 12751,
    "last_move": 1416172879750,
    "now": 1416093910807,
    "start_mode": false,
    "game_id": 989449,
    "black_player_id": 12751,
    "white_player_id": 1,
    "title": "friendly match",
    "paused_since": 1416093910,
    "expiration_delta": 1350000,
    "expiration": 1416174229750
  }
}"""


def test_parse_clock_reads_the_seeds_clock():
    tc, state, pause = parse_clock(SEED_GAME)
    assert tc["periods"] == 5 and state["current_player"] == 12751 and pause is None
    shown = display(tc, state, pause, 1416093910807)
    # last_move + 1200 s - now: the seed's sample has its last move after its own `now`.
    assert shown["black"]["ms"] == 1416172879750 + 1200000 - 1416093910807 == 80168943
    assert shown["white"] == {
        "mode": "waiting",
        "ms": 360906,
        "expired": False,
        "periods_left": 5,
        "overtime": False,
    }
    paused = SEED_GAME[:-2] + ', "pause_control": {"paused": {"pausing_player_id": 1}}}'
    tc, state, pause = parse_clock(paused)
    # Paused before the last move (by the sample's numbers): the time stored at that move.
    assert display(tc, state, pause, 0)["black"] == {
        "mode": "paused",
        "ms": 1200000,
        "expired": False,
        "periods_left": 5,
        "overtime": False,
    }


def game(tc, state, pause=""):
    """A game object's JSON text from JSON texts of its parts."""
    return '{"time_control": %s, "clock": %s%s}' % (tc, state, pause)


TC = '{"time_control": "fischer", "initial_time": 60, "time_increment": 5, "max_time": 90}'
STATE = (
    '{"black_time": {"thinking_time": 10}, "white_time": {"thinking_time": 20}, '
    '"current_player": 1, "last_move": 1000, "now": 2000, '
    '"black_player_id": 1, "white_player_id": 2}'
)


def check_error(text, *problem):
    error = raises(PresetError, parse_clock, text)
    assert error.notation == "ogs" and error.text == text and error.position is None
    for part in problem:
        assert part in str(error), (part, str(error))


def test_parse_clock_accepts_a_minimal_game():
    tc, state, pause = parse_clock(game(TC, STATE, ', "pause_control": {}'))
    assert tc["max_time"] == 90 and state["now"] == 2000 and pause == {}
    simple = '{"time_control": "simple", "per_move": 5}'
    state = STATE.replace('{"thinking_time": 10}', "7000").replace('{"thinking_time": 20}', "0")
    assert parse_clock(game(simple, state))[1]["black_time"] == 7000
    state = STATE.replace(
        '"black_time": {"thinking_time": 10}, "white_time": {"thinking_time": 20}, ', ""
    )
    assert parse_clock(game('{"time_control": "none"}', state))[0]["time_control"] == "none"


def test_parse_clock_refuses_bad_games():
    check_error("[]", "expected a game object")
    check_error("{", "not valid JSON")
    check_error('{"clock": {}}', 'needs "time_control" and "clock"')
    check_error(game('{"time_control": "blitz"}', STATE), "time_control: expected one of")
    check_error(game(TC, "5"), "clock: expected an object, found 5")
    check_error(game(TC, STATE, ', "pause_control": []'), "pause_control: expected an object")


def test_parse_clock_refuses_bad_clocks():
    def bad(old, new, *problem):
        assert old in STATE
        check_error(game(TC, STATE.replace(old, new)), *problem)

    bad('"current_player": 1, ', "", "clock.current_player: expected a whole number, found null")
    bad('"now": 2000', '"now": 2000.5', "clock.now: expected a whole number, found 2000.5")
    bad('"last_move": 1000', '"last_move": "1000"', "clock.last_move")
    bad('"white_player_id": 2', '"white_player_id": 1', "the same player")
    bad('"current_player": 1', '"current_player": 3', "clock.current_player: neither")
    bad('"now": 2000', '"now": 2000, "start_mode": "yes"', "clock.start_mode: expected true")
    bad('"now": 2000', '"now": 2000, "start_mode": true', "start_mode needs expiration")
    bad('"now": 2000', '"now": 2000, "expiration": 1.5', "clock.expiration")
    bad('"now": 2000', '"now": 2000, "paused_since": -1', "clock.paused_since")
    bad('"black_time": {"thinking_time": 10}, ', "", "clock.black_time: missing")
    bad('{"thinking_time": 10}', "10", "clock.black_time: expected an object, found 10")
    bad('{"thinking_time": 20}', "{}", "clock.white_time.thinking_time: missing")
    bad('{"thinking_time": 20}', '{"thinking_time": -1}', "clock.white_time.thinking_time")
    bad(
        '{"thinking_time": 20}',
        '{"thinking_time": 20, "x": 1}',
        'clock.white_time: unknown key "x"',
    )


def test_parse_clock_checks_each_systems_player_times():
    byo = '{"time_control": "byoyomi", "main_time": 0, "period_time": 30, "periods": 3}'
    ok = '{"thinking_time": 0, "periods": 3, "period_time": 30}'
    state = STATE.replace('{"thinking_time": 10}', ok).replace('{"thinking_time": 20}', ok)
    assert parse_clock(game(byo, state))[1]["white_time"]["periods"] == 3
    check_error(
        game(byo, state.replace('"periods": 3, ', "", 1)), "clock.black_time.periods: missing"
    )
    check_error(game(byo, state.replace('"periods": 3', '"periods": -1', 1)), "whole number >= 0")
    check_error(
        game(byo, state.replace('"period_time": 30', '"period_time": 0', 1)), "more than 0"
    )
    simple = '{"time_control": "simple", "per_move": 5}'
    check_error(game(simple, STATE), "clock.black_time: expected a number >= 0, found an object")
    can = '{"time_control": "canadian", "main_time": 0, "period_time": 30, "stones_per_period": 3}'
    check_error(game(can, state), 'clock.black_time: unknown key "period_time"')
