"""Dealing: the chance step that starts each deal, and starting a match.

A deal is shuffled from the match's seed (or stacked from given hands for
the first deal), the ante is paid where the spec asks for one, and the deal
opens in the auction, the dealer's choice of trumps, or the play.

What each seat sees: its own hand of the :class:`~trickrules.engine.events.Dealt`
event; every other hand as ``"?"`` cards.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING

from attrs import frozen

from trickrules.compile.cards import NO_TRUMP
from trickrules.compile.modes import AnteWhen, TrumpChooser, Unit
from trickrules.engine.actions import Action
from trickrules.engine.evaluation import evaluate_in_deal
from trickrules.engine.events import HIDDEN, POT, Dealt, Event, Misdealt, paid
from trickrules.engine.loop import advance
from trickrules.engine.mechanism import Mechanism
from trickrules.engine.records import DEALER, Actor, DealInfo, MatchInfo, Phase, Tally, evolve
from trickrules.engine.rng import shuffled
from trickrules.engine.scoring import deal_constants
from trickrules.engine.sizes import hand_size, stacked_size
from trickrules.engine.state import State
from trickrules.errors import ArgumentError, IllegalActionError, shown
from trickrules.spec.formula import MAX_MAGNITUDE, to_int

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = [
    "MAX_START",
    "MAX_START_TEXT",
    "MECHANISM",
    "SEED_BITS",
    "DealView",
    "Dealing",
    "dealing",
    "new_match",
    "start_deal",
]

#: The largest score or pot a match may start from or reach: a tenth of the largest value a
#: formula may meet (``formula.MAX_MAGNITUDE``), so that a formula that reads a total has room
#: for what a deal adds. A log writes a total past 2**53 as a string of its decimal digits.
#: (A Finnish Quadrille pot that stays whole on a Codille triples; random bots take it past
#: 10**14 in about a hundred deals and would need more than six hundred Codilles to reach this.)
MAX_START = MAX_MAGNITUDE // 10
#: ``MAX_START`` as messages write it.
MAX_START_TEXT = f"10**{len(str(MAX_START)) - 1}"

#: A seed drawn when none is given has this many bits (from :mod:`secrets`); seeds given are below ``2**SEED_BITS``.
SEED_BITS = 128


@frozen(weakref_slot=False)
class Dealing:
    """The dealing mechanism's record of a deal: which shuffle of the match dealt it, and the card turned."""

    #: Which shuffle of the match dealt it (a misdeal or a redeal takes the next one).
    shuffle: int
    #: The card turned face up (a trump indicator, or a card offered as trumps), if any.
    turned: int | None = None


@frozen(weakref_slot=False)
class DealView:
    """What every seat sees of the dealing: the card turned face up (``""``: none)."""

    turned: str


def _view(state: State, seat: int) -> DealView:
    turned = dealing(state.deal).turned
    return DealView(state.game.cards.codes[turned] if turned is not None else "")


def dealing(d: DealInfo) -> Dealing:
    """The dealing record of deal ``d`` (always the first of its parts)."""
    record: Dealing = d.parts[0]
    return record


def _dealt_for(event: Dealt, seat: int) -> Dealt:
    hands = tuple(h if s == seat else (HIDDEN,) * len(h) for s, h in enumerate(event.hands))
    return evolve(event, hands=hands)


def _check(state: State, action: Action) -> None:
    raise IllegalActionError(f"{action}: the cards are being dealt.")


def _apply(state: State, action: object) -> State:
    _check(state, state.game.as_action(action))
    raise AssertionError("unreachable")  # pragma: no cover


#: Dealing: the first of every deal's mechanisms (its record is the first part); other seats' hands are hidden.
MECHANISM = Mechanism(
    Phase.DEAL,
    lambda state: (),
    _check,
    _apply,
    reveals=MappingProxyType({Dealt: _dealt_for}),
    view=_view,
    view_type=DealView,
)


