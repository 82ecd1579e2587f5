# SPDX-License-Identifier: MIT
# Storage: atomic replace, checked by cutting the power at every step of a write.
from fakes.fake_fs import FakeFs, PowerCut
from hal.storage import Storage
from support import raises

OLD = b'{"preset": "fischer 5+3", "left": 300000}'
NEW = b'{"preset": "byoyomi 30x5", "left": 125000, "periods": 4}'


def storage(fs, root="/"):
    return Storage(root, fs, fs.open)


def test_read_missing_is_none_and_write_then_read_round_trips():
    fs = FakeFs()
    store = storage(fs)
    assert store.read("game") is None
    store.write("game", OLD)
    assert store.read("game") == OLD
    store.write("game", NEW)
    assert store.read("game") == NEW
    assert fs.files == {"/game": bytearray(NEW)}


def steps_of_a_write():
    fs = FakeFs()
    store = storage(fs)
    store.write("game", OLD)
    before = fs.steps
    store.write("game", NEW)
    return fs.steps - before


def test_a_write_is_the_bytes_then_flush_close_and_rename():
    assert steps_of_a_write() == len(NEW) + 3


def test_a_power_cut_at_any_step_leaves_the_old_or_the_new_file_complete():
    total = steps_of_a_write()
    for budget in range(total + 1):
        fs = FakeFs()
        storage(fs).write("game", OLD)
        fs.budget = budget
        if budget < total:
            raises(PowerCut, storage(fs).write, "game", NEW)
        else:
            storage(fs).write("game", NEW)
        fs.reboot()
        store = storage(fs)  # after the reboot
        expected = NEW if budget == total else OLD  # the rename is the last step
        assert store.read("game") == expected, budget
        assert store.names() == ["game"]
        store.write("game", b"after")  # the leftover temporary is simply replaced
        assert store.read("game") == b"after"
        assert "/game.tmp" not in fs.files


def test_a_power_cut_during_the_first_write_leaves_no_file():
    for budget in range(len(NEW) + 3):
        fs = FakeFs()
        fs.budget = budget
        raises(PowerCut, storage(fs).write, "game", NEW)
        fs.reboot()
        assert storage(fs).read("game") is None
        assert storage(fs).names() == []


def test_names_skip_temporaries_and_directories_and_remove_is_quiet():
    fs = FakeFs(dirs=("/", "/lib"))
    fs.files["/main.py"] = bytearray(b"")
    fs.files["/game.tmp"] = bytearray(b"half")
    store = storage(fs)
    store.write("settings", b"1")
    assert store.names() == ["main.py", "settings"]
    store.remove("settings")
    store.remove("settings")
    assert store.names() == ["main.py"]


def test_a_root_directory_is_made_on_the_first_write():
    fs = FakeFs()
    store = storage(fs, "/data/")
    assert store.names() == []
    store.write("game", OLD)
    assert "/data" in fs.dirs and fs.files["/data/game"] == bytearray(OLD)
    assert store.names() == ["game"]


def test_bad_names_are_refused():
    store = storage(FakeFs())
    for name in ("", "a/b", "game.tmp", ".."):
        raises(ValueError, store.write, name, b"x")
        raises(ValueError, store.read, name)


class _NoOverwrite(FakeFs):
    """A filesystem that will not rename over an existing file (FAT, Windows)."""

    def rename(self, old, new):
        if new in self.files:
            raise OSError(17)
        FakeFs.rename(self, old, new)


def test_a_filesystem_that_refuses_to_rename_over_a_file_still_gets_the_new_one():
    fs = _NoOverwrite()
    store = storage(fs)
    store.write("game", OLD)
    store.write("game", NEW)
    assert store.read("game") == NEW and store.names() == ["game"]


def test_a_folder_within_is_made_at_its_first_write_with_the_root_first():
    fs = FakeFs()
    store = storage(fs, "/data")
    chunks = store.within("record")
    assert chunks.read("0.txt") is None and "/data" not in fs.dirs
    chunks.write("0.txt", OLD)
    assert "/data" in fs.dirs and "/data/record" in fs.dirs
    assert chunks.read("0.txt") == OLD and fs.files["/data/record/0.txt"] == bytearray(OLD)
    store.write("game", NEW)
    assert store.names() == ["game"]  # the folder is not a stored file
    assert chunks.names() == ["0.txt"]
    raises(ValueError, store.within, "a/b")
