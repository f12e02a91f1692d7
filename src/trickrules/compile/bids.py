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

from collections.abc import Mapping

from attrs import frozen

from trickrules.compile.cards import CardTable
from trickrules.compile.formulas import Formulas
from trickrules.compile.modes import HandSizeOrder
from trickrules.compile.ranges import UNKNOWN, Range
from trickrules.compile.variables import (
    BID_PLAYER_VARS,
    BID_SIDE_VARS,
    DEAL_VARS,
    SIDE_VARS,
    fact_ranges,
    name_problem,
)
from trickrules.errors import SpecError
from trickrules.spec.formula import Formula
from trickrules.spec.model import Spec, TricksBidSpec
from trickrules.spec.sealed import Sealed

__all__ = [
    "BID_PLAYER_VARS",
    "BID_SIDE_VARS",
    "END_WHEN_VARS",
    "HAND_SIZE_ORDERS",
    "NO_BIDS",
    "BidRules",
    "CompiledCounter",
    "DealSizes",
    "TricksBid",
    "check_counter_names",
    "compile_bid_rules",
    "deal_sizes",
]

#: How the hand size of each deal is fixed (``deal.hand_size``).
HAND_SIZE_ORDERS = tuple(order.value for order in HandSizeOrder)


@frozen
class DealSizes(Sealed):
    """How many cards each player is dealt, deal by deal."""

    #: ``"packets"`` (the sum of the packets, every deal), ``"schedule"`` (deal ``k`` is dealt
    #: ``sizes[k % len(sizes)]``) or ``"random"`` (each deal draws one of ``sizes`` from the seed).
    order: HandSizeOrder
    #: The hand sizes the deals go through (or are drawn from).
    sizes: tuple[int, ...]
    #: The largest of them.
    largest: int
    #: The packets the deal tables are built from: a variable hand is dealt one card at a time.
    packets: tuple[int, ...]

    def of_deal(self, number: int) -> tuple[int, ...]:
        """The hand sizes deal ``number`` may have: its size by the schedule, or any that may be drawn."""
        if self.order is HandSizeOrder.RANDOM:
            return self.sizes
        return (self.sizes[number % len(self.sizes)],)


@frozen
class TricksBid(Sealed):
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
class CompiledCounter(Sealed):
    """A value each side carries from deal to deal, and the formula that gives its next value."""

    name: str
    update: Formula
    start: int


@frozen
class BidRules(Sealed):
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
    #: The match also ends after a deal when this holds for some side (``match.end_when``; ``None``: no such rule).
    end_when: Formula | None = None


#: What a spec that uses none of these mechanisms compiles to (``Rules.bids`` of a hand-built ``Rules``).
NO_BIDS = BidRules(DealSizes(HandSizeOrder.PACKETS, (0,), 0, ()))


def _fail(where: str, path: str, message: str) -> SpecError:
    return SpecError(f"{where}: {path}: {message}")


def deal_sizes(spec: Spec, cards: CardTable, where: str) -> DealSizes:
    """How many cards each player is dealt, deal by deal (``deal.hand_size``, ``deal.hand_sizes``), checked."""
    deal = spec.deal
    players = spec.seating.players
    if deal.hand_size == "packets":
        if deal.hand_sizes:
            raise _fail(where, "deal.hand_sizes", "hand sizes are used with hand_size = 'schedule' or 'random'.")
        hand = sum(deal.packets)
        return DealSizes(HandSizeOrder.PACKETS, (hand,), hand, deal.packets)
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
    return DealSizes(HandSizeOrder(deal.hand_size), sizes, largest, (1,) * largest)


def _tricks_bid(spec: Spec, sizes: DealSizes, where: str) -> TricksBid | None:
    tb = spec.tricks_bid
    if tb is None:
        return None
    if spec.bidding.contracts:
        raise _fail(where, "tricks_bid", "players bid contracts (bidding.contracts) or numbers of tricks, not both.")
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
    _check_bid_bounds(tb, sizes, where)
    return TricksBid(tb.min, tb.max, tb.partners_within_tricks, tb.last_not_total)


