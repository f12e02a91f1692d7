"""Dealing: the chance steps that start each deal, and starting a match.

A deal is dealt from the match's seed, or stacked from given hands (the
first deal's with ``new_match(hands=...)``, any deal's with ``deals=``);
the ante is paid where the spec asks for one, and the deal opens in the
first phase of the game's sequence that is due.

**Chance, step by step.** Dealing is a sequence of chance outcomes, as
OpenSpiel deals: first what the rules draw at random for the deal other
than cards, each a :class:`~trickrules.engine.mechanism.Draw` (the hand
size, ``size N``, where ``deal.hand_size = "random"``; where passed cards go,
``direction N``, where ``passing.order = "chance"``), then the cards one at
a time, ``deal CARD``, every card not yet dealt equally likely. The ``k``-th
card goes to the seat the packets give the ``k``-th position
(``Tables.deal_seats``); where a card of the stock is turned, one more card
after the hands is the one turned (where the dealer's last card is turned,
it is the last card dealt). The seed picks each outcome: a draw's entry
from its own stream (:mod:`trickrules.engine.rng`), and card ``k`` the
``k``-th of the seed's shuffle (the first of its order not yet dealt, once
the caller has dealt otherwise), so dealing step by step as the seed picks
deals exactly what one shuffle does.

With ``new_match(chance="seed")`` (the default) the engine takes the
seed's outcomes itself and no state rests at a chance step, so seeded logs
are what they always were. With ``chance="caller"`` every step rests
(``state.is_chance``; ``state.chance_outcomes()``, ``state.seeded_outcome()``)
until the caller applies an outcome. A deal so chosen that differs from the
seed's is recorded (``MatchInfo.chosen``, by shuffle number; the log's
header ``chosen``), so that its log replays; one equal to the seed's is not,
so following the seed gives the seeded log byte for byte.

What each seat sees: its own hand of the :class:`~trickrules.engine.events.Dealt`
event; every other hand as ``"?"`` cards.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from attrs import field, frozen

from trickrules.compile.cards import NO_TRUMP
from trickrules.compile.modes import AnteWhen, HandSizeOrder, TrumpChooser
from trickrules.engine.actions import Action, Verb
from trickrules.engine.evaluation import evaluate_in_deal
from trickrules.engine.events import HIDDEN, POT, Dealt, Event, Misdealt, paid
from trickrules.engine.loop import advance
from trickrules.engine.mechanism import Draw, Mechanism
from trickrules.engine.rng import chosen_size, shuffled
from trickrules.engine.scoring import deal_constants
from trickrules.engine.sizes import stacked_size
from trickrules.engine.state import State, set_cache
from trickrules.engine.values import DEALER, Actor, DealInfo, MatchInfo, Phase, Stacked, Step, Tally, evolve
from trickrules.errors import ArgumentError, IllegalActionError, SpecError, shown
from trickrules.spec.formula import MAX_MAGNITUDE, to_int

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = [
    "MAX_START",
    "MAX_START_TEXT",
    "MAX_THROWN",
    "MECHANISM",
    "SEED_BITS",
    "SIZE",
    "DealView",
    "Dealing",
    "Stacked",
    "check_draws",
    "deal_draws",
    "dealing",
    "stacked_masks",
    "start_deal",
    "thrown_in",
]

#: The largest score or pot a match may start from or reach: a tenth of the largest value a
#: formula may meet (``formula.MAX_MAGNITUDE``), so that a formula that reads a total has room
#: for what a deal adds. A log writes a total past 2**53 as a string of its decimal digits.
#: (A Finnish Quadrille pot that stays whole on a Codille triples; random bots take it past
#: 10**14 in about a hundred deals and would need more than six hundred Codilles to reach this.)
MAX_START = MAX_MAGNITUDE // 10
#: ``MAX_START`` as messages write it.
MAX_START_TEXT = f"10**{len(str(MAX_START)) - 1}"

#: How many deals in a row may be thrown in (everyone passed, and the same dealer or the next one deals
#: again) before the engine stops the match: rules that may never let anyone bid or make trumps would
#: otherwise deal for ever. By chance alone, a game where even one deal in ten is played never gets here.
MAX_THROWN = 1000

#: A seed drawn when none is given has this many bits (from :mod:`secrets`); seeds given are below ``2**SEED_BITS``.
SEED_BITS = 128


@frozen(weakref_slot=False)
class Dealing:
    """The dealing mechanism's record of a deal: which shuffle dealt it, the card turned, what was drawn."""

    #: Which shuffle of the match dealt it (a misdeal or a redeal takes the next one).
    shuffle: int
    #: The card turned face up (a trump indicator, or a card offered as trumps), if any.
    turned: int | None = None
    #: What the rules drew for the deal other than cards (each :class:`Draw`'s verb and value), in order.
    drawn: tuple[tuple[str, int], ...] = ()
    #: While the deal is dealt at chance steps: the cards dealt so far, in order (``None`` once it is dealt).
    cards: tuple[int, ...] | None = None
    #: How many deals in a row were thrown in (everyone passed) just before this one (see :func:`thrown_in`);
    #: left out of the repr, which shows the deal itself.
    thrown: int = field(default=0, repr=False)


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


