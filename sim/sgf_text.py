# SPDX-License-Identifier: MIT
# SGF for annotate: its game trees read as spans of nodes and properties, BL/WL written in.
import sim  # noqa: F401  (puts the firmware on the path)
from notation import sgf
from notation.scan import seconds_text
from sim.text_edits import SPACE, AnnotateError, edited, line_of, pick, shown


class SgfNode:
    def __init__(self, start):
        self.start = start
        self.props = []  # (ident, start, end, [(value start, value end)])
        self.end = start + 1

    def find(self, ident):
        return [prop for prop in self.props if prop[0] == ident]


def sgf_trees(text, name):
    """The game trees of an SGF collection: each {"nodes": [SgfNode], "children": [tree]}."""
    trees, stack, at = [], [], 0

    def fail(where, problem):
        raise AnnotateError("%s line %d: %s" % (name, line_of(text, where), problem))

    def skip(at):
        while at < len(text) and text[at] in SPACE:
            at += 1
        return at

    while True:
        at = skip(at)
        if at == len(text):
            break
        char = text[at]
        if char == "(":
            tree = {"nodes": [], "children": [], "start": at}
            (stack[-1]["children"] if stack else trees).append(tree)
            stack.append(tree)
            at += 1
        elif char == ")" and stack:
            if not stack[-1]["nodes"]:
                fail(at, "a game tree without a node")
            stack.pop()
            at += 1
        elif char == ";" and stack:
            if stack[-1]["children"]:
                fail(at, "a node after a variation")
            node = SgfNode(at)
            at = skip(at + 1)
            while at < len(text) and text[at].isalpha() and text[at].isascii():
                ident_at = at
                while at < len(text) and text[at].isalpha() and text[at].isascii():
                    at += 1
                raw = text[ident_at:at]
                ident = "".join(c for c in raw if c.isupper())  # FF[3]'s "AddBlack" is AB
                values = []
                at = skip(at)
                while at < len(text) and text[at] == "[":
                    value_at = at + 1
                    at = value_at
                    while at < len(text) and text[at] != "]":
                        at += 2 if text[at] == "\\" else 1
                    if at >= len(text):
                        fail(value_at - 1, "a property value opened here is never closed")
                    values.append((value_at, at))
                    at += 1
                    node.end = at
                    at = skip(at)
                if not values:
                    fail(at, "expected '[' opening a value of %s" % raw)
                node.props.append((ident, ident_at, node.end, values))
            stack[-1]["nodes"].append(node)
        elif stack:
            fail(at, "expected ';', '(' or ')', found '%s'" % shown(char))
        else:
            fail(at, "expected '(' opening a game tree, found '%s'" % shown(char))
    if stack:
        fail(stack[-1]["start"], "the game tree opened here is never closed")
    return trees


def main_line(tree):
    nodes = []
    while tree is not None:
        nodes += tree["nodes"]
        tree = tree["children"][0] if tree["children"] else None
    return nodes


def annotate_sgf(text, record, number, name, note):
    tree = pick(sgf_trees(text, name), number, name, "SGF")
    if record.untimed:
        raise record.untimed_refusal("BL/WL")
    nodes = main_line(tree)
    moves = []  # (node, colour, the move property)
    for node in nodes:
        played = node.find("B") + node.find("W")
        if len(played) > 1 or (played and len(played[0][3]) > 1):
            raise AnnotateError(
                "%s line %d: a node with more than one move" % (name, line_of(text, node.start))
            )
        if played:
            moves.append((node, played[0][0], played[0]))

    def describe(move):
        _ident, start, end, _values = move[2]
        return "%s, line %d" % (shown(text[start:end]), line_of(text, start))

    for index in range(1, len(moves)):
        if moves[index][1] == moves[index - 1][1]:
            raise AnnotateError(
                "the SGF's main line does not alternate: move %d (%s) is %s's, as is move %d"
                % (index + 1, describe(moves[index]), moves[index][1], index)
            )
    record.check_count(moves, "SGF", ("move", "moves"), describe)
    edits = []
    root = nodes[0]
    times, problem = record.formatted(sgf)
    if problem is not None:
        kept = "left as they were" if root.find("TM") + root.find("OT") else "not written"
        note("TM and OT are %s: %s (preset %s)" % (kept, problem, record.preset))
    else:
        edits += replaced(root, ("TM", "OT"), times)
    for (node, colour, prop), (_number, _side, _elapsed, figures) in zip(moves, record.plies):
        said = "%sL[%s]" % (colour, seconds_text(figures["remaining_ms"]))
        left = figures.get("periods_left")
        if left is None:
            left = figures.get("moves_left")
        if left is not None:
            said += "O%s[%d]" % (colour, left)
        edits += replaced(node, ("BL", "WL", "OB", "OW"), "")
        edits.append((prop[2], prop[2], said))
    return edited(text, edits)


def replaced(node, idents, text):
    """Edits that take a node's properties of these names out (the space before them too) and
    put `text` where the first was, or after the last property."""
    edits, previous = [], node.start + 1
    for ident, start, end, _values in node.props:
        if ident in idents:
            edits.append((start, end, text) if text else (previous, end, ""))
            text = ""
        previous = end
    if text:
        edits.append((node.end, node.end, text))
    return edits
