# SPDX-License-Identifier: MIT
# A presets file checked line by line as the clock will take it: for the host tool (serial_cli)
# and the page (web/clock_page.py), under CPython and MicroPython alike.
#
# A file holds `name = spec` lines (blank lines and # comments ignored), or is what `presets list`
# prints (numbered lines, then `OK n presets`): a backup. Typographic quotes, primes and the like
# count as their ASCII forms (registry.fold), as the serial line carries them.
from app.presets import MAX_PRESETS, check_name
from app.serial_channel import MAX_LINE
from notation import registry
from notation.errors import PresetError


def listed_count(line):
    """n of a line `OK n presets` (`OK 1 preset`), the last one `presets list` prints; else
    None."""
    words = line.split()
    if len(words) == 3 and words[0] == "OK" and words[1].isdigit():
        if words[2] in ("preset", "presets"):
            return int(words[1])
    return None


def check_entry(name, spec, parse):
    """(None, the Setup `parse` reads) when the clock will take `PRESET ADD name = spec`, else
    (what is wrong, None). `parse`: the clock's reader of a preset, as the caller runs it."""
    command = "PRESET REPLACE %s = %s" % (name.strip(), spec.strip())  # the longer verb
    for char in command:
        if not " " <= char <= "~":
            return "only printable ASCII goes over the serial line", None
    if len(command) > MAX_LINE:
        return "the command would be %d bytes; the clock takes %d" % (len(command), MAX_LINE), None
    try:
        check_name(name)
        return None, parse(spec.strip())
    except PresetError as error:
        return str(error), None


def read(text, parse):
    """([(line number, name, spec, setup)], [(line number, problem)] sorted, listing) for the
    presets file `text`, each line checked by check_entry; `listing`: the file is a backup, its
    numbers and OK line taken off."""
    if text.startswith("\ufeff"):
        text = text[1:]  # a BOM some editors write is not a name
    numbered = []
    for number, line in enumerate(registry.fold(text).split("\n"), 1):
        line = line.strip()
        if line and not line.startswith("#"):
            numbered.append((number, line))
    entries, problems, seen = [], [], {}
    listing = bool(numbered) and listed_count(numbered[-1][1]) is not None
    if listing:
        ok_number, ok_line = numbered.pop()
        count = listed_count(ok_line)
        if count != len(numbered):
            problems.append(
                (ok_number, "says %d presets; the lines above hold %d" % (count, len(numbered)))
            )
    for index, (number, line) in enumerate(numbered, 1):
        if listing:
            position, space, line = line.partition(" ")
            if position != str(index) or not space:
                problems.append(
                    (number, "expected preset number %d, as `presets list` prints" % index)
                )
                continue
        name, equals, spec = line.partition("=")
        name = name.strip()
        if not equals:
            problem, setup = "expected 'name = spec'", None
        else:
            problem, setup = check_entry(name, spec, parse)
        if problem is None and name in seen:
            problem = "the name %s is on line %d already" % (name, seen[name])
        if problem is None:
            seen[name] = number
            entries.append((number, name, spec.strip(), setup))
        else:
            problems.append((number, problem))
    if len(entries) > MAX_PRESETS:
        problems.append(
            (
                entries[MAX_PRESETS][0],
                "a %dst preset: the clock keeps %d at most" % (MAX_PRESETS + 1, MAX_PRESETS),
            )
        )
    problems.sort()
    return entries, problems, listing
