# SPDX-License-Identifier: MIT
# `python -m sim` as a user runs it: a reader that leaves early, a file that is not UTF-8, a
# non-ASCII command, a file named where a folder goes. One line on stderr, never a traceback.
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def sim(*args, stdout=subprocess.PIPE):
    done = subprocess.run(
        [sys.executable, "-m", "sim", *args],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=stdout,
        stderr=subprocess.PIPE,
        timeout=60,
    )
    return done.returncode, done.stderr.decode().splitlines()


def one_error(*args):
    """The one stderr line of a run that must exit 2."""
    status, err = sim(*args)
    assert status == 2 and len(err) == 1 and err[0].startswith("error: "), (status, err)
    return err[0]


def with_reader_gone(*args):
    """Run with stdout a pipe nobody reads any more, as `| head -1` leaves it once satisfied."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        return sim(*args, stdout=writer)
    finally:
        os.close(writer)


def test_a_reader_that_leaves_early_gets_one_line_not_a_traceback(tmp_path):
    moves = ",".join(["1000"] * 2000)
    closed = (2, ["error: the output was closed before the end (by | head?)"])
    status, err = with_reader_gone("replay", "--preset", "G/90", "--moves", moves)
    assert (status, err) == (2, ["replaying 90 min"] + closed[1])  # how the preset was read
    assert with_reader_gone("--fresh", "--list-presets") == closed
    script = tmp_path / "game.txt"
    script.write_text("".join("show %d\n" % (t * 100) for t in range(1, 200)))
    assert with_reader_gone("script", str(script), "--preset", "pgn:3") == closed


def test_files_that_are_not_utf8_are_said_in_one_line(tmp_path):
    record = tmp_path / "game.json"
    record.write_bytes(b'{"name": "\xe9checs"}')
    assert one_error("replay", "--pcn", str(record)) == "error: %s is not UTF-8 text" % record
    presets = tmp_path / "club.txt"
    presets.write_bytes(b"Bl\xe4tz = G/5\n")
    error = one_error("presets", "check", str(presets))
    assert error == "error: %s is not UTF-8 text (byte 3)" % presets


def test_a_non_ascii_command_is_refused_before_the_port_is_opened():
    error = one_error("command", "--port", "/dev/no-such-clock", "PRESET", "ADD", "Bl\u00e4tz=G/5")
    assert (
        error == "error: only printable ASCII goes over the serial line: PRESET ADD Bl\\xe4tz=G/5"
    )


def test_a_file_named_where_a_folder_goes(tmp_path):
    taken = tmp_path / "notes.txt"
    taken.write_text("not a folder\n")
    error = one_error("--state", str(taken), "--list-presets")
    assert error == "error: --state %s: a file, not a folder" % taken
    inside = os.path.join(str(taken), "clock")
    error = one_error("--state", inside)
    assert error == "error: --state %s: %s is a file, not a folder" % (inside, taken)
    error = one_error("serve", "--pty", "--storage", str(taken))
    assert error == "error: --storage %s: a file, not a folder" % taken
