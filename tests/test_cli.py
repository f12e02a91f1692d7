"""The command line: rules, check, play and replay, as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trickrules.faces.cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_rules_prints_the_red_trump_order_with_promoted_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "quadrille", "--trump", "H"]) == 0
    out = capsys.readouterr().out
    assert "AS (Spadille) 7H (Manille) AC (Basto) AH (Ponto) KH QH JH 2H 3H 4H 5H 6H" in out
    assert "Contracts, low to high: alliance < dimidiator < casco < solo" in out


def test_rules_json_has_the_documented_shape(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "quadrille", "--trump", "S", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {
        "game", "title", "fingerprint", "players", "deck", "points", "total_points", "orders", "contracts", "options",
        "spec",
    }  # fmt: skip
    (order,) = data["orders"]
    assert order["trump"] == "S"
    assert order["trump_order"][:4] == ["AS", "2S", "AC", "KS"]
    assert len(order["trump_order"]) == 11
    assert order["promoted"]["AS"] == "Spadille"
    assert order["plain_orders"]["H"][0] == "KH"


def test_rules_refuses_a_suit_the_game_does_not_have(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "quadrille", "--trump", "X"]) == 2
    assert "not a suit" in capsys.readouterr().err


def test_check_accepts_a_bundled_spec(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(ROOT / "specs" / "manille.toml")]) == 0
    assert capsys.readouterr().out.startswith("ok: 'manille'")


def test_check_prints_the_spec_error_and_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "manille"\n[deal]\npackets = [5, 5]\n', encoding="utf-8")
    assert main(["check", str(bad)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "bad.toml" in captured.err
    assert "deal.packets" in captured.err


@pytest.mark.parametrize(
    ("game", "options"), [("quadrille", ["deals=4"]), ("cuatrola", ["target=11"]), ("manille", ["match_end=12"])]
)
def test_play_plays_a_whole_match_and_replay_verifies_its_log(
    game: str, options: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "match.jsonl"
    args = ["play", game, "--seed", "1", "--log", str(log)]
    for option in options:
        args += ["--option", option]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Match over. Winners: seat" in out
    assert "trick 1:" in out
    assert main(["replay", str(log)]) == 0
    assert "ok," in capsys.readouterr().out


def test_replay_reports_a_tampered_log_and_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "match.jsonl"
    assert main(["play", "manille", "--seed", "2", "--deals", "1", "--quiet", "--log", str(log)]) == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    n = next(i for i, line in enumerate(lines) if '"type":"trick"' in line)
    event = json.loads(lines[n])
    event["seat"] = (event["seat"] + 1) % 4
    lines[n] = json.dumps(event, separators=(",", ":"))
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(log), "--partial"]) == 1
    assert f"event {n - 1}:" in capsys.readouterr().err


def test_quiet_play_prints_only_the_final_standings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "manille", "--seed", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "Match over. Winners:" in out
    assert "trick 1:" not in out
    assert main(["play", "manille", "--seed", "1", "--deals", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "Stopped after 1 deal(s). Scores: seat 0" in out
    assert "trick 1:" not in out