def thrown_in(state: State, d: DealInfo, same_dealer: bool, what: str) -> int:
    """Deal ``d`` thrown in (everyone passed): how many deals in a row that makes, this one included.

    Raises :class:`~trickrules.errors.SpecError` when that reaches :data:`MAX_THROWN`: the rules
    then most likely never let anyone ``what`` (``"bid a contract"``, ``"make trumps"``), and the
    match would deal for ever. ``same_dealer``: the same dealer deals the same deal again.
    """
    count = dealing(d).thrown + 1
    if count >= MAX_THROWN:
        game = state.game
        if same_dealer:
            done = f"deal {d.number} redealt {count} times in a row"
        else:
            done = f"{count} deals in a row thrown in (deals {d.number - count + 1} to {d.number})"
        raise SpecError(
            f"{game.name}: {done}: everyone passed every time, so the rules may let no seat {what}; "
            "the match cannot go on."
        )
    return count


def _dealt_for(event: Dealt, seat: int) -> Dealt:
    hands = tuple(h if s == seat else (HIDDEN,) * len(h) for s, h in enumerate(event.hands))
    return evolve(event, hands=hands)


# -- what is drawn before the cards -------------------------------------------------------


def _sizes(game: GameLike, number: int) -> tuple[int, ...]:
    sizes = game.rules.bids.sizes
    return sizes.sizes if sizes.order is HandSizeOrder.RANDOM else ()


#: The hand size of a deal, where the spec draws it (``deal.hand_size = "random"``): ``size N``.
SIZE = Draw("size", _sizes, chosen_size)


def deal_draws(game: GameLike, number: int) -> list[tuple[Draw, tuple[int, ...]]]:
    """What deal ``number`` draws before its cards: the hand size, then each mechanism's draw, with its values."""
    out = []
    for draw in (SIZE, *(m.draw for m in game.part_mechanisms if m.draw is not None)):
        values = draw.values(game, number)
        if values:
            out.append((draw, values))
    return out


def check_draws(game: GameLike, number: int, draws: object, where: str) -> None:
    """Refuse (:class:`ArgumentError` naming ``where``) draws that stacked deal ``number`` may not have.

    ``draws`` are (verb, value) pairs of the deal's draws other than the hand size (the hands give it).
    """
    allowed = {d.verb: values for d, values in deal_draws(game, number) if d is not SIZE}
    if not isinstance(draws, tuple):
        raise ArgumentError(f"{where}: draws must be (verb, value) pairs, found {shown(draws)}.")
    for pair in draws:
        if type(pair) is not tuple or len(pair) != 2 or pair[0] not in allowed or pair[1] not in allowed[pair[0]]:
            raise ArgumentError(f"{where}: {shown(pair)} is not a draw this deal may have.")


