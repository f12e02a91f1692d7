"""Declarations (melds such as Cuatrola's 20 and 40), in a window after a trick.

After a trick, the winner (and, where the spec says, the winner's partner)
may declare a meld held in hand. The window opens only for a seat that
*might* hold one judged from public information, so that the window itself
tells nobody whether it does.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from attrs import frozen

from trickrules.compile.contracts import CompiledDeclaration
from trickrules.compile.modes import DeclarationSuit, LateDeclaration, WindowSeats
from trickrules.engine.actions import Action, Verb
from trickrules.engine.events import Declared, Event, Passed, shared
from trickrules.engine.loop import moved
from trickrules.engine.mechanism import PASS, Events, Mechanism, listed
from trickrules.engine.state import State
from trickrules.engine.values import Actor, DealInfo, MatchInfo, Phase, Step, Tally, evolve, with_part

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["MECHANISM", "Declarations", "DeclarationsView", "Meld", "declarations", "meld_text"]

#: This mechanism's phase, bound once (an enum member's lookup costs more than the dict lookup it keys).
_PHASE: str = Phase.DECLARE


@frozen(weakref_slot=False)
class Meld:
    """A declaration by ``seat``: its index in the spec's declarations, and its suit."""

    seat: int
    declaration: int
    suit: int


@frozen(weakref_slot=False)
class Declarations:
    """The declarations' record of a deal."""

    declared: tuple[Meld, ...] = ()
    #: The seats still to be asked in the open window, and how many melds it took.
    window: tuple[int, ...] = ()
    window_count: int = 0
    #: Melds passed over where that forfeits them (``late = "forfeit"``).
    forfeited: tuple[Meld, ...] = ()


@frozen(weakref_slot=False)
class DeclarationsView:
    """What a seat sees of the declarations: every meld declared (seat, name, suit); all are public."""

    declarations: tuple[tuple[int, str, str], ...]


_NONE = Declarations()


def declarations(game: GameLike, d: DealInfo) -> Declarations:
    """The declarations record of deal ``d``."""
    record: Declarations = d.parts[game.slot[_PHASE]]
    return record


def _start(game: GameLike, d: DealInfo, match: MatchInfo) -> Declarations:
    return _NONE


def _view(state: State, seat: int) -> DeclarationsView:
    game = state.game
    rules = game.rules
    declared = declarations(game, state.deal).declared
    return DeclarationsView(
        tuple((m.seat, rules.declarations[m.declaration].name, game.cards.suit_codes[m.suit]) for m in declared)
    )


def _facts(game: GameLike, d: DealInfo) -> Mapping[str, object]:
    """Each seat's declared points (the ``declared`` scoring variables)."""
    points = [0] * game.players
    for meld in declarations(game, d).declared:
        points[meld.seat] += game.rules.declarations[meld.declaration].points
    return {"declared": tuple(points)}


def _after_trick(
    state: State, hands: tuple[int, ...], d: DealInfo, tally: Tally, events: Events, winner: int
) -> State | None:
    """After a trick: the declaration window of its winner's side, if anyone might declare."""
    record = declarations(state.game, d)
    seats = _window(state, d, record, tally, hands, winner)
    if not seats:
        return None
    d = with_part(d, state.game.slot[_PHASE], evolve(record, window=seats, window_count=0))
    history = Step(state.history, events)
    return State(state.game, Phase.DECLARE, seats[0], hands, (), winner, d, tally, state.match, history)


def _melds(
    game: GameLike, d: DealInfo, record: Declarations, tally: Tally, seat: int, hand: int, held: bool
) -> list[Meld]:
    """The melds ``seat`` (holding ``hand``) may still declare, best first.

    With ``held``, those it holds; without, whether it *might* hold one
    judged from public information (cards played, melds declared, its hand's
    size), so that asking tells nobody whether it does: then at most one.
    """
    cards = game.cards
    contract = game.rules.contracts[d.contract].name if d.contract is not None else ""
    done_suits = {m.suit for m in record.declared}
    done = {(m.declaration, m.suit) for m in record.declared}
    done |= {(m.declaration, m.suit) for m in record.forfeited if m.seat == seat}
    played = 0
    for mask in tally.won:
        played |= mask
    size = hand.bit_count()
    card_of = game.tables.card_of
    out = []
    for decl in game.rules.declarations:
        if contract not in decl.contracts or size < len(decl.ranks):
            continue
        for s in range(len(cards.suit_codes)):
            is_trump = s == d.trump
            kind = decl.suit
            if (kind is DeclarationSuit.TRUMP and not is_trump) or (kind is DeclarationSuit.PLAIN and is_trump):
                continue
            if s in done_suits or (held and (decl.index, s) in done):
                continue
            found = [card_of.get(cards.rank_codes[r] + cards.suit_codes[s]) for r in decl.ranks]
            if not found or None in found:
                continue  # the deck lacks a card of this meld in this suit
            need = 0
            for card in found:
                need |= 1 << card  # type: ignore[operator]
            if not held:
                if not played & need:
                    return [Meld(seat, decl.index, s)]  # one is enough to open the window
            elif hand & need == need:
                out.append(Meld(seat, decl.index, s))
    return out


