# SPDX-License-Identifier: MIT
# PGN for annotate: its games read as spans of tags and moves, and their %clk/%emt written in.
import re

import sim  # noqa: F401  (puts the firmware on the path)
from notation import pgn
from sim.text_edits import SPACE, AnnotateError, edited, line_of, pick, shown

_TAG = re.compile(r'\[[ \t]*([A-Za-z0-9_]+)[ \t]*"((?:[^"\\\r\n]|\\.)*)"[ \t]*\]')
_RESULT = re.compile(r"(?:1-0|0-1|1/2-1/2|\*)(?![\w/-])")
_ZERO_CASTLE = re.compile(r"0-0(?:-0)?[+#]?[!?]*")
_NUMBER = re.compile(r"\d+\.*")
_SAN = re.compile(r"(?:[A-Za-z][A-Za-z0-9=+#:/-]*|--)[!?]*")
_NAG = re.compile(r"\$\d+|[!?]+")
_COMMAND = re.compile(r"(\s*)\[%(?:clk|emt)\s[^\]]*\]")


class PgnGame:
    def __init__(self, start):
        self.start = start
        self.tags = []  # (name, value start, value end, end)
        self.tokens = []  # (kind, start, end, depth): move, nag, comment, open, close, result
        self.ended = False


def pgn_games(text, name):
    """The games of a PGN text, as spans of its tags and movetext tokens."""
    games, game, depth, at = [], None, 0, 0

    def fail(where, problem):
        raise AnnotateError("%s line %d: %s" % (name, line_of(text, where), problem))

    def rest_of_line(at):
        end = text.find("\n", at)
        return len(text) if end < 0 else end

    while at < len(text):
        char = text[at]
        if char in SPACE:
            at += 1
        elif char == ";" or (char == "%" and (at == 0 or text[at - 1] == "\n")):
            at = rest_of_line(at)
        elif char == "[":
            if depth:
                fail(at, "a tag pair inside a variation: a ')' is missing")
            if game is None or game.tokens:
                game = PgnGame(at)
                games.append(game)
            match = _TAG.match(text, at)
            if match is None:
                fail(at, 'expected a tag pair such as [Event "..."]')
            game.tags.append((match.group(1), match.start(2), match.end(2), match.end()))
            at = match.end()
        else:
            if game is None or game.ended:
                game = PgnGame(at)
                games.append(game)
            kind, end = None, at + 1
            if char == "{":
                end = text.find("}", at) + 1
                if not end:
                    fail(at, "a comment opened here is never closed")
                kind = "comment"
            elif char == "(":
                kind, depth = "open", depth + 1
            elif char == ")":
                if not depth:
                    fail(at, "a ')' that closes no variation")
                kind, depth = "close", depth - 1
            else:
                for kind, pattern in (
                    ("result", _RESULT),
                    ("move", _ZERO_CASTLE),
                    ("number", _NUMBER),
                    ("move", _SAN),
                    ("nag", _NAG),
                ):
                    match = pattern.match(text, at)
                    if match:
                        end = match.end()
                        break
                else:
                    fail(at, "unexpected '%s' in the moves" % shown(char))
            if kind == "result":
                if depth:
                    fail(at, "a result inside a variation: a ')' is missing")
                game.ended = True
            if kind != "number":
                game.tokens.append((kind, at, end, depth if kind != "open" else depth - 1))
            at = end
    if depth:
        fail(len(text), "a variation is not closed: a ')' is missing")
    return [game for game in games if game.tags or game.tokens]


def clock_text(ms, exact):
    """H:MM:SS, whole seconds rounded down as a countdown shows them, or to the ms if exact."""
    seconds = ms // 1000
    text = "%d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)
    if exact and ms % 1000:
        text += ("." + "%03d" % (ms % 1000)).rstrip("0")
    return text


def rewritten(body, commands):
    """A comment's text without its %clk and %emt, with `commands` (when given) where the first
    of them was, or first."""
    found = _COMMAND.search(body)
    if not commands:
        return _COMMAND.sub("", body)
    if found:
        return body[: found.end(1)] + commands + _COMMAND.sub("", body[found.end() :])
    rest = body.lstrip()
    return body[: len(body) - len(rest)] + commands + (" " + rest if rest else "")


def annotate_pgn(text, record, number, emt, exact, name, note):
    game = pick(pgn_games(text, name), number, name, "PGN")
    if record.untimed and not emt:
        raise record.untimed_refusal("%clk (--emt writes each move's time)")
    tokens = game.tokens
    moves = [index for index, token in enumerate(tokens) if token[0] == "move" and not token[3]]

    def describe(index):
        _kind, start, end, _depth = tokens[index]
        return "%s, line %d" % (text[start:end], line_of(text, start))

    record.check_count(moves, "PGN", ("ply", "plies"), describe)
    edits = []
    newline = "\r\n" if "\r\n" in text else "\n"
    control, problem = record.formatted(pgn)
    tagged = [tag for tag in game.tags if tag[0] == "TimeControl"]
    if problem is not None:
        kept = "left as it was" if tagged else "not written"
        note("the TimeControl tag is %s: %s (preset %s)" % (kept, problem, record.preset))
    elif tagged:
        edits += [(start, end, control) for _name, start, end, _end in tagged]
    elif game.tags:
        edits.append(
            (game.tags[-1][3], game.tags[-1][3], newline + '[TimeControl "%s"]' % control)
        )
    else:
        edits.append((game.start, game.start, '[TimeControl "%s"]' % control + newline * 2))
    owned = {}  # the comment index that carries a move's commands
    for index, (_number, _side, elapsed, figures) in zip(moves, record.plies):
        commands = []
        if figures is not None:
            commands.append("[%%clk %s]" % clock_text(figures["remaining_ms"], exact))
        if emt:
            commands.append("[%%emt %s]" % clock_text(elapsed, exact))
        after = index + 1
        while after < len(tokens) and tokens[after][0] == "nag":
            after += 1
        comments = []  # the move's own: right after it (and its NAGs)
        while (
            after + len(comments) < len(tokens) and tokens[after + len(comments)][0] == "comment"
        ):
            comments.append(after + len(comments))
        if comments:
            timed = [i for i in comments if _COMMAND.search(text, tokens[i][1], tokens[i][2])]
            owned[(timed or comments)[0]] = " ".join(commands)
        else:
            at = tokens[after - 1][2]
            edits.append((at, at, " {%s}" % " ".join(commands)))
    for index, (kind, start, end, depth) in enumerate(tokens):
        if kind != "comment" or depth:
            continue
        body = rewritten(text[start + 1 : end - 1], owned.get(index))
        if body.strip():
            if body != text[start + 1 : end - 1]:
                edits.append((start + 1, end - 1, body))
        else:
            while start > 0 and text[start - 1] in " \t":
                start -= 1
            edits.append((start, end, ""))
    return edited(text, edits)
