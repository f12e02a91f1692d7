"""``trickrules simulate``: tables, a progress bar, byte-identical JSON whatever the jobs, and comparisons."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from trickrules.faces.cli import main


def test_json_is_byte_identical_with_one_job_and_with_two(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "quadrille", "-n", "200", "--seed", "7", "--json", "--jobs", "1"]) == 0
    one = capsys.readouterr().out
    assert main(["simulate", "quadrille", "-n", "200", "--seed", "7", "--json", "--jobs", "2"]) == 0
    two = capsys.readouterr().out
    assert one == two
    data = json.loads(one)
    assert data["deals"] >= 200
    assert data["deals_asked"] == 200
    assert {c["name"] for c in data["contracts"]} <= {"solo", "alliance", "casco", "dimidiator", "vole"}


def test_the_summary_has_tables_and_a_progress_bar_on_stderr() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "trickrules.faces.cli", "simulate", "cuatrola", "-n", "60", "--bots", "heuristic"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "60/60" in done.stderr  # the bar, at its end
    for title in ("Contracts", "Outcomes", "Seats (95% intervals)"):
        assert title in done.stdout
    assert "cuatrola" in done.stdout


def test_compare_plays_the_variant_on_the_same_seeds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "manille", "-n", "40", "--compare", "scoring=difference", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["base"]["seed"] == data["variant"]["seed"]
    assert data["base"]["options"]["scoring"] != data["variant"]["options"]["scoring"]
    labels = {row["quantity"] for row in data["differences"]}
    assert "match spread (highest - lowest final)" in labels
    assert "seat 0 per deal" in labels


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["simulate", "manille", "-n", "0"], "-n must be at least 1"),
        (["simulate", "manille", "--jobs", "0"], "--jobs must be at least 1"),
        (["simulate", "manille", "--seed", "-3"], "--seed"),
        (["simulate", "manille", "--bots", "genius"], "bots"),
        (["simulate", "manille", "--option", "scoring=bogus"], "scoring"),
        (["simulate", "nosuchgame"], "nosuchgame"),
        (["simulate", "manille", "--compare", "nosuchvariant"], "nosuchvariant"),
        (["simulate", "manille", "--compare", "=x"], "--compare"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_2(
    args: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert fragment in lines[0]
    assert "Traceback" not in captured.err


def test_an_outcome_named_for_every_seat_counts_once_per_deal(capsys: pytest.CaptureFixture[str]) -> None:
    # Hearts names its penalty outcome once per seat in a deal; the share of deals naming it is at most 1
    # (it was counted per seat, 400%, and --compare then failed taking the root of a negative variance).
    assert main(["simulate", "hearts", "-n", "20", "--seed", "1", "--compare", "jd_bonus=on", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for side in ("base", "variant"):
        deals = data[side]["deals"]
        assert data[side]["outcomes"]
        assert all(0 < count <= deals for count in data[side]["outcomes"].values())
    shares = [row for row in data["differences"] if row["quantity"].startswith("share of deals: outcome")]
    assert shares
