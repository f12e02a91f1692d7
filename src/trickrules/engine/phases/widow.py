"""The widow: the cards the deal leaves undealt, taken up by the declarer, who then discards as many.

A game uses it by naming its section, ``[mechanisms.widow]`` (it is a
mechanism registered with :func:`trickrules.engine.mechanism.register`, asked
just before the play, or before the phase the section's ``before`` names).
Once the declarer is known, the declarer takes up the widow, the stock the
packets leave undealt, and discards as many cards, one ``discard CARD`` at a
time, face down. The cards discarded count for the declarer's side: the
mechanism's facts give them as cards he took (``won``), so the scoring
variables ``card_points`` and ``points`` count them, as they count no trick;
they stay out of the tally's cards won, which every seat sees as played.

Keys of the section:

* ``before`` (string, default ``"play"``): the phase it is asked before.
* ``hand`` (bool, default ``false``): the declarer first chooses to take up
  the widow (``pickup``) or to play from his hand (``hand``); from hand, the
  widow is not seen by anyone and counts for the declarer as it lies. Without
  it the widow is taken up with the first discard: the declarer's legal
  actions are the discards of his hand and of the widow, which his view
  shows him (:class:`WidowView`) from the moment the contract is his.

What each seat sees: the widow's cards only the declarer, and only once he
may take them up; the cards discarded only the declarer (others see
``"?"``); every seat sees whether the widow was taken up or the game is
played from hand. Its facts for the scoring: ``hand``, and the widow among
the cards the declarer holds (``holds``: Skat counts its matadors over the
hand and the skat).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from attrs import frozen

from trickrules.compile.tables import Tables
from trickrules.engine.actions import Action
from trickrules.engine.events import HIDDEN, Event, MechanismEvent
from trickrules.engine.loop import advance, moved
from trickrules.engine.mechanism import Mechanism, listed, not_legal, register
from trickrules.engine.state import State
from trickrules.engine.values import DEALER, Actor, DealInfo, MatchInfo, evolve, with_part
from trickrules.errors import SpecError

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["MECHANISM", "WIDOW", "Widow", "WidowChoice", "WidowDiscarded", "WidowTaken", "WidowView", "widow_of"]

#: This mechanism's phase, and the name of its spec section (``[mechanisms.widow]``).
WIDOW = "widow"
#: The keys its section may hold, with their types.
_KEYS: Mapping[str, type] = MappingProxyType({"hand": bool, "before": str})


@frozen(weakref_slot=False)
class WidowChoice(MechanismEvent):
    """The declarer takes up the widow, or (``hand``) plays from his hand, the widow left as it lies."""

    TAG: ClassVar[str] = "widow_choice"
    seat: int
    hand: bool

    def describe(self) -> str:
        """One line for a printout of the match."""
        return f"seat {self.seat} plays from his hand" if self.hand else f"seat {self.seat} takes up the widow"


@frozen(weakref_slot=False)
class WidowTaken(MechanismEvent):
    """The declarer took the widow's cards into his hand (seen by him alone)."""

    TAG: ClassVar[str] = "widow_taken"
    seat: int
    cards: tuple[str, ...]

    def describe(self) -> str:
        """One line for a printout of the match."""
        return f"seat {self.seat} takes {' '.join(self.cards)} into his hand"


@frozen(weakref_slot=False)
class WidowDiscarded(MechanismEvent):
    """The declarer discarded a card face down after taking up the widow (private to him)."""

    TAG: ClassVar[str] = "widow_discard"
    seat: int
    card: str

    def describe(self) -> str:
        """One line for a printout of the match."""
        return f"seat {self.seat} discards {self.card}"


@frozen
class Widow:
    """The widow's record of a deal: its cards, and what the declarer did with them."""

    #: The widow's cards, as a mask (the cards no hand was dealt).
    cards: int
    #: Whether the declarer took it up.
    taken: bool = False
    #: Whether the declarer plays from his hand (the widow left as it lies).
    hand: bool = False
    #: The cards discarded so far, as a mask.
    discarded: int = 0
    #: Whether the widow's part of the deal is over.
    done: bool = False


@frozen
class WidowView:
    """What a seat sees of the widow: its cards and the discards (the declarer alone), and what was done."""

    cards: tuple[str, ...]
    discarded: tuple[str, ...]
    taken: bool
    hand: bool


def _section(tables: Tables) -> Mapping[str, Any]:
    section: Mapping[str, Any] = tables.mechanism_sections[WIDOW]
    return section


def _uses(tables: Tables) -> bool:
    """Whether the game names ``[mechanisms.widow]``; checks its keys and that the deal leaves a widow."""
    if WIDOW not in tables.mechanism_sections:
        return False
    for key, value in _section(tables).items():
        if key not in _KEYS:
            raise SpecError(f"mechanisms.widow.{key}: unknown key (known: {', '.join(_KEYS)}).")
        if type(value) is not _KEYS[key]:
            raise SpecError(f"mechanisms.widow.{key}: expected a {_KEYS[key].__name__}, found {value!r}.")
    left = tables.cards.size - tables.players * tables.rules.hand_size
    if left <= 0 or tables.rules.turn_from_stock:
        raise SpecError(
            "mechanisms.widow: the widow is the cards the deal leaves undealt, and this deal leaves "
            f"{max(left, 0)}{' (one of them turned)' if tables.rules.turn_from_stock else ''}."
        )
    return True


def _hand_allowed(game: GameLike) -> bool:
    return bool(_section(game.tables).get("hand", False))


