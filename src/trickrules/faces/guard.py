"""The checks the command line makes on every path it is given, and the reading and writing that go with them.

Every path a command reads or writes must be a regular file: a folder, a
named pipe (FIFO), a device or a socket is refused with one line, before any
work. A pipe would make the command wait for a writer or a reader that may
never come; a device would be read without end or written into. Files are
opened with ``O_NONBLOCK`` and checked again once open (``fstat``), so a path
swapped for a pipe between the check and the opening still cannot block.

An output is never one of the command's inputs: the same file however it is
reached (a symbolic or a hard link included) is refused, so that no command
destroys what it reads (``replay a.jsonl --html a.jsonl``). An existing log is
replaced only when ``--force`` says so.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> log = os.path.join(folder, "a.jsonl")
>>> write_output(log, "{}", "--log")
>>> os.link(log, os.path.join(folder, "b.jsonl"))
>>> output_path(os.path.join(folder, "b.jsonl"), "--html", inputs=[log])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
trickrules.errors.ArgumentError: --html: '...b.jsonl' is the same file as '...a.jsonl', an input of this command: ...
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from trickrules.errors import ArgumentError, TrickrulesError
from trickrules.spec.files import kind, open_regular

__all__ = ["input_file", "output_path", "read_input", "same_file", "write_output"]


def _named(path: str, flag: str | None) -> str:
    return f"{flag}: {path!r}" if flag else repr(path)


def input_file(path: str, flag: str | None = None) -> str:
    """``path``, if it is a regular file that exists; :class:`ArgumentError` naming ``flag`` if not.

    Nothing is opened: the file's status is read, so a named pipe is refused
    without waiting for a writer.
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise ArgumentError(f"{_named(path, flag)} is not a file that exists") from None
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not a path"
        raise ArgumentError(f"{_named(path, flag)} cannot be read ({reason})") from None
    if not stat.S_ISREG(info.st_mode):
        raise ArgumentError(f"{_named(path, flag)} cannot be read (not a regular file: {kind(info.st_mode)})")
    return path


def read_input(
    path: str | os.PathLike[str],
    flag: str | None = None,
    limit: int | None = None,
    error: type[TrickrulesError] = ArgumentError,
) -> bytes:
    """The bytes of the regular file at ``path`` (at most ``limit + 1`` of them, so a caller sees one too many).

    Opened without blocking and checked once open: a named pipe, a device or
    a folder is refused with ``error`` (naming ``flag``), before anything is
    read from it.
    """
    where = _named(os.fspath(path), flag)
    fd, _ = open_regular(path, lambda reason: error(f"{where} cannot be read ({reason})"))
    try:
        chunks = []
        left = -1 if limit is None else limit + 1
        while left:
            chunk = os.read(fd, 1 << 16 if left < 0 else min(left, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            left = left - len(chunk) if left > 0 else left
    except OSError as exc:
        raise error(f"{where} cannot be read ({exc.strerror})") from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def same_file(a: str, b: str) -> bool:
    """Whether the paths ``a`` and ``b`` name the same existing file (links followed; by device and inode)."""
    try:
        first, second = os.stat(a), os.stat(b)
    except (OSError, ValueError):
        return False
    return (first.st_dev, first.st_ino) == (second.st_dev, second.st_ino)


def output_path(path: str | None, flag: str, *, inputs: Iterable[str | None] = (), force: bool = True) -> None:
    """Refuse, before any work, an output ``path`` that cannot or must not be written; :class:`ArgumentError` if so.

    Refused: a path that is one of ``inputs`` (the same file, by device and
    inode), a folder, a named pipe, a device, a file in a folder that is
    missing or locked, and, unless ``force``, a file that exists.
    """
    if path is None:
        return
    for given in inputs:
        if given is not None and same_file(path, given):
            same = os.path.abspath(path) == os.path.abspath(given)
            what = "an input" if same else f"the same file as {given!r}, an input"
            raise ArgumentError(f"{flag}: {path!r} is {what} of this command: writing it would destroy what it reads")
    target = Path(path)
    try:
        info: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        info = None
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not a path"
        raise ArgumentError(f"{flag}: {path!r} cannot be written ({reason})") from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise ArgumentError(f"{flag}: {path!r} is a folder")
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise ArgumentError(f"{flag}: {path!r} cannot be written (not a regular file: {kind(info.st_mode)})")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise ArgumentError(f"{flag}: {path!r} cannot be written (no folder {str(folder)!r})")
    if not os.access(folder, os.W_OK) or (info is not None and not os.access(path, os.W_OK)):
        raise ArgumentError(f"{flag}: {path!r} cannot be written (permission denied)")
    if info is not None and not force:
        raise ArgumentError(f"{flag}: {path!r} exists; give --force to replace it")


def write_output(path: str, text: str, flag: str) -> None:
    """Write ``text`` (UTF-8) to the regular file at ``path``, created if missing; :class:`ArgumentError` if not.

    Opened without blocking and checked once open: a named pipe (with or
    without a reader), a device or a folder is refused and nothing is
    written to it. The file is emptied only once it is known to be a
    regular one.
    """
    where = _named(path, flag)
    fd, _ = open_regular(path, lambda reason: ArgumentError(f"{where} cannot be written ({reason})"), write=True)
    try:
        os.ftruncate(fd, 0)
        data = memoryview(text.encode("utf-8"))
        while data:
            data = data[os.write(fd, data) :]
    except OSError as exc:
        raise ArgumentError(f"{flag}: {path!r} cannot be written ({exc.strerror})") from None
    finally:
        os.close(fd)