def new_match(
    game: GameLike,
    seed: int | None = None,
    dealer: int = 0,
    hands: Sequence[Sequence[str]] | None = None,
    turned: str | None = None,
    scores: Sequence[int] | None = None,
    pot: int = 0,
) -> State:
    """Start a match of ``game`` (see :meth:`Game.new_match`)."""
    n = game.players
    if seed is None:
        seed = secrets.randbits(SEED_BITS)  # nobody can guess the deals from his own hand
    elif type(seed) is not int or not 0 <= seed < 2**SEED_BITS:
        raise ArgumentError(f"seed must be an integer from 0 to 2**128 - 1, found {shown(seed)}.")
    game.seat(dealer, "dealer")
    stacked: tuple[tuple[str, ...], ...] = ()
    stacked_turned = ""
    if turned is not None and type(turned) is not str:
        raise ArgumentError(f"turned must be a card code, found {shown(turned)}.")
    if turned is not None and not (game.rules.turn_last_card or game.rules.turn_from_stock):
        raise ArgumentError(f"turned ({turned!r}) is given, but in this game no card is turned.")
    if hands is not None:
        if isinstance(hands, str) or not isinstance(hands, Sequence):
            raise ArgumentError(f"hands must be a list of card codes per seat, found {shown(hands)}.")
        stacked = tuple(_codes(h, k) for k, h in enumerate(hands))
        _, t, _ = _stacked_masks(game, stacked, dealer, turned)
        stacked_turned = game.cards.codes[t] if t is not None else ""
    elif turned is not None:
        raise ArgumentError("a turned card can only be given with stacked hands.")
    if scores is not None and (isinstance(scores, str) or not isinstance(scores, Sequence)):
        raise ArgumentError(f"scores must give an integer per seat ({n}), found {scores!r}.")
    totals = tuple(scores) if scores is not None else (0,) * n
    if len(totals) != n or any(type(x) is not int or abs(x) > MAX_START for x in totals):
        raise ArgumentError(
            f"scores must give an integer of at most {MAX_START_TEXT} per seat ({n}), found {shown(scores)}."
        )
    if type(pot) is not int or not 0 <= pot <= MAX_START or (pot and game.rules.unit is not Unit.CHIPS):
        raise ArgumentError(
            f"pot must be an integer from 0 to {MAX_START_TEXT} (and 0 in a game without a pot), found {shown(pot)}."
        )
    match = MatchInfo(
        seed=seed,
        scores=totals,
        pot=pot,
        stacked=stacked,
        first_dealer=dealer,
        stacked_turned=stacked_turned,
        start_scores=totals if scores is not None else (),
        start_pot=pot,
        counters=tuple((c.start,) * n for c in game.rules.bids.counters),
    )
    deal = DealInfo(number=0, dealer=dealer, dealt=(0,) * n, parts=(Dealing(0),))  # a placeholder: nothing dealt yet
    start = State(game, Phase.DEAL, dealer, (0,) * n, (), dealer, deal, Tally((0,) * n), match)
    return start_deal(start, 0, 0, dealer, match, [], stacked=stacked, turned=turned)


def _codes(hand: object, seat: int) -> tuple[str, ...]:
    if isinstance(hand, str) or not isinstance(hand, Sequence) or any(type(c) is not str for c in hand):
        raise ArgumentError(f"hands[{seat}] must be a list of card codes, found {shown(hand)}.")
    return tuple(hand)


def _stacked_masks(
    game: GameLike, hands: tuple[tuple[str, ...], ...], dealer: int, turned: str | None
) -> tuple[tuple[int, ...], int | None, str]:
    """Read stacked hands; return masks, the turned card, and a misdeal reason ("" if none)."""
    cards = game.cards
    n = game.players
    if len(hands) != n:
        raise ArgumentError(f"hands must give one list of cards per seat ({n}), found {len(hands)}.")
    seen: dict[str, int] = {}
    masks = []
    for seat, hand in enumerate(hands):
        mask = 0
        for code in hand:
            if code not in cards.codes:
                raise ArgumentError(f"hands[{seat}]: {code!r} is not a card of this deck.")
            if code in seen:
                raise ArgumentError(f"hands[{seat}]: {code} is also in hands[{seen[code]}].")
            seen[code] = seat
            mask |= 1 << cards.codes.index(code)
        masks.append(mask)
    rules = game.rules
    size, reason = stacked_size(rules, 0, [len(h) for h in hands])  # only the first deal is stacked
    stock = cards.size - n * (size or rules.hand_size)
    if not stock and len(seen) != cards.size:
        missing = [c for c in cards.codes if c not in seen]
        raise ArgumentError(f"hands must hold the whole deck; missing {', '.join(missing)}.")
    t = None
    if rules.turn_last_card:
        code = turned if turned is not None else (hands[dealer][-1] if hands[dealer] else "")
        if code not in seen or seen[code] != dealer:
            raise ArgumentError(f"the turned card {code!r} must be in the dealer's hand.")
        t = cards.codes.index(code)
    elif rules.turn_from_stock:
        undealt = [c for c in cards.codes if c not in seen]
        code = turned if turned is not None else (undealt[0] if undealt else "")
        if code not in undealt:
            raise ArgumentError(f"the turned card {code!r} must be one of the stock's (a card no hand holds).")
        t = cards.codes.index(code)
    return tuple(masks), t, reason


