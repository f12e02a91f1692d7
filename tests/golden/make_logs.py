"""The golden matches: seeded matches over every bundled game, overlay and a few options.

Each match is played by bots that decide from their seat's view; its whole log
(``EventLog.to_json``) is hashed. ``tests/test_golden_logs.py`` plays them again
and compares the hashes, so a refactor that changes any event of any match is
caught. Run this module to write ``logs.json`` anew, only when an outcome is
meant to change (and say so in the commit).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from trickrules.engine.game import load
from trickrules.faces.bots import make_bots
from trickrules.faces.match import play_match
from trickrules.records.eventlog import EventLog

HERE = Path(__file__).parent
#: Option settings beyond the bundled defaults that reach other mechanisms' paths.
EXTRA: tuple[tuple[str, dict[str, str]], ...] = (
    ("cuatrola", {"end_hand_when_decided": "on"}),
    ("manille", {"revoke": "penalise"}),
    ("quadrille", {"called_king_public": "on"}),
)
#: Matches per setting, and at most this many deals per match (a long match's tail adds little).
PER_SETTING = 12
MAX_DEALS = 12


#: The bundled games the first 200 matches were recorded over (pinned, so that a game bundled since does not
#: shift them).
RECORDED: tuple[str, ...] = (
    "cuatrola",
    "cuatrola-11",
    "euchre",
    "hearts",
    "manille",
    "manille-difference",
    "manille-soft-overtrump",
    "oh-hell",
    "quadrille",
    "quadrille-fi",
    "quadrille-no-forced-spadille",
    "quintille",
    "spades",
    "whist",
)
#: The games bundled since, each recorded with the default options after the first 200.
ADDED: tuple[str, ...] = ("bridge", "skat", "skat-openspiel", "tarok")


def settings() -> list[tuple[str, dict[str, str]]]:
    """Every setting the first 200 golden matches cover."""
    return [*((name, {}) for name in RECORDED), *EXTRA]


def _seeded(name: str, options: dict[str, str]) -> list[tuple[str, dict[str, str], int, str]]:
    return [(name, options, seed, "heuristic" if seed % 2 else "random") for seed in range(PER_SETTING)]


def cases() -> list[tuple[str, dict[str, str], int, str]]:
    """(game, options, seed, bots) of every golden match: the 200 first recorded, then those of the games added."""
    first = [case for name, options in settings() for case in _seeded(name, options)][:200]
    return [*first, *(case for name in ADDED for case in _seeded(name, {}))]


def key(name: str, options: dict[str, str], seed: int, bots: str) -> str:
    """A case's name in ``logs.json``."""
    opts = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    return f"{name}[{opts}] seed={seed} bots={bots}"


def digest(name: str, options: dict[str, str], seed: int, bots: str) -> str:
    """The SHA-256 of the whole log of one golden match."""
    game = load(name, options)
    final = play_match(game, make_bots(game, bots, seed=seed), seed=seed, max_deals=MAX_DEALS)
    return hashlib.sha256(EventLog.from_state(final).to_json().encode()).hexdigest()


def main() -> None:
    """Write ``logs.json``."""
    found = {key(*case): digest(*case) for case in cases()}
    (HERE / "logs.json").write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
    print(f"{len(found)} golden matches written", file=sys.stderr)


if __name__ == "__main__":
    main()
