"""Numba's ``njit`` as the kernel uses it: compiled once, cached on disk where a cache can be written.

Every kernel function is decorated with :func:`native`. Numba compiles it
on its first call and keeps the machine code in a cache on disk (beside the
module, or in the user's cache directory where the package's own directory
cannot be written, as in a read-only installation); where neither can be
written, it is compiled in memory at each process start instead of failing.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numba

__all__ = ["native"]

_F = TypeVar("_F", bound=Callable[..., Any])


def _cache_dir() -> str | None:
    """Where Numba may cache: ``NUMBA_CACHE_DIR`` if set, else beside the package or in the user's cache."""
    given = os.environ.get("NUMBA_CACHE_DIR")
    if given:
        return given
    here = Path(__file__).resolve().parent
    if os.access(here, os.W_OK):
        return None  # Numba's default: __pycache__ beside the module
    for base in (os.environ.get("XDG_CACHE_HOME"), str(Path.home() / ".cache"), tempfile.gettempdir()):
        if base and os.access(base, os.W_OK):
            return str(Path(base) / "trickrules-numba")
    return ""  # nowhere: compile in memory


_WHERE = _cache_dir()
if _WHERE:
    setattr(numba.config, "CACHE_DIR", _WHERE)  # noqa: B010 - read when a function is first cached (untyped)


def native(fn: _F) -> _F:
    """``fn`` compiled by ``numba.njit``, cached on disk where possible."""
    return cast(_F, numba.njit(cache=_WHERE != "", nogil=True)(fn))
