"""A game of one's own, all the way: its log names its spec file, replays from the CLI, and verify runs its cases."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import trickrules
from trickrules import EventLog, LogIntegrityError
from trickrules.faces.cli import main
from trickrules.records.replay import read_header

ROOT = Path(__file__).resolve().parent.parent


def _own_whist(tmp_path: Path, name: str = "parlour", title: str = "Parlour whist") -> Path:
    """The bundled Whist spec under another name: a game that is not bundled."""
    text = (ROOT / "specs" / "whist.toml").read_text(encoding="utf-8")
    lines = [f'name = "{name}"' if line.startswith("name =") else line for line in text.splitlines()]
    lines = [f'title = "{title}"' if line.startswith("title =") else line for line in lines]
    path = tmp_path / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_log_of_a_bundled_game_names_no_spec_file_and_one_of_a_file_does(tmp_path: Path) -> None:
    bundled = EventLog.from_state(trickrules.load("manille").new_match(seed=1))
    assert "spec" not in json.loads(bundled.to_json().splitlines()[0])
    own = EventLog.from_state(trickrules.load(_own_whist(tmp_path)).new_match(seed=1))
    assert own.header.spec == "parlour.toml"
    assert json.loads(own.to_json().splitlines()[0])["spec"] == "parlour.toml"
    assert EventLog.from_json(own.to_json()) == own  # the field round-trips


def test_replay_without_the_game_of_a_spec_file_says_which_file_it_needs(tmp_path: Path) -> None:
    state = trickrules.load(_own_whist(tmp_path)).new_match(seed=2)
    with pytest.raises(LogIntegrityError, match=r"spec file 'parlour\.toml'.*--spec FILE"):
        trickrules.replay(EventLog.from_state(state).to_json(), partial=True)


def test_a_log_of_an_own_spec_replays_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = _own_whist(tmp_path)
    (tmp_path / "logs").mkdir()
    log = tmp_path / "logs" / "p.jsonl"  # not beside the spec (replay would find it there: tests/test_newcomer.py)
    assert main(["play", str(spec), "--seed", "4", "--quiet", "--log", str(log)]) == 0
    assert read_header(log).spec == "parlour.toml"
    capsys.readouterr()
    assert main(["replay", str(log)]) == 1
    err = capsys.readouterr().err
    assert "parlour.toml" in err
    assert "--spec" in err
    assert "Traceback" not in err
    assert main(["replay", str(log), "--spec", str(spec)]) == 0
    out = capsys.readouterr().out
    assert "ok," in out
    assert "match over" in out


def test_replay_refuses_a_spec_that_is_not_the_one_the_log_was_played_with(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = _own_whist(tmp_path)
    log = tmp_path / "p.jsonl"
    assert main(["play", str(spec), "--seed", "5", "--quiet", "--log", str(log)]) == 0
    (tmp_path / "other").mkdir()
    changed = _own_whist(tmp_path / "other", title="Changed")  # the same file name, other rules
    capsys.readouterr()
    assert main(["replay", str(log), "--spec", str(changed)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "fingerprint" in err[0]
    assert "does not match" in err[0]


def test_verify_runs_a_standalone_specs_cases_and_says_when_it_has_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A standalone copy of a bundled game: its game's cases run against it, and pass.
    copy = tmp_path / "manille.toml"
    shutil.copy(ROOT / "specs" / "manille.toml", copy)
    assert main(["verify", str(copy), "--root", str(ROOT / "conformance")]) == 0
    out = capsys.readouterr().out
    assert "standalone spec of 'manille'" in out
    assert " 0 failed" in out
    # A game no case names: said clearly, on stderr, and not "ok".
    own = _own_whist(tmp_path)
    assert main(["verify", str(own)]) == 1
    captured = capsys.readouterr()
    assert "no conformance case names the game 'parlour'" in captured.err
    assert "ok" not in captured.out


def test_verify_fails_a_standalone_spec_that_breaks_its_games_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (ROOT / "specs" / "manille.toml").read_text(encoding="utf-8")
    rule = '  { rule = "overtrump", if_unable = "any" },'
    assert rule in text
    broken = tmp_path / "manille.toml"
    broken.write_text(text.replace(rule, "", 1), encoding="utf-8")  # no duty to overtrump (L42)
    assert main(["verify", str(broken)]) == 1
    out = capsys.readouterr().out
    assert "FAIL manille:L42" in out
    assert "FAILED: " in out
