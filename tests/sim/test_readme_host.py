# SPDX-License-Identifier: MIT
# The README's and the guides' examples do what they say: every command example runs, the
# scripted run prints what the README shows, each notation example is read by its notation, and
# every test the docs cite exists, inside the repository.
import json
import os
import re
import shlex
import subprocess
import sys

import pexpect

from notation import registry
from terminal_env import terminal_env

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
README = os.path.join(ROOT, "README.md")
DOCS = [
    os.path.join(ROOT, "docs", name)
    for name in sorted(os.listdir(os.path.join(ROOT, "docs")))
    if name.endswith(".md")  # not the screenshots
]
CLUB = "Club blitz = 5+3\nClub rapid = G/15/10\n"


def text(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def blocks(source, language=None):
    """The fenced code blocks of a Markdown text (of one language, if given)."""
    found = re.findall(r"```(\w*)\n(.*?)```", source, re.S)
    return [body for kind, body in found if language is None or kind == language]


def guides():
    """The README and every guide in docs/, as one text: an example may live in any of them."""
    return "\n".join(text(path) for path in [README] + DOCS)


def commands(prefix):
    """Each `prefix ...` line of the guides' sh blocks, its comment cut off."""
    lines = []
    for body in blocks(guides(), "sh"):
        for line in body.splitlines():
            if line.startswith(prefix):
                lines.append(re.split(r"\s+#", line)[0].strip())
    return lines


def run(args, tmp_path, stdin=None):
    return subprocess.run(
        [sys.executable] + args,
        cwd=str(tmp_path),
        env=dict(os.environ, PYTHONPATH=ROOT, XDG_STATE_HOME=str(tmp_path / "state")),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_scripted_run_prints_what_the_readme_shows(tmp_path):
    readme = guides()
    script = [body for body in blocks(readme) if body.startswith("# A 3-second game")][0]
    shown = [body for body in blocks(readme) if body.startswith("board pico_tm1637")][0]
    (tmp_path / "game.txt").write_text(script)
    done = run(["-m", "sim", "script", "game.txt", "--board", "pico_tm1637"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == shown


def test_the_record_example_gives_what_the_readme_shows(tmp_path):
    readme = guides()
    script = [body for body in blocks(readme) if body.startswith("# Blitz 3+2: three plies")][0]
    (tmp_path / "blitz.txt").write_text(script)
    done = run(["-m", "sim", "script", "blitz.txt", "--record"], tmp_path)
    assert done.returncode == 0, done.stderr
    record = done.stdout.splitlines()[-1]
    assert json.loads(record) == json.loads(blocks(readme, "json")[0])
    (tmp_path / "GAME.json").write_text(record)
    replayed = run(["-m", "sim", "replay", "--pcn", "GAME.json"], tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    last = json.loads(replayed.stdout.splitlines()[-1])
    assert (
        last["first"]["remaining_ms"]
        == json.loads(record)["clock"]["log"][-1]["first"]["remaining_ms"]
    )
    pgn = [body for body in blocks(readme) if body.startswith('[Event "Club blitz"]')]
    (tmp_path / "blitz.pgn").write_text(pgn[0])
    annotated = run(
        ["-m", "sim", "annotate", "--record", "GAME.json", "--pgn", "blitz.pgn"], tmp_path
    )
    assert annotated.returncode == 0, annotated.stderr
    assert annotated.stdout == pgn[1]


def test_every_simulator_command_example_runs(tmp_path):
    examples = commands("python -m sim")
    assert len(examples) >= 8
    for line in examples:
        args = shlex.split(line)[1:]
        if "serial_cli" in args[1]:
            continue  # the next test
        if args[2:3] == ["hall"]:
            continue  # a broker and clocks, for a while: tests/hall runs them
        if args[2:3] == ["round"]:
            continue  # one round's steps, in order: tests/round/test_round_docs_host.py
        if "replay" in args or "--list-boards" in args or "--list-presets" in args:
            done = run(args, tmp_path)
            assert done.returncode == 0 and done.stdout, (line, done.stderr)
            continue
        if "SPEC" in line or "RECORD" in line or "..." in line:
            continue  # a synopsis, not an example
        # The interactive simulator: it draws the board in a terminal and quits on q.
        child = pexpect.spawn(
            sys.executable,
            args + ["--state", str(tmp_path / "state")],
            cwd=ROOT,
            dimensions=(24, 80),
            env=terminal_env(TERM="xterm"),  # the terminal's size, not pytest-xdist's
            encoding="utf-8",
            timeout=15,
        )
        child.expect("state: ready")
        child.send("q")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0, line


def test_every_serial_tool_example_runs_against_a_served_clock(tmp_path):
    (tmp_path / "club.txt").write_text(CLUB)
    serve = subprocess.Popen(
        [sys.executable, "-m", "sim.serial_cli", "serve", "--pty", "--storage", str(tmp_path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        port = serve.stdout.readline().split("serial: ")[1].strip()
        examples = commands("python -m sim.serial_cli")
        assert len(examples) >= 5
        for line in examples:
            if line.split()[3] == "serve":
                continue  # running: the clock these examples talk to
            line = line.replace("/dev/ttyACM0", port)
            args = shlex.split(line.split(" > ")[0])[1:]
            done = run(args, tmp_path)
            assert done.returncode == 0, (line, done.stdout, done.stderr)
            if " > " in line:
                (tmp_path / line.split(" > ")[1]).write_text(done.stdout)
        listed = run(["-m", "sim.serial_cli", "presets", "list", "--port", port], tmp_path)
        assert "Club blitz = chessclock:5+3" in listed.stdout
    finally:
        serve.terminate()
        serve.wait(10)


def notation_rows():
    """(format, [examples]) of the README's table of notations."""
    section = text(README).split("## Preset notations")[1].split("\n## ")[0]
    rows = []
    for line in section.splitlines():
        cells = line.split(" | ")
        if len(cells) >= 3 and cells[0].startswith("| `"):
            rows.append((cells[0][3:-1], re.findall(r"`([^`]+)`", cells[1])))
    return rows


def test_each_notation_example_is_read_by_its_notation():
    rows = notation_rows()
    assert [name for name, _ in rows] == list(registry.FORMATS)
    for name, examples in rows:
        assert examples, name
        for example in examples:
            prefix, _ = registry.split_prefix(example)
            if prefix is not None:
                assert prefix == name, example
                registry.parse(example)
            else:
                assert registry.detect(example)[0] == name, example


def test_every_test_the_docs_cite_exists():
    cited = 0
    for path in [README] + DOCS:
        source = text(path)
        assert "../" not in source, path  # nothing cites a file outside the repository
        for test_file, name in re.findall(r"(tests/[\w/]+\.py)::(\w+)", source):
            full = os.path.join(ROOT, test_file)
            assert os.path.isfile(full), (path, test_file)
            assert re.search(r"def %s\b" % name, text(full)), (path, test_file, name)
            cited += 1
    assert cited > 20


def test_every_make_args_example_reaches_the_simulator_as_written():
    # A reader types the line into a shell; make puts ARGS into its recipe, which a shell runs.
    examples = commands("make sim ARGS=") + commands("make web ARGS=")
    assert [line for line in examples if "'3|2'" in line], examples
    assert [line for line in examples if "'G/45 d5'" in line], examples
    from sim.__main__ import build_parser

    for line in examples:
        made = subprocess.run(
            ["make", "-n", "-s"] + shlex.split(line)[1:],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert made.returncode == 0, (line, made.stderr)
        recipe = [row for row in made.stdout.splitlines() if " -m sim" in row][-1]
        words = shlex.shlex(recipe, posix=True, punctuation_chars=True)  # "|" is a pipe there
        words.whitespace_split = True
        argv = list(words)
        args = build_parser().parse_args(argv[argv.index("sim") + 1 :])
        if args.sim_preset is not None:
            registry.parse(args.sim_preset)  # the whole preset arrived, as one argument
            assert args.sim_preset in line, line
