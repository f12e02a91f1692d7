"""The talon in exposed sets: the declarer takes one set of the talon face up, then discards as many cards.

A spec uses it with a ``[mechanisms.talon_sets]`` section. The talon is the
stock: the cards no hand was dealt. Its order is a chance draw of its own
(``arrange K``: the K-th arrangement, in lexicographic order, of the stock's
cards taken in deck order), drawn before the cards like a pass direction, so
a seed or a stacked deal fixes it. In a contract named in ``sets``, once the
auction (and any call of a card) is over, the talon is laid out face up in
sets of that contract's size, in its order; the declarer takes one
(``take N``, counting the sets from 1), adds it to his hand, and then
discards as many cards face down (``discard CARD``), one action each.

The section's keys:

- ``sets``: contract name -> the size of a set in that contract (the talon's
  size must be a multiple of it);
- ``never``: card codes that may never be discarded (kings, say);
- ``last_resort``: suit codes whose cards may be discarded only when the hand
  holds no other card that may be (a suit of permanent trumps, say);
- ``shown``: suit codes whose discarded cards every seat sees (the others see
  ``"?"`` for any other discard).

The record keeps the talon's order, the set taken and the cards discarded;
every seat sees the talon once it is laid out, its own discards and the
discards of the ``shown`` suits. The cards of the sets not taken stay where
they lie (out of the hands); the discards count in the scoring as cards the
declarer took (its facts' ``won``).
"""

from __future__ import annotations

from collections.abc import Mapping
from math import factorial
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from attrs import frozen

from trickrules.engine.actions import Action
from trickrules.engine.events import HIDDEN, Event, MechanismEvent
from trickrules.engine.loop import advance, moved
from trickrules.engine.mechanism import Draw, listed, not_legal, register
from trickrules.engine.rng import chosen
from trickrules.engine.state import State
from trickrules.engine.values import Actor, DealInfo, MatchInfo, evolve, with_part
from trickrules.errors import SpecError

if TYPE_CHECKING:
    from trickrules.compile.tables import Tables
    from trickrules.engine.state import GameLike

__all__ = [
    "MECHANISM",
    "PHASE",
    "SetTaken",
    "TalonDiscarded",
    "TalonParams",
    "TalonSets",
    "TalonSetsView",
    "arrangement",
    "arrangement_index",
    "install",
    "talon_params",
]

#: This mechanism's phase, and the name of its spec section.
PHASE = "talon_sets"
#: The largest talon whose order is drawn (8! = 40,320 arrangements).
MAX_TALON = 8


@frozen(weakref_slot=False)
class TalonParams:
    """The section ``[mechanisms.talon_sets]`` compiled: set sizes by contract, and the discard rules."""

    #: Per contract index, the size of a set (0: the talon is not taken in that contract).
    set_size: tuple[int, ...]
    #: The cards that may never be discarded, as a mask.
    never: int
    #: The cards discarded only when nothing else may be, as a mask.
    last_resort: int
    #: The cards whose discard every seat sees, as a mask.
    shown: int
    #: How many cards the talon holds.
    talon_size: int


@frozen(weakref_slot=False)
class TalonSets:
    """The record of a deal: the talon's order, the set taken (0: none yet) and the cards discarded."""

    #: The talon's cards in the order they are laid out.
    order: tuple[int, ...] = ()
    #: The set taken, counting from 1 (0: not yet).
    taken: int = 0
    #: The cards discarded, in the order they were discarded.
    discarded: tuple[int, ...] = ()


@frozen(weakref_slot=False)
class TalonSetsView:
    """What a seat sees: the talon's sets once laid out, the set taken, the discards it may see."""

    #: The sets, each a tuple of card codes (empty until the talon is laid out).
    sets: tuple[tuple[str, ...], ...]
    #: The set taken, counting from 1 (0: not yet).
    taken: int
    #: The cards discarded, ``"?"`` for those this seat may not see.
    discarded: tuple[str, ...]


@frozen
class SetTaken(MechanismEvent):
    """The declarer took set ``number`` (from 1) of the talon laid out face up as ``talon``."""

    TAG: ClassVar[str] = "set_taken"
    seat: int
    number: int
    cards: tuple[str, ...]
    talon: tuple[str, ...]

    def describe(self) -> str:
        """One line for a printout of the match."""
        return f"seat {self.seat} takes set {self.number} ({' '.join(self.cards)}) of the talon {' '.join(self.talon)}"


@frozen
class TalonDiscarded(MechanismEvent):
    """The declarer discarded a card after taking a set of the talon (``"?"`` where this seat may not see it)."""

    TAG: ClassVar[str] = "talon_discard"
    seat: int
    card: str
    #: Whether every seat sees the card (its suit is one of ``shown``).
    public: bool = False

    def describe(self) -> str:
        """One line for a printout of the match."""
        return f"seat {self.seat} discards {self.card}"


