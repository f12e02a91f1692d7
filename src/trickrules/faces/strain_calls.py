"""The heuristic bot's calls in a doubling auction (bids of a level and a strain, double, redouble: Bridge).

Each strain is valued as the bot's side's expected tricks with it as trumps
(the bot's hand estimate with its partner's share of the rest), a strain
the partner has bid counting a trick and a half more and no trump a little
less. The bot makes the cheapest legal bid whose level (above the book,
half the deal's tricks) those tricks reach with the bot's partner margin,
less half a trick; it doubles when its side's high cards (the no-trump
estimate) should set the contract by three tricks, redoubles when it
expects three overtricks, and otherwise passes (``docs/bots.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from trickrules.compile.cards import NO_TRUMP
from trickrules.compile.rules import CompiledContract
from trickrules.engine.phases import doubling_auction
from trickrules.engine.state import GameLike
from trickrules.records.view import View

#: The bot's estimate of its side's tricks and its own under a trump key (its ``_side_value``).
SideValue = Callable[[Sequence[int], int, CompiledContract | None], tuple[float, float]]

__all__ = ["AUCTION", "SideValue", "strain_call"]

#: The phase of the doubling auction, whose decisions :func:`strain_call` takes.
AUCTION = doubling_auction.PHASE
#: How many tricks more a strain the partner has bid is worth.
PARTNER_STRAIN = 1.5
#: Above the contract's tricks, how many the side must expect to take (double) or make (redouble).
SURE = 3
#: How many tricks above the contract's the side must expect, as a share of the deal's (the bot's partner margin).
MARGIN = 0.15
#: How many tricks better than a suit playing without trumps must look (the bot's own, when it names trumps).
NO_TRUMP_PENALTY = 0.75


def strain_call(game: GameLike, side_value: SideValue, view: View) -> str:
    """The bot's call in a doubling auction: a bid, ``double``, ``redouble`` or ``pass``."""
    legal = view.legal
    hand = [game.tables.card_of[c] for c in view.hand]
    total = game.tables.rules.tricks_per_deal
    strains = doubling_auction.strains_of(game)
    auction = view.part(doubling_auction.AuctionView)
    calls = auction.calls if auction is not None else ()
    team_of = game.tables.team_of
    ours = [call for seat, call in calls if seat != view.seat and team_of[seat] == team_of[view.seat]]
    partner_named = {_bid(call)[1] for call in ours if _bid(call)[0]}
    book = total // 2
    values = {}
    for code, trump in zip(strains.codes, strains.trumps, strict=True):
        side = side_value(hand, trump, None)[0] - NO_TRUMP_PENALTY * (trump == NO_TRUMP)
        values[code] = side + PARTNER_STRAIN * (code in partner_named)
    last = next((_bid(call) for _, call in reversed(calls) if _bid(call)[0]), None)
    if last is not None:
        needed = book + last[0]
        if "double" in legal and side_value(hand, NO_TRUMP, None)[0] >= total - needed + SURE:
            return "double"
        if "redouble" in legal and values[last[1]] >= needed + SURE:
            return "redouble"
    best: tuple[float, str] | None = None
    for action in (a for a in legal if a.startswith("bid ")):
        level, code = _bid(action[4:])
        margin = values[code] - (book + level) - MARGIN * total
        if margin >= -0.5 and (best is None or margin > best[0]):
            best = (margin, action)
    return best[1] if best is not None else "pass"


def _bid(call: str) -> tuple[int, str]:
    """A call's level and strain code (``4H`` -> 4, ``H``); level 0 for a call that is no bid."""
    digits = len(call) - len(call.lstrip("0123456789"))
    return (int(call[:digits]), call[digits:]) if digits else (0, "")
