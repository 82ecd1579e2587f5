# SPDX-License-Identifier: MIT
# The host tool against the app served on a pseudo-terminal (`python -m sim.serial_cli serve
# --pty` in a subprocess), through pyserial: presets files, listing, garbage, a running game.
import json
import os
import random
import select
import subprocess
import sys
import time

import pytest
import serial

from sim import presets_file, serial_cli
from sim.pty_serial import PtySerial

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Served:
    def __init__(self, *options):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "sim.serial_cli", "serve", "--pty", "--keys", *options],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.path, self.preset = self._header()

    def _header(self):
        """The two lines serve prints when ready: `serial: PATH`, `preset: NAME`."""
        out = self.process.stdout.fileno()
        text = b""
        deadline = time.monotonic() + 10
        while text.count(b"\n") < 2:
            left = deadline - time.monotonic()
            assert left > 0 and select.select([out], [], [], left)[0], "serve printed nothing"
            chunk = os.read(out, 1024)
            assert chunk, self.process.stderr.read().decode()
            text += chunk
        lines = text.decode().splitlines()
        assert lines[0].startswith("serial: ") and lines[1].startswith("preset: "), lines
        return lines[0][8:], lines[1][8:]

    def key(self, name):
        self.process.stdin.write(name.encode() + b"\n")
        self.process.stdin.flush()

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)


@pytest.fixture
def clock():
    served = Served()
    yield served
    served.stop()


def run(capsys, *argv):
    status = serial_cli.main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out.splitlines(), captured.err.splitlines()


def state(path):
    link = serial_cli.Link(path, timeout=5)
    try:
        lines, final = link.command("STATE")
    finally:
        link.close()
    assert final.startswith("OK {"), final
    return json.loads(final[3:])


def write_presets(tmp_path, text):
    path = tmp_path / "presets.txt"
    path.write_text(text)
    return str(path)


GOOD = """# club presets
FIDE classical 2 = chessclock:40/90/30, G/30/30

Blitz 3+2 club = G/3/2
Go byoyomi = sgf:TM[1800]OT[5x30 byo-yomi]
"""


def test_a_presets_file_is_sent_line_by_line_and_listed(clock, capsys, tmp_path):
    status, out, err = run(
        capsys, "presets", "send", write_presets(tmp_path, GOOD), "--port", clock.path
    )
    assert status == 0, err
    assert out[0].endswith(
        "presets.txt:2: OK added 17 FIDE classical 2: 90 min + 30 s/move; +30 min after move 40"
    )
    assert out[1].endswith("presets.txt:4: OK added 18 Blitz 3+2 club: 3 min + 2 s/move")
    assert "presets.txt:5: OK added 19 Go byoyomi" in out[2]
    assert out[-1] == "3 added, 0 replaced, 0 refused"
    status, out, _ = run(capsys, "presets", "list", "--port", clock.path)
    assert status == 0
    assert out[16:] == [
        "17 FIDE classical 2 = chessclock:40/90/30, G/30/30",
        "18 Blitz 3+2 club = chessclock:G/3/2",  # stored with its notation's prefix
        "19 Go byoyomi = sgf:TM[1800]OT[5x30 byo-yomi]",
        "OK 19 presets",
    ]


def test_a_file_sent_again_replaces_its_presets_and_says_so(clock, capsys, tmp_path):
    path = write_presets(tmp_path, GOOD)
    assert run(capsys, "presets", "send", path, "--port", clock.path)[0] == 0
    path = write_presets(tmp_path, GOOD + "Blitz 4+2 club = G/4/2\n")
    status, out, err = run(capsys, "presets", "send", path, "--replace", "--port", clock.path)
    assert status == 0, err
    assert out[0].endswith(
        "presets.txt:2: OK replaced 17 FIDE classical 2: 90 min + 30 s/move;"
        " +30 min after move 40"
    )
    assert out[-1] == "1 added, 3 replaced, 0 refused"
    assert run(capsys, "presets", "list", "--port", clock.path)[1][-1] == "OK 20 presets"


