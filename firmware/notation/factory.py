# SPDX-License-Identifier: MIT
# The factory presets: (the name the menu shows, the text), in menu order. The notations read a
# name back as its preset, so the table lives here, with no import of the app.

DEFAULTS = (
    ("Blitz 5+3", "chessclock:G/5/3"),
    ("Rapid 15+10", "chessclock:G/15/10"),
    ("FIDE classical", "chessclock:40/90/30, G/30/30"),
    ("Blitz 3+2", "chessclock:G/3/2"),
    ("Bullet 1+0", "chessclock:G/1"),
    ("US delay G/5 d5", "chessclock:G/5/5 delay"),
    ("Bronstein G/25 +5", "chessclock:G/25/5 bronstein"),
    ("Armageddon 5/4", "pgn:300=240"),
    ("Hourglass 3 min", "chessclock:G/3 hourglass"),
    (
        "Go 30m 5x30s byoyomi",
        'ogs:{"time_control": "byoyomi", "main_time": 1800, "period_time": 30, "periods": 5}',
    ),
    (
        "Go 30m + 25/5m",
        'ogs:{"time_control": "canadian", "main_time": 1800, "period_time": 300, "stones_per_period": 25}',
    ),
    (
        "Go Fischer 10m+20s",
        'ogs:{"time_control": "fischer", "initial_time": 600, "time_increment": 20, "max_time": 1200}',
    ),
    ("Shogi 10m + 30s", 'pcn:[{"duration_ms": 600000}, {"duration_ms": 30000, "plies": 1}]'),
    ("Othello 30 min", "ggs:30:00,0//2:00,0"),
    ("Othello 5 min + 1", "ggs:5:00//1:00"),
    ("Arimaa 30s/5m", "arimaa:30s/5/100/10"),
)