def _seeded_draws(game: GameLike, seed: int, number: int, shuffle_no: int) -> tuple[tuple[str, int], ...]:
    """What the seed draws for the deal of shuffle ``shuffle_no`` before its cards, by verb."""
    return tuple((d.verb, values[d.seeded(seed, shuffle_no, len(values))]) for d, values in deal_draws(game, number))


def _size_of(game: GameLike, number: int, drawn: tuple[tuple[str, int], ...]) -> int:
    """The hand size of deal ``number``: the one drawn, else the one the schedule gives."""
    for verb, value in drawn:
        if verb == SIZE.verb:
            return value
    sizes = game.rules.bids.sizes.sizes
    return sizes[number % len(sizes)]


# -- chance steps ----------------------------------------------------------------------------


def _card_count(game: GameLike, size: int) -> int:
    """How many cards chance deals for hands of ``size``: the hands', and the stock's turned card."""
    return game.players * size + (1 if game.rules.turn_from_stock else 0)


def _outcomes(state: State) -> tuple[tuple[Action, Fraction], ...]:
    found: tuple[tuple[Action, Fraction], ...] | None = state._cache  # the outcomes, worked out once per state
    if found is not None:
        return found
    game = state.game
    record = dealing(state.deal)
    draws = deal_draws(game, state.deal.number)
    k = len(record.drawn)
    out: tuple[tuple[Action, Fraction], ...]
    if k < len(draws):
        draw, values = draws[k]
        out = tuple((game.action(f"{draw.verb} {v}"), Fraction(c, len(values))) for v, c in Counter(values).items())
    else:
        taken = sum(1 << c for c in record.cards or ())
        codes = game.cards.codes
        free = [c for c in range(len(codes)) if not (taken >> c) & 1]
        share = Fraction(1, len(free))
        out = tuple((game.action(f"deal {codes[c]}"), share) for c in free)
    set_cache(state, out)
    return out


def _legal(state: State) -> tuple[Action, ...]:
    return tuple(a for a, _ in _outcomes(state)) if state.is_chance else ()


def _check(state: State, action: Action) -> None:
    if not state.is_chance:
        raise IllegalActionError(f"{action}: the cards are being dealt.")  # pragma: no cover - never rests
    outcomes = _outcomes(state)
    for a, _ in outcomes:
        if a == action:
            return
    verb = outcomes[0][0].verb
    listed = ", ".join(str(a) for a, _ in outcomes[:6]) + (", ..." if len(outcomes) > 6 else "")
    if action.verb != verb:
        why = f"this chance step draws {'a card' if verb == 'deal' else 'a ' + verb} ({listed})"
    elif verb != Verb.DEAL:
        why = f"not a {verb} the rules may draw here ({listed})"
    elif action.arg in state.game.cards.codes:
        why = f"{action.arg} is already dealt"
    else:
        why = f"{action.arg!r} is not a card of this deck"
    raise IllegalActionError(f"{action}: {why}.")


def _apply(state: State, action: object) -> State:
    chosen = state.game.as_action(action)
    _check(state, chosen)
    game = state.game
    d = state.deal
    record = dealing(d)
    if chosen.verb == Verb.DEAL:
        record = evolve(record, cards=(*(record.cards or ()), game.cards.codes.index(chosen.arg)))
    else:
        record = evolve(record, drawn=(*record.drawn, (chosen.verb, int(chosen.arg))))
    history = Step(state.history, ())  # a chance step records no event: the deal's Dealt says what it dealt
    if len(record.drawn) < len(deal_draws(game, d.number)):
        return _chance_state(state, d.number, d.dealer, state.match, history, record)
    size = _size_of(game, d.number, record.drawn)
    if len(record.cards or ()) < _card_count(game, size):
        return _chance_state(state, d.number, d.dealer, state.match, history, record)
    after = State(game, Phase.DEAL, None, state.hands, (), state.leader, d, state.tally, state.match, history)
    return _dealt_by_chance(after, record, size)


