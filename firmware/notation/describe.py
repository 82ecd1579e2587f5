# SPDX-License-Identifier: MIT
# One line a player reads: "90 min + 30 s/move; +30 min after move 40". ASCII only: it goes
# over the clock's serial line.
from clock.model import ADD, BRONSTEIN, DELAY, FLAG, SET, SOFT


def duration(ms):
    """'90 min', '2 h 30 min', '5 min', '30 s', '1.5 s', '0 s': as players say them."""
    if ms % 60000 == 0 and ms % 3600000 and ms < 7200000:
        return "%d min" % (ms // 60000)
    hours, rest = divmod(ms, 3600000)
    minutes, rest = divmod(rest, 60000)
    seconds, millis = divmod(rest, 1000)
    parts = []
    if hours:
        parts.append("%d h" % hours)
    if minutes:
        parts.append("%d min" % minutes)
    if millis:
        parts.append(("%d.%03d" % (seconds, millis)).rstrip("0") + " s")
    elif seconds or not parts:
        parts.append("%d s" % seconds)
    return " ".join(parts)


def _increment(stage):
    if not stage.increment_ms:
        return ""
    amount = duration(stage.increment_ms)
    every = _moves(stage.increment_every)
    if stage.mode == BRONSTEIN:
        return ", Bronstein %s/%s" % (amount, every)
    if stage.mode == DELAY:
        return ", delay %s/%s" % (amount, every)
    return " + %s/%s" % (amount, every)


def _moves(count):
    return "move" if count == 1 else "%d moves" % count


def _overtime(stage):
    """A stage entered when the time before it runs out (byo-yomi, Canadian, per move)."""
    time = duration(stage.duration_ms)
    if stage.moves == 1 and stage.on_repeat == SET:
        if stage.periods > 1:
            return "%dx%s byo-yomi" % (stage.periods, time)
        return "%s per move" % time
    if stage.moves > 1 and stage.on_repeat == SET:
        return "%d moves in %s" % (stage.moves, time)
    if stage.moves:
        return "%s for each %s" % (time, _moves(stage.moves))
    return time + _increment(stage)


def _is_block(stage):
    """Stages that start again full when their quota is met: per move, byo-yomi, Canadian."""
    return stage.moves > 0 and stage.on_repeat == SET


def _control(control):
    stages = control.stages
    if not stages:
        return "no time control"
    if control.move_ms is not None:
        return _arimaa(control)
    first = stages[0]
    repeat_told = len(stages) == 1 and _is_block(first)
    text = _overtime(first) if repeat_told else duration(first.duration_ms) + _increment(first)
    played = 0
    for index in range(1, len(stages)):
        before, stage = stages[index - 1], stages[index]
        if before.moves:
            played += before.moves
            if stage.moves == 1 and stage.on_repeat == SET:
                text += "; from move %d %s" % (played + 1, _overtime(stage))
                repeat_told = index == len(stages) - 1
            else:
                added = ("+" if stage.on_enter == ADD else "then ") + duration(stage.duration_ms)
                if stage.increment_ms != before.increment_ms or stage.mode != before.mode:
                    added += _increment(stage) if stage.increment_ms else ", no increment"
                text += "; %s after move %d" % (added, played)
                repeat_told = False
        else:
            ending = {SOFT: "soft time-out, ", FLAG: "flag, "}.get(before.on_expire, "")
            text += "; %sthen %s" % (ending, _overtime(stage))
            repeat_told = True  # _overtime says how a stage with a move quota repeats
    last = stages[-1]
    if last.moves and not repeat_told:
        how = "+" if last.on_repeat == ADD else "back to "
        text += "; %s%s every %s" % (how, duration(last.duration_ms), _moves(last.moves))
    if control.max_ms:
        text += ", at most " + duration(control.max_ms)
    if control.move_limit_ms:
        text += ", no move over " + duration(control.move_limit_ms)
    return text


def _arimaa(control):
    text = "%s/move + %s reserve" % (
        duration(control.move_ms),
        duration(control.stages[0].duration_ms),
    )
    if control.reserve_percent != 100:
        text += ", %d%% of unused move time to the reserve" % control.reserve_percent
    if control.reserve_limit_ms:
        text += ", reserve at most " + duration(control.reserve_limit_ms)
    if control.move_limit_ms:
        text += ", no move over " + duration(control.move_limit_ms)
    return text


def describe(setup, words=""):
    """A one-line description of a Setup for menus and docs. `words`, the preset's name and
    text: an armageddon game says its draw odds, which the clock does not keep."""
    if setup.first == setup.second:
        text = _control(setup.first)
    else:
        text = "first: %s | second: %s" % (_control(setup.first), _control(setup.second))
    if setup.start_ms:
        text += "; %s to make the first move" % duration(setup.start_ms)
    if setup.limit_ms:
        text += "; game halted after " + duration(setup.limit_ms)
    if setup.limit_turns:
        text += "; game halted after %d moves each" % setup.limit_turns
    if setup.hourglass:
        text += "; hourglass"
    if setup.word:
        text += "; no flag, penalty counted"
    if "armageddon" in words.lower() and setup.first != setup.second:
        text += "; armageddon: a draw is a win for the second player"
    return text


_BLACK_FIRST = ("go", "sgf", "gtp", "ogs", "ggs")  # go and Othello notations
_BLACK_FIRST_WORDS = ("go", "baduk", "weiqi", "igo", "shogi", "othello", "reversi")


def players(spec, name=""):
    """The first and the second player of preset `spec` (as stored, with its notation's prefix)
    named `name`, as their game calls them: ("White", "Black") in chess, ("Black", "White")
    where Black moves first (go, Othello, shogi), ("Gold", "Silver") in Arimaa."""
    prefix = spec.partition(":")[0].strip().lower() if ":" in spec else ""
    words = name.lower().split()
    if prefix == "arimaa" or "arimaa" in words:
        return ("Gold", "Silver")
    if prefix in _BLACK_FIRST:
        return ("Black", "White")
    for word in words:
        if word in _BLACK_FIRST_WORDS:
            return ("Black", "White")
    return ("White", "Black")
