# SPDX-License-Identifier: MIT
# Choosing the notation: explicit format, a "name:" prefix, or detection that refuses ambiguity.
from clock.model import BRONSTEIN, FISCHER, FISCHER_AFTER, NEXT, SET, Control, Setup, Stage
from notation import registry
from notation.errors import ZERO_TIME, PresetError
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
    # "300+3" is 300 min + 3 s as players say it; PGN's seconds need the prefix or the format.
    pgn = registry.parse("300+3", "pgn")
    assert pgn == Setup(Control([Stage(300000, increment_ms=3000, mode=FISCHER_AFTER)]))
    assert registry.parse("pgn:300+3") == pgn
    assert registry.parse("chessclock:300+3") == registry.parse("G/300/3")
    error = raises(PresetError, registry.parse, "pgn:300+3", "sgf")
    assert "says it is pgn" in str(error)


def test_plus_without_a_prefix_is_minutes_and_seconds():
    blitz = Setup(Control([Stage(5 * M, increment_ms=3000, mode=FISCHER)]))
    assert registry.detect("5+3") == ("chessclock", blitz)
    for text in ("5+3", "5 min + 3 s/move", "5m + 3s", "5 minutes + 3 seconds"):
        assert registry.parse(text) == blitz, text
    assert registry.parse("5") == registry.parse("chessclock:G/5")
    assert registry.parse("40/90+30, 30+30") == registry.parse("chessclock:40/90/30, G/30/30")
    # PGN's seconds: with the prefix, in the header line, or with a sign only PGN uses.
    assert registry.parse("pgn:300+3") == registry.parse('[TimeControl "300+3"]')
    assert registry.detect('[TimeControl "300+3"]')[1].first.stages[0].duration_ms == 300000
    assert registry.detect("*180")[0] == "pgn"
    assert registry.detect("300+2=180+2")[0] == "pgn"


def test_zero_time_is_refused_alike_in_every_notation():
    for text in (
        "G/0",
        "0",
        "0+0",
        "chessclock:G/0/0 word",
        "arimaa:0/0",
        "pgn:0",
        "pgn:0+0",
        "*0",
        "pgn:300=0",
        "sgf:TM[0]",
        'pcn:[{"duration_ms": 0}]',
        "cutechess:tc=0",
        "cutechess:st=0",
        'ogs:{"time_control": "absolute", "total_time": 0}',
        'ogs:{"time_control": "simple", "per_move": 0}',
        "gtp:time_settings 0 0 0",
        "ggs:0//0",
    ):
        error = raises(PresetError, registry.parse, text)
        assert error.problem == ZERO_TIME, "%s: %s" % (text, error)
        assert error.position is None


def test_what_is_not_zero_time():
    assert registry.parse("pgn:-").first.untimed()
    assert registry.parse("chessclock:G/0/5").first.stages[0].increment_ms == 5000
    assert registry.parse("arimaa:0/30").first.stages[0].duration_ms == 30 * M


def test_a_typo_gets_the_nearest_notations_message():
    for text, notation, position, words in (
        ("5+", "chessclock", 2, "expected an increment"),
        ("40/90+30,", "chessclock", 9, "expected a time (minutes, as in 5+3)"),
        ("15m+10x", "chessclock", 6, "expected a unit (h, min, s)"),
        ("90 min + 30 sek", "chessclock", 12, 'unknown option "sek"'),
        ("5+3 fischer-aftr", "chessclock", 4, 'unknown option "fischer-aftr"'),
        ("40/90/30, X/30", "chessclock", 10, "expected a time"),
        ('[TimeControl "300+3"', "pgn", 20, '"]" closing the tag'),
        ("TM[600]OT[5x30 byo-yomi", "sgf", 9, 'no closing "]"'),
        ("tc=40/60+", "cutechess", 9, "the increment"),
        ("time_settings 600 30", "gtp", 20, "the stones"),
    ):
        error = raises(PresetError, registry.parse, text)
        assert (error.notation, error.position) == (notation, position), str(error)
        assert words in error.problem, str(error)
        assert not str(error).startswith("preset preset"), str(error)


def test_chessclock_options_through_the_registry():
    setup = registry.parse("G/5/3", mode="bronstein", hourglass=True)
    assert setup.first.stages[0].mode == BRONSTEIN and setup.hourglass
    error = raises(PresetError, registry.parse, "40/7200:3600", "pgn", mode="delay")
    assert "chessclock" in str(error)
    raises(PresetError, registry.parse, "G/5/3", mode="sideways")


def test_texts_nobody_reads_get_a_clear_error():
    for text in ("ninety minutes", "x", ""):
        error = raises(PresetError, registry.parse, text)
        assert str(error).startswith('preset "%s": no notation recognises this' % text)
    # PGN reads it in seconds: a hint to its prefix would change what the text means.
    error = raises(PresetError, registry.parse, "300.5+2")
    assert str(error) == (
        'chessclock preset "300.5+2", at character 4: decimal numbers are not allowed; use '
        "unit letters, as in 1m30s"
    )
    error = raises(PresetError, registry.parse, "G/30", "bogus")
    assert str(error).startswith('preset "bogus": unknown format')


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