def _seeded(state: State) -> Action:
    game = state.game
    d = state.deal
    record = dealing(d)
    seed = state.match.seed
    draws = deal_draws(game, d.number)
    k = len(record.drawn)
    if k < len(draws):
        draw, values = draws[k]
        return game.action(f"{draw.verb} {values[draw.seeded(seed, record.shuffle, len(values))]}")
    taken = set(record.cards or ())
    card = next(c for c in shuffled(seed, record.shuffle, game.cards.size) if c not in taken)
    return game.action(f"deal {game.cards.codes[card]}")


def _chance_state(
    prev: State, number: int, dealer: int, match: MatchInfo, history: Step | None, record: Dealing
) -> State:
    """The state at a chance step of deal ``number``: the cards dealt so far in their seats' hands."""
    game = prev.game
    n = game.players
    cards = list(record.cards or ())
    drawn_all = len(record.drawn) == len(deal_draws(game, number))
    size = _size_of(game, number, record.drawn) if drawn_all else 0
    hands = game.tables.deal(dealer, cards[: n * size] if drawn_all else [])
    d = DealInfo(number=number, dealer=dealer, dealt=hands, tricks=size, parts=(evolve(record, cards=tuple(cards)),))
    eldest = (dealer + 1) % n
    return State(game, Phase.DEAL, None, hands, (), eldest, d, Tally((0,) * n), match, history)


def _dealt_by_chance(state: State, record: Dealing, size: int) -> State:
    """The deal dealt by the outcomes in ``record``; recorded in the match where it is not what the seed deals."""
    game = state.game
    d = state.deal
    match = state.match
    cards = list(record.cards or ())
    dealt = game.players * size
    hands = game.tables.deal(d.dealer, cards[:dealt])
    turned = cards[dealt - 1] if game.rules.turn_last_card else cards[dealt] if game.rules.turn_from_stock else None
    seeded = _seeded_draws(game, match.seed, d.number, record.shuffle)
    seeded_size = _size_of(game, d.number, seeded)
    seed_hands, seed_turned, _ = _deal_from_seed(game, match.seed, record.shuffle, d.dealer, seeded_size)
    if (hands, turned, record.drawn) != (seed_hands, seed_turned, seeded):
        others = dict(seeded)
        draws = tuple((v, x) for v, x in record.drawn if v != SIZE.verb and others.get(v) != x)
        code = game.cards.codes[turned] if turned is not None else ""
        stack = Stacked(game.tables.hands_of(hands), code, draws)
        match = evolve(match, chosen=(*match.chosen, (record.shuffle, stack)))
    shuffle, drawn = record.shuffle, record.drawn
    return _dealt(state, d.number, shuffle, d.dealer, match, [], hands, turned, size, drawn, thrown=record.thrown)


#: Dealing: the first of every deal's mechanisms (its record is the first part); other seats' hands are hidden.
#: Its phase's states rest only at chance steps (a match with ``chance="caller"``), whose outcomes it lists.
MECHANISM = Mechanism(
    Phase.DEAL,
    _legal,
    _check,
    _apply,
    reveals=MappingProxyType({Dealt: _dealt_for}),
    view=_view,
    view_type=DealView,
    chance=_outcomes,
    seeded=_seeded,
)


def stacked_masks(
    game: GameLike, hands: tuple[tuple[str, ...], ...], dealer: int, turned: str | None, number: int = 0
) -> tuple[tuple[int, ...], int | None, str]:
    """Read the stacked hands of deal ``number``; return masks, the turned card, and a misdeal reason ("" if none)."""
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
    size, reason = stacked_size(rules, number, [len(h) for h in hands])
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
    t = game.tables
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


def _stack_for(match: MatchInfo, number: int, shuffle_no: int, fresh: bool) -> Stacked | None:
    """The stacked deal that shuffle ``shuffle_no`` (deal ``number``) deals, if it is one."""
    for shuffle, stack in match.chosen:
        if shuffle == shuffle_no:
            return stack
    if fresh:  # the deal's first dealing: a redeal or a misdeal's deals from the seed
        if number == 0 and match.stacked:
            return Stacked(match.stacked, match.stacked_turned)
        for k, stack in match.stacks:
            if k == number:
                return stack
    return None


