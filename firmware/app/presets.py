# SPDX-License-Identifier: MIT
# The preset list: shipped defaults, custom ones, stored as "name = format:text" lines.
import notation
from notation.errors import PresetError
from notation.factory import DEFAULTS

FILE = "presets.txt"
MAX_PRESETS = 40
MAX_NAME = 24
FULL = "the list is full: the clock keeps %d presets at most" % MAX_PRESETS


class Preset:
    """A name and its text. The text is parsed when the preset is added or played, not when the
    list loads, and the parser leaves memory when done (the board's RAM is small)."""

    def __init__(self, name, spec):
        self.name = name
        self.spec = spec

    def setup(self):
        return notation.parse(self.spec)  # raises PresetError

    def summary(self):
        setup = self.setup()
        from notation.describe import describe

        try:
            return describe(setup, self.name + " " + self.spec)
        finally:
            notation.forget()


def check_name(name):
    name = name.strip()
    if not name or len(name) > MAX_NAME or "=" in name or "\n" in name:
        raise PresetError(
            "preset",
            name,
            None,
            "a name is 1 to %d characters, without '=' or newlines" % MAX_NAME,
        )
    return name


class Presets:
    """The list the menu shows. Built from storage when it holds a valid file, else defaults."""

    def __init__(self, storage):
        self.storage = storage
        self.items = []
        self.problems = []  # lines of a stored file that no longer parse (kept out of the list)
        data = storage.read(FILE)
        if data is None:
            self.reset_to_defaults(save=False)
        else:
            self._load(data.decode())

    def _load(self, text):
        for number, line in enumerate(text.split("\n"), 1):
            line = line.strip()
            if not line or line[0] == "#":
                continue
            name, equals, spec = line.partition("=")
            try:
                if not equals or not spec.strip():
                    raise PresetError("preset", line, None, "expected 'name = format:text'")
                if len(self.items) >= MAX_PRESETS:
                    raise PresetError("preset", name.strip(), None, FULL)
                self.items.append(Preset(check_name(name), spec.strip()))
            except PresetError as error:
                self.problems.append("line %d: %s" % (number, error))
        if not self.items:
            self.reset_to_defaults(save=False)

    def reset_to_defaults(self, save=True):
        self.items = [Preset(name, spec) for name, spec in DEFAULTS]
        if save:
            self.save()

    def save(self):
        lines = ["%s = %s" % (preset.name, preset.spec) for preset in self.items]
        self.storage.write(FILE, ("\n".join(lines) + "\n").encode())

    def add(self, name, spec):
        """Add (or replace the preset of the same name); refuse an invalid one, storing nothing.
        The text is stored with its notation's prefix ("5+3" as "chessclock:5+3")."""
        preset = Preset(check_name(name), notation.prefixed(spec.strip()))
        for index, item in enumerate(self.items):
            if item.name == preset.name:
                self.items[index] = preset
                self.save()
                return index
        if len(self.items) >= MAX_PRESETS:
            raise PresetError("preset", preset.name, None, FULL)
        self.items.append(preset)
        self.save()
        return len(self.items) - 1

    def remove(self, index):
        if not 0 <= index < len(self.items) or len(self.items) == 1:
            return False
        del self.items[index]
        self.save()
        return True

    def name_of(self, spec):
        """The name of the first preset of text `spec`, or None."""
        for item in self.items:
            if item.spec == spec:
                return item.name
        return None
