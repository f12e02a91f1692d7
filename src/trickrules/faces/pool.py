"""The worker processes of ``simulate --jobs N``: a process pool that stops cleanly and can be renewed.

Its workers ignore Ctrl-C: the terminal sends SIGINT to the whole process
group, and only the command decides what to do (one line, exit 130), so no
worker prints a traceback. When the command stops for any reason, the pool's
processes are ended with it (:func:`worker_pool`); none is left behind.

A worker that dies mid-run (killed, out of memory) breaks a
:class:`~concurrent.futures.ProcessPoolExecutor` for good; :meth:`WorkerPool.renew`
replaces it with a fresh one, on which the simulation plays the lost chunk
once more (:func:`trickrules.faces.simulate.simulate`).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any, TypeVar

from trickrules.errors import TrickrulesError

__all__ = ["KILL_WORKER", "WorkerLost", "WorkerPool", "kill_hook", "worker_pool"]

T = TypeVar("T")

#: For the tests: ``N`` makes the worker that plays the chunk starting at match ``N`` kill itself;
#: ``N:PATH`` does so only while the file ``PATH`` exists, removing it (so once).
KILL_WORKER = "TRICKRULES_TEST_KILL_WORKER"


class WorkerLost(TrickrulesError, RuntimeError):
    """A worker process died while playing a chunk of a simulation, and again when the chunk was played once more."""


def _worker_signals() -> None:
    """In each worker: Ctrl-C is for the command, which stops the pool; SIGTERM and SIGHUP end the worker.

    A forked worker starts with the command's handlers, which would turn
    SIGTERM into an exception the worker reports instead of ending.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)


def kill_hook(first: int) -> None:
    """For the tests only: kill this worker process if :data:`KILL_WORKER` names the chunk starting at ``first``."""
    wanted = os.environ.get(KILL_WORKER)
    if not wanted or multiprocessing.parent_process() is None:  # never the command's own process
        return
    at, _, marker = wanted.partition(":")
    if at.strip() != str(first):
        return
    if marker:
        try:
            os.remove(marker)
        except FileNotFoundError:
            return
    os.kill(os.getpid(), signal.SIGKILL)


class WorkerPool(Executor):
    """A process pool of ``workers`` processes that ignore Ctrl-C, with :meth:`renew` and :meth:`terminate`."""

    def __init__(self, workers: int) -> None:
        #: How many worker processes the pool runs (read by the simulation to size its chunks).
        self._max_workers = workers
        self._pool = self._new()

    def _new(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=self._max_workers, initializer=_worker_signals)

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """Run ``fn(*args, **kwargs)`` in a worker process."""
        return self._pool.submit(fn, *args, **kwargs)

    def renew(self) -> None:
        """Replace the pool (broken by a lost worker) by a fresh one; what was in flight is lost."""
        self.terminate()
        self._pool = self._new()

    def terminate(self) -> None:
        """Stop now: cancel what waits, and end the worker processes (killed if they do not end within a second)."""
        processes = list((getattr(self._pool, "_processes", None) or {}).values())
        self._pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(OSError, ValueError):
                process.terminate()
        for process in processes:
            with contextlib.suppress(OSError, ValueError, AssertionError):
                process.join(1.0)
                if process.is_alive():
                    process.kill()
                    process.join(1.0)
        # The pool's management thread closes its wake-up pipe as it ends. Left running, it races the
        # interpreter's exit, whose hook writes to that pipe (Python 3.11 checks then writes without a lock):
        # "OSError: [Errno 9] Bad file descriptor" on stderr after a lost worker's one line.
        manager = getattr(self._pool, "_executor_manager_thread", None)
        if manager is not None:
            manager.join(5.0)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Shut the pool down when its work is done (see :meth:`concurrent.futures.Executor.shutdown`)."""
        self._pool.shutdown(wait, cancel_futures=cancel_futures)


@contextlib.contextmanager
def worker_pool(jobs: int) -> Iterator[Executor | None]:
    """A :class:`WorkerPool` of ``jobs`` processes for the time of a ``with`` block (``None``: play inline).

    Left normally, the pool finishes and shuts down; left by an exception
    (Ctrl-C, a signal, an error), its processes are ended at once.
    """
    if jobs == 1:
        yield None
        return
    pool = WorkerPool(jobs)
    try:
        yield pool
    except BaseException:
        pool.terminate()
        raise
    pool.shutdown()