def test_an_invalid_file_lists_every_bad_line_and_sends_nothing(clock, capsys, tmp_path):
    text = GOOD + "no equals sign\nBad = chessclock:40/90/30, X/30\n" + "x" * 30 + " = G/5\n"
    text += "Blitz 3+2 club = G/3/3\nToml = pcn:periods = [{duration_ms = 60000}]\n"
    status, out, err = run(
        capsys, "presets", "send", write_presets(tmp_path, text), "--port", clock.path
    )
    assert status == 2 and out == []
    assert [line.split(":")[1] for line in err[:-1]] == ["6", "7", "8", "9", "10"]
    assert err[0].endswith("expected 'name = spec'")
    assert "at character 11" in err[1] and "1 to 24 characters" in err[2]
    assert "is on line 4 already" in err[3] and "TOML is read on the desktop" in err[4]
    assert err[-1] == "error: 5 invalid line(s); nothing sent"
    assert run(capsys, "presets", "list", "--port", clock.path)[1][-1] == "OK 16 presets"


def test_a_refusal_by_the_clock_exits_1(clock, capsys, tmp_path):
    clock.key("s")  # SET opens the preset menu: the clock refuses changes until it closes
    deadline = time.monotonic() + 5
    while state(clock.path)["state"] != "menu":
        assert time.monotonic() < deadline
    status, out, _ = run(
        capsys, "presets", "send", write_presets(tmp_path, GOOD), "--port", clock.path
    )
    assert status == 1
    assert out[0].endswith(": ERR close the menu on the clock first")
    assert out[-1] == "0 added, 0 replaced, 3 refused"


def test_garbage_is_answered_with_errors_and_the_game_runs_on(clock, capsys):
    clock.key("r")  # the right lever starts the game
    deadline = time.monotonic() + 5
    while state(clock.path)["state"] != "running":
        assert time.monotonic() < deadline
    rng = random.Random(6)
    port = serial.Serial(clock.path, 115200, timeout=0.1)
    port.write(rng.randbytes(3000) + b"\x03\x00 PRESET USE 2\n" + b"Q" * 5000 + b"\n")
    port.write(b"PRESET USE 2\nSTATE\n")
    lines = []
    deadline = time.monotonic() + 5
    while not (lines and lines[-1].startswith("OK {")):
        assert time.monotonic() < deadline, lines
        line = port.readline().decode("ascii", "replace").strip()
        if line:
            lines.append(line)
    port.close()
    assert all(line.startswith("ERR ") for line in lines[:-1])
    assert "ERR line too long (max 250 bytes)" in lines
    assert lines[-2] == "ERR a game is in progress: finish it or start a new one first"
    now = json.loads(lines[-1][3:])
    assert now["state"] == "running" and now["chosen"] == 1 and now["left"]["running"]
    status, out, err = run(capsys, "command", "--port", clock.path, "HELP")
    assert status == 0 and out[-1] == "OK 20 commands"
    status, out, err = run(capsys, "command", "--port", clock.path, "REPL")
    assert status == 1 and err == ["ERR no REPL to go to here"]  # the simulator has none


def test_a_clock_that_does_not_answer_and_a_port_that_is_not_there(capsys):
    silent = PtySerial()  # a port nobody serves
    try:
        status, _, err = run(capsys, "command", "--port", silent.path, "--timeout", "0.3", "PING")
    finally:
        silent.close()
    assert status == 1 and "no answer to PING" in err[0]
    status, _, err = run(capsys, "presets", "list", "--port", "/dev/no-such-clock")
    assert status == 1 and err[0].startswith("error: cannot open /dev/no-such-clock")


def check(name, spec):
    """What the host tool finds wrong with `PRESET ADD name = spec`, or None."""
    return presets_file.check_entry(name, spec, serial_cli.parse_as_board)[0]


