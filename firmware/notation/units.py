# Times with unit letters (90, 1h30, 2m15s, 1h30m10s), shared by the chessclock and Arimaa notations.
from clock.model import MAX_MS

HOUR = 3600000
MINUTE = 60000
SECOND = 1000

_LETTERS = "hms"
_LETTER_MS = (HOUR, MINUTE, SECOND)


def read_time(scanner, default_ms, expected, letters="hms"):
    """Read a time and return it in ms.

    A plain number counts in units of `default_ms`. Otherwise numbers carry the unit letters
    allowed in `letters`, in the order h, m, s, each at most once; a number without a letter
    after the last one takes the next smaller unit (1h30 = 1h30m, 2m15 = 2m15s).
    """
    start = scanner.pos
    total = 0
    last = -1
    while True:
        at = scanner.pos
        run = scanner.digits()
        if not run:
            if last < 0:
                scanner.fail(expected)
            break
        if len(run) > 9:
            scanner.error("the number %s is too large" % run, at)
        if scanner.peek() == ".":
            scanner.error("decimal numbers are not allowed; use unit letters, as in 1m30s", at)
        letter = scanner.peek()
        index = _LETTERS.find(letter) if letter else -1
        if index < 0:
            if last < 0:
                total = int(run) * default_ms
            elif last == len(_LETTERS) - 1:
                scanner.error("the number %s after the seconds has no unit" % run, at)
            else:
                total += int(run) * _LETTER_MS[last + 1]
            break
        if letter not in letters:
            scanner.error(
                "the unit %s is not allowed here, only %s" % (letter, ", ".join(letters)),
                scanner.pos,
            )
        if index <= last:
            scanner.error("unit letters go in the order h, m, s, each at most once", scanner.pos)
        scanner.pos += 1
        total += int(run) * _LETTER_MS[index]
        last = index
    if total > MAX_MS:
        scanner.error(
            "%s is more than the clock can hold (about 6 days)"
            % scanner.text[start : scanner.pos],
            start,
        )
    return total


def format_time(ms, default_ms):
    """The shortest text read_time reads back as `ms`; None when `ms` is not whole seconds."""
    if ms % SECOND:
        return None
    if ms % default_ms == 0:
        return str(ms // default_ms)
    parts = []
    for letter, unit in zip(_LETTERS, _LETTER_MS):
        if ms >= unit:
            parts.append("%d%s" % (ms // unit, letter))
            ms %= unit
    return "".join(parts)
