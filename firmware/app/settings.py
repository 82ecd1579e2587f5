# SPDX-License-Identifier: MIT
# Settings that outlive a game: sound, and the chosen preset by its name.
#
# The choice is kept by name, not by its place in the list: deleting a preset above it, or a
# power cut between the list's write and this file's, leaves it naming the same preset. A name
# the list no longer holds means the first preset. Firmware before names wrote "preset = N".
FILE = "settings.txt"


def key_values(data):
    """The (key, value) pairs of a settings file's `key = value` lines, both stripped; none
    when there is no file (None) or it is not text."""
    if data is None:
        return ()
    try:
        text = data.decode()
    except UnicodeError:
        return ()
    pairs = []
    for line in text.split("\n"):
        key, _, value = line.partition("=")
        pairs.append((key.strip(), value.strip()))
    return pairs


class Settings:
    def __init__(self, storage):
        self.storage = storage
        self.muted = False
        self.chosen = None  # the chosen preset's name (None: the first)
        self.legacy_index = -1  # "preset = N" of an older file, when it names no preset
        for key, value in key_values(storage.read(FILE)):
            if key == "muted":
                self.muted = value == "on"
            elif key == "chosen" and value:
                self.chosen = value
            elif key == "preset" and value.isdigit():
                self.legacy_index = int(value)

    def store(self, muted, chosen):
        """Write these settings, then take them (OSError: nothing changes)."""
        text = "muted = %s\n" % ("on" if muted else "off")
        if chosen is not None:
            text += "chosen = %s\n" % chosen
        self.storage.write(FILE, text.encode())
        self.muted = muted
        self.chosen = chosen
