# SPDX-License-Identifier: MIT
# No import cycle among the modules of firmware/, hal/ and boards/: their import statements read
# with ast, those at module level and the lazy ones inside functions (loaded at first use, they
# close a cycle all the same) reported apart. An import names the module it needs (`from a
# import b` names a.b when that is a module, else a); the parent packages Python loads first
# are not counted, so a package may load its own submodules lazily (notation.parse does).
import ast
import importlib
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Where each tree's modules are found: firmware/ is on the board's path, hal/ and boards/ are
# packages at its root.
TREES = (("firmware", ""), ("hal", "hal"), ("boards", "boards"))
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def project_modules():
    """{dotted module name: its file}: firmware/app/runner.py is app.runner."""
    found = {}
    for tree, package in TREES:
        for folder, _dirs, files in os.walk(os.path.join(ROOT, tree)):
            for name in files:
                if not name.endswith(".py"):
                    continue
                path = os.path.join(folder, name)
                parts = os.path.relpath(path, os.path.join(ROOT, tree))[:-3].split(os.sep)
                if parts[-1] == "__init__":
                    parts.pop()
                found[".".join(([package] if package else []) + parts)] = path
    return found


def imports(node, lazy=False):
    """(ast import node, whether it runs only when a function is called), in the tree `node`."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child, lazy
        yield from imports(child, lazy or isinstance(child, FUNCTIONS))


def imported_names(name, path, node, modules):
    """The dotted names of the modules an import statement of module `name` (in file `path`)
    needs."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = name.split(".")
        if not path.endswith("__init__.py"):
            package.pop()
        package = package[: len(package) - node.level + 1]
        base = ".".join(package + ([base] if base else []))
    found = []
    for alias in node.names:
        dotted = base + "." + alias.name if base + "." + alias.name in modules else base
        if dotted not in found:
            found.append(dotted)
    return found


def import_graph():
    """{module: {module it imports: True if only lazily}}, among the project's modules; and the
    imports of a project package that name no module of it."""
    modules = project_modules()
    packages = {name.split(".")[0] for name in modules}
    graph = {name: {} for name in modules}
    unknown = []
    for name, path in modules.items():
        with open(path) as source:
            tree = ast.parse(source.read(), path)
        for node, lazy in imports(tree):
            for dotted in imported_names(name, path, node, modules):
                if dotted in modules:
                    if dotted != name:
                        graph[name][dotted] = graph[name].get(dotted, True) and lazy
                elif dotted.split(".")[0] in packages:
                    unknown.append("%s imports %s" % (name, dotted))
    return graph, unknown


def cycles(graph):
    """The strongly connected components of more than one module (Tarjan), sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(module):
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in graph[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(found)


def describe(graph, components):
    lines = []
    for component in components:
        edges = [
            "%s -> %s%s" % (module, target, " (lazy)" if graph[module][target] else "")
            for module in component
            for target in sorted(graph[module])
            if target in component
        ]
        lines.append("cycle among %s: %s" % (", ".join(component), "; ".join(edges)))
    return "\n".join(lines)


def test_every_import_of_a_project_package_names_one_of_its_modules():
    graph, unknown = import_graph()
    assert unknown == []
    assert graph["app.commands"]["app.clock_app"] is False  # at module level
    assert graph["app.runner"]["app.serial_channel"] is True  # inside a function
    assert graph["app.runner"]["hal.buttons"] is False  # from hal import buttons
    assert graph["notation"]["notation.registry"] is True


def test_no_import_cycle_at_module_level():
    graph, _ = import_graph()
    eager = {
        module: {target: False for target, lazy in targets.items() if not lazy}
        for module, targets in graph.items()
    }
    found = cycles(eager)
    assert found == [], describe(eager, found)


def test_no_import_cycle_through_lazy_imports_either():
    graph, _ = import_graph()
    found = cycles(graph)
    assert found == [], describe(graph, found)


def test_the_cycle_finder_finds_one_closed_by_a_lazy_import():
    graph = {"a": {"b": False}, "b": {"c": False}, "c": {"a": True}, "d": {"a": False}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert describe(graph, cycles(graph)) == "cycle among a, b, c: a -> b; b -> c; c -> a (lazy)"


def test_every_module_but_main_imports_under_cpython():
    for name in sorted(project_modules()):
        if name != "main":  # main.py starts the clock
            importlib.import_module(name)


def test_every_name_imported_from_a_project_module_is_there():
    """main.py included, which no other test runs: its LeaveForRepl, say."""
    modules = project_modules()
    missing = []
    for name, path in sorted(modules.items()):
        with open(path) as source:
            tree = ast.parse(source.read(), path)
        for node, _lazy in imports(tree):
            if not isinstance(node, ast.ImportFrom) or node.level or node.module not in modules:
                continue
            module = importlib.import_module(node.module)
            for alias in node.names:
                dotted = node.module + "." + alias.name
                if dotted not in modules and not hasattr(module, alias.name):
                    missing.append("%s: from %s import %s" % (name, node.module, alias.name))
    assert missing == []
