"""The command line when its files are odd or its run is cut short: nothing hangs, nothing is destroyed or lost.

* a path that is not a regular file (a named pipe, a device, a folder) is refused, never opened to wait;
* an output that is one of the command's inputs (a symbolic or hard link to it) is refused; an existing
  log is replaced only with ``--force``;
* a closed stdout, Ctrl-C, a hang-up and SIGTERM stop a command with one line on stderr and the
  conventional status (141, 130, 129, 143), the log of the moves so far written, no worker left behind;
* a worker process lost mid-simulation has its chunk played again once, then a clear error.

Every subprocess here is bounded by a timeout, and an in-process call that could block on a pipe by an alarm.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import signal
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

import trickrules
from trickrules.errors import ArgumentError, SpecError
from trickrules.faces.cli import main
from trickrules.faces.conformance.model import load_cases, load_manifest
from trickrules.faces.table import PROMPT
from trickrules.spec.loader import read_raw

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo") or not Path("/proc/self/stat").exists(), reason="POSIX")

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "trickrules"]
TIMEOUT = 60.0
KILL_WORKER = "TRICKRULES_TEST_KILL_WORKER"  # trickrules.faces.pool.KILL_WORKER: a worker kills itself
T = TypeVar("T")


def _cli(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT,
                          check=False)  # fmt: skip


def _one_line(err: str) -> str:
    """The one line on stderr (a stopped simulation's progress bar is cleared); fails on a traceback or more lines."""
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def _no_hang(call: Callable[[], T], seconds: int = 10) -> T:
    """``call()``, failed by an alarm if it blocks (on a named pipe that no one opens) for ``seconds``."""

    def alarm(signum: int, frame: object) -> None:
        raise TimeoutError(f"blocked for {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        return call()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def log(tmp_path: Path) -> Path:
    """A finished Manille log."""
    state = trickrules.load("manille").new_match(seed=1)
    while not state.is_terminal:
        state = state.apply(state.legal_actions()[0])
    path = tmp_path / "a.jsonl"
    trickrules.EventLog.from_state(state).save(path)
    return path


# -- 4. named pipes and devices -----------------------------------------------------------------------------


def test_the_spec_loader_refuses_a_named_pipe_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "game.toml"
    os.mkfifo(fifo)
    with pytest.raises(SpecError, match="not a regular file"):
        _no_hang(lambda: read_raw(fifo))
    with pytest.raises(SpecError, match="not a regular file"):
        _no_hang(lambda: trickrules.load(str(fifo)))


def test_the_conformance_loader_refuses_a_named_pipe_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "cases.toml"
    os.mkfifo(fifo)
    with pytest.raises(SpecError, match="not a regular file"):
        _no_hang(lambda: load_cases(fifo))
    with pytest.raises(SpecError, match="not a regular file"):
        _no_hang(lambda: load_manifest(fifo))


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_key_file_log_and_html_refuse_what_is_not_a_regular_file(kind: str, log: Path, tmp_path: Path) -> None:
    odd = tmp_path / "odd"
    if kind == "fifo":
        os.mkfifo(odd)
    elif kind == "folder":
        odd.mkdir()
    else:
        odd = Path(os.devnull)
    for args in (
        ["replay", str(log), "--key-file", str(odd)],
        ["replay", str(log), "--html", str(odd)],
        ["play", "manille", "--seed", "1", "--quiet", "--log", str(odd), "--force"],
        ["play", "manille", "--seed", "1", "--quiet", "--key-file", str(odd)],
    ):
        done = _cli(args, tmp_path)
        assert done.returncode == 2, (args, done.stderr)
        line = _one_line(done.stderr)
        assert str(odd) in line
        assert "regular file" in line or "folder" in line, line
        assert "ok" not in done.stdout.split()


# -- 5. an output over an input ------------------------------------------------------------------------------


def test_replay_refuses_to_write_its_page_over_its_log_by_any_name(log: Path, tmp_path: Path) -> None:
    before = log.read_bytes()
    (tmp_path / "link.jsonl").symlink_to(log)
    os.link(log, tmp_path / "hard.jsonl")
    key = tmp_path / "key"
    key.write_bytes(b"k" * 32)
    for out in (log, tmp_path / "link.jsonl", tmp_path / "hard.jsonl", tmp_path / "sub" / ".." / "a.jsonl"):
        (tmp_path / "sub").mkdir(exist_ok=True)
        done = _cli(["replay", str(log), "--html", str(out)], tmp_path)
        assert done.returncode == 2, done.stdout
        assert "--html" in _one_line(done.stderr)
        assert "an input" in done.stderr
    done = _cli(["replay", str(log), "--key-file", str(key), "--html", str(key)], tmp_path)
    assert done.returncode == 2
    assert key.read_bytes() == b"k" * 32
    assert log.read_bytes() == before  # the log is untouched


def test_log_over_an_existing_file_needs_force_and_never_over_an_input(log: Path, tmp_path: Path) -> None:
    before = log.read_bytes()
    assert main(["play", "manille", "--seed", "2", "--deals", "1", "--quiet", "--log", str(log)]) == 2
    assert log.read_bytes() == before
    key = tmp_path / "key"
    key.write_bytes(b"k" * 32)
    args = ["play", "manille", "--seed", "2", "--deals", "1", "--quiet", "--force"]
    assert main([*args, "--key-file", str(key), "--log", str(key)]) == 2  # the key is an input
    assert key.read_bytes() == b"k" * 32
    spec = tmp_path / "mine.toml"
    spec.write_bytes((ROOT / "specs" / "manille.toml").read_bytes())
    assert main(["play", str(spec), "--seed", "2", "--deals", "1", "--quiet", "--force", "--log", str(spec)]) == 2
    assert spec.read_bytes() == (ROOT / "specs" / "manille.toml").read_bytes()
    assert main([*args, "--log", str(log)]) == 0  # with --force, an existing log (not an input) is replaced
    assert log.read_bytes() != before
    assert trickrules.replay_file(log, partial=True).match.deals_done == 1


# -- 6. logs are never lost ------------------------------------------------------------------------------------


def test_a_closed_stdout_still_writes_the_whole_log(tmp_path: Path) -> None:
    # `play ... | head -1`: here the reading end is closed before anything is printed, so the first write fails.
    read, write = os.pipe()
    os.close(read)
    try:
        command = [*CLI, "play", "manille", "--seed", "1", "--log", "x.jsonl"]
        done = subprocess.run(command, cwd=tmp_path, stdout=write, stderr=subprocess.PIPE, text=True, timeout=TIMEOUT,
                              check=False)  # fmt: skip
    finally:
        os.close(write)
    assert done.returncode == 141, done.stderr
    assert done.stderr == ""
    assert main(["play", "manille", "--seed", "1", "--quiet", "--log", str(tmp_path / "y.jsonl")]) == 0
    assert (tmp_path / "x.jsonl").read_bytes() == (tmp_path / "y.jsonl").read_bytes()  # the whole match


def test_a_closed_stdout_ends_any_command_with_141_and_no_traceback(tmp_path: Path) -> None:
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([*CLI, "rules", "quadrille"], cwd=tmp_path, stdout=write, stderr=subprocess.PIPE,
                              text=True, timeout=TIMEOUT, check=False)  # fmt: skip
    finally:
        os.close(write)
    assert done.returncode == 141
    assert done.stderr == ""


def _at_the_seat(tmp_path: Path, **kwargs: object) -> subprocess.Popen[bytes]:
    command = [*CLI, "play", "hearts", "--seat", "1", "--seed", "1", "--bots", "random", "--log", "x.jsonl"]
    return subprocess.Popen(command, cwd=tmp_path, **kwargs)  # type: ignore[call-overload,no-any-return]


def _read_until(fd: int, text: bytes, seconds: float = TIMEOUT) -> bytes:
    seen = b""
    end = time.monotonic() + seconds
    while text not in seen:
        left = end - time.monotonic()
        assert left > 0, seen[-2000:]
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            assert chunk, seen[-2000:]
            seen += chunk
    return seen


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGHUP, 129), (signal.SIGTERM, 143)])
def test_a_hang_up_or_sigterm_at_the_seat_writes_the_log_so_far(signum: int, status: int, tmp_path: Path) -> None:
    proc = _at_the_seat(tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdin is not None
        assert proc.stdout is not None
        _read_until(proc.stdout.fileno(), PROMPT.encode())
        proc.stdin.write(b"1\n")  # one move of the person's, then the signal at the next prompt
        proc.stdin.flush()
        _read_until(proc.stdout.fileno(), PROMPT.encode())
        os.kill(proc.pid, signum)
        _, err = proc.communicate(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == status, err
    line = _one_line(err.decode())
    assert signal.Signals(signum).name in line
    assert "x.jsonl" in line
    state = trickrules.replay_file(tmp_path / "x.jsonl", partial=True)  # the log, as far as the match went
    assert [actor for actor, _ in state.entries()] == ["dealer", 1]  # the deal, and the person's move


def test_a_terminal_that_hangs_up_still_gets_the_log_written(tmp_path: Path) -> None:
    # The pseudo-terminal is the child's controlling terminal: closing its other end sends SIGHUP, and
    # every later write to the terminal fails.
    parent, child = os.openpty()

    def controlling() -> None:
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = _at_the_seat(tmp_path, stdin=child, stdout=child, stderr=child, preexec_fn=controlling)
    os.close(child)
    try:
        _read_until(parent, PROMPT.encode())
        os.close(parent)
        status = proc.wait(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert status == 129
    assert trickrules.replay_file(tmp_path / "x.jsonl", partial=True).match.deals_done == 0


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_or_sigterm_while_bots_play_writes_the_log_so_far(
    signum: int, status: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from trickrules.faces.bots import HeuristicBot

    def stop() -> KeyboardInterrupt:  # what the command's signal handlers raise
        from trickrules.faces.stops import Stopped

        return KeyboardInterrupt() if signum == signal.SIGINT else Stopped(signum)

    calls = [0]
    choose = HeuristicBot.choose

    def interrupted(self: HeuristicBot, view: trickrules.View) -> str:
        calls[0] += 1
        if calls[0] == 60:
            raise stop()
        return choose(self, view)

    monkeypatch.setattr(HeuristicBot, "choose", interrupted)
    try:
        got = main(["play", "manille", "--seed", "1", "--quiet", "--log", str(tmp_path / "x.jsonl")])
    except KeyboardInterrupt:
        pytest.fail("the interruption escaped the command")
    assert got == status
    line = _one_line(capsys.readouterr().err)
    assert "x.jsonl" in line
    state = trickrules.replay_file(tmp_path / "x.jsonl", partial=True)
    assert len(state.entries()) > 59


# -- 7. interrupted and failing simulations ----------------------------------------------------------------


def _group(pgid: int) -> list[tuple[int, float]]:
    """The live processes of a process group, with the CPU seconds each has used."""
    out = []
    tick = os.sysconf("SC_CLK_TCK")
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{name}/stat").read_text().rpartition(")")[2].split()
            if int(fields[2]) == pgid and fields[0] != "Z":
                out.append((int(name), (int(fields[11]) + int(fields[12])) / tick))
    return out


@contextlib.contextmanager
def _running(args: list[str], cwd: Path, processes: int, cpu: float) -> Iterator[subprocess.Popen[str]]:
    """The command running in its own process group, once it has ``processes`` processes that used ``cpu`` s."""
    proc = subprocess.Popen([*CLI, *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)  # fmt: skip
    try:
        end = time.monotonic() + TIMEOUT
        while True:
            group = _group(proc.pid)
            if len(group) >= processes and sum(c for _, c in group) >= cpu:
                break
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < end, "the command did not get to work"
            time.sleep(0.02)
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.mark.parametrize(
    ("args", "processes"),
    [
        (["simulate", "manille", "-n", "10000000", "--bots", "heuristic"], 1),
        (["simulate", "manille", "-n", "10000000", "--bots", "heuristic", "--jobs", "2"], 3),
        (["conformance"], 1),
        (["verify", "--option", "quadrille:whist_style_following=on"], 1),
    ],
    ids=["simulate", "simulate-jobs-2", "conformance", "verify"],
)
def test_ctrl_c_stops_with_one_line_exit_130_and_no_worker_left(
    args: list[str], processes: int, tmp_path: Path
) -> None:
    with _running(args, tmp_path, processes, cpu=1.2) as proc:
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole foreground group
        _, err = proc.communicate(timeout=TIMEOUT)
        assert proc.returncode == 130, err
        assert "Ctrl-C" in _one_line(err)
        end = time.monotonic() + 10
        while _group(proc.pid) and time.monotonic() < end:
            time.sleep(0.05)
        assert _group(proc.pid) == []  # no worker left behind


def test_sigterm_during_a_simulation_ends_its_workers(tmp_path: Path) -> None:
    args = ["simulate", "manille", "-n", "10000000", "--bots", "heuristic", "--jobs", "2"]
    with _running(args, tmp_path, 3, cpu=1.2) as proc:
        os.kill(proc.pid, signal.SIGTERM)  # the command alone: its workers must be ended by it
        _, err = proc.communicate(timeout=TIMEOUT)
        assert proc.returncode == 143, err
        assert "SIGTERM" in _one_line(err)
        end = time.monotonic() + 10
        while _group(proc.pid) and time.monotonic() < end:
            time.sleep(0.05)
        assert _group(proc.pid) == []


SIMULATE = ["simulate", "manille", "-n", "150", "--bots", "heuristic", "--json"]


def test_a_worker_killed_once_has_its_chunk_played_again(tmp_path: Path) -> None:
    marker = tmp_path / "kill-once"
    marker.touch()
    env = {**os.environ, KILL_WORKER: f"0:{marker}"}
    done = _cli([*SIMULATE, "--jobs", "2"], tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    assert not marker.exists()  # the worker did die
    assert json.loads(done.stdout) == trickrules.simulate("manille", 150, bots="heuristic").to_data()


def test_a_worker_killed_twice_is_one_clear_line_and_no_worker_left(tmp_path: Path) -> None:
    env = {**os.environ, KILL_WORKER: "0"}
    proc = subprocess.Popen([*CLI, *SIMULATE, "--jobs", "2"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)  # fmt: skip
    try:
        out, err = proc.communicate(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 1, err
    assert "worker process was lost" in _one_line(err)
    assert out == ""
    time.sleep(0.2)
    assert _group(proc.pid) == []


def test_the_pool_ends_its_workers_when_terminated() -> None:
    from trickrules.faces.pool import WorkerPool

    pool = WorkerPool(2)
    try:
        assert pool.submit(os.getpid).result(timeout=TIMEOUT) != os.getpid()
        workers = list(pool._pool._processes.values())
        assert workers
    finally:
        pool.terminate()
    # The pool's own management thread may reap a worker at the same moment as terminate() does; the
    # loser of that race sees the process as alive until the winner records its exit, so look again briefly.
    deadline = time.monotonic() + 10
    while any(w.is_alive() for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(w.is_alive() for w in workers)


def test_the_guard_refuses_a_named_pipe_opened_by_a_reader(tmp_path: Path) -> None:
    # A pipe with a reader would accept the page: it must be refused before a byte is written.
    from trickrules.faces.guard import write_output

    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        with pytest.raises(ArgumentError, match="named pipe"):
            write_output(str(fifo), "page", "--html")
        assert os.read(reader, 10) == b""
    finally:
        os.close(reader)