def _check_bid_bounds(tb: TricksBidSpec, sizes: DealSizes, where: str) -> None:
    """Refuse bids that no deal could offer a seat: every seat must always have a bid to make."""
    fewest = min(sizes.sizes)
    if tb.max > sizes.largest:
        raise _fail(
            where, "tricks_bid.max", f"at most the tricks of the largest deal ({sizes.largest}), found {tb.max}."
        )
    if not tb.max and tb.min > fewest:
        raise _fail(where, "tricks_bid.min", f"at most the tricks of the smallest deal ({fewest}), found {tb.min}.")
    if tb.last_not_total and not tb.max and tb.min >= fewest:
        # The bids then run from min to the deal's tricks: the last bidder needs two of them.
        raise _fail(where, "tricks_bid.last_not_total", f"needs min below the tricks of every deal ({fewest}).")
    if tb.last_not_total and tb.partners_within_tricks:
        # A last bidder whose partner bid every trick could bid only 0, and 0 would make the total.
        raise _fail(where, "tricks_bid.last_not_total", "cannot be used with partners_within_tricks.")


def check_counter_names(spec: Spec, where: str) -> None:
    """Refuse a counter's name that is not a word, is built in, or is taken (before any formula uses it)."""
    names = [c.name for c in spec.scoring.counters]
    first = {name: k for k, name in reversed(list(enumerate(names)))}
    for k, name in enumerate(names):
        path = f"scoring.counters[{k}].name"
        problem = name_problem(name) or (None if first[name] == k else "another counter has it")
        if problem is not None:
            raise _fail(where, path, f"{name!r} must be an identifier that is not built in, and distinct: {problem}.")
        if name in spec.scoring.vars:
            raise _fail(where, path, f"{name!r} is also a name of scoring.vars.")
        opp = f"opp_{name}"  # the others' value of the counter
        problem = name_problem(opp) or ("a name of scoring.vars" if opp in spec.scoring.vars else None)
        if problem is None and opp in names:
            problem = "another counter has it"
        if problem is not None:
            raise _fail(where, path, f"{name!r} gives the variable {opp!r}, which cannot be: {problem}.")


def _counters(spec: Spec, formulas: Formulas, ranges: Mapping[str, Range]) -> tuple[CompiledCounter, ...]:
    counters = spec.scoring.counters
    names = [given for c in counters for given in (c.name, f"opp_{c.name}")]
    allowed = (*DEAL_VARS, *SIDE_VARS, *fact_ranges(spec.mechanisms), *spec.scoring.vars, *names)
    out = []
    for k, c in enumerate(counters):
        update, _ = formulas.compile(c.update, allowed, f"scoring.counters[{k}].update", ranges)
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


#: The variables of ``match.end_when`` besides the counters (and ``opp_`` of each): the side's total, the others'
#: highest, and the number of the deal just played.
END_WHEN_VARS = ("score", "opp_score", "deal")


def _end_when(spec: Spec, formulas: Formulas) -> Formula | None:
    source = spec.match.end_when
    if not source:
        return None
    names = [given for c in spec.scoring.counters for given in (c.name, f"opp_{c.name}")]
    if not names:
        raise _fail(
            formulas.where, "match.end_when", "reads the counters carried (scoring.counters): the spec has none."
        )
    ranges = dict.fromkeys(names, UNKNOWN)
    formula, _ = formulas.compile(source, (*END_WHEN_VARS, *names), "match.end_when", ranges)
    return formula


def compile_bid_rules(spec: Spec, sizes: DealSizes, formulas: Formulas, ranges: Mapping[str, Range]) -> BidRules:
    """Check and compile the mechanisms of this module.

    ``sizes`` are the hand sizes (:func:`deal_sizes`). A counter's ``update``
    formula may use the deal and side variables, the scoring vars (whose
    ranges are ``ranges``) and the counters; a counter may not take the name
    of a built-in variable.
    """
    where = formulas.where
    mercy, bonus = _match_end(spec, where)
    return BidRules(
        sizes=sizes,
        tricks_bid=_tricks_bid(spec, sizes, where),
        counters=_counters(spec, formulas, ranges),
        mercy_threshold=mercy,
        win_bonus=bonus,
        end_when=_end_when(spec, formulas),
    )