def start_deal(
    prev: State,
    number: int,
    shuffle_no: int,
    dealer: int,
    match: MatchInfo,
    events: list[tuple[Actor, Event]],
    fresh: bool | None = None,
    thrown: int = 0,
) -> State:
    """Deal deal ``number`` (from shuffle ``shuffle_no``), after ``events``; the state of its first decision.

    Where the match's caller chooses the chance outcomes, the state of the deal's first chance step.
    ``fresh`` says whether this is the deal's first dealing (by default, whether ``number`` is new);
    ``thrown``, how many deals in a row were thrown in just before it (:func:`thrown_in`).
    """
    game = prev.game
    if fresh is None:
        fresh = number != prev.deal.number
    stack = _stack_for(match, number, shuffle_no, fresh)
    if stack is not None:
        hands, turned_card, misdeal = stacked_masks(game, stack.hands, dealer, stack.turned or None, number)
        if misdeal:
            events.append((DEALER, Misdealt(number, dealer, misdeal)))
            return start_deal(prev, number, shuffle_no + 1, dealer, match, events, fresh=False, thrown=thrown)
        check_draws(game, number, stack.draws, f"the stacked deal {number}")
        size = len(stack.hands[0])
        given = {**dict(stack.draws), SIZE.verb: size}  # the hands give the size; the seed what the stack does not
        drawn = tuple((v, given.get(v, x)) for v, x in _seeded_draws(game, match.seed, number, shuffle_no))
        return _dealt(prev, number, shuffle_no, dealer, match, events, hands, turned_card, size, drawn, thrown=thrown)
    if match.by_caller:
        history = Step(prev.history, tuple(events)) if events else prev.history
        return _chance_state(prev, number, dealer, match, history, Dealing(shuffle_no, thrown=thrown))
    drawn = _seeded_draws(game, match.seed, number, shuffle_no)
    size = _size_of(game, number, drawn)
    hands, turned_card, texts = _deal_from_seed(game, match.seed, shuffle_no, dealer, size)
    return _dealt(prev, number, shuffle_no, dealer, match, events, hands, turned_card, size, drawn, texts, thrown)


def _dealt(
    prev: State,
    number: int,
    shuffle_no: int,
    dealer: int,
    match: MatchInfo,
    events: list[tuple[Actor, Event]],
    hands: tuple[int, ...],
    turned_card: int | None,
    size: int,
    drawn: tuple[tuple[str, int], ...],
    texts: tuple[tuple[str, ...], ...] | None = None,
    thrown: int = 0,
) -> State:
    """The deal's antes and ``Dealt`` event after ``events``, its mechanisms started, and its first decision.

    ``texts`` are the hands' codes where the caller has them already; ``thrown`` as :func:`start_deal` says.
    """
    game = prev.game
    rules = game.rules
    n = game.players
    ante = _ante_due(game, match, number)
    if ante:
        scores = list(match.scores)
        for seat in range(n):
            events.append((DEALER, paid(seat, POT, ante, "ante")))
            scores[seat] -= ante
        match = evolve(match, scores=tuple(scores), pot=match.pot + ante * n)
    turned_code = game.cards.codes[turned_card] if turned_card is not None else ""
    events.append((DEALER, Dealt(number, dealer, texts or game.tables.hands_of(hands), turned_code)))
    trump: int | None = None
    if rules.trump_chosen_by is TrumpChooser.TURNED and turned_card is not None:
        trump = game.cards.suit_of[turned_card]
    elif rules.trump_chosen_by is TrumpChooser.NONE:
        trump = NO_TRUMP
    elif rules.fixed_trump is not None:
        trump = rules.fixed_trump
    record = Dealing(shuffle_no, turned_card, drawn, thrown=thrown)
    deal = DealInfo(number, dealer, hands, trump, None, None, None, 0, size, (record,))
    parts: list[Any] = [record]
    for mechanism in game.part_mechanisms[1:]:
        parts.append(None if mechanism.start is None else mechanism.start(game, deal, match))
    deal = DealInfo(number, dealer, hands, trump, None, None, None, 0, size, tuple(parts))
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
