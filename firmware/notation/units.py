# SPDX-License-Identifier: MIT
# Times with unit letters (90, 1h30, 2m15s, 1h30m10s), shared by the chessclock and Arimaa notations.
from clock.model import MAX_MS

HOUR = 3600000
MINUTE = 60000
SECOND = 1000

_LETTERS = "hms"
_LETTER_MS = (HOUR, MINUTE, SECOND)


# The unit words a spoken time may use ("15 min", "30 sec"), longest first within each unit.
_WORDS = (
    ("hours", "hour", "hrs", "hr", "h"),
    ("minutes", "minute", "mins", "min", "m"),
    ("seconds", "second", "secs", "sec", "s"),
)


def read_time(scanner, default_ms, expected, letters="hms", spoken=False):
    """Read a time and return it in ms.

    A plain number counts in units of `default_ms`. Otherwise numbers carry the unit letters
    allowed in `letters`, in the order h, m, s, each at most once; a number without a letter
    after the last one takes the next smaller unit (1h30 = 1h30m, 2m15 = 2m15s). `spoken` also
    takes unit words and spaces, as people write them: "1 h 30 min", "90 minutes", "30 sec",
    and primes: 90' (minutes), 30'' or 30" (seconds).
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
            dot = scanner.pos
            scanner.pos += 1
            scanner.digits()  # read it whole: the refusal of the notation that got furthest wins
            scanner.error("decimal numbers are not allowed; use unit letters, as in 1m30s", dot)
        unit_at = scanner.pos
        index, width = _unit(scanner, spoken)
        if index < 0:
            scanner.pos = unit_at
            if last < 0:
                total = int(run) * default_ms
            elif last == len(_LETTERS) - 1:
                scanner.error("the number %s after the seconds has no unit" % run, at)
            else:
                total += int(run) * _LETTER_MS[last + 1]
            break
        if _LETTERS[index] not in letters:
            scanner.error(
                "the unit %s is not allowed here, only %s"
                % (scanner.text[scanner.pos : scanner.pos + width], ", ".join(letters)),
                scanner.pos,
            )
        if index <= last:
            scanner.error("unit letters go in the order h, m, s, each at most once", scanner.pos)
        scanner.pos += width
        total += int(run) * _LETTER_MS[index]
        last = index
        if spoken:
            after_unit = scanner.pos
            scanner.skip_spaces()
            if not scanner.peek() or scanner.peek() not in "0123456789":
                scanner.pos = after_unit
                break
    return within_clock(scanner, total, start)


def within_clock(scanner, ms, start):
    """`ms`, or the positioned error for a time from `start` too long for the clock."""
    if ms > MAX_MS:
        scanner.error(
            "%s is more than the clock can hold (about 6 days)"
            % scanner.text[start : scanner.pos],
            start,
        )
    return ms


def _unit(scanner, spoken):
    """(index in h, m, s; length) of the unit at the scanner, leaving it after any spaces
    before a spoken unit; (-1, 0) when none."""
    if not spoken:
        letter = scanner.peek()
        index = _LETTERS.find(letter) if letter else -1
        return index, 1
    scanner.skip_spaces()
    text = scanner.text
    # Primes, as FIDE announcements print them: 90' is minutes, 30'' or 30" seconds.
    if text[scanner.pos : scanner.pos + 2] == "''":
        return 2, 2
    prime = text[scanner.pos : scanner.pos + 1]
    if prime and prime in "'\"":
        return (1 if prime == "'" else 2), 1
    for index, words in enumerate(_WORDS):
        for word in words:
            end = scanner.pos + len(word)
            if text[scanner.pos : end].lower() == word and not text[end : end + 1].isalpha():
                return index, len(word)
    return -1, 0


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
