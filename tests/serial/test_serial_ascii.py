# SPDX-License-Identifier: MIT
# Every byte the clock writes on the serial line is ASCII, whatever the stored presets, the
# commands or the error messages quoting them hold. Plain asserts: pytest and MicroPython.
import json

from app import commands
from app.presets import FILE as PRESETS_FILE
from app.serial_channel import ascii_line
from fakes.fake_fs import FakeFs
from hal import buttons as b
from hal.storage import Storage
from serial_fakes import SerialClock

# Names and specs as an older install, or a file copied by hand, may have left them.
STORED = (
    "Blitz \u00e4\u00f6 = G/5/3\n"
    "Go \u56f2\u7881 = G/10\n"
    "Smile \U0001f600 = G/3/2\n"
    "Broken \u00d7 = G/5\u00d73\n"
)
# Every command, each with non-ASCII words where the command takes words.
COMMANDS = (
    "PRESET LIST \u00e4",
    "PRESET ADD Bl\u00e4tz = G/5/3",
    "PRESET ADD Blitz = G/5\u00d73",
    "PRESET ADD \u00e4\u00e4\u00e4\u00e4\u00e4\u00e4\u00e4\u00e4\u00e4\u00e4\u00e4\u00e4\u00e4 = G/5",
    "PRESET DEL \u00e4",
    "PRESET DEL \u0663",  # an Arabic-Indic digit: isdigit() may say yes
    "PRESET USE \u00e4\u00e4",
    "PRESET \u00e4",
    "STATE \u00e4",
    "SET MUTE \u00e4",
    "STREAM \u00e4",
    "HELP \u00e4",
    "PING \u00e4",
    "REPL \u00e4",
    "\u00c4PFEL",
    "\u00c4" * 30,
)


def stored_clock():
    fs = FakeFs()
    Storage("/", fs, fs.open).write(PRESETS_FILE, STORED.encode())
    return SerialClock(fs=fs)


def written_lines(clock):
    """The lines written since the last call, after checking every byte is ASCII and no line
    holds a line end of its own."""
    data = b"".join(clock.port.output)
    clock.port.output = []
    for byte in data:
        assert byte < 128, data
    lines = data.decode().split("\r\n")
    assert lines[-1] == "", data
    for line in lines[:-1]:
        assert "\r" not in line and "\n" not in line, data
    return lines[:-1]


def test_ascii_line_escapes_as_json_does():
    assert ascii_line("OK pong") == "OK pong"
    assert ascii_line("5 min \u00d7 3") == "5 min \\u00d7 3"
    assert ascii_line("a\tb\rc\x7f") == "a\\u0009b\\u000dc\\u007f"
    assert ascii_line("\U0001f600") == "\\ud83d\\ude00"
    text = '{"name": "Go \u56f2\u7881 \u00d7"}'  # (MicroPython's json leaves pairs apart)
    assert json.loads(ascii_line(text)) == json.loads(text)


def test_every_command_with_non_ascii_words_is_answered_in_ascii():
    clock = stored_clock()
    for text in COMMANDS:
        clock.port.feed(text.encode() + b"\n")  # as a host sends it: the channel refuses it
        clock.channel.poll(clock.hal.now)
        lines = written_lines(clock)
        assert len(lines) == 1 and lines[0].startswith("ERR byte 0x"), (text, lines)
        commands.run(clock.channel, text, clock.hal.now)  # past the channel's byte check
        lines = written_lines(clock)
        assert lines and (lines[-1].startswith("OK") or lines[-1].startswith("ERR")), lines
    assert [item.name for item in clock.app.presets.items][:2] == [
        "Blitz \u00e4\u00f6",
        "Go \u56f2\u7881",
    ]


def test_stored_non_ascii_names_are_listed_used_streamed_and_deleted_in_ascii():
    clock = stored_clock()
    commands.run(clock.channel, "PRESET LIST", clock.hal.now)
    lines = written_lines(clock)
    assert lines[0] == "1 Blitz \\u00e4\\u00f6 = G/5/3"
    assert lines[2] == "3 Smile \\ud83d\\ude00 = G/3/2" and lines[-1] == "OK 4 presets"
    for text in ("PRESET USE 4", "PRESET USE 2", "STREAM ON", "STATE", "PRESET ADD X = G/5"):
        commands.run(clock.channel, text, clock.hal.now)
        lines = written_lines(clock)
        assert lines[-1].startswith("ERR" if text == "PRESET USE 4" else "OK"), (text, lines)
    commands.run(clock.channel, "STATE", clock.hal.now)
    state = json.loads(written_lines(clock)[0][3:])
    assert state["preset"] == "Go \u56f2\u7881"  # JSON's escapes: the name itself, decoded
    clock.press(b.RIGHT, clock.hal.now + 500)
    clock.run_until(clock.hal.now + 1000)
    events = written_lines(clock)
    assert events and events[0].startswith("EV {")
    assert json.loads(events[0][3:])["preset"] == "Go \u56f2\u7881"
    commands.run(clock.channel, "PRESET DEL 1", clock.hal.now)
    assert written_lines(clock) == ["OK deleted 1 Blitz \\u00e4\\u00f6"]
