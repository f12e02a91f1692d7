"""Compiling bids of a number of tricks, hand sizes that change from deal to deal, counters and the mercy rule.

Four general mechanisms that games where every player bids how many tricks
he will take tend to use together, each usable on its own:

* ``[tricks_bid]``: every player bids a number of tricks, once round from
  the eldest hand (:class:`TricksBid`);
* ``deal.hand_size`` and ``deal.hand_sizes``: the number of cards each
  player is dealt, and so of tricks, follows a schedule or is drawn from the
  match's seed deal by deal (:class:`DealSizes`);
* ``[[scoring.counters]]``: values each side carries from deal to deal, such
  as overtricks, changed by a formula after every deal
  (:class:`CompiledCounter`);
* ``match.mercy`` and ``match.win_bonus``: the match also ends when a side
  falls to a threshold, and a bonus is added for winning it.

:func:`compile_bid_rules` checks them (with the key path in every message)
and :mod:`trickrules.compile.rules` keeps the result as ``Rules.bids``.
"""

from __future__ import annotations

from attrs import frozen

from trickrules.compile.cards import CardTable
from trickrules.errors import SpecError
from trickrules.spec.formula import Formula, compile_formula
from trickrules.spec.model import Spec

__all__ = [
    "BID_PLAYER_VARS",
    "BID_SIDE_VARS",
    "HAND_SIZE_ORDERS",
    "NO_BIDS",
    "BidRules",
    "CompiledCounter",
    "DealSizes",
    "TricksBid",
    "compile_bid_rules",
]

#: Scoring variables about a side's bids: the sum of its players' bids, and of the others'.
BID_SIDE_VARS = ("bid", "opp_bid")
#: Scoring variables about a player's own bid (``for_each = "player"``).
BID_PLAYER_VARS = ("own_bid",)
#: How the hand size of each deal is fixed (``deal.hand_size``).
HAND_SIZE_ORDERS = ("packets", "schedule", "random")


@frozen
class DealSizes:
    """How many cards each player is dealt, deal by deal."""

    #: ``"packets"`` (the sum of the packets, every deal), ``"schedule"`` (deal ``k`` is dealt
    #: ``sizes[k % len(sizes)]``) or ``"random"`` (each deal draws one of ``sizes`` from the seed).
    order: str
    #: The hand sizes the deals go through (or are drawn from).
    sizes: tuple[int, ...]
    #: The largest of them.
    largest: int
    #: The packets the deal tables are built from: a variable hand is dealt one card at a time.
    packets: tuple[int, ...]

    def of_deal(self, number: int) -> tuple[int, ...]:
        """The hand sizes deal ``number`` may have: its size by the schedule, or any that may be drawn."""
        if self.order == "random":
            return self.sizes
        return (self.sizes[number % len(self.sizes)],)


@frozen
class TricksBid:
    """Bids of a number of tricks, compiled from ``[tricks_bid]``."""

    #: The lowest bid.
    min: int
    #: The highest bid; 0: the number of tricks in the deal.
    max: int
    #: Partners' bids together may not exceed the tricks in the deal.
    partners_within_tricks: bool
    #: The last to bid may not make the bids add up to the tricks in the deal.
    last_not_total: bool


@frozen
class CompiledCounter:
    """A value each side carries from deal to deal, and the formula that gives its next value."""

    name: str
    update: Formula
    start: int


@frozen
class BidRules:
    """What the mechanisms of this module compile to (see the module's docstring)."""

    sizes: DealSizes
    #: The bids, where players bid a number of tricks (``None``: they do not).
    tricks_bid: TricksBid | None = None
    counters: tuple[CompiledCounter, ...] = ()
    #: The match also ends when a side's score is at most this (``None``: no mercy rule).
    mercy_threshold: int | None = None
    #: Added to each winning side that reached the target, taken from each losing side at or below
    #: the mercy threshold, when the match ends.
    win_bonus: int = 0


#: What a spec that uses none of these mechanisms compiles to (``Rules.bids`` of a hand-built ``Rules``).
NO_BIDS = BidRules(DealSizes("packets", (0,), 0, ()))


def _fail(where: str, path: str, message: str) -> SpecError:
    return SpecError(f"{where}: {path}: {message}")


