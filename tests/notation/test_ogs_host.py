# SPDX-License-Identifier: MIT
# OGS on CPython: fuzzing time_control and clock parsing, round trips, display properties.
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from clock.model import MAX_COUNT, MAX_MS
from notation import ogs
from notation.errors import PresetError
from notation.ogs_clock import display, parse_clock
from support import raises
import fuzzing

MAX_S = MAX_MS // 1000


def test_cpython_json_extras_are_refused():
    # CPython's json reads NaN and Infinity, which MicroPython's does not.
    for value in ("NaN", "Infinity", "-Infinity"):
        error = raises(PresetError, ogs.parse, '{"system":"absolute","total_time":%s}' % value)
        assert "total_time" in str(error)
    error = raises(PresetError, ogs.parse, "[" * 100000 + "]" * 100000)
    assert "not valid JSON" in str(error)
    error = raises(PresetError, ogs.parse, '{"time_control": "none"')
    assert "line 1, column" in str(error) and error.position is None


# ---- fuzzing: parse returns a Setup or raises PresetError, never anything else

NUMBERS = st.sampled_from(
    [0, 1, -1, 0.5, 0.0004, 1.0005, 360.90599999999995, 1e400, float("nan"), MAX_S, MAX_S + 1]
    + [86400, MAX_COUNT, MAX_COUNT + 1, 2**64, True, None, "60", [], {}]
) | st.integers(-10, 10**6)
KEYS = sorted({key for fields in ogs.FIELDS.values() for key in fields})
EXTRA = ["system", "speed", "pause_on_weekends", "periods_min", "stones_per_period_max", "x"]
SYSTEM = st.sampled_from(list(ogs.SYSTEMS) + ["blitz", 5, None])
TIME_CONTROL = st.fixed_dictionaries(
    {"time_control": SYSTEM},
    optional=dict([(key, NUMBERS) for key in KEYS] + [(key, SYSTEM) for key in EXTRA]),
)
GOOD = st.integers(0, 100000) | st.sampled_from([0.5, 1.25, 86400.123])
SHAPED = st.sampled_from(ogs.SYSTEMS).flatmap(
    lambda system: st.fixed_dictionaries(
        dict(
            [("time_control", st.just(system))] + [(k, GOOD | NUMBERS) for k in ogs.FIELDS[system]]
        ),
        optional={"system": st.just(system) | SYSTEM, "speed": st.just("live"), "x": NUMBERS},
    )
)
JSON_TEXT = st.text(alphabet='[]{}:,"-.0123456789eE timecontrlsyfh_')


@settings(max_examples=1000, deadline=None)
@given(st.text() | JSON_TEXT | (TIME_CONTROL | SHAPED).map(json.dumps))
def test_fuzz_ogs_parse(text):
    fuzzing.parses_or_refuses(ogs.parse, text, "ogs")


def test_the_fuzz_reaches_valid_controls():
    text = json.dumps(
        {"time_control": "byoyomi", "main_time": 1, "period_time": 0.5, "periods": 1}
    )
    assert ogs.parse(text).first.stages[1].duration_ms == 500


# ---- round trips

SECONDS = st.integers(1, MAX_S)
COUNT = st.integers(1, MAX_COUNT)
VALID = st.one_of(
    st.fixed_dictionaries(
        {"time_control": st.just("fischer"), "initial_time": SECONDS},
        optional={"time_increment": st.integers(0, MAX_S), "max_time": SECONDS},
    ).map(lambda tc: dict({"time_increment": 0, "max_time": 60}, **tc)),
    st.fixed_dictionaries(
        {
            "time_control": st.just("byoyomi"),
            "main_time": st.integers(0, MAX_S),
            "period_time": SECONDS,
            "periods": COUNT,
        }
    ),
    st.fixed_dictionaries({"time_control": st.just("simple"), "per_move": SECONDS}),
    st.fixed_dictionaries(
        {
            "system": st.just("canadian"),
            "main_time": st.integers(0, MAX_S),
            "period_time": SECONDS,
            "stones_per_period": COUNT,
        }
    ),
    st.fixed_dictionaries({"time_control": st.just("absolute"), "total_time": SECONDS}),
    st.just({"time_control": "none"}),
)


@settings(max_examples=1000, deadline=None)
@given(VALID)
def test_round_trip(tc):
    text = fuzzing.round_trips(ogs, ogs.parse(json.dumps(tc)))
    assert json.loads(text)["time_control"] in ogs.SYSTEMS


