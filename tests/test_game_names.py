"""No game's name in the library's code: game knowledge lives in specs, the engine holds only mechanisms.

Every identifier (a module, function, class, argument or attribute name, an
imported name) and every string the code uses is searched for the name of a
bundled game, or of one of the games still to come. Documentation (a module's,
class's, function's or attribute's docstring, and comments) may name games as
examples; the code may not branch on one, name a module after one, or write
one into a message. The spec loader finds the bundled games by listing
``specs/`` and names none.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from trickrules.spec.loader import bundled_names

SRC = Path(__file__).resolve().parents[1] / "src" / "trickrules"
#: Games the issues name that are not bundled yet: a module must not be named after them either.
COMING = ("bridge", "skat", "tarok")


def _game_names() -> set[str]:
    names = set(COMING)
    for bundled in bundled_names():
        base = bundled.split("-")[0] if bundled != "oh-hell" else bundled
        names |= {bundled, base, bundled.replace("-", "_")}
    return names


def _pattern(names: set[str]) -> re.Pattern[str]:
    spelled = (re.escape(n).replace("\\-", "[-_ ]").replace("_", "[-_ ]") for n in names)  # oh-hell, oh_hell
    alternatives = "|".join(sorted(spelled, key=len, reverse=True))
    return re.compile(rf"(?<![a-z])({alternatives})(?![a-z])", re.IGNORECASE)


def _documentation(tree: ast.Module) -> set[int]:
    """The string constants that are documentation: any string standing alone as a statement."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    }


def _words(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of every identifier and non-documentation string of a module, and its own name."""
    yield 0, path.stem
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _documentation(tree)
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            yield line, node.value
        elif isinstance(node, ast.Name):
            yield line, node.id
        elif isinstance(node, ast.Attribute):
            yield line, node.attr
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield line, node.name
        elif isinstance(node, ast.arg):
            yield line, node.arg
        elif isinstance(node, ast.alias):
            yield line, node.name
            if node.asname:
                yield line, node.asname
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield line, node.module


def _found(root: Path) -> list[str]:
    pattern = _pattern(_game_names())
    return [
        f"{path.relative_to(root.parent)}:{line}: {text[:80]!r}"
        for path in sorted(root.rglob("*.py"))
        for line, text in _words(path)
        if pattern.search(text)
    ]


def test_no_game_is_named_in_the_library_s_code() -> None:
    assert _found(SRC) == []


def test_the_search_finds_a_game_s_name(tmp_path: Path) -> None:
    """A module that branches on a game's name, or is named after one, is found; its documentation is not."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "ok.py").write_text('"""Plays Quadrille\'s Remise."""\n\nX = 1\n"""As Manille scores it."""\n')
    (package / "branches.py").write_text('def f(name: str) -> int:\n    return 1 if name == "manille" else 0\n')
    (package / "skat_rules.py").write_text("Y = 2\n")
    (package / "calls.py").write_text("def g(x: object) -> object:\n    return x.oh_hell_size\n")
    found = _found(package)
    assert [f.split(":")[0] for f in found] == ["pkg/branches.py", "pkg/calls.py", "pkg/skat_rules.py"]
