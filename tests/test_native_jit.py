"""The kernel's two kinds of compiled function (``native/jit.py``): without reference counting, and allocating."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

numba = pytest.importorskip("numba")

from trickrules.native.jit import native, native_alloc  # noqa: E402 - after the skip

NATIVE = Path(__file__).resolve().parents[1] / "src" / "trickrules" / "native"
SCALARS = {"int", "bool", "float", "None", "np.uint64"}


def _scalar(annotation: str) -> bool:
    """A scalar, or a tuple of scalars (returned by value: no array in it)."""
    if annotation.startswith("tuple[") and annotation.endswith("]"):
        return all(part.strip() in SCALARS for part in annotation[6:-1].split(","))
    return annotation in SCALARS


def _decorated(name: str) -> list[tuple[str, ast.FunctionDef]]:
    found = []
    for path in sorted(NATIVE.glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and any(getattr(d, "id", None) == name for d in node.decorator_list):
                found.append((path.name, node))
    return found


def test_no_function_without_reference_counting_returns_an_array() -> None:
    """Its caller would count a reference it never took, and free the array under another user."""
    returned = [
        f"{file}:{node.name} -> {ast.unparse(node.returns)}"
        for file, node in _decorated("native")
        if node.returns is not None and not _scalar(ast.unparse(node.returns))
    ]
    assert returned == []
    assert len(_decorated("native")) > 50  # the scan found the kernel's functions


def test_a_native_function_that_allocates_does_not_compile() -> None:
    """Numba refuses it, so an allocating function marked ``native`` cannot slip into the kernel."""

    def makes_an_array(n: int) -> int:
        return int(np.zeros(n, dtype=np.int64).sum())

    with pytest.raises(numba.core.errors.NumbaError):
        numba.njit(_nrt=False)(makes_an_array)(3)
    assert native_alloc(makes_an_array)(3) == 0


def test_a_native_function_reads_and_writes_its_caller_s_arrays() -> None:
    def add_into(a: npt.NDArray[np.int64], b: npt.NDArray[np.int64]) -> int:
        for i in range(a.shape[0]):
            a[i] += b[i]
        return int(a.shape[0])

    a, b = np.arange(4, dtype=np.int64), np.ones(4, dtype=np.int64)
    assert native(add_into)(a, b) == 4
    assert a.tolist() == [1, 2, 3, 4]
