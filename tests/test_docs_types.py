"""Every example in the documentation type-checks under ``mypy --strict``, as the library's own code does.

The Python code blocks of ``README.md`` and ``docs/*.md`` (``>>>`` examples and
plain programs) are gathered, one module per page in the page's order (the
examples of a page share one namespace, as its doctests do), and checked in
one mypy run. A block whose first line is a comment naming a source file
(``# engine/phases/passing.py ...``) is an excerpt shown to explain that file,
not an example, and is left out.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_BLOCK = re.compile(r"^```(?:python|pycon)\n(.*?)^```", re.S | re.M)
_EXCERPT = re.compile(r"#\s*\S+\.py\b")


def program_of(page: str) -> str:
    """The page's examples as one module: ``>>>`` and ``...`` lines unprefixed, their output left out."""
    lines: list[str] = []
    for block in _BLOCK.findall(page):
        first = block.lstrip().splitlines()[0] if block.strip() else ""
        if _EXCERPT.match(first):
            continue
        if ">>>" in block:
            for line in block.splitlines():
                if line.startswith((">>> ", "... ")) or line in (">>>", "..."):
                    lines.append(line[4:])
        else:
            lines += block.splitlines()
        lines.append("")
    return "\n".join(lines)


def test_the_gathering_keeps_code_and_drops_output_and_excerpts() -> None:
    page = "```python\n>>> x = 1\n>>> for i in range(2):\n...     x += i\n>>> x\n2\n```\n"
    page += "```python\n# engine/phases/passing.py (illustration)\nreturn 1\n```\n"
    page += "```python\ny: int = 'no'\n```\n"
    assert program_of(page).split() == ["x", "=", "1", "for", "i", "in", "range(2):", "x", "+=", "i", "x", "y:", "int",
                                         "=", "'no'"]  # fmt: skip


def test_every_docs_example_type_checks_under_mypy_strict(tmp_path: Path) -> None:
    written = []
    for page in PAGES:
        program = program_of(page.read_text(encoding="utf-8"))
        if program.strip():
            target = tmp_path / f"{page.stem.replace('-', '_')}_md.py"
            target.write_text(program, encoding="utf-8")
            written.append(target)
    assert len(written) >= 8, [p.name for p in written]  # the pages with examples are found
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--cache-dir", str(tmp_path / "cache"),
         *map(str, written)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_type_error_in_an_example_is_found(tmp_path: Path) -> None:
    # The check can fail: an example that passes None where a seat is needed is reported.
    page = "```python\n>>> import trickrules\n>>> state = trickrules.load('manille').new_match(seed=1)\n"
    page += ">>> trickrules.View.from_state(state, state.to_move)\n```\n"
    target = tmp_path / "bad_md.py"
    target.write_text(program_of(page), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), str(target)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert 'incompatible type "int | None"' in done.stdout
