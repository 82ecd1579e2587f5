# SPDX-License-Identifier: MIT
# Time controls as people write them (docs/time-controls.md, "Dialects"): each form read without a
# prefix as its author meant, checked on the clock after the first player's first move.
from clock.model import DELAY, FISCHER, FISCHER_AFTER, Control, Setup, Stage
from notation import registry
from notation.describe import describe
from notation.errors import PresetError
from play import moves, shown, start
from support import raises

SEC = 1000
MIN = 60000
BYOYOMI_45_3x30 = (
    'ogs:{"time_control": "byoyomi", "main_time": 2700, "period_time": 30, "periods": 3}'
)

# (text, the same control written in a notation the clock read before, the first player's time
# after a first move of 10 s)
FORMS = (
    ("3|2", "G/3/2", 172 * SEC),  # Fischer (before): 180 + 2 - 10
    ("10 | 5", "G/10/5", 595 * SEC),
    ("15|0", "G/15", 890 * SEC),
    ("90'+30''", "G/90/30", 5420 * SEC),
    ("15' + 10\"", "G/15/10", 900 * SEC),
    ("G/45 d5", "G/45/5 delay", 2695 * SEC),  # US delay: 2700 - (10 - 5)
    ("G/5 d5", "G/5/5 delay", 295 * SEC),
    ("G/30;d5", "G/30/5 delay", 1795 * SEC),
    ("G/60;inc30", "G/60/30", 3620 * SEC),
    ("SD/30", "G/30", 1790 * SEC),
    ("40/120, SD/30", "40/120, G/30", 7190 * SEC),
    ("40/120, SD/30 d5", "40/120/5, G/30/5 delay", 7195 * SEC),
    ("40/90, SD/30; inc30", "40/90/30, G/30/30", 5420 * SEC),
    ("90 min + 30 sec / move", "G/90/30", 5420 * SEC),
    ("45m 3x30s", BYOYOMI_45_3x30, 2690 * SEC),
    ("45 min 3x30 byo-yomi", BYOYOMI_45_3x30, 2690 * SEC),
    (
        "1h + 5x60s",
        'ogs:{"time_control": "byoyomi", "main_time": 3600, "period_time": 60, "periods": 5}',
        3590 * SEC,
    ),
    (
        "60m 5x30s",
        'ogs:{"time_control": "byoyomi", "main_time": 3600, "period_time": 30, "periods": 5}',
        3590 * SEC,
    ),
    (
        "20m 25/5m",
        'ogs:{"time_control": "canadian", "main_time": 1200, "period_time": 300, '
        '"stones_per_period": 25}',
        1190 * SEC,
    ),
    (
        "10m 20/5m",
        "gtp:time_settings 600 300 20",
        590 * SEC,
    ),
    ("fischer 10 5", "G/10/5", 595 * SEC),
    ("bronstein 3 2", "G/3/2 bronstein", 172 * SEC),  # 180 - 10 + min(10, 2)
    ("delay 5 2", "G/5/2 delay", 292 * SEC),
    ("armageddon 5/4", "pgn:300=240", 290 * SEC),
    ("300+5d", "pgn:300S5", 295 * SEC),
    ("5+0.5", "pgn:300+0.5", 2905 * SEC // 10),  # 300 + 0.5 - 10, Fischer (before)
    # The two silent misreadings, read now as their authors mean them: 30 s from move 1 ...
    ("40/90, G/30 +30", "40/90/30, G/30/30", 5420 * SEC),
    ("40/90, 30+30", "40/90/30, G/30/30", 5420 * SEC),
    # ... and 90 min for 40 moves.
    ("90/40+30", "40/90/30", 5420 * SEC),
    ("120/40, G/15 +30", "40/120/30, G/15/30", 7220 * SEC),
)


def test_every_form_reads_as_its_author_meant_it_after_the_first_move():
    for text, same, after in FORMS:
        setup = registry.parse(text)
        expected = registry.parse(same)
        if setup.first.stages[0].increment_ms and same.startswith("pgn:300+"):
            # PGN increments come after the move; the players' "+" before it.
            assert setup.first.stages[0].mode == FISCHER, text
        else:
            assert setup == expected, "%s: %s" % (text, describe(setup))
        game = start(setup)
        now = moves(game, [10 * SEC], 0)
        assert shown(game, 0, now) == after, "%s: %d" % (text, shown(game, 0, now))


def test_armageddon_gives_the_second_player_less_and_says_the_draw_odds():
    setup = registry.parse("armageddon 5/4")
    game = start(setup)
    now = moves(game, [10 * SEC, 20 * SEC], 0)
    assert shown(game, 1, now) == 220 * SEC
    assert describe(setup, "armageddon 5/4") == (
        "first: 5 min | second: 4 min; armageddon: a draw is a win for the second player"
    )
    assert registry.parse("Armageddon 4m30s/4") == Setup(
        Control([Stage(270 * SEC)]), Control([Stage(4 * MIN)])
    )


def test_fide_armageddon_with_an_increment_from_move_1():
    # FIDE's tie-break: White 5 min, Black 4, 2 s a move for both; Fischer as "5+2" is.
    for text in ("armageddon 5/4 +2", "Armageddon 5/4+2", "armageddon 5/4 + 2 s/move"):
        setup = registry.parse(text)
        assert setup == Setup(registry.parse("G/5/2").first, registry.parse("G/4/2").first), text
    setup = registry.parse("armageddon 5/4 +2")
    game = start(setup)
    now = moves(game, [10 * SEC, 20 * SEC], 0)
    assert shown(game, 0, now) == 294 * SEC  # 300 + 2 - 10, and the next move's 2 s
    assert shown(game, 1, now) == 222 * SEC  # 240 + 2 - 20
    assert describe(setup, "armageddon 5/4 +2") == (
        "first: 5 min + 2 s/move | second: 4 min + 2 s/move;"
        " armageddon: a draw is a win for the second player"
    )
    assert registry.format_as("chessclock", setup) == "armageddon 5/4 +2"
    delayed = registry.parse("armageddon 5/4 +2 delay")
    assert delayed.first == registry.parse("G/5/2 delay").first
    assert registry.format_as("chessclock", delayed) == "armageddon 5/4 +2 delay"
    error = raises(PresetError, registry.parse, "chessclock:armageddon 5/4 delay")
    assert "written +2, as in armageddon 5/4 +2" in str(error)


def test_the_trailing_increment_is_from_move_1_only_when_no_phase_has_one():
    # "+0" on the first phase says it has none: the 30 s come with phase 2 only.
    setup = registry.parse("40/90+0, G/30+30")
    assert [s.increment_ms for s in setup.first.stages] == [0, 30 * SEC]
    setup = registry.parse("40/90/0, G/30/30")
    assert [s.increment_ms for s in setup.first.stages] == [0, 30 * SEC]
    game = start(registry.parse("40/90, G/30 +30"))
    now = moves(game, [10 * SEC] * 79, 0)  # the first player's 40th move ends the quota
    assert shown(game, 0, now) == (90 * 60 + 30 * 60 + 40 * 20) * SEC


def test_a_quota_over_60_moves_is_read_as_minutes_only_in_plain_numbers():
    assert registry.parse("90/40") == registry.parse("40/90")
    assert registry.parse("90/40m").first.stages[0].moves == 90  # a unit says which is which
    assert registry.parse("200/40").first.stages[0].moves == 200  # 200 min is no one's first
    assert registry.parse("60/40").first.stages[0].moves == 60


def test_a_pcn_record_without_elapsed_times_and_aei_all_zero():
    record = (
        '{"periods": [{"duration_ms": 300000, "increment_ms": 3000}], "plies": [{"pmn": "e2-e4"}]}'
    )
    assert registry.parse(record) == registry.parse("pgn:300+3")
    untimed = registry.parse("0/0/0")
    assert untimed.first.untimed() and untimed.second.untimed()
    assert registry.parse("0/0/0/0") == untimed
    assert registry.format_as("arimaa", untimed) == "0/0/0"


def test_factory_names_as_the_menu_shows_them_read_as_their_presets():
    from app.presets import DEFAULTS

    for name, spec in DEFAULTS:
        for typed in (name, name.upper(), "  " + name.replace(" ", "  ") + " "):
            assert registry.parse(typed) == registry.parse(spec), typed
    assert registry.parse("go 30m 5x30s byoyomi") == registry.parse("30m 5x30s")
    assert registry.parse("Blitz 5+3") == registry.parse("5+3")
    assert registry.parse("FIDE classical") == registry.parse("40/90, G/30 +30")
    assert registry.parse("US delay G/5 d5") == registry.parse("G/5 d5")


def test_what_reads_today_reads_the_same():
    for text, same in (
        ("5+3", "G/5/3"),
        ("90+30", "G/90/30"),
        ("40/90+30, 30+30", "40/90/30, G/30/30"),
        ("180+30", "G/180/30"),
        ("180+0", "G/180"),
        ("40/60, 20/10", "chessclock:40/60, 20/10"),
        ("pgn:300+2", "pgn:300+2"),
        ("chessclock:300+2", "G/300/2"),
        ("300", "G/300"),
        ("25/5", "chessclock:25/5"),
        ("*180", "pgn:*180"),
    ):
        assert registry.parse(text) == registry.parse(same), text


def asked(text, *words):
    error = raises(PresetError, registry.parse, text)
    message = str(error)
    assert "\n" not in message, message
    for word in words:
        assert word in message, message
    return error


def test_a_reading_far_from_any_event_is_asked_about_with_both_readings():
    error = asked("300+2", "5 h + 2 s", "5 min + 2 s", "write 5+2", "300m+2")
    assert error.position is None
    assert registry.parse("5+2") == registry.parse("G/5/2")
    assert registry.parse("300m+2") == registry.parse("G/300/2")
    asked("300|2", "5 h", "write 5|2")
    # lichess's 3+2 and 2+1 pasted in seconds: no game of hours gives 1 or 2 s a move.
    asked("180+2", "3 h + 2 s a move is no event's control", "write 3+2", "180m+2")
    asked("120+1", "write 2+1", "120m+1")
    assert registry.parse("180m+2") == registry.parse("G/180/2")
    assert registry.parse("60+5") == registry.parse("G/60/5")  # as US events play
    asked("200 + 2", "3 h 20 min", "3 min 20 s", "3m20s+2")
    asked("5+900", "15 min a move", "5+900s")
    assert registry.parse("5+900s").first.stages[0].increment_ms == 900 * SEC
    asked("5+3d", "5 s with a 3 s delay", "300+3d", "G/5 d3")
    asked("20m 25/300", "300 min", "25/300s")
    assert registry.parse("20m 25/300s") == registry.parse("20m 25/5m")


def test_a_chess_control_mistyped_as_arimaa_is_asked_about():
    # Four numbers read as Arimaa's M/R/P/L: 90 minutes a move, which no Arimaa event gives.
    asked("90/30/40/2", "read as Arimaa", "90 min a move", "arimaa:90/30/40/2", "40/90+30")
    assert registry.parse("arimaa:90/30/40/2").first.move_ms == 90 * 60 * SEC
    assert registry.parse("2/2/100/10/8").first.move_ms == 2 * 60 * SEC  # an event's: read
    assert registry.parse("0:30/5/100/3").first.move_ms == 30 * SEC


def test_errors_come_from_the_notation_the_text_resembles_and_point_at_the_character():
    for text, notation, position, words in (
        ("150h", "chessclock", 0, "more than the clock can hold"),
        ("300.5+2", "chessclock", 3, "decimal numbers are not allowed"),
        ("3|x", "chessclock", 2, "expected an increment"),
        ("G/45 d", "chessclock", 5, 'unknown option "d"'),
        ("G/45 d5 bronstein", "chessclock", 8, "only one mode"),
        ("40/90+30, SD/30 d5", "chessclock", 16, "an increment is given for a phase already"),
        ("45m 3x", "chessclock", 5, "expected"),
        ("45m 3x30s japan", "go", 10, "the word byo-yomi"),
        ("armageddon 5", "chessclock", 12, '"/" and the second player'),
        ("fischer 10 5 bronstein", "chessclock", 13, "only one mode"),
        ("FISCHER 10 5 d5", "chessclock", 13, "only one increment, delay or mode"),
    ):
        error = raises(PresetError, registry.parse, text)
        assert (error.notation, error.position) == (notation, position), str(error)
        assert words in error.problem, str(error)
        assert "pgn:" not in str(error), str(error)  # never a prefix that reads it in seconds


def test_every_form_round_trips_through_the_notation_that_read_it():
    # preset -> the notation's own text -> preset, and the same words on the menu either way.
    for text, _same, _after in FORMS:
        name, setup = registry.detect(text)
        written = registry.format_as(name, setup)
        assert registry.parse(name + ":" + written) == setup, (text, written)
        assert describe(registry.parse(name + ":" + written)) == describe(setup)