def test_check_says_what_the_board_would_refuse():
    assert check("Short", "G/5/3") is None
    assert "printable ASCII" in check("Blitz ä", "G/5/3")
    long_spec = "pcn:[" + ", ".join(['{"duration_ms": 60000}'] * 12) + "]"
    assert "the clock takes 250" in check("Long", long_spec)
    assert "TOML" in check("Toml", "pcn:periods = [{duration_ms = 60000}]")
    assert "tomllib" not in sys.modules or sys.modules["tomllib"] is not None


def test_serve_refuses_an_unknown_board_and_a_bad_preset():
    for options, message in (
        (["--board", "nope"], "unknown board"),
        (["--preset", "G/5x"], "G/5x"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "sim.serial_cli", "serve", "--pty", *options],
            cwd=ROOT,
            capture_output=True,
            timeout=20,
        )
        assert done.returncode == 2 and message in done.stderr.decode()


def test_serve_with_a_board_and_a_preset():
    served = Served("--board", "pico_tm1637", "--preset", "G/15/10")
    try:
        assert served.preset == "Simulator"
        now = state(served.path)
        assert now["spec"] == "chessclock:G/15/10" and now["left"]["remaining_ms"] == 15 * 60000
    finally:
        served.stop()


def backup(capsys, path, tmp_path, name):
    """`presets list` of the clock on `path`, saved as a file as a shell would: its path."""
    status, out, err = run(capsys, "presets", "list", "--port", path)
    assert status == 0, err
    saved = tmp_path / name
    saved.write_text("\n".join(out) + "\n")
    return str(saved)


def test_a_presets_list_backup_sent_back_restores_the_same_list(clock, capsys, tmp_path):
    run(capsys, "presets", "send", write_presets(tmp_path, GOOD), "--port", clock.path)
    run(capsys, "command", "--port", clock.path, "PRESET DEL 1")  # a default gone: 18 left
    run(capsys, "command", "--port", clock.path, "PRESET ADD Blitz 5+3 = G/5/2")  # now last
    saved = backup(capsys, clock.path, tmp_path, "backup.txt")
    listed = open(saved).read().splitlines()
    assert listed[0] == "1 Rapid 15+10 = chessclock:G/15/10"
    assert listed[-2:] == ["19 Blitz 5+3 = chessclock:G/5/2", "OK 19 presets"]
    status, out, err = run(capsys, "presets", "check", saved)
    assert status == 0 and out[-1] == "%s (a `presets list` backup): 19 presets, all valid" % saved
    assert out[-2] == "%s:19: Blitz 5+3: 5 min + 2 s/move" % saved and len(out) == 20
    other = Served()  # a fresh clock: the 16 defaults, in their order
    try:
        run(capsys, "command", "--port", other.path, "PRESET ADD Extra = G/7")
        status, out, err = run(capsys, "presets", "send", saved, "--port", other.path)
        assert status == 0, err
        assert out[-1] == "restored: the clock's 19 presets are the backup's"
        again = backup(capsys, other.path, tmp_path, "again.txt")
        assert open(again).read().splitlines() == listed
    finally:
        other.stop()
    status, out, err = run(capsys, "presets", "send", saved, "--port", clock.path)
    assert status == 0 and out[-1].startswith("restored")  # onto itself: nothing changes
    assert open(backup(capsys, clock.path, tmp_path, "same.txt")).read().splitlines() == listed


def test_a_backup_that_does_not_add_up_is_refused_and_a_plain_file_stays_plain(tmp_path):
    text = "1 Blitz = G/5\n3 Rapid = G/15/10\nOK 3 presets\n"
    entries, problems, listing = serial_cli.read_presets(write_presets(tmp_path, text))
    assert listing and [number for number, _ in problems] == [2, 3]
    assert "expected preset number 2" in problems[0][1] and "says 3 presets" in problems[1][1]
    text = "40 moves in 2h = 40/120, G/30\n"  # a name that starts with a number
    entries, problems, listing = serial_cli.read_presets(write_presets(tmp_path, text))
    assert (
        not listing
        and not problems
        and [entry[:3] for entry in entries] == [(1, "40 moves in 2h", "40/120, G/30")]
    )


