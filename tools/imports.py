# SPDX-License-Identifier: MIT
# Who imports whom, read from the code itself (grimp, import-linter's graph): the module cycles,
# and the picture in docs/design.md (`make imports` rewrites it, tests/test_layers_host.py checks
# it is the code's).
import os
import sys

import grimp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The board's packages (firmware/ and the root), then the desktop's.
BOARD = ("app", "ui", "notation", "clock", "hal", "boards")
DESKTOP = ("sim", "bench")
DOC = os.path.join(ROOT, "docs", "design.md")
BEGIN = "<!-- imports: made by `make imports` from the code; do not edit by hand -->"
END = "<!-- imports: end -->"


def module_graph(root=ROOT):
    """{module: the project's modules it imports}. A script's bare `import chip` beside it
    (bench/chip/run.py) is the sibling module it names, as Python resolves it."""
    for path in (os.path.join(root, "firmware"), root):
        if path not in sys.path:
            sys.path.insert(0, path)
    graph = grimp.build_graph(*(BOARD + DESKTOP), include_external_packages=True, cache_dir=None)
    ours = {name for name in graph.modules if name.split(".")[0] in BOARD + DESKTOP}
    imports = {}
    for name in ours:
        parent = name.rpartition(".")[0]
        found = set()
        for imported in graph.find_modules_directly_imported_by(name):
            if imported in ours:
                found.add(imported)
            elif parent and parent + "." + imported in ours:
                found.add(parent + "." + imported)
        imports[name] = found
    return imports


def cycles(imports):
    """The groups of modules that import each other round a loop (Tarjan's strongly connected
    components of more than one module, or a module importing itself), sorted."""
    order, low, stack, on_stack, found = {}, {}, [], set(), []
    for start in sorted(imports):
        if start in order:
            continue
        work = [(start, iter(sorted(imports[start])))]
        order[start] = low[start] = len(order)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, rest = work[-1]
            step = next(rest, None)
            if step is not None:
                if step not in order:
                    order[step] = low[step] = len(order)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(imports[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], order[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == order[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1 or node in imports[node]:
                    found.append(sorted(group))
    return sorted(found)


def part(module):
    """The part of the house a module belongs to: its package, hal's chip drivers apart."""
    head = module.split(".")
    if head[0] in ("hal", "sim", "bench") and len(head) > 2 and head[1] in ("rp2040", "chip"):
        return head[0] + "/" + head[1]
    return head[0]


def picture(imports):
    """One line a part: the parts it imports, each with how many of its modules import it."""
    parts = sorted({part(name) for name in imports}, key=_rank)
    rows = []
    for source in parts:
        members = [name for name in imports if part(name) == source]
        counts = {}
        for name in members:
            for target in {part(imported) for imported in imports[name]} - {source}:
                counts[target] = counts.get(target, 0) + 1
        uses = ", ".join(
            "%s (%d)" % (target, counts[target]) for target in sorted(counts, key=_rank)
        )
        rows.append("%-12s %3d modules  imports %s" % (source, len(members), uses or "nothing"))
    return "\n".join(rows)


def _rank(name):
    order = ("bench", "bench/chip", "sim", "app", "ui", "notation", "clock", "boards", "hal")
    base = name.split("/")[0]
    return (order.index(base) if base in order else len(order), name)


def block(imports):
    return "%s\n```\n%s\n```\n%s" % (BEGIN, picture(imports), END)


def doc_with(text, imports):
    head, begin, rest = text.partition(BEGIN)
    _, end, tail = rest.partition(END)
    if not begin or not end:
        raise ValueError("docs/design.md has no imports block (%s ... %s)" % (BEGIN, END))
    return head + block(imports) + tail


def main(argv):
    imports = module_graph()
    loops = cycles(imports)
    with open(DOC, encoding="utf-8") as handle:
        text = handle.read()
    fresh = doc_with(text, imports)
    if fresh != text:
        with open(DOC, "w", encoding="utf-8") as handle:
            handle.write(fresh)
        print("docs/design.md: the imports picture rewritten")
    print(picture(imports))
    for group in loops:
        print("cycle: " + " -> ".join(group), file=sys.stderr)
    return 1 if loops else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
