"""Deal-for-deal comparison of the native kernel with the engine (used by tests/test_native_agreement.py).

:func:`engine_deals` plays match ``index`` of a simulation with the engine
(random bots, as :func:`trickrules.faces.simulate.play_simulation_match`
plays it) and describes every deal; :func:`kernel_deals` plays the same
match on the kernel and describes its deals the same way, from the kernel's
records. A description holds the deal's number, dealer, trump, contract,
declarer, partner, seats out, every trick's cards and winner, the outcomes
named, each seat's payment and the totals after the deal.
"""

from __future__ import annotations

from typing import Any

from trickrules.engine.events import CardPlayed, DealScored, Dealt, TrickWon
from trickrules.engine.game import Game
from trickrules.engine.state import State
from trickrules.faces.simulate import MAX_DEALS_PER_MATCH, derive, play_simulation_match
from trickrules.native import record as R
from trickrules.native.kernel import kernel_for, play_matches

Deal = dict[str, Any]


def _events_of_deal(after: State, number: int) -> list[Any]:
    """The events of deal ``number``, from its ``Dealt`` event to its scoring, in order."""
    found: list[Any] = []
    step = after.history
    while step is not None:
        events = [e for _, e in step.events]
        found[:0] = events
        if any(isinstance(e, Dealt) and e.deal == number for e in events):
            break
        step = step.before
    start = max(i for i, e in enumerate(found) if isinstance(e, Dealt) and e.deal == number)
    return found[start:]


def engine_deals(game: Game, seed: int, index: int) -> list[Deal]:
    """The deals of simulation match ``index`` (seed ``seed``) as the engine plays them."""
    out: list[Deal] = []
    board = [(0,) * game.players]

    def on_deal(before: State, after: State) -> None:
        d = before.deal
        events = _events_of_deal(after, d.number)
        tricks = [(tuple(e.cards), e.seat) for e in events if isinstance(e, TrickWon)]
        scored = next(e for e in events if isinstance(e, DealScored))
        names = {x for x in scored.outcome.split(", ") if x and x != "none"}
        deltas = tuple(a - b for a, b in zip(scored.scoreboard, board[0], strict=True))
        board[0] = tuple(scored.scoreboard)
        assert all(isinstance(e, CardPlayed) for e in events if getattr(e, "TAG", "") == "play")
        out.append(
            {
                "number": d.number,
                "dealer": d.dealer,
                "trump": d.trump,
                "contract": d.contract,
                "declarer": d.declarer,
                "partner": d.partner,
                "seats_out": d.seats_out,
                "tricks": tricks,
                "outcomes": names,
                "deltas": deltas,
                "scores": tuple(scored.scoreboard),
            }
        )

    play_simulation_match(game, ("random",) * game.players, seed, index, on_deal, bulk=False)
    return out


def kernel_deals(game: Game, seed: int, index: int) -> list[Deal]:
    """The same match's deals as the kernel plays them."""
    kernel = kernel_for(game)
    seeds = [(derive(seed, index, "match"), derive(seed, index, "bots"))]
    played = play_matches(kernel, seeds, [index % game.players], MAX_DEALS_PER_MATCH, keep=MAX_DEALS_PER_MATCH)
    n = game.players
    codes = game.cards.codes
    out: list[Deal] = []
    if played.rows[0, R.A_ERROR]:  # the kernel gave the match back to the engine: nothing of its to compare
        return engine_deals(game, seed, index)
    for row in played.records[: int(played.deals[0])]:
        order = [int(c) for c in row[R.R_PLAY_ORDER : R.R_PLAY_ORDER + int(row[R.R_TRICKS]) * n] if c >= 0]
        winners = [int(w) for w in row[R.R_WINNERS : R.R_WINNERS + int(row[R.R_TRICKS_PLAYED])]]
        per = len(order) // len(winners) if winners else 0
        tricks = [(tuple(codes[c] for c in order[k * per : (k + 1) * per]), w) for k, w in enumerate(winners)]
        bits = int(row[R.R_OUTCOMES]) & (2**64 - 1) | (int(row[R.R_OUTCOMES + 1]) & (2**64 - 1)) << 64
        names = {kernel.names[k] for i, k in enumerate(kernel.bits) if (bits >> i) & 1 and k >= 0}

        def opt(v: Any) -> int | None:
            return None if int(v) < 0 else int(v)

        trump = int(row[R.R_TRUMP])
        out.append(
            {
                "number": int(row[R.R_NUMBER]),
                "dealer": int(row[R.R_DEALER]),
                "trump": None if trump == -1000 else trump,
                "contract": opt(row[R.R_CONTRACT]),
                "declarer": opt(row[R.R_DECLARER]),
                "partner": opt(row[R.R_PARTNER]),
                "seats_out": int(row[R.R_SEATS_OUT]),
                "tricks": tricks,
                "outcomes": names,
                "deltas": tuple(int(x) for x in row[R.R_DELTA : R.R_DELTA + n]),
                "scores": tuple(int(x) for x in row[R.R_SCORES : R.R_SCORES + n]),
            }
        )
    return out
