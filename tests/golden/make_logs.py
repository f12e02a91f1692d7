"""The golden matches: 200 seeded matches over every bundled game, overlay and a few options.

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
from trickrules.spec.loader import bundled_names

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


#: The bundled games and overlays the matches were recorded for: a game bundled later does not shift
#: the 200 cases (it has tests of its own).
RECORDED = frozenset(
    (
        "cuatrola", "cuatrola-11", "euchre", "hearts", "manille", "manille-difference", "manille-soft-overtrump",
        "oh-hell", "quadrille", "quadrille-fi", "quadrille-no-forced-spadille", "quintille", "spades", "whist",
    )
)  # fmt: skip


def settings() -> list[tuple[str, dict[str, str]]]:
    """Every setting the golden matches cover."""
    return [*((name, {}) for name in bundled_names() if name in RECORDED), *EXTRA]


def cases() -> list[tuple[str, dict[str, str], int, str]]:
    """(game, options, seed, bots) of every golden match: 200 of them."""
    out = []
    for name, options in settings():
        for seed in range(PER_SETTING):
            out.append((name, options, seed, "heuristic" if seed % 2 else "random"))
    return out[:200]


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