def _window(
    state: State, d: DealInfo, record: Declarations, tally: Tally, hands: tuple[int, ...], winner: int
) -> tuple[int, ...]:
    """The seats asked, in order, in the declaration window after ``winner``'s trick."""
    game = state.game
    seats = [winner]
    if game.rules.teams and any(x.window_seats is WindowSeats.SIDE for x in game.rules.declarations):
        seats += [s for s in game.rules.teams[game.tables.team_of[winner]] if s != winner]
    return tuple(s for s in seats if not (d.seats_out >> s) & 1 and _melds(game, d, record, tally, s, hands[s], False))


def _window_limit(state: State, tally: Tally, winner: int) -> int:
    """How many declarations this window allows: the first window of the winner's side may differ."""
    team_of = state.game.tables.team_of
    side = team_of[winner]
    first = sum(1 for w in tally.winners if team_of[w] == side) == 1
    return max(
        (decl.max_first_window or decl.max_per_window) if first else decl.max_per_window
        for decl in state.game.rules.declarations
    )


def _offered(state: State) -> list[Action]:
    game = state.game
    seat = state.to_move
    assert seat is not None
    action = game.action
    d = state.deal
    melds = _melds(game, d, declarations(game, d), state.tally, seat, state.hands[seat], True)
    if not melds:
        return [action("pass")]
    best = melds[0].declaration
    out = [action("pass")]
    for m in melds:
        if m.declaration != best:
            continue
        out.append(action(meld_text(game.rules.declarations[m.declaration], game.cards.suit_codes[m.suit])))
    return out


def meld_text(decl: CompiledDeclaration, suit: str) -> str:
    """The text of the action that declares ``decl`` in the suit ``suit`` (a trumps-only meld names none)."""
    return f"declare {decl.name}" if decl.suit is DeclarationSuit.TRUMP else f"declare {decl.name} {suit}"


def _step(state: State, action: Action) -> State:
    game = state.game
    seat = state.to_move
    assert seat is not None
    tally = state.tally
    d = state.deal
    record = declarations(game, d)
    events: list[tuple[Actor, Event]] = []
    seats = record.window
    if action.verb == Verb.PASS:
        events.append((seat, shared(Passed, seat, Phase.DECLARE.value)))
        seats = seats[1:]
        lost = [
            m
            for m in _melds(game, d, record, tally, seat, state.hands[seat], True)
            if game.rules.declarations[m.declaration].late is LateDeclaration.FORFEIT
        ]
        if lost:
            # Passed over where it could have been declared: gone for the rest of the deal.
            record = evolve(record, forfeited=(*record.forfeited, *lost))
    else:
        words = action.arg.split()
        k = next(x.index for x in game.rules.declarations if x.name == words[0])
        decl = game.rules.declarations[k]
        s = d.trump if decl.suit is DeclarationSuit.TRUMP else game.cards.suit_codes.index(words[1])
        assert s is not None
        events.append((seat, Declared(seat, decl.name, game.cards.suit_codes[s], decl.points)))
        record = evolve(record, declared=(*record.declared, Meld(seat, k, s)), window_count=record.window_count + 1)
        if record.window_count >= _window_limit(state, tally, state.leader):
            seats = ()
    seats = tuple(x for x in seats if _melds(game, d, record, tally, x, state.hands[x], False))
    d = with_part(d, game.slot[_PHASE], evolve(record, window=seats))
    if seats:
        return moved(state, Phase.DECLARE, seats[0], d, tuple(events))
    return moved(state, Phase.PLAY, state.leader, d, tuple(events))


def _declared(event: Declared, game: GameLike) -> Action:
    decl = next((d for d in game.rules.declarations if d.name == event.name), None)
    if decl is not None and decl.suit is DeclarationSuit.TRUMP:
        return game.action(f"declare {event.name}")
    return game.action(f"declare {event.name} {event.suit}")


MECHANISM: Mechanism = listed(
    Phase.DECLARE,
    _offered,
    _step,
    replays=MappingProxyType({**PASS, Declared: _declared}),
    start=_start,
    view=_view,
    view_type=DeclarationsView,
    facts=_facts,
    after_trick=_after_trick,
)
