"""The replay page grows with the log, not with its frames times the table (issue 27, item 14).

Each page is made the way a person makes one: ``trickrules play GAME --seed 1 --log L`` (the
heuristic bots), then ``trickrules replay L --html PAGE``. When every frame was stored whole, the
page of a 12-deal Quadrille match was 5.3 MB, 80 times its log, and Finnish Quadrille's 18 MB.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from trickrules.engine.events import DealScored
from trickrules.faces.cli import main
from trickrules.records.eventlog import EventLog

SPECS = Path(__file__).resolve().parents[1] / "specs"


def _made(tmp_path: Path, game: str, *, seat: int | None = None) -> tuple[Path, Path]:
    """The log of ``play GAME --seed 1`` and the page ``replay`` makes of it."""
    log, page = tmp_path / "match.jsonl", tmp_path / "match.html"
    assert main(["play", game, "--seed", "1", "--log", str(log), "--quiet"]) == 0
    spec = ["--spec", game] if game.endswith(".toml") else []
    views = [] if seat is None else ["--seat", str(seat)]
    assert main(["replay", str(log), *spec, "--html", str(page), *views]) == 0
    return log, page


def test_the_page_of_a_twelve_deal_quadrille_match_is_under_2_mb(tmp_path: Path) -> None:
    log, page = _made(tmp_path, "quadrille")
    assert sum(isinstance(e, DealScored) for e in EventLog.load(log).events) == 12
    assert page.stat().st_size < 2_000_000


@pytest.mark.parametrize("game", ["quadrille", "manille", "cuatrola", str(SPECS / "quadrille-fi.toml")])
def test_the_page_grows_with_the_log(game: str, tmp_path: Path) -> None:
    log, page = _made(tmp_path, game)
    assert page.stat().st_size < 8 * log.stat().st_size


def test_a_seat_page_grows_with_the_log_too(tmp_path: Path) -> None:
    log, page = _made(tmp_path, "quadrille", seat=2)
    assert page.stat().st_size < 3 * log.stat().st_size
