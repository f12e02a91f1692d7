"""Declarations (melds such as Cuatrola's 20 and 40), in a window after a trick.

After a trick, the winner (and, where the spec says, the winner's partner)
may declare a meld held in hand. The window opens only for a seat that
*might* hold one judged from public information, so that the window itself
tells nobody whether it does.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from trickrules.compile.modes import DeclarationSuit, LateDeclaration, WindowSeats
from trickrules.engine.actions import Action
from trickrules.engine.events import Declared, Event, Passed, shared
from trickrules.engine.mechanism import PASS, Mechanism, listed
from trickrules.engine.phases import setup
from trickrules.engine.records import Actor, DealInfo, Meld, Phase, Tally, evolve
from trickrules.engine.state import State

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["MECHANISM", "window"]


def _melds(game: GameLike, d: DealInfo, tally: Tally, seat: int, hand: int, held: bool) -> list[Meld]:
    """The melds ``seat`` (holding ``hand``) may still declare, best first.

    With ``held``, those it holds; without, whether it *might* hold one
    judged from public information (cards played, melds declared, its hand's
    size), so that asking tells nobody whether it does: then at most one.
    """
    cards = game.cards
    contract = game.rules.contracts[d.contract].name if d.contract is not None else ""
    done_suits = {m.suit for m in tally.declared}
    done = {(m.declaration, m.suit) for m in tally.declared}
    done |= {(m.declaration, m.suit) for m in tally.forfeited if m.seat == seat}
    played = 0
    for mask in tally.won:
        played |= mask
    size = hand.bit_count()
    card_of = game._tables.card_of
    out = []
    for decl in game.rules.declarations:
        if contract not in decl.contracts or size < len(decl.ranks):
            continue
        for s in range(len(cards.suit_codes)):
            is_trump = s == d.trump
            if (decl.suit is DeclarationSuit.TRUMP and not is_trump) or (
                decl.suit is DeclarationSuit.PLAIN and is_trump
            ):
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


def window(state: State, d: DealInfo, tally: Tally, hands: tuple[int, ...], winner: int) -> tuple[int, ...]:
    """The seats asked, in order, in the declaration window after ``winner``'s trick."""
    game = state.game
    seats = [winner]
    if game.rules.teams and any(x.window_seats is WindowSeats.SIDE for x in game.rules.declarations):
        seats += [s for s in game.rules.teams[game._tables.team_of[winner]] if s != winner]
    return tuple(s for s in seats if not (d.seats_out >> s) & 1 and _melds(game, d, tally, s, hands[s], False))


def _window_limit(state: State, tally: Tally, winner: int) -> int:
    """How many declarations this window allows: the first window of the winner's side may differ."""
    team_of = state.game._tables.team_of
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
    melds = _melds(game, state.deal, state.tally, seat, state.hands[seat], True)
    if not melds:
        return [action("pass")]
    best = melds[0].declaration
    out = [action("pass")]
    for m in melds:
        if m.declaration != best:
            continue
        decl = game.rules.declarations[m.declaration]
        suit = game.cards.suit_codes[m.suit]
        out.append(
            action(f"declare {decl.name}" if decl.suit is DeclarationSuit.TRUMP else f"declare {decl.name} {suit}")
        )
    return out


def _step(state: State, action: Action) -> State:
    game = state.game
    seat = state.to_move
    assert seat is not None
    tally = state.tally
    d = state.deal
    events: list[tuple[Actor, Event]] = []
    seats = tally.window
    if action.verb == "pass":
        events.append((seat, shared(Passed, seat, Phase.DECLARE.value)))
        seats = seats[1:]
        lost = [
            m
            for m in _melds(game, d, tally, seat, state.hands[seat], True)
            if game.rules.declarations[m.declaration].late is LateDeclaration.FORFEIT
        ]
        if lost:
            # Passed over where it could have been declared: gone for the rest of the deal.
            tally = evolve(tally, forfeited=(*tally.forfeited, *lost))
    else:
        words = action.arg.split()
        k = next(x.index for x in game.rules.declarations if x.name == words[0])
        decl = game.rules.declarations[k]
        s = d.trump if decl.suit is DeclarationSuit.TRUMP else game.cards.suit_codes.index(words[1])
        assert s is not None
        events.append((seat, Declared(seat, decl.name, game.cards.suit_codes[s], decl.points)))
        tally = evolve(tally, declared=(*tally.declared, Meld(seat, k, s)), window_count=tally.window_count + 1)
        if tally.window_count >= _window_limit(state, tally, state.leader):
            seats = ()
    seats = tuple(x for x in seats if _melds(game, d, tally, x, state.hands[x], False))
    tally = evolve(tally, window=seats)
    if seats:
        return setup.moved(state, Phase.DECLARE, seats[0], d, tuple(events), tally)
    return setup.moved(state, Phase.PLAY, state.leader, d, tuple(events), tally)


def _declared(event: Declared, game: GameLike) -> Action:
    decl = next((d for d in game.rules.declarations if d.name == event.name), None)
    if decl is not None and decl.suit is DeclarationSuit.TRUMP:
        return game.action(f"declare {event.name}")
    return game.action(f"declare {event.name} {event.suit}")


MECHANISM: Mechanism = listed(
    Phase.DECLARE, _offered, _step, replays=MappingProxyType({**PASS, Declared: _declared})
)