def widow_of(game: GameLike, d: DealInfo) -> Widow:
    """The widow's record of deal ``d``."""
    record: Widow = d.parts[game.slot[WIDOW]]
    return record


def _start(game: GameLike, d: DealInfo, match: MatchInfo) -> Widow:
    dealt = 0
    for hand in d.dealt:
        dealt |= hand
    return Widow(((1 << game.cards.size) - 1) & ~dealt)


def _due(state: State, d: DealInfo) -> int | None:
    if d.declarer is None:
        return None
    return None if widow_of(state.game, d).done else d.declarer


def _facts(game: GameLike, d: DealInfo) -> Mapping[str, object]:
    """What the widow tells the scoring: ``hand``, ``holds`` and ``won``.

    Whether the declarer plays from hand (``hand``), the widow among the cards he holds (``holds``), and among
    those he took (``won``): his discards, or the widow left as it lies in a game from hand. They count for him
    in the scoring, but no trick took them: they are not in the tally's cards won, which every seat sees played.
    """
    record = widow_of(game, d)
    holds = [0] * game.players
    won = [0] * game.players
    if d.declarer is not None:
        holds[d.declarer] = record.cards
        if record.done:
            won[d.declarer] = record.cards if record.hand else record.discarded
    return {"hand": record.hand, "holds": tuple(holds), "won": tuple(won)}


def _offered(state: State) -> list[Action]:
    game = state.game
    seat = state.to_move
    assert seat is not None
    record = widow_of(game, state.deal)
    if not record.taken and _hand_allowed(game):
        return [game.action("pickup"), game.action("hand")]
    hand = state.hands[seat] | (0 if record.taken else record.cards)
    return [game.action(f"discard {code}") for code in game.tables.codes_of(hand)]


def _why(state: State, action: Action, actions: tuple[Action, ...]) -> str:
    legal = ", ".join(str(a) for a in actions)
    if actions and actions[0].verb == "pickup":
        return f"{not_legal(state, action)}: the declarer takes up the widow or plays from hand (legal: {legal})."
    return f"{not_legal(state, action)}: the declarer discards a card of his hand and the widow (legal: {legal})."


def _step(state: State, action: Action) -> State:
    game = state.game
    seat = state.to_move
    assert seat is not None
    slot = game.slot[WIDOW]
    record = widow_of(game, state.deal)
    hands = list(state.hands)
    events: list[tuple[Actor, Event]] = []
    if action.verb == "hand":
        d = with_part(state.deal, slot, evolve(record, hand=True, done=True))
        events.append((seat, WidowChoice(seat, True)))
        return advance(state, d, events)
    taken = WidowTaken(seat, game.tables.codes_of(record.cards))
    if action.verb == "pickup":
        events += [(seat, WidowChoice(seat, False)), (DEALER, taken)]
    if not record.taken:
        hands[seat] |= record.cards
    if action.verb == "discard":  # with the widow taken up first where nobody chose to (the action's event first)
        bit = 1 << game.tables.card_of[action.arg]
        hands[seat] &= ~bit
        events.append((seat, WidowDiscarded(seat, action.arg)))
        if not record.taken:
            events.append((DEALER, taken))
        record = evolve(record, discarded=record.discarded | bit)
    record = evolve(record, taken=True)
    done = record.discarded.bit_count() == record.cards.bit_count()
    d = with_part(state.deal, slot, evolve(record, done=done))
    s = state
    after = State(game, s.phase, seat, tuple(hands), (), s.leader, d, s.tally, s.match, s.history)
    if not done:
        return moved(after, WIDOW, seat, d, events)
    return advance(after, d, events)


def _view(state: State, seat: int) -> WidowView:
    game = state.game
    d = state.deal
    record = widow_of(game, d)
    codes = game.tables.codes_of
    own = seat == d.declarer and not record.hand and (record.taken or not _hand_allowed(game))
    return WidowView(
        codes(record.cards) if own else (),
        codes(record.discarded) if seat == d.declarer else (),
        record.taken,
        record.hand,
    )


def _taken_for(event: WidowTaken, seat: int) -> WidowTaken:
    return event if seat == event.seat else evolve(event, cards=(HIDDEN,) * len(event.cards))


def _discarded_for(event: WidowDiscarded, seat: int) -> WidowDiscarded:
    return event if seat == event.seat else evolve(event, card=HIDDEN)


def _chosen(event: WidowChoice, game: GameLike) -> Action:
    return game.action("hand" if event.hand else "pickup")


def _discarded(event: WidowDiscarded, game: GameLike) -> Action:
    return game.action(f"discard {event.card}")


def _actions(t: Tables) -> tuple[Action, ...]:
    """``pickup`` and ``hand``, then ``discard CARD`` for every card."""
    return (Action("pickup"), Action("hand"), *(Action("discard", c) for c in t.cards.codes))


MECHANISM: Mechanism = listed(
    WIDOW,
    _offered,
    _step,
    _why,
    actions=_actions,
    reveals=MappingProxyType({WidowTaken: _taken_for, WidowDiscarded: _discarded_for}),
    replays=MappingProxyType({WidowChoice: _chosen, WidowDiscarded: _discarded}),
    start=_start,
    due=_due,
    facts=_facts,
    view=_view,
    view_type=WidowView,
)

register(
    MECHANISM,
    uses=_uses,
    events=(WidowChoice, WidowTaken, WidowDiscarded),
    verbs={"pickup": False, "hand": False},
)