_NONE = TalonSets()
_PARAMS: dict[int, tuple[Tables, TalonParams]] = {}


def _section_error(key: str, message: str) -> SpecError:
    return SpecError(f"mechanisms.{PHASE}.{key}: {message}")


def _codes(section: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = section.get(key, ())
    if not isinstance(value, tuple) or not all(type(v) is str for v in value):
        raise _section_error(key, f"expected a list of codes, found {value!r}.")
    return value


def talon_params(t: Tables) -> TalonParams:
    """The compiled section of a game that uses this mechanism; :class:`SpecError` naming the bad key."""
    found = _PARAMS.get(id(t))
    if found is not None and found[0] is t:
        return found[1]
    section = t.mechanism_sections[PHASE]
    known = {"sets", "never", "last_resort", "shown", "before"}  # before: where the game's sequence places it
    for key in section:
        if key not in known:
            raise _section_error(key, f"not a key of this section (known: {', '.join(sorted(known))}).")
    cards = t.cards
    dealt = t.players * t.rules.hand_size
    talon_size = cards.size - dealt
    if not 0 < talon_size <= MAX_TALON:
        raise _section_error(
            "sets", f"the talon (the cards not dealt) holds {talon_size} cards; 1 to {MAX_TALON} needed."
        )
    sets = section.get("sets", MappingProxyType({}))
    if not isinstance(sets, Mapping) or not sets:
        raise _section_error("sets", f"expected a table contract name -> set size, found {sets!r}.")
    sizes = [0] * len(t.rules.contracts)
    for name, size in sets.items():
        if name not in t.contract_index:
            raise _section_error(f"sets.{name}", "not a contract of bidding.contracts.")
        if type(size) is not int or size <= 0 or talon_size % size:
            raise _section_error(
                f"sets.{name}", f"a set size must divide the talon's {talon_size} cards, found {size!r}."
            )
        sizes[t.contract_index[name]] = size

    def mask(key: str, of_suits: bool) -> int:
        out = 0
        for code in _codes(section, key):
            if of_suits:
                if code not in cards.suit_codes:
                    raise _section_error(key, f"{code!r} is not a suit of the deck.")
                s = cards.suit_codes.index(code)
                out |= sum(1 << c for c in range(cards.size) if cards.suit_of[c] == s)
            else:
                if code not in t.card_of:
                    raise _section_error(key, f"{code!r} is not a card of the deck.")
                out |= 1 << t.card_of[code]
        return out

    params = TalonParams(tuple(sizes), mask("never", False), mask("last_resort", True), mask("shown", True), talon_size)
    _PARAMS[id(t)] = (t, params)
    return params


def _params(game: GameLike) -> TalonParams:
    return talon_params(game.tables)


def _record(state: State) -> TalonSets:
    record: TalonSets = state.deal.parts[state.game.slot[PHASE]]
    return record


def arrangement(cards: tuple[int, ...], index: int) -> tuple[int, ...]:
    """The ``index``-th arrangement of ``cards`` (in lexicographic order of their positions, from 0)."""
    pool = list(cards)
    out = []
    for k in range(len(pool), 0, -1):
        q, index = divmod(index, factorial(k - 1))
        out.append(pool.pop(q))
    return tuple(out)


def arrangement_index(cards: tuple[int, ...], order: tuple[int, ...]) -> int:
    """The index :func:`arrangement` gives ``order`` of ``cards`` (``cards`` in deck order); its inverse."""
    pool = sorted(cards)
    if sorted(order) != pool:
        raise ValueError(f"{order!r} is not an arrangement of {tuple(pool)!r}")
    index = 0
    for k, card in enumerate(order):
        q = pool.index(card)
        index += q * factorial(len(order) - 1 - k)
        pool.pop(q)
    return index


def _arrangements(game: GameLike, number: int) -> tuple[int, ...]:
    return tuple(range(factorial(_params(game).talon_size)))


#: The talon's order, drawn before the cards: ``arrange K``.
DRAW = Draw("arrange", _arrangements, chosen)


def _start(game: GameLike, d: DealInfo, match: MatchInfo) -> TalonSets:
    from trickrules.engine.phases.deal import dealing  # the dealing's record reader (a sibling phase)

    dealt = 0
    for hand in d.dealt:
        dealt |= hand
    stock = tuple(c for c in range(game.cards.size) if not (dealt >> c) & 1)
    drawn = dict(dealing(d).drawn).get(DRAW.verb, 0)
    return TalonSets(order=arrangement(stock, drawn))


def _size(game: GameLike, d: DealInfo) -> int:
    if d.contract is None or d.declarer is None:
        return 0
    return _params(game).set_size[d.contract]


def _due(state: State, d: DealInfo) -> int | None:
    size = _size(state.game, d)
    if not size:
        return None
    record: TalonSets = d.parts[state.game.slot[PHASE]]
    return d.declarer if not record.taken or len(record.discarded) < size else None


def _discardable(params: TalonParams, hand: int) -> int:
    free = hand & ~params.never
    plain = free & ~params.last_resort
    return plain or free


def _offered(state: State) -> list[Action]:
    game = state.game
    record = _record(state)
    size = _size(game, state.deal)
    if not record.taken:
        return [game.action(f"take {n}") for n in range(1, len(record.order) // size + 1)]
    seat = state.to_move
    assert seat is not None
    mask = _discardable(_params(game), state.hands[seat])
    return [game.action(f"discard {code}") for code in game.tables.codes_of(mask)]


def _why(state: State, action: Action, actions: tuple[Action, ...]) -> str:
    what = not_legal(state, action)
    legal = ", ".join(str(a) for a in actions)
    if not _record(state).taken:
        return f"{what}: the declarer first takes one of the talon's sets (legal: {legal})."
    return (
        f"{what}: the declarer discards a card of his hand, never one the rules keep, and a card of a "
        f"last-resort suit only when nothing else may be discarded (legal: {legal})."
    )


def _step(state: State, action: Action) -> State:
    game = state.game
    seat = state.to_move
    assert seat is not None
    record = _record(state)
    size = _size(game, state.deal)
    hands = list(state.hands)
    events: list[tuple[Actor, Event]] = []
    if action.verb == "take":
        number = int(action.arg)
        chosen_set = record.order[(number - 1) * size : number * size]
        for card in chosen_set:
            hands[seat] |= 1 << card
        codes = game.cards.codes
        events.append(
            (seat, SetTaken(seat, number, tuple(codes[c] for c in chosen_set), tuple(codes[c] for c in record.order)))
        )
        record = evolve(record, taken=number)
    else:
        card = game.tables.card_of[action.arg]
        hands[seat] &= ~(1 << card)
        public = bool((_params(game).shown >> card) & 1)
        events.append((seat, TalonDiscarded(seat, action.arg, public)))
        record = evolve(record, discarded=(*record.discarded, card))
    d = with_part(state.deal, game.slot[PHASE], record)
    s = state
    after = State(game, s.phase, seat, tuple(hands), (), s.leader, d, s.tally, s.match, s.history)
    if len(record.discarded) < size:
        return moved(after, PHASE, seat, d, events)
    return advance(after, d, events)


def _view(state: State, seat: int) -> TalonSetsView:
    game = state.game
    record = _record(state)
    size = _size(game, state.deal)
    codes = game.cards.codes
    if not size or (not record.taken and state.phase != PHASE):
        return TalonSetsView((), 0, ())
    laid = tuple(tuple(codes[c] for c in record.order[k : k + size]) for k in range(0, len(record.order), size))
    shown = _params(game).shown
    mine = state.deal.declarer == seat
    discarded = tuple(codes[c] if mine or (shown >> c) & 1 else HIDDEN for c in record.discarded)
    return TalonSetsView(laid, record.taken, discarded)


def _discard_for(event: TalonDiscarded, seat: int) -> TalonDiscarded:
    return event if event.public or seat == event.seat else evolve(event, card=HIDDEN)


def _took(event: SetTaken, game: GameLike) -> Action:
    return game.action(f"take {event.number}")


def _discarded(event: TalonDiscarded, game: GameLike) -> Action:
    return game.action(f"discard {event.card}")


def _facts(game: GameLike, d: DealInfo) -> Mapping[str, Any]:
    """The discards count as cards the declarer took (``won`` for the scoring)."""
    record: TalonSets = d.parts[game.slot[PHASE]]
    if not record.discarded or d.declarer is None:
        return {}
    won = [0] * game.players
    for card in record.discarded:
        won[d.declarer] |= 1 << card
    return {"won": tuple(won)}


def _uses(t: Tables) -> bool:
    if PHASE not in t.mechanism_sections:
        return False
    talon_params(t)  # compiled (and checked) when the game is
    return True


def _actions(t: Tables) -> tuple[Action, ...]:
    """``take N`` for every set a talon may be split into, then ``discard CARD`` for every card."""
    params = talon_params(t)
    most = params.talon_size // min((s for s in params.set_size if s), default=params.talon_size)
    takes = (Action("take", str(n)) for n in range(1, most + 1))
    return (*takes, *(Action("discard", c) for c in t.cards.codes))


MECHANISM = listed(
    PHASE,
    _offered,
    _step,
    _why,
    actions=_actions,
    reveals=MappingProxyType({TalonDiscarded: _discard_for}),
    replays=MappingProxyType({SetTaken: _took, TalonDiscarded: _discarded}),
    start=_start,
    due=_due,
    view=_view,
    view_type=TalonSetsView,
    draw=DRAW,
    facts=_facts,
)


def install() -> None:
    """Register this mechanism (done once when :mod:`trickrules.engine.phases` is imported)."""
    register(MECHANISM, uses=_uses, verbs={"take": True, "arrange": True}, events=(SetTaken, TalonDiscarded))
