"""Every command answers bad input with one line on stderr and exit 2, never a traceback and never "ok".

A failed check or verification exits 1 (also with its reason on stderr); success exits 0. Named pipes,
devices and an output over an input are walked here; a closed stdout, Ctrl-C, a hang-up and a killed
worker (a command stopped, rather than bad input) in tests/test_cli_robust.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from trickrules import __version__
from trickrules.faces.cli import main

ROOT = Path(__file__).resolve().parent.parent
MANILLE = str(ROOT / "specs" / "manille.toml")


def _a_log() -> str:
    """A finished Manille log in a temporary file, for the commands that need one."""
    import tempfile

    import trickrules

    state = trickrules.load("manille").new_match(seed=1)
    while not state.is_terminal:
        state = state.apply(state.legal_actions()[0])
    path = Path(tempfile.mkdtemp()) / "m.jsonl"
    trickrules.EventLog.from_state(state).save(path)
    return str(path)


LOG = _a_log()

BAD_INPUTS = [
    # the reproductions of the issue
    ["verify", "--option", "manille:scoring=bogus"],
    ["verify"],
    ["conformance", "nosuchgame"],
    ["conformance", "--root", "/nonexistent"],
    ["conformance", "--cases", "/nonexistent"],
    ["play", "manille", "--deals", "-1", "--quiet"],
    ["play", "manille", "--log", "/nonexistent/dir/x.jsonl"],
    # every command, more of the same
    [],
    ["nosuchcommand"],
    ["rules"],
    ["rules", "nosuchgame"],
    ["rules", "manille", "--trump", "Z"],
    ["rules", "manille", "--option", "scoring=bogus"],
    ["rules", "manille", "--option", "noequals"],
    ["check"],
    ["check", "/nonexistent.toml"],
    ["play"],
    ["play", "nosuchgame"],
    ["play", "manille", "--deals", "0"],
    ["play", "manille", "--deals", "two"],
    ["play", "manille", "--seed", "-1"],
    ["play", "manille", "--seed", str(2**128)],
    ["play", "manille", "--bots", "genius"],
    ["play", "manille", "--option", "match_end=7"],
    ["play", "manille", "--log", "/"],
    ["play", "manille", "--key-file", "/nonexistent"],
    ["replay"],
    ["replay", "/nonexistent.jsonl"],
    ["replay", "/"],
    ["verify", "/nonexistent.toml"],
    ["verify", "--option", "manille"],
    ["verify", "--option", "nosuchgame:x=y"],
    ["verify", "--option", "manille:nosuchoption=on"],
    ["verify", MANILLE, "--root", "/nonexistent"],
    ["conformance", "--root", "/tmp"],
    ["simulate", "manille", "-n", "-5"],
    ["simulate", "manille", "--jobs", "0"],
    ["simulate", "manille", "--bots", "random,random"],
    # the commands and flags added for the newcomer's path
    ["play", "manille", "--seat", "4"],
    ["play", "manille", "--seat", "-1"],
    ["play", "manille", "--seat", "north"],
    ["replay", LOG, "--spec", "/nonexistent.toml"],
    ["replay", LOG, "--spec", "/"],
    ["replay", LOG, "--html", "/nonexistent/dir/x.html"],
    ["replay", LOG, "--html", "/"],
    ["conformance", "--seeds", "/nonexistent"],
    ["conformance", "--seeds", "/tmp"],
    ["rules", "manille", "--option", "scoring=bogus", "--json"],
    ["check", "/"],
    # an output over an input, an existing log, a device (issue 27)
    ["replay", LOG, "--html", LOG],
    ["replay", LOG, "--html", str(Path(LOG).parent / "." / "m.jsonl")],
    ["play", "manille", "--log", LOG],
    ["play", "manille", "--log", LOG, "--force", "--key-file", LOG],
    ["play", "manille", "--log", os.devnull],
    ["replay", LOG, "--html", os.devnull],
    ["check", os.devnull],
]


@pytest.mark.parametrize("argv", BAD_INPUTS, ids=lambda argv: " ".join(argv).replace(LOG, "LOG") or "(nothing)")
def test_bad_input_is_one_line_on_stderr_and_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse's own refusals
        status = exc.code  # type: ignore[assignment]
    captured = capsys.readouterr()
    assert status == 2, (status, captured.out, captured.err)
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert "error" in lines[0]
    assert "ok" not in captured.out.split()
    assert "Traceback" not in captured.err + captured.out


# Every path a command reads or writes, given a named pipe: refused at once (a subprocess, so that a
# command that would wait on the pipe fails by its timeout instead of hanging the tests).
FIFO_INPUTS = [
    ["replay", "{fifo}"],
    ["replay", LOG, "--key-file", "{fifo}"],
    ["replay", LOG, "--html", "{fifo}"],
    ["replay", LOG, "--spec", "{fifo}"],
    ["play", "manille", "--quiet", "--log", "{fifo}"],
    ["play", "manille", "--quiet", "--log", "{fifo}", "--force"],
    ["play", "manille", "--quiet", "--key-file", "{fifo}"],
    ["play", "{fifo}"],
    ["rules", "{fifo}"],
    ["check", "{fifo}"],
    ["simulate", "{fifo}", "-n", "1"],
    ["simulate", "manille", "-n", "1", "--compare", "{fifo}"],
    ["verify", "{fifo}"],
    ["conformance", "--spec", "{fifo}", "--select", "nothing"],
    ["conformance", "--cases", "{folder}", "--select", "nothing"],
]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
@pytest.mark.parametrize("argv", FIFO_INPUTS, ids=lambda argv: " ".join(argv).replace(LOG, "LOG"))
def test_a_named_pipe_is_refused_at_once_with_one_line(argv: list[str], tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    args = [a.format(fifo=fifo, folder=tmp_path) for a in argv]
    done = subprocess.run([sys.executable, "-m", "trickrules", *args], capture_output=True, text=True, timeout=60,
                          cwd=tmp_path, check=False)  # fmt: skip
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "error" in lines[0]
    assert "regular file" in lines[0]
    assert "Traceback" not in done.stderr


def test_a_log_that_fails_verification_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "x.jsonl"
    log.write_text('{"format":"trickrules-log","version":1}\n', encoding="utf-8")
    assert main(["replay", str(log)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "x.jsonl" in captured.err


def test_an_unwritable_log_is_refused_before_the_match_is_played(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "manille", "--log", "/nonexistent/dir/x.jsonl"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # not a line of the match was played


def test_version_and_python_dash_m() -> None:
    for argv in (["--version"], ["-m", "trickrules", "--version"]):
        command = [sys.executable, *argv] if argv[0] == "-m" else [sys.executable, "-m", "trickrules.faces.cli", *argv]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == f"trickrules {__version__}"


def test_python_dash_m_answers_bad_input_without_a_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "trickrules", "replay", "/nonexistent.jsonl"], capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr
