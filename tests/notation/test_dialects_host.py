# SPDX-License-Identifier: MIT
# CPython only: any control the clock can describe, written in each dialect that can say it, reads
# back as that control; no text of the dialects crashes a parser or gets a refusal of two lines.
from hypothesis import given, settings
from hypothesis import strategies as st

from clock.model import ADD, BRONSTEIN, DELAY, FISCHER, FLAG, NEXT, SET
from clock.model import Control, Setup, Stage
from notation import go, plausible, registry
from notation.describe import describe
from notation.errors import PresetError
import fuzzing

MIN = 60000
SEC = 1000


def chess(stages):
    return Setup(Control(stages))


def phase(minutes, moves=0, increment=0, mode=FISCHER):
    return Stage(minutes * MIN, moves=moves, increment_ms=increment * SEC, mode=mode)


def one_phase_texts(b, i, mode):
    """Every dialect's way to write b minutes + i seconds in `mode`."""
    if mode == FISCHER:
        texts = ["%d+%d" % (b, i), "%d|%d" % (b, i), "%d | %d" % (b, i)]
        if plausible.doubt(
            "chessclock", texts[0]
        ):  # "180+2": plain numbers cannot say it; a unit can
            texts = ["%dm+%d" % (b, i), "%dm|%d" % (b, i)]
        texts += ["%d'+%d''" % (b, i)]
        texts += ["%d' + %d\"" % (b, i), "G/%d+%d" % (b, i), "SD/%d +%d" % (b, i)]
        texts += ["fischer %d %d" % (b, i), "%d min + %d sec / move" % (b, i)]
        texts += ["%dm + %ds" % (b, i), "G/%d/%d" % (b, i)]
        if i:
            texts += ["G/%d;inc%d" % (b, i), "SD/%d; inc %d" % (b, i)]
        return texts
    if mode == BRONSTEIN:
        return ["bronstein %d %d" % (b, i), "G/%d/%d bronstein" % (b, i)]
    texts = ["delay %d %d" % (b, i), "G/%d/%d delay" % (b, i)]
    if i:
        texts += ["G/%d d%d" % (b, i), "G/%d;d%d" % (b, i), "SD/%d d%d" % (b, i)]
        texts += ["%d+%dd" % (b * 60, i)]  # lichess-like seconds with a delay suffix
    return texts


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 180), st.integers(0, 60), st.sampled_from([FISCHER, BRONSTEIN, DELAY]))
def test_one_phase_in_every_dialect_reads_back(b, i, mode):
    expected = chess([phase(b, increment=i, mode=mode)])
    for text in one_phase_texts(b, i, mode):
        setup = registry.parse(text)
        assert setup == expected, "%s: %s" % (text, describe(setup))


@settings(max_examples=300, deadline=None)
@given(st.integers(20, 60), st.integers(1, 180), st.integers(1, 60), st.integers(1, 60))
def test_fide_and_us_controls_with_an_increment_from_move_1_read_back(quota, b1, b2, i):
    expected = chess([phase(b1, quota, i), phase(b2, 0, i)])
    texts = ["%d/%d, G/%d +%d" % (quota, b1, b2, i), "%d/%d, SD/%d; inc%d" % (quota, b1, b2, i)]
    texts += [
        "%d/%d+%d, %d+%d" % (quota, b1, i, b2, i),
        "%d/%d/%d, G/%d/%d" % (quota, b1, i, b2, i),
    ]
    texts += ["%d/%d', G/%d' +%d''" % (quota, b1, b2, i)]
    if b1 > 60:
        texts.append("%d/%d+%d, %d+%d" % (b1, quota, i, b2, i))  # time first: 90/40
    for text in texts:
        assert registry.parse(text) == expected, text
    delayed = chess([phase(b1, quota, i, DELAY), phase(b2, 0, i, DELAY)])
    assert registry.parse("%d/%d, SD/%d d%d" % (quota, b1, b2, i)) == delayed


def go_setup(main_min, stage):
    stages = [Stage(main_min * MIN, on_expire=NEXT)] if main_min else []
    return Setup(Control(stages + [stage]))


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 180), st.integers(1, 10), st.integers(5, 120))
def test_byoyomi_in_the_go_club_forms_reads_back(main, periods, period_s):
    expected = go_setup(
        main, Stage(period_s * SEC, moves=1, periods=periods, on_enter=SET, on_repeat=SET)
    )
    head = ["%dm " % main, "%d min + " % main, "%dm+" % main] if main else [""]
    for start in head:
        for tail in ("%dx%ds", "%dx%d byo-yomi", "%dx%d"):
            text = start + tail % (periods, period_s)
            assert registry.parse(text) == expected, text
    assert registry.parse("go:" + go.format(expected)) == expected


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 180), st.integers(5, 40), st.integers(1, 30))
def test_canadian_in_the_go_club_forms_reads_back(main, stones, block_min):
    expected = go_setup(main, Stage(block_min * MIN, moves=stones, on_enter=SET, on_repeat=SET))
    for text in (
        "%dm %d/%dm" % (main, stones, block_min),
        "%d min + %d/%d canadian" % (main, stones, block_min),
        "%dm %d/%ds" % (main, stones, block_min * 60),
    ):
        assert registry.parse(text) == expected, text
    assert registry.parse("go:" + go.format(expected)) == expected


TOKENS = (
    "3", "5", "10", "40", "90", "300", "0", "|", " | ", "+", " + ", "'", "''", '"', ";", " ",
    "G/", "SD/", "/", ",", ", ", "d5", " d", "inc30", "inc", "x", "3x30s", "25/5m", "m", "s",
    " min", " sec", "/move", " / move", "fischer ", "bronstein ", "delay ", "armageddon ",
    " byo-yomi", " canadian", "Blitz 5+3", "FIDE classical", "0.5", ".", "h", "5d", "0/0/0",
)  # fmt: skip
ALPHABET = "0123456789|+'\";/,. xdGSDhmsincabo"


@settings(max_examples=1000, deadline=None)
@given(fuzzing.texts(TOKENS, ALPHABET))
def test_no_dialect_text_crashes_and_every_refusal_is_one_line(text):
    try:
        setup = registry.parse(text)
    except PresetError as error:
        assert "\n" not in str(error)
        assert error.position is None or 0 <= error.position <= len(text)
        return
    assert isinstance(setup, Setup)
    assert "\n" not in describe(setup, text)


@settings(max_examples=1000, deadline=None)
@given(fuzzing.texts(TOKENS, ALPHABET))
def test_the_go_notation_reads_or_refuses_and_what_it_reads_round_trips(text):
    fuzzing.check(go, text)
