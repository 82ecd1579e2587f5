# CPython only: the PGN parser never crashes, and what it reads or formats survives a round trip.
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from clock.model import ADD, BRONSTEIN, DELAY, FISCHER, FISCHER_AFTER, FLAG, NEXT, SET, SOFT
from clock.model import ClockError, Control, Setup, Stage
from notation import pgn
from notation.errors import PresetError

TOKENS = (
    "0", "1", "2", "30", "40", "300", "7200", "0.5", "1.25", "1.0001", "99999999999",
    "/", ":", "+", "S", "B", "*", "=", "-", "?", ".", " ", '"', "[TimeControl ", "]", "x",
)  # fmt: skip
ALPHABET = '0123456789/:+SB*=-?. []"TimeControl'


def texts():
    tokens = st.lists(st.sampled_from(TOKENS), max_size=16).map("".join)
    return st.one_of(st.text(max_size=40), st.text(alphabet=ALPHABET, max_size=30), tokens)


def field():
    moves = st.sampled_from(["", "", "1/", "40/", "20/", "0/", "100001/"])
    seconds = st.sampled_from(["0", "1", "60", "300", "7200", "0.5", "12.125", "600000"])
    extra = st.sampled_from(["", "", "+0", "+2", "+30", "+0.5", "S5", "B5", "+0S3", "+1B1"])
    return st.tuples(moves, seconds, extra).map("".join)


def sides():
    fields = st.lists(field(), min_size=1, max_size=5).map(":".join)
    return st.one_of(fields, st.sampled_from(["-", "*180", "*0.5", "?"]))


def values():
    one = sides()
    two = st.tuples(sides(), sides()).map("=".join)
    plain = st.one_of(one, two)
    return st.one_of(plain, plain.map(lambda value: '[TimeControl "%s"]' % value))


def check(text):
    try:
        result = pgn.parse(text)
    except PresetError as error:
        assert error.notation == "pgn"
        assert error.position is None or 0 <= error.position <= len(text)
        return None
    assert isinstance(result, Setup)
    again = pgn.format(result)
    assert pgn.parse(again) == result
    assert pgn.format(pgn.parse(again)) == again
    return result


@settings(max_examples=10000, deadline=None)
@given(st.one_of(texts(), values()))
def test_fuzz_parse_returns_setup_or_preset_error(text):
    check(text)


@settings(max_examples=2000, deadline=None)
@given(values())
def test_well_shaped_values_round_trip(text):
    check(text)


def make_stage(fields):
    duration, moves, increment, mode, every, periods, enter, repeat, expire = fields
    try:
        return Stage(duration, moves, increment, mode, every, periods, enter, repeat, expire)
    except ClockError:
        return None


def stages():
    stage = st.tuples(
        st.sampled_from([0, 1, 500, 60000, 300000, 7200000]),
        st.sampled_from([0, 0, 1, 40]),
        st.sampled_from([0, 0, 5, 2000]),
        st.sampled_from([FISCHER, FISCHER_AFTER, FISCHER_AFTER, BRONSTEIN, DELAY]),
        st.sampled_from([1, 1, 1, 2]),
        st.sampled_from([1, 1, 1, 3]),
        st.sampled_from([ADD, ADD, SET]),
        st.sampled_from([ADD, ADD, SET]),
        st.sampled_from([FLAG, FLAG, NEXT, SOFT]),
    ).map(make_stage)
    return st.lists(stage.filter(lambda value: value is not None), max_size=4)


@settings(max_examples=2000, deadline=None)
@given(stages(), stages(), st.booleans(), st.booleans(), st.sampled_from([0, 0, 0, 1000]))
def test_format_says_the_setup_exactly_or_refuses(first, second, hourglass, same, start):
    try:
        control = Control(first)
        setup = Setup(control, control if same else Control(second), hourglass, start_ms=start)
    except ClockError:
        assume(False)
    try:
        text = pgn.format(setup)
    except PresetError as error:
        assert error.notation == "pgn" and "PGN cannot say" in str(error)
        return
    assert pgn.parse(text) == setup
