"""Numba's ``njit`` as the kernel uses it: compiled once, cached on disk under a digest of the kernel's sources.

Every kernel function is decorated with :func:`native`. Numba compiles it
on its first call and keeps the machine code in a cache on disk. Numba
checks a cached function against its own module's file only: a function
that calls into another module (the scoring calls the formulas) keeps the
callee's old code after that module changes. So the cache lives in a
directory named by a digest of every source file of :mod:`trickrules.native`,
of ``compile/variables.py`` (whose variables' indices it bakes in) and of
Numba's version: any change to the kernel, an upgrade of the library
included, starts a fresh cache. The directory is ``NUMBA_CACHE_DIR`` where
set, else the user's cache directory (``$XDG_CACHE_HOME`` or ``~/.cache``),
else the system's temporary directory; where none can be written, the
kernel is compiled in memory at each process start instead of failing.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numba

__all__ = ["CACHE_DIR", "native", "native_alloc"]

_F = TypeVar("_F", bound=Callable[..., Any])


def _digest() -> str:
    """A digest of the kernel's sources and Numba's version."""
    h = hashlib.blake2b(numba.__version__.encode(), digest_size=8)
    here = Path(__file__).resolve().parent
    # The kernel bakes in the formula variables' indices (compile/variables.py) as constants too.
    for path in (*sorted(here.glob("*.py")), here.parent / "compile" / "variables.py"):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def _cache_dir() -> str:
    """Where the compiled kernel is cached (``""``: nowhere writable, so in memory only)."""
    given = os.environ.get("NUMBA_CACHE_DIR")
    bases = [given] if given else [os.environ.get("XDG_CACHE_HOME"), str(Path.home() / ".cache"), tempfile.gettempdir()]
    for base in bases:
        if not base:
            continue
        where = Path(base) / f"trickrules-native-{_digest()}"
        try:
            where.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if os.access(where, os.W_OK):
            return str(where)
    return ""


#: The directory of the on-disk cache (``""``: none could be written).
CACHE_DIR = _cache_dir()
if CACHE_DIR:
    setattr(numba.config, "CACHE_DIR", CACHE_DIR)  # noqa: B010 - untyped; read when a function is first cached


def _options(nrt: bool) -> dict[str, Any]:
    # ``_nrt`` is Numba's switch of its reference counting (not in its type stubs).
    return {"cache": bool(CACHE_DIR), "nogil": True, "_nrt": nrt}


def native(fn: _F) -> _F:
    """``fn`` compiled by ``numba.njit`` without Numba's reference counting, cached on disk where possible.

    Such a function may not allocate an array (Numba refuses to compile one
    that does): an allocating function is :func:`native_alloc`. Its array
    arguments are its caller's, alive for the call, so counting references to
    them is waste, and it was the kernel's largest cost: every call of a
    function with array arguments made an atomic increment and decrement per
    array. Without it, evaluating the formula ``1`` takes 6 ns instead of 50,
    and a deal of Oh Hell in the kernel 8.8 µs instead of 14.0 (its card play
    1.2 instead of 3.9, its scoring 2.0 instead of 4.0; ``docs/decisions.md``, E14).
    """
    return cast(_F, numba.njit(**_options(nrt=False))(fn))


def native_alloc(fn: _F) -> _F:
    """``fn`` compiled by ``numba.njit`` with Numba's reference counting, for a function that allocates arrays."""
    # Set explicitly: a function called from a native one would otherwise inherit its caller's setting.
    return cast(_F, numba.njit(**_options(nrt=True))(fn))
