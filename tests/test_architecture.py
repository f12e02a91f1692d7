"""The shape of the code: layers, import cycles, sizes, and no ``__class__`` swapping.

The layer rules live in ``[tool.importlinter]`` in pyproject.toml and are
checked by import-linter. Import-linter leaves out imports under
``if TYPE_CHECKING:`` (they never run), and so does the cycle check here, but
the cycle check counts imports made inside functions too: a lazy import is
still a dependency, it only hides the cycle until the function runs.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
PACKAGE = SRC / "trickrules"

MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    """Every module of the package, by dotted name."""
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _is_type_checking(test: ast.expr) -> bool:
    """``TYPE_CHECKING`` or ``typing.TYPE_CHECKING`` (or any ``x.TYPE_CHECKING``)."""
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _runtime_imports(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements under ``node`` that can run, at any depth (functions too).

    The body of ``if TYPE_CHECKING:`` is skipped; its ``else:`` branch runs, so it is kept.
    """
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
        return
    if isinstance(node, ast.If) and _is_type_checking(node.test):
        children: list[ast.AST] = list(node.orelse)
    else:
        children = list(ast.iter_child_nodes(node))
    for child in children:
        yield from _runtime_imports(child)


def _imported_modules(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package modules that ``name`` imports by an explicit, runtime import statement.

    ``from a.b import c`` imports module ``a.b.c`` if there is one, else module ``a.b``.
    Importing ``a.b.c`` also runs ``a/__init__`` and ``a/b/__init__``, but those implied
    imports are not counted: only what the statements name.
    """
    is_package = path.name == "__init__.py"
    imported: set[str] = set()
    for stmt in _runtime_imports(_parse(path)):
        if isinstance(stmt, ast.Import):
            imported.update(alias.name for alias in stmt.names)
            continue
        base = stmt.module or ""
        if stmt.level:
            # `from . import x` in a.b.m (or in a/b/__init__) means package a.b.
            anchor = name.split(".") if is_package else name.split(".")[:-1]
            anchor = anchor[: len(anchor) - (stmt.level - 1)]
            base = ".".join([*anchor, base] if base else anchor)
        for alias in stmt.names:
            submodule = f"{base}.{alias.name}"
            imported.add(submodule if submodule in modules else base)
    return {module for module in imported if module in modules and module != name}


def _find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path that ends where it starts, or None if it is acyclic."""
    done: set[str] = set()
    for start in sorted(graph):
        if start in done:
            continue
        # Iterative depth-first search; `path` is the current chain, `on_path` its members.
        path = [start]
        on_path = {start}
        stack = [iter(sorted(graph[start]))]
        while stack:
            successor = next(stack[-1], None)
            if successor is None:
                stack.pop()
                done.add(path[-1])
                on_path.discard(path.pop())
            elif successor in on_path:
                return [*path[path.index(successor) :], successor]
            elif successor not in done:
                path.append(successor)
                on_path.add(successor)
                stack.append(iter(sorted(graph[successor])))
    return None


def test_import_linter_contracts_are_kept() -> None:
    if importlib.util.find_spec("importlinter") is None:
        pytest.skip("import-linter is not installed (pip install -e '.[test]'); the layer contracts were not checked")
    bin_dir = Path(sys.executable).parent
    lint_imports = shutil.which("lint-imports", path=str(bin_dir))
    if lint_imports is None:
        command = [sys.executable, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()"]
    else:
        command = [lint_imports]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")]))}
    result = subprocess.run(
        [*command, "--no-cache", "--no-logo", str(ROOT / "pyproject.toml")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, f"lint-imports found broken contracts:\n{output}"
    assert "0 broken" in output, output


def test_no_import_cycles_counting_lazy_imports() -> None:
    modules = _modules()
    graph = {name: _imported_modules(name, path, modules) for name, path in modules.items()}
    cycle = _find_cycle(graph)
    assert cycle is None, "import cycle (imports inside functions count): " + " -> ".join(cycle or [])


def test_cycle_finder_reports_a_cycle() -> None:
    assert _find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert _find_cycle({"a": {"b"}, "b": {"c"}, "c": {"b"}}) == ["b", "c", "b"]


def _functions(tree: ast.Module) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function and method, nested ones too, with its qualified name (``Class.method``)."""

    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                yield prefix + child.name, child
                yield from walk(child, f"{prefix}{child.name}.<locals>.")
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, f"{prefix}{child.name}.")
            else:
                yield from walk(child, prefix)

    return walk(tree, "")


def test_modules_and_functions_are_small() -> None:
    offenders: list[str] = []
    for path in _modules().values():
        shown = path.relative_to(ROOT).as_posix()
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_MODULE_LINES:
            offenders.append(f"{shown}:1: module is {lines} lines (limit {MAX_MODULE_LINES})")
        for name, node in _functions(_parse(path)):
            # `lineno` is the `def` line, after any decorators.
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                offenders.append(
                    f"{shown}:{node.lineno}: function {name} is {length} lines (limit {MAX_FUNCTION_LINES})"
                )
    assert not offenders, "too long:\n" + "\n".join(offenders)


def _assigns_class(node: ast.AST) -> bool:
    if isinstance(node, ast.Attribute):
        # Store covers `x.__class__ = ...`, `+=`, annotated assignment, for/with targets.
        return node.attr == "__class__" and isinstance(node.ctx, ast.Store)
    if isinstance(node, ast.Call):
        func = node.func
        called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if called in ("setattr", "__setattr__"):
            return any(isinstance(arg, ast.Constant) and arg.value == "__class__" for arg in node.args)
    return False


def test_nothing_assigns_to_dunder_class() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
        for path in sorted(SRC.rglob("*.py"))
        for node in ast.walk(_parse(path))
        if _assigns_class(node)
    ]
    assert not offenders, "assigns to __class__:\n" + "\n".join(offenders)


def _private_reads(tree: ast.Module) -> Iterator[ast.Attribute]:
    """``x._name`` where ``x`` is not ``self``, ``cls`` or an imported module (``argparse._SubParsersAction``).

    Dunders such as ``__doc__`` are not private; ``self.game._shared`` is a reach-in.
    """
    modules = {(a.asname or a.name) for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    allowed = {"self", "cls", *modules}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_") or node.attr.startswith("__"):
            continue
        if ast.unparse(node.value) not in allowed:
            yield node


def test_front_ends_and_records_read_no_private_attribute() -> None:
    # The faces and records layers use the engine through its public (or typed internal) functions,
    # such as State.part or a mechanism module's reader, and never reach into a game's or a state's private fields.
    offenders = [
        f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}"
        for layer in ("faces", "records")
        for path in sorted((PACKAGE / layer).rglob("*.py"))
        for node in _private_reads(_parse(path))
    ]
    assert not offenders, "private attribute read from outside its class:\n" + "\n".join(offenders)


def test_private_read_finder_sees_a_reach_in() -> None:
    source = "import argparse\ngame._shared.x; self.game._tables; self._y; cls._z; f.__doc__; argparse._Action"
    found = sorted(ast.unparse(n) for n in _private_reads(ast.parse(source)))
    assert found == ["game._shared", "self.game._tables"]
