"""The house's shape, read from the code's own imports: no import circle and no private name
imported across modules, anywhere in the product.

An import inside a function counts like one at the top of a module: hiding an import in a function
is how a circle used to be dodged, and it is still a circle. Imports under ``if TYPE_CHECKING:``
count too (the types then form a circle for the reader, if not for Python).

The floors themselves (who may import whom) are import-linter's contracts in ``pyproject.toml``,
which ``.ci/run`` checks with ``lint-imports``. Run this file as a script to print the counts the
README's Layout section quotes: ``python tests/test_architecture.py``.
"""

from __future__ import annotations

import ast
import functools
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

# The repository: the folder above this file that holds pyproject.toml, wherever the test sits.
ROOT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").is_file())
# Each floor's package, as pyproject.toml's import-linter root_packages lists them.
FLOORS = ("engine", "ai", "render", "db", "service", "bot", "cli")


@dataclass
class Graph:
    modules: dict[str, Path]
    edges: dict[str, set[str]] = field(default_factory=dict)
    private: list[tuple[str, str, str]] = field(default_factory=list)
    imports_in_functions: int = 0


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for floor in FLOORS:
        for path in sorted((ROOT / floor).rglob("*.py")):
            if "migrations" in path.parts and "versions" in path.parts:
                continue  # Alembic's revisions are scripts it loads by path, not modules we import
            found[_module_name(path)] = path
    return found


def _absolute(module: str, is_package: bool, level: int, name: str | None) -> str:
    if not level:
        return name or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def _owner(target: str, modules: dict[str, Path]) -> str | None:
    """The product module that ``target`` (a module or a name inside one) belongs to."""
    while target not in modules:
        if "." not in target:
            return None
        target = target.rsplit(".", 1)[0]
    return target


def _imports(tree: ast.AST) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement, and whether it sits inside a function."""

    def walk(node: ast.AST, in_function: bool) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child, in_function
            yield from walk(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))

    return walk(tree, False)


def build() -> Graph:
    graph = Graph(_modules())
    for module, path in graph.modules.items():
        is_package = path.name == "__init__.py"
        targets: set[str] = set()
        for node, in_function in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            graph.imports_in_functions += in_function
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
                continue
            base = _absolute(module, is_package, node.level, node.module)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.add(sub if sub in graph.modules else base)
                private = alias.name.startswith("_") and not alias.name.startswith("__")
                if private and _owner(base, graph.modules) is not None:
                    graph.private.append((module, base, alias.name))
        graph.edges[module] = {t for t in map(lambda t: _owner(t, graph.modules), targets) if t} - {module}
    return graph


def circles(graph: Graph) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in graph.modules:
        if start in index:
            continue
        work = [(start, iter(sorted(graph.edges.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.edges.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
    return found


@functools.cache
def product_graph() -> Graph:
    """The product's graph, built once for the tests that read it (the code does not change
    during a run; parsing every module is most of these tests' cost)."""
    return build()


def test_no_import_circle() -> None:
    assert circles(product_graph()) == []


def test_no_private_name_is_imported_from_another_module() -> None:
    assert product_graph().private == []


def unexplained_type_ignores() -> list[str]:
    """``# type: ignore`` lines that do not name the error they silence and say why after it."""
    found = []
    for path in _modules().values():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            at = line.find("# type: ignore")
            if at < 0:
                continue
            rest = line[at + len("# type: ignore"):]
            named = rest.startswith("[") and "]" in rest
            reason = named and rest[rest.index("]") + 1:].strip().startswith("#") and len(rest[rest.index("]") + 1:].strip()) > 3
            if not (named and reason):
                found.append(f"{path.relative_to(ROOT)}:{number}")
    return found


def test_every_type_ignore_names_its_error_and_says_why() -> None:
    assert unexplained_type_ignores() == []


def test_the_graph_sees_a_circle_and_a_private_name(tmp_path: Path) -> None:
    """The checks can fail: two modules that import each other form a circle, ``_x`` is private."""
    graph = Graph({"p.a": tmp_path / "a.py", "p.b": tmp_path / "b.py"})
    graph.edges = {"p.a": {"p.b"}, "p.b": {"p.a"}}
    assert circles(graph) == [["p.a", "p.b"]]
    module = ast.parse("from p.b import _x\n")
    (node, in_function), = _imports(module)
    assert isinstance(node, ast.ImportFrom) and node.names[0].name == "_x" and not in_function


if __name__ == "__main__":
    g = build()
    print(f"{len(g.modules)} modules; {len(circles(g))} import circles; "
          f"{len(g.private)} private names imported across modules; "
          f"{g.imports_in_functions} imports inside functions; "
          f"{len(unexplained_type_ignores())} unexplained '# type: ignore'")
    for group in circles(g):
        print("  circle:", " <-> ".join(group))
    for module, base, name in g.private:
        print(f"  private: {module} imports {name} from {base}")
    sys.exit(0)
