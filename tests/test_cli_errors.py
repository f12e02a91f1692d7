"""Every command answers bad input with one line on stderr and exit 2, never a traceback and never "ok".

A failed check or verification exits 1 (also with its reason on stderr); success exits 0.
"""

from __future__ import annotations

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
]


@pytest.mark.parametrize("argv", BAD_INPUTS, ids=lambda argv: " ".join(argv) or "(nothing)")
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
