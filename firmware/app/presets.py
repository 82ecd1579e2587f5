# SPDX-License-Identifier: MIT
# The preset list: shipped defaults, custom ones, stored as "name = format:text" lines.
#
# Every change is worked out on a copy of the list, written, and only then made the list: a
# store that refuses the write (full or failing flash) raises OSError and leaves the list as
# storage has it.
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
    """The name as stored (stripped); PresetError when the file could not read it back: empty,
    too long, an '=' (it ends the name), a '#' first (a comment line) or a control character."""
    name = name.strip()
    problem = None
    if not name or len(name) > MAX_NAME:
        problem = "a name is 1 to %d characters" % MAX_NAME
    elif "=" in name:
        problem = "a name has no '=' (it separates the name from the time control)"
    elif name[0] == "#":
        problem = "a name does not start with '#' (the presets file reads that as a comment)"
    else:
        for char in name:
            if char < " " or char == "\x7f":
                problem = "a name has no control characters (a line end ends it)"
                break
    if problem is not None:
        raise PresetError("preset", name, None, problem)
    return name


class Presets:
    """The list the menu shows. Built from storage when it holds a valid file, else defaults."""

    def __init__(self, storage):
        self.storage = storage
        self.items = []
        self.problems = []  # lines of a stored file that no longer parse (kept out of the list)
        data = storage.read(FILE)
        if data is None:
            self.items = _defaults()
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
                name = check_name(name)
                if self.index_of(name) >= 0:
                    raise PresetError("preset", name, None, "the name is on an earlier line")
                if len(self.items) >= MAX_PRESETS:
                    raise PresetError("preset", name, None, FULL)
                self.items.append(Preset(name, spec.strip()))
            except PresetError as error:
                self.problems.append("line %d: %s" % (number, error))
        if not self.items:
            self.items = _defaults()

    def _store(self, items):
        """Write `items` as the list, then make them the list (OSError: nothing changes)."""
        lines = ["%s = %s" % (preset.name, preset.spec) for preset in items]
        self.storage.write(FILE, ("\n".join(lines) + "\n").encode())
        self.items = items

    def save(self):
        self._store(self.items)

    def reset_to_defaults(self):
        self._store(_defaults())

    def index_of(self, name):
        """The index of the preset named `name`, or -1."""
        for index, item in enumerate(self.items):
            if item.name == name:
                return index
        return -1

    def add(self, name, spec, replace=False):
        """Add a preset; with `replace`, the preset of that name is replaced where it stands.
        Refuses an invalid one (PresetError), a name already there without `replace`, storing
        nothing. The text is stored with its notation's prefix ("5+3" as "chessclock:5+3")."""
        preset = Preset(check_name(name), notation.prefixed(spec.strip()))
        items = list(self.items)
        index = self.index_of(preset.name)
        if index >= 0:
            if not replace:
                raise PresetError("preset", preset.name, None, "a preset of this name is there")
            items[index] = preset
        elif len(items) >= MAX_PRESETS:
            raise PresetError("preset", preset.name, None, FULL)
        else:
            items.append(preset)
            index = len(items) - 1
        self._store(items)
        return index

    def remove(self, index):
        if not 0 <= index < len(self.items) or len(self.items) == 1:
            return False
        items = list(self.items)
        del items[index]
        self._store(items)
        return True

    def name_of(self, spec):
        """The name of the first preset of text `spec`, or None."""
        for item in self.items:
            if item.spec == spec:
                return item.name
        return None


def _defaults():
    return [Preset(name, spec) for name, spec in DEFAULTS]