def _deal_sizes(spec: Spec, cards: CardTable, where: str) -> DealSizes:
    deal = spec.deal
    players = spec.seating.players
    if deal.hand_size == "packets":
        if deal.hand_sizes:
            raise _fail(where, "deal.hand_sizes", "hand sizes are used with hand_size = 'schedule' or 'random'.")
        hand = sum(deal.packets)
        return DealSizes("packets", (hand,), hand, deal.packets)
    if deal.packets != (1,):
        raise _fail(
            where,
            "deal.packets",
            f"a hand size that changes from deal to deal is dealt one card at a time: write [1], "
            f"found {list(deal.packets)}.",
        )
    # The turned card of the stock is one more card no hand may take.
    most = (cards.size - (1 if deal.turn_from_stock else 0)) // players  # at least 1: compile_rules checked
    sizes = deal.hand_sizes
    if not sizes:
        if deal.hand_size == "schedule":
            raise _fail(where, "deal.hand_sizes", "a schedule needs the hand size of each deal, found [].")
        sizes = tuple(range(1, most + 1))
    for k, size in enumerate(sizes):
        if not 1 <= size <= most:
            stock = " and leave the stock a card to turn" if deal.turn_from_stock else ""
            raise _fail(
                where,
                f"deal.hand_sizes[{k}]",
                f"{cards.size} cards deal {players} players 1 to {most} cards each{stock}, found {size}.",
            )
    largest = max(sizes)
    return DealSizes(deal.hand_size, sizes, largest, (1,) * largest)


def _tricks_bid(spec: Spec, where: str) -> TricksBid | None:
    tb = spec.tricks_bid
    if tb is None:
        return None
    if spec.bidding.contracts:
        raise _fail(
            where, "tricks_bid", "players bid contracts (bidding.contracts) or numbers of tricks, not both."
        )
    if spec.trump.chosen_by == "made":
        raise _fail(where, "tricks_bid", "trumps made round the table ('made') take the place of bids: not both.")
    if tb.min < 0 or tb.max < 0:
        raise _fail(where, "tricks_bid", f"bids are not negative, found min = {tb.min}, max = {tb.max}.")
    if tb.max and tb.max < tb.min:
        raise _fail(where, "tricks_bid.max", f"the highest bid {tb.max} is below the lowest, {tb.min}.")
    if tb.partners_within_tricks:
        if spec.seating.partnerships != "fixed":
            raise _fail(where, "tricks_bid.partners_within_tricks", "needs fixed partnerships.")
        if tb.min:
            # With a lowest bid above 0 a player whose partner bid every trick would have no bid left.
            raise _fail(where, "tricks_bid.partners_within_tricks", f"needs min = 0, found {tb.min}.")
    if tb.last_not_total and tb.max and tb.max == tb.min:
        raise _fail(where, "tricks_bid.last_not_total", "needs a choice of bids (max above min, or 0).")
    return TricksBid(tb.min, tb.max, tb.partners_within_tricks, tb.last_not_total)


def _counters(spec: Spec, where: str, builtins: tuple[str, ...]) -> tuple[CompiledCounter, ...]:
    counters = spec.scoring.counters
    names = [c.name for c in counters]
    for k, name in enumerate(names):  # every name first: the formulas below may use any of them
        path = f"scoring.counters[{k}].name"
        if not name.isidentifier() or name in builtins or names.index(name) != k:
            raise _fail(where, path, f"{name!r} must be an identifier that is not built in, and distinct.")
        if name in spec.scoring.vars:
            raise _fail(where, path, f"{name!r} is also a name of scoring.vars.")
    allowed = (*builtins, *spec.scoring.vars, *names)
    out = []
    for k, c in enumerate(counters):
        update = compile_formula(c.update, allowed, where=f"{where}: scoring.counters[{k}].update")
        out.append(CompiledCounter(c.name, update, c.start))
    return tuple(out)


def _match_end(spec: Spec, where: str) -> tuple[int | None, int]:
    m = spec.match
    mercy = m.mercy_threshold if m.mercy else None
    if m.win_bonus:
        if spec.scoring.unit != "points":
            raise _fail(where, "match.win_bonus", "a bonus for winning the match needs scoring.unit = 'points'.")
        if not m.target and mercy is None:
            raise _fail(where, "match.win_bonus", "needs a target score (match.target) or the mercy rule.")
    return mercy, m.win_bonus


def compile_bid_rules(spec: Spec, cards: CardTable, where: str, builtins: tuple[str, ...]) -> BidRules:
    """Check and compile the mechanisms of this module.

    ``builtins`` are the deal and side variables: a counter's ``update``
    formula may use them, the scoring vars and the counters, and a counter
    may not take their names.
    """
    mercy, bonus = _match_end(spec, where)
    return BidRules(
        sizes=_deal_sizes(spec, cards, where),
        tricks_bid=_tricks_bid(spec, where),
        counters=_counters(spec, where, builtins),
        mercy_threshold=mercy,
        win_bonus=bonus,
    )