def test_more_presets_than_the_clock_keeps_are_refused_before_sending(clock, capsys, tmp_path):
    lines = ["Club %d = G/%d" % (number, number) for number in range(1, 42)]
    path = write_presets(tmp_path, "\n".join(lines))
    status, out, err = run(capsys, "presets", "check", path)
    assert status == 2 and err[0].endswith(
        "presets.txt:41: a 41st preset: the clock keeps 40 at most"
    )
    path = write_presets(tmp_path, "\n".join(lines[:25]))  # 16 on the clock + 25 new
    status, out, err = run(capsys, "presets", "send", path, "--port", clock.path)
    assert status == 1 and out == []
    assert err == [
        "error: the clock holds 16 presets and 25 of these are new: more than the 40 it keeps;"
        " nothing sent (PRESET DEL <n> makes room)"
    ]
    assert run(capsys, "presets", "list", "--port", clock.path)[1][-1] == "OK 16 presets"


def test_check_and_the_clock_agree_on_names_the_file_cannot_keep(tmp_path, capsys):
    assert "a name does not start with '#'" in check("#1 club", "25+10")
    assert check("Club #1", "25+10") is None
    path = tmp_path / "club.txt"
    path.write_text("Club #1 = 25+10\n#2 club = 25+10\n")  # the second line is a comment
    status, out, err = run(capsys, "presets", "check", str(path))
    assert status == 0 and out[-1] == "%s: 1 presets, all valid" % path


def test_serve_says_in_one_line_that_the_store_refused_the_preset(tmp_path):
    storage = tmp_path / "store"
    storage.mkdir()
    (storage / "presets.txt.tmp").mkdir()  # the write's temporary copy cannot be made
    done = subprocess.run(
        [sys.executable, "-m", "sim.serial_cli", "serve", "--pty", "--storage", str(storage)]
        + ["--preset", "G/15/10"],
        cwd=ROOT,
        capture_output=True,
        timeout=20,
    )
    err = done.stderr.decode().splitlines()
    assert done.returncode == 2 and len(err) == 1, err  # once a traceback
    assert err[0].startswith("error: the preset could not be stored: the store failed"), err


def test_a_presets_file_typed_on_a_phone_goes_over_the_line_in_ascii(clock, capsys, tmp_path):
    typed = "Classical \u2019s = 90\u2019+30\u2019\u2019\nPrimes = 90\u2032+30\u2033\n"
    typed += "Go\u00a0club = 45m 3\u00d730s\nDash = 45 min 3x30 byo\u2013yomi\n"
    path = write_presets(tmp_path, typed)
    status, out, err = run(capsys, "presets", "check", path)
    assert status == 0, err
    assert out[0].endswith("Classical 's: 90 min + 30 s/move")
    status, out, err = run(capsys, "presets", "send", path, "--port", clock.path)
    assert status == 0 and out[-1] == "4 added, 0 replaced, 0 refused", (out, err)
    listed = run(capsys, "presets", "list", "--port", clock.path)[1]
    assert listed[16:20] == [
        "17 Classical 's = chessclock:90'+30''",
        "18 Primes = chessclock:90'+30\"",
        "19 Go club = go:45m 3x30s",
        "20 Dash = go:45 min 3x30 byo-yomi",
    ]
    status, out, err = run(
        capsys, "command", "--port", clock.path, "PRESET", "ADD", "Cmd", "=", "3\u00d730s"
    )
    assert status == 0 and out[-1].startswith("OK added 21 Cmd: 3x30 s byo-yomi"), (out, err)


def test_the_simulator_stores_a_typed_preset_in_ascii():
    from sim import boards

    assert boards.preset_spec("90\u2019+30\u2019\u2019") == "chessclock:90'+30''"
    assert boards.preset_spec("45m 3\u00d730s") == "go:45m 3x30s"
    assert boards.preset_spec("5\u2009+\u20093", "chessclock") == "chessclock:5 + 3"