def _deal_from_seed(
    game: GameLike, seed: int, shuffle_no: int, dealer: int, size: int
) -> tuple[tuple[int, ...], int | None, tuple[tuple[str, ...], ...]]:
    """Shuffle and deal ``size`` cards each; return the hands as masks, the turned card and the hands as codes."""
    t = game._tables
    rules = game.rules
    order = shuffled(seed, shuffle_no, t.cards.size)
    dealt = game.players * size
    masks = t.deal(dealer, order[:dealt])
    turned = None
    if rules.turn_last_card:
        turned = order[dealt - 1]  # the dealer is dealt last in every round
    elif rules.turn_from_stock:
        turned = order[dealt]  # the first card the packets leave undealt
    return masks, turned, t.hands_of(masks)


def start_deal(
    prev: State,
    number: int,
    shuffle_no: int,
    dealer: int,
    match: MatchInfo,
    events: list[tuple[Actor, Event]],
    stacked: tuple[tuple[str, ...], ...] = (),
    turned: str | None = None,
) -> State:
    """Deal deal ``number`` (from shuffle ``shuffle_no``), after ``events``; the state of its first decision."""
    game = prev.game
    rules = game.rules
    n = game.players
    if stacked:
        hands, turned_card, misdeal = _stacked_masks(game, stacked, dealer, turned)
        texts = game._tables.hands_of(hands)
        size = len(stacked[0])
        if misdeal:
            events.append((DEALER, Misdealt(number, dealer, misdeal)))
            shuffle_no += 1
            size = hand_size(rules, match.seed, shuffle_no, number)
            hands, turned_card, texts = _deal_from_seed(game, match.seed, shuffle_no, dealer, size)
    else:
        size = hand_size(rules, match.seed, shuffle_no, number)
        hands, turned_card, texts = _deal_from_seed(game, match.seed, shuffle_no, dealer, size)
    ante = _ante_due(game, match, number)
    if ante:
        scores = list(match.scores)
        for seat in range(n):
            events.append((DEALER, paid(seat, POT, ante, "ante")))
            scores[seat] -= ante
        match = evolve(match, scores=tuple(scores), pot=match.pot + ante * n)
    turned_code = game.cards.codes[turned_card] if turned_card is not None else ""
    events.append((DEALER, Dealt(number, dealer, texts, turned_code)))
    trump: int | None = None
    if rules.trump_chosen_by is TrumpChooser.TURNED and turned_card is not None:
        trump = game.cards.suit_of[turned_card]
    elif rules.trump_chosen_by is TrumpChooser.NONE:
        trump = NO_TRUMP
    elif rules.fixed_trump is not None:
        trump = rules.fixed_trump
    deal = DealInfo(
        number=number, dealer=dealer, dealt=hands, trump=trump, tricks=size, parts=(Dealing(shuffle_no, turned_card),)
    )
    parts = [deal.parts[0]]
    for mechanism in game._parts[1:]:
        parts.append(None if mechanism.start is None else mechanism.start(game, deal, match))
    deal = evolve(deal, parts=tuple(parts))
    eldest = (dealer + 1) % n
    dealt = State(game, Phase.DEAL, eldest, hands, (), eldest, deal, Tally((0,) * n), match, prev.history)
    return advance(dealt, deal, events)


def _ante_due(game: GameLike, match: MatchInfo, number: int) -> int:
    rules = game.rules
    when = rules.ante_when
    if (
        when is AnteWhen.NEVER
        or (when is AnteWhen.FIRST_DEAL and number != 0)
        or (when is AnteWhen.EMPTY_POT and match.pot)
    ):
        return 0
    value = evaluate_in_deal(rules.ante, deal_constants(game, match, number) if rules.ante.variables else {}, number)
    return to_int(value, rules.rounding, where="scoring.ante")
