# Choosing the notation: explicit format, a "name:" prefix, or detection that refuses ambiguity.
from clock.model import BRONSTEIN, FISCHER, FISCHER_AFTER, NEXT, SET, Control, Setup, Stage
from notation import registry
from notation.errors import PresetError
from support import raises

M = 60000


def test_detection_of_unambiguous_texts():
    fide = registry.detect("40/90/30, G/30/30")
    assert fide[0] == "chessclock"
    assert fide[1].first.stages[0] == Stage(90 * M, moves=40, increment_ms=30000, mode=FISCHER)
    assert registry.detect("2/10/100/5/120t")[0] == "arimaa"
    assert registry.detect("30:00,N0//5:00,N10")[0] == "ggs"
    assert registry.detect('[{"duration_ms": 300000, "increment_ms": 3000}]')[0] == "pcn"
    assert registry.detect('{"time_control": "absolute", "total_time": 600}')[0] == "ogs"
    assert registry.detect("40/7200:3600")[0] == "pgn"
    assert registry.detect("tc=40/60+0.5")[0] == "cutechess"
    assert registry.detect("TM[600]OT[5x30 byo-yomi]")[0] == "sgf"
    assert registry.detect("time_settings 600 300 25")[0] == "gtp"


def test_a_prefix_or_a_format_wins():
    # "5+3" would be PGN seconds; named as chessclock it is refused: chessclock needs M/T.
    pgn = registry.parse("300+3", "pgn")
    assert pgn == Setup(Control([Stage(300000, increment_ms=3000, mode=FISCHER_AFTER)]))
    assert registry.parse("pgn:300+3") == pgn
    raises(PresetError, registry.parse, "chessclock:300+3")
    error = raises(PresetError, registry.parse, "pgn:300+3", "sgf")
    assert "says it is pgn" in str(error)


def test_chessclock_options_through_the_registry():
    setup = registry.parse("G/5/3", mode="bronstein", hourglass=True)
    assert setup.first.stages[0].mode == BRONSTEIN and setup.hourglass
    error = raises(PresetError, registry.parse, "40/7200:3600", "pgn", mode="delay")
    assert "chessclock" in str(error)
    raises(PresetError, registry.parse, "G/5/3", mode="sideways")


def test_texts_nobody_reads_get_a_clear_error():
    error = raises(PresetError, registry.parse, "ninety minutes")
    assert "name one with a prefix" in str(error) or "expected" in str(error)
    raises(PresetError, registry.parse, "")
    raises(PresetError, registry.parse, "G/30", "bogus")


def test_same_clock_from_several_notations():
    byoyomi = Setup(
        Control(
            [
                Stage(10 * M, on_expire=NEXT),
                Stage(30000, moves=1, periods=5, on_enter=SET, on_repeat=SET),
            ]
        )
    )
    assert registry.parse("TM[600]OT[5x30 byo-yomi]") == byoyomi
    assert registry.parse("kgs-time_settings byoyomi 600 30 5") == byoyomi
    ogs = '{"time_control": "byoyomi", "main_time": 600, "period_time": 30, "periods": 5}'
    assert registry.parse(ogs) == byoyomi


def test_format_as_round_trips():
    for name, text in (
        ("chessclock", "40/90/30, G/30/30"),
        ("pgn", "40/7200:3600"),
        ("ggs", "2:00:00,40//30:00,0"),
    ):
        setup = registry.parse(text, name)
        assert registry.parse(registry.format_as(name, setup), name) == setup


def test_pcn_in_toml_is_read_where_tomllib_exists():
    text = "[[periods]]\nduration_ms = 300000\nincrement_ms = 3000\n"
    try:
        import tomllib  # noqa: F401
    except ImportError:
        error = raises(PresetError, registry.parse, text, "pcn")
        assert "desktop" in str(error)
        return
    expected = Setup(Control([Stage(300000, increment_ms=3000, on_repeat=SET)]))
    assert registry.parse(text, "pcn") == expected
