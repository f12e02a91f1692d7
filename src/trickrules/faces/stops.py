"""How a command stops early: Ctrl-C, a hang-up or a termination signal, a closed standard output.

Whatever stops a command, it stops with one line on stderr and the exit
status a shell expects (128 plus the signal's number: 130 for Ctrl-C, 129 for
a hang-up, 143 for ``kill``, 141 for a closed pipe), never with a traceback,
and what it was making is not lost: ``play`` writes the log of the moves made
so far, and a worker pool is stopped with its processes.

While :func:`stop_signals` is active, SIGHUP and SIGTERM raise :class:`Stopped`
where the program is, the way Ctrl-C raises :class:`KeyboardInterrupt`; it is
a subclass of it, so that every place that handles Ctrl-C handles them too.
Inside :func:`held_signals` (while a log is written) a stop waits, and acts
once the block is left; :func:`released_signals` opens a window in it where
stops act at once (while the match is played).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType
from typing import TextIO

__all__ = [
    "CLOSED_STDOUT",
    "Stdout",
    "Stopped",
    "exit_status",
    "held_signals",
    "pending_stop",
    "released_signals",
    "signal_name",
    "silence",
    "stop_signals",
]

#: The exit status of a command whose standard output was closed (as if SIGPIPE had ended it).
CLOSED_STDOUT = 128 + 13

_SIGNALS = tuple(getattr(signal, name) for name in ("SIGHUP", "SIGTERM") if hasattr(signal, name))


class Stopped(KeyboardInterrupt):
    """A hang-up (SIGHUP) or termination (SIGTERM) signal, raised like Ctrl-C's :class:`KeyboardInterrupt`."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        #: The number of the signal received.
        self.signum = signum


class _Held:
    """Whether stops wait (how deep in :func:`held_signals`), the first one that came meanwhile, and whose they are."""

    depth = 0
    pending: int | None = None
    #: The process that set the handlers: a worker forked from it inherits them until it sets its own.
    owner = os.getpid()


def _stop_for(signum: int) -> KeyboardInterrupt:
    return KeyboardInterrupt() if signum == signal.SIGINT else Stopped(signum)


def _stop(signum: int, frame: FrameType | None) -> None:
    if os.getpid() != _Held.owner:  # a forked worker not yet past its own set-up: the signal does what it says
        if signum != signal.SIGINT:  # Ctrl-C is the command's to act on; SIGTERM and SIGHUP end the worker
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
        return
    if _Held.depth:
        if _Held.pending is None:
            _Held.pending = signum
        return
    raise _stop_for(signum)


def signal_name(stop: KeyboardInterrupt) -> str:
    """How a message names what stopped the command: ``Ctrl-C``, ``SIGHUP`` (a hang-up), ``SIGTERM``."""
    if not isinstance(stop, Stopped):
        return "Ctrl-C"
    return signal.Signals(stop.signum).name


def exit_status(stop: KeyboardInterrupt) -> int:
    """The conventional exit status after ``stop``: 128 plus the signal's number (130 for Ctrl-C)."""
    return 128 + (stop.signum if isinstance(stop, Stopped) else signal.SIGINT)


@contextlib.contextmanager
def stop_signals() -> Iterator[None]:
    """While inside, SIGHUP and SIGTERM raise :class:`Stopped`, Ctrl-C :class:`KeyboardInterrupt`; then as before.

    Inside :func:`held_signals` they wait instead. A signal that was ignored when the command started (``nohup``) stays
    ignored. Outside the main thread (where handlers cannot be set) nothing
    changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {}
    _Held.owner = os.getpid()
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        previous[signal.SIGINT] = signal.signal(signal.SIGINT, _stop)
    for signum in _SIGNALS:
        if signal.getsignal(signum) != signal.SIG_IGN:
            previous[signum] = signal.signal(signum, _stop)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        _Held.pending = None


@contextlib.contextmanager
def held_signals() -> Iterator[None]:
    """While inside, a stop (Ctrl-C, SIGHUP, SIGTERM) waits: the first one received is raised on leaving.

    For work that must not be cut in the middle, such as writing a log;
    :func:`pending_stop` takes the stop that waits, to act on it inside.
    Effective with :func:`stop_signals`.
    """
    _Held.depth += 1
    try:
        yield
    finally:
        _Held.depth -= 1
    if not _Held.depth and (stop := pending_stop()) is not None:
        raise stop


@contextlib.contextmanager
def released_signals() -> Iterator[None]:
    """Inside :func:`held_signals`: stops act again (the one that waited first), until the block is left."""
    depth, _Held.depth = _Held.depth, 0
    try:
        if (stop := pending_stop()) is not None:
            raise stop
        yield
    finally:
        _Held.depth = depth


def pending_stop() -> KeyboardInterrupt | None:
    """The stop received while held (taken: it will not be raised), or ``None``."""
    signum, _Held.pending = _Held.pending, None
    return None if signum is None else _stop_for(signum)


def silence(stream: TextIO) -> None:
    """``stream`` (stdout or stderr) is closed or its terminal gone: send what is still written to it nowhere.

    Nothing else then fails on it, not even Python's last flush at exit.
    """
    with contextlib.suppress(OSError, ValueError, AttributeError):  # a stand-in stream (a test's) has no fd
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, stream.fileno())
        finally:
            os.close(devnull)


class Stdout:
    """Standard output that survives being closed: printing stops, the work goes on, and the status says so.

    Once a write fails with a broken pipe (``trickrules play ... | head -1``),
    :attr:`closed` is true, what is still printed goes nowhere, and the
    command finishes its work (writing its log) before it exits with
    :data:`CLOSED_STDOUT`.
    """

    def __init__(self) -> None:
        #: Whether standard output was found closed.
        self.closed = False

    def line(self, text: str) -> None:
        """Print ``text`` and a line break, unless standard output is closed."""
        if self.closed:
            return
        try:
            print(text)
        except BrokenPipeError:
            self.lost()

    def lost(self) -> None:
        """Standard output is closed: what is still printed goes nowhere."""
        self.closed = True
        silence(sys.stdout)
