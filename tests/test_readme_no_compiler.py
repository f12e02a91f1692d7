"""The README's first command works from a fresh clone with no C compiler on PATH (issue #26: pip alone).

The library is pure Python, and stays installable by pip alone: a user with
Python 3.11+ and pip, and no compiler, gets everything from the README's
first command, the native kernel included (Numba's wheels bring LLVM): the
test compiles it from an empty cache in that environment and simulates on
it. The command is read from the README itself (the first line of its first
code block) and run in a fresh clone of this repository, with a
PATH that holds nothing but ``python3``, so that no ``cc``, ``gcc`` or ``ld``
could be found by anything the install runs.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _first_command() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```bash\n(.*?)```", text, re.S)
    assert block is not None, "the README has no bash code block"
    return block.group(1).strip().splitlines()[0]


def test_the_first_command_is_the_one_that_plays_a_bundled_game() -> None:
    command = _first_command()
    assert command.startswith("python3 -m venv .venv && .venv/bin/pip install")
    assert "trickrules play" in command


@pytest.mark.skipif(shutil.which("git") is None, reason="git is needed to make a fresh clone")
def test_the_first_command_works_in_a_fresh_clone_without_a_compiler(tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    cloned = subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], capture_output=True, text=True, check=False)
    assert cloned.returncode == 0, cloned.stderr
    only_python = tmp_path / "bin"
    only_python.mkdir()
    (only_python / "python3").symlink_to(Path(sys.executable).resolve())
    path = str(only_python)
    for tool in ("cc", "gcc", "clang", "ld", "make"):
        assert shutil.which(tool, path=path) is None
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "CC", "CXX")}
    env["PATH"] = path
    bash = shutil.which("bash") or "/bin/bash"
    done = subprocess.run(
        [bash, "-c", _first_command()], cwd=clone, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Match over" in done.stdout
    # The same environment has the native kernel: compiled here from an empty cache, with no compiler on PATH,
    # and used (a fallback to the engine would warn, and warnings are errors here).
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "numba-cache")
    check = (
        "import warnings; warnings.simplefilter('error'); import trickrules; "
        "r = trickrules.simulate('manille', deals=20, seed=1); print('kernel', r.statistics.deals)"
    )
    ran = subprocess.run(
        [str(clone / ".venv/bin/python"), "-c", check], cwd=clone, env=env, capture_output=True, text=True,
        timeout=600, check=False,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert ran.stdout.startswith("kernel ")