@settings(max_examples=1000, deadline=None)
@given(st.integers(1, MAX_MS))
def test_three_decimals_are_exact(ms):
    text = '{"time_control":"absolute","total_time":%d.%03d}' % (ms // 1000, ms % 1000)
    assert ogs.parse(text).first.stages[0].duration_ms == ms


# ---- the clock display

L = 1000000000000


@st.composite
def games(draw):
    system = draw(st.sampled_from(["fischer", "absolute", "byoyomi", "canadian", "simple"]))
    seconds = st.integers(0, 100000) | st.floats(0, 100000)
    if system == "simple":
        player = st.integers(L - 100000, L + 100000) | st.just(0)
    elif system == "byoyomi":
        player = st.fixed_dictionaries(
            {
                "thinking_time": seconds,
                "periods": st.integers(0, 5),
                "period_time": st.integers(1, 60),
            }
        )
    elif system == "canadian":
        player = st.fixed_dictionaries(
            {"thinking_time": seconds, "moves_left": st.integers(0, 25), "block_time": seconds}
        )
    else:
        player = st.fixed_dictionaries({"thinking_time": seconds})
    tc = {
        "fischer": {
            "time_control": "fischer",
            "initial_time": 60,
            "time_increment": 5,
            "max_time": 90,
        },
        "absolute": {"time_control": "absolute", "total_time": 600},
        "byoyomi": {"time_control": "byoyomi", "main_time": 60, "period_time": 30, "periods": 5},
        "canadian": {
            "system": "canadian",
            "main_time": 0,
            "period_time": 60,
            "stones_per_period": 5,
        },
        "simple": {"time_control": "simple", "per_move": 30},
    }[system]
    clock = {
        "black_time": draw(player),
        "white_time": draw(player),
        "current_player": draw(st.sampled_from([1, 2])),
        "black_player_id": 1,
        "white_player_id": 2,
        "last_move": L,
        "now": L + draw(st.integers(-5000, 50000)),
    }
    if draw(st.booleans()):
        clock["start_mode"] = True
        clock["expiration"] = L + draw(st.integers(0, 100000))
    if draw(st.booleans()):
        clock["paused_since"] = draw(st.sampled_from([(L + 5000) // 1000, L + 5000, L - 1]))
    pause = draw(st.sampled_from([None, {}, {"weekend": True}]))
    return tc, clock, pause


@settings(max_examples=1000, deadline=None)
@given(games(), st.integers(-10000, 200000), st.integers(-10000, 200000), st.integers(0, 20000))
def test_display_shows_whole_ms_that_never_go_up(game, early, later, skew):
    tc, clock, pause = game
    text = json.dumps({"time_control": tc, "clock": clock, "pause_control": pause})
    assert parse_clock(text) == (tc, clock, pause)
    early, later = min(early, later), max(early, later)
    received = clock["now"] + skew
    first = display(tc, clock, pause, L + early + skew, received)
    second = display(tc, clock, pause, L + later + skew, received)
    for side in ("black", "white"):
        for shown in (first[side], second[side]):
            assert isinstance(shown["ms"], int) and shown["ms"] >= 0
            assert shown["expired"] in (True, False)
            assert shown["mode"] in ("start", "paused", "running", "waiting")
            assert shown["expired"] is False or shown["ms"] == 0
        # As time passes: main time, then periods, then the time in the period only go down.
        assert standing(second[side]) <= standing(first[side])
        if second[side]["mode"] != "running" and second[side]["mode"] != "start":
            assert second[side] == first[side]


def standing(shown):
    return (
        not shown["expired"],
        not shown.get("overtime", False),
        shown.get("periods_left", 0),
        shown["ms"],
    )


IDS = st.sampled_from([1, 2, 3, 1.5, None])
PLAYER = st.fixed_dictionaries(
    {},
    optional=dict(
        (key, GOOD | NUMBERS)
        for key in ("thinking_time", "periods", "period_time", "moves_left", "block_time", "x")
    ),
)
CLOCK = st.fixed_dictionaries(
    {
        "black_time": PLAYER | GOOD | NUMBERS,
        "white_time": PLAYER | GOOD | NUMBERS,
        "current_player": st.sampled_from([1, 2]) | IDS,
        "black_player_id": st.just(1) | IDS,
        "white_player_id": st.just(2) | IDS,
        "last_move": st.just(L) | NUMBERS,
        "now": st.just(L + 5000) | NUMBERS,
    },
    optional={"start_mode": NUMBERS, "expiration": NUMBERS, "paused_since": NUMBERS},
)


@settings(max_examples=1000, deadline=None)
@given(SHAPED, CLOCK)
def test_fuzz_parse_clock(tc, clock):
    text = json.dumps({"time_control": tc, "clock": clock}, allow_nan=True)
    try:
        tc, clock, pause = parse_clock(text)
    except PresetError as error:
        assert str(error).startswith("ogs preset ")
        return
    shown = display(tc, clock, pause, L)
    assert set(shown) == {"black", "white"}
