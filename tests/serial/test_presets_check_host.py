# SPDX-License-Identifier: MIT
# CPython only: `presets check FILE` prints what the clock will do with every line, in the words
# the clock answers PRESET ADD with; a file with one refusal gets one line for it and exit 2.
from notation.describe import describe
from notation import registry
from sim import serial_cli

CLUB = """# a club's presets, as its notices write them
Classical = 40/90, G/30 +30
Rapid = 15|10
US = G/45 d5
Go = 45m 3x30s
Playoff = armageddon 5/4
Old style = 90/40+30
Menu name = Go 30m + 25/5m
"""


def run(capsys, *argv):
    status = serial_cli.main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out.splitlines(), captured.err.splitlines()


def test_check_prints_each_reading_as_the_clock_gives_it(tmp_path, capsys):
    path = tmp_path / "club.txt"
    path.write_text(CLUB)
    status, out, err = run(capsys, "presets", "check", str(path))
    assert status == 0 and err == []
    assert out == [
        "%s:2: Classical: 90 min + 30 s/move; +30 min after move 40" % path,
        "%s:3: Rapid: 15 min + 10 s/move" % path,
        "%s:4: US: 45 min, delay 5 s/move" % path,
        "%s:5: Go: 45 min; then 3x30 s byo-yomi" % path,
        "%s:6: Playoff: first: 5 min | second: 4 min; armageddon: a draw is a win for the second"
        " player" % path,
        "%s:7: Old style: 90 min + 30 s/move; +90 min every 40 moves" % path,
        "%s:8: Menu name: 30 min; then 25 moves in 5 min" % path,
        "%s: 7 presets, all valid" % path,
    ]
    for line, (number, name, spec, _setup) in zip(out, serial_cli.read_presets(str(path))[0]):
        assert line.endswith(": " + describe(registry.parse(spec), name + " " + spec))


def test_a_refused_line_is_one_line_exit_2_and_nothing_else_is_printed(tmp_path, capsys):
    path = tmp_path / "club.txt"
    path.write_text(CLUB + "Pasted = 300+2\n")
    status, out, err = run(capsys, "presets", "check", str(path))
    assert status == 2 and out == []
    assert err == [
        '%s:9: preset "300+2": 5 h + 2 s a move is longer than any event plays; for 5 min + 2 s'
        " a move (seconds, as PGN and lichess count) write 5+2 (or pgn:300+2); for 5 h write"
        " 300m+2" % path,
        "error: 1 invalid line(s); nothing sent",
    ]
