# SPDX-License-Identifier: MIT
# Settings that outlive a game: sound, the chosen preset.
FILE = "settings.txt"


class Settings:
    def __init__(self, storage):
        self.storage = storage
        self.muted = False
        self.preset = 0
        data = storage.read(FILE)
        if data is None:
            return
        for line in data.decode().split("\n"):
            key, _, value = line.partition("=")
            key, value = key.strip(), value.strip()
            if key == "muted":
                self.muted = value == "on"
            elif key == "preset" and value.isdigit():
                self.preset = int(value)

    def save(self):
        text = "muted = %s\npreset = %d\n" % ("on" if self.muted else "off", self.preset)
        self.storage.write(FILE, text.encode())
