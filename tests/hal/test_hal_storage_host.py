# SPDX-License-Identifier: MIT
# Storage on the real os module of the host, as the simulator uses it.
import os

from hal.storage import Storage


def test_round_trip_names_and_remove_on_a_real_directory(tmp_path):
    store = Storage(str(tmp_path / "clock"), os)
    assert store.read("game") is None
    assert store.names() == []
    store.write("game", b"one")
    store.write("game", b"two")
    store.write("settings", bytearray(b"\x00\x01"))
    assert store.read("game") == b"two"
    assert store.read("settings") == b"\x00\x01"
    assert sorted(os.listdir(tmp_path / "clock")) == ["game", "settings"]
    (tmp_path / "clock" / "game.tmp").write_bytes(b"half")  # a write cut short
    (tmp_path / "clock" / "sub").mkdir()
    assert store.names() == ["game", "settings"]
    assert store.read("game") == b"two"
    store.write("game", b"three")
    assert not (tmp_path / "clock" / "game.tmp").exists()
    store.remove("game")
    store.remove("game")
    assert store.names() == ["settings"]


def test_a_read_error_other_than_missing_is_raised(tmp_path):
    (tmp_path / "game").mkdir()
    store = Storage(str(tmp_path), os)
    try:
        store.read("game")
    except OSError:
        return
    raise AssertionError("reading a directory should raise")
