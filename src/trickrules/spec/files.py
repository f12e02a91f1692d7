"""Opening a file the library reads or writes: a regular file only, and never waiting on it.

Every path the library or its command line opens goes through :func:`open_regular`:
the file is opened with ``O_NONBLOCK`` (opening a named pipe would otherwise wait
for the other end) and its kind is checked once it is open (``fstat``), so a path
that is, or became, a pipe, a device or a folder is refused before a byte is read
or written. It sits in the spec layer, the lowest, so that the spec loader, the
log reader and the command line share it.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable

__all__ = ["kind", "open_regular"]

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_BINARY = getattr(os, "O_BINARY", 0)


def kind(mode: int) -> str:
    """What a file that is not a regular one is, in words (from its ``st_mode``)."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def open_regular(
    path: str | os.PathLike[str], refuse: Callable[[str], Exception], *, write: bool = False
) -> tuple[int, os.stat_result]:
    """Open ``path`` (for reading, or with ``write`` for writing, created if missing); its descriptor and status.

    ``refuse(reason)`` makes the error raised when it cannot be opened (the
    system's reason) or is not a regular file (``"not a regular file: a named
    pipe"``); the descriptor is closed then. The caller closes it otherwise.
    """
    flags = (os.O_WRONLY | os.O_CREAT if write else os.O_RDONLY) | _NONBLOCK | _BINARY
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as exc:
        raise refuse(exc.strerror or "cannot be opened") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise refuse(f"not a regular file: {kind(info.st_mode)}")
    except OSError as exc:
        os.close(fd)
        raise refuse(exc.strerror or "cannot be opened") from None
    except BaseException:
        os.close(fd)
        raise
    return fd, info
