"""Starting a match: ``new_match``'s arguments read and checked, and the first deal dealt.

The dealing itself (from the seed, stacked, or step by step at chance
steps) is :mod:`trickrules.engine.phases.deal`'s.
"""

from __future__ import annotations

import enum
import secrets
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from trickrules.compile.modes import Unit
from trickrules.engine.phases.deal import (
    MAX_START,
    MAX_START_TEXT,
    SEED_BITS,
    Dealing,
    check_draws,
    stacked_masks,
    start_deal,
)
from trickrules.engine.state import State
from trickrules.engine.values import DealInfo, MatchInfo, Phase, Stacked, Tally
from trickrules.errors import ArgumentError, shown

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["CHANCE_MODES", "MAX_DEAL", "ChanceBy", "new_match"]


class ChanceBy(enum.StrEnum):
    """Who takes the chance outcomes of a match (``new_match(chance=...)``): the seed, or the caller."""

    SEED = "seed"
    CALLER = "caller"


#: The accepted values of ``new_match(chance=...)``.
CHANCE_MODES = tuple(ChanceBy)


def new_match(
    game: GameLike,
    seed: int | None = None,
    dealer: int = 0,
    hands: Sequence[Sequence[str]] | None = None,
    turned: str | None = None,
    scores: Sequence[int] | None = None,
    pot: int = 0,
    deals: Mapping[int, Sequence[Sequence[str]] | Stacked] | None = None,
    chance: str = "seed",
    chosen: Sequence[tuple[int, Stacked]] = (),
) -> State:
    """Start a match of ``game`` (see :meth:`Game.new_match`).

    ``chosen`` (from a log's header, for replay) gives deals by shuffle
    number that a caller chose at chance steps other than the seed would.
    """
    n = game.players
    if seed is None:
        seed = secrets.randbits(SEED_BITS)  # nobody can guess the deals from his own hand
    elif type(seed) is not int or not 0 <= seed < 2**SEED_BITS:
        raise ArgumentError(f"seed must be an integer from 0 to 2**128 - 1, found {shown(seed)}.")
    game.seat(dealer, "dealer")
    if chance not in CHANCE_MODES:
        raise ArgumentError(f"chance must be 'seed' or 'caller', found {shown(chance)}.")
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
        _, t, _ = stacked_masks(game, stacked, dealer, turned)
        stacked_turned = game.cards.codes[t] if t is not None else ""
    elif turned is not None:
        raise ArgumentError("a turned card can only be given with stacked hands.")
    stacks = _stacks(game, deals, dealer, hands is not None)
    totals = _totals(game, scores, pot)
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
        stacks=stacks,
        chosen=tuple(chosen),
        by_caller=ChanceBy(chance) is ChanceBy.CALLER,
    )
    deal = DealInfo(number=0, dealer=dealer, dealt=(0,) * n, parts=(Dealing(0),))  # a placeholder: nothing dealt yet
    start = State(game, Phase.DEAL, dealer, (0,) * n, (), dealer, deal, Tally((0,) * n), match)
    return start_deal(start, 0, 0, dealer, match, [], fresh=True)


def _totals(game: GameLike, scores: Sequence[int] | None, pot: int) -> tuple[int, ...]:
    """The scores a match starts from, checked with its pot."""
    n = game.players
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
    return totals


def _stacks(game: GameLike, deals: object, dealer: int, first_stacked: bool) -> tuple[tuple[int, Stacked], ...]:
    """``new_match(deals=...)`` read and checked: each deal's stack, by deal number."""
    if deals is None:
        return ()
    if not isinstance(deals, Mapping):
        raise ArgumentError(f"deals must map deal numbers to stacked deals, found {shown(deals)}.")
    out = []
    for number, given in deals.items():
        if type(number) is not int or not 0 <= number <= MAX_DEAL:
            raise ArgumentError(f"deals: a deal number must be an integer from 0 to {MAX_DEAL}, found {shown(number)}.")
        if number == 0 and first_stacked:
            raise ArgumentError("deals[0] and hands both stack the first deal; give one of them.")
        out.append((number, _stack(game, given, number, (dealer + number) % game.players)))
    return tuple(sorted(out, key=lambda item: item[0]))


#: The largest deal number ``deals`` may stack.
MAX_DEAL = 10**6


def _stack(game: GameLike, given: object, number: int, dealer: int) -> Stacked:
    """One deal of ``deals``: hands, or a :class:`Stacked`, checked and with its turned card filled in."""
    where = f"deals[{number}]"
    hands: Sequence[object]
    if isinstance(given, Stacked):
        hands, turned, draws = given.hands, given.turned, given.draws
    elif isinstance(given, Sequence) and not isinstance(given, str):
        hands, turned, draws = given, "", ()
    else:
        raise ArgumentError(f"{where} must be a list of card codes per seat or a Stacked, found {shown(given)}.")
    codes = tuple(_codes(h, k) for k, h in enumerate(hands))
    try:
        _, t, _ = stacked_masks(game, codes, dealer, turned or None, number)
    except ArgumentError as exc:
        raise ArgumentError(f"{where}: {exc}") from None
    if isinstance(draws, Mapping):  # {"direction": 2} reads as (("direction", 2),)
        draws = tuple(draws.items())
    check_draws(game, number, draws, where)
    return Stacked(codes, game.cards.codes[t] if t is not None else "", tuple(draws))


def _codes(hand: object, seat: int) -> tuple[str, ...]:
    if isinstance(hand, str) or not isinstance(hand, Sequence) or any(type(c) is not str for c in hand):
        raise ArgumentError(f"hands[{seat}] must be a list of card codes, found {shown(hand)}.")
    return tuple(hand)
