"""The steps between the auction and the first lead, in the order the contract asks for them.

After a contract is won, the setup mechanisms are asked in turn whether they
are due: naming trumps (before the call, unless the called card's holder
names them), calling a card, an exchange, announcements. The first that is
due gets the move; when none is, the play begins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trickrules.compile.cards import NO_TRUMP
from trickrules.compile.modes import FirstLead, TrumpChooser
from trickrules.engine.events import Event
from trickrules.engine.records import Actor, DealInfo, Phase, Step, Tally, evolve
from trickrules.engine.state import State

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["first_leader", "moved", "next_setup", "start_play", "trump_chooser"]


def moved(
    state: State,
    phase: Phase,
    to_move: int,
    d: DealInfo,
    events: tuple[tuple[Actor, Event], ...],
    tally: Tally | None = None,
) -> State:
    """The state after a step between tricks that moves to ``phase`` (same hands, no trick on the table)."""
    history = Step(state.history, events) if events else state.history
    return State(
        state.game,
        phase,
        to_move,
        state.hands,
        (),
        state.leader,
        d,
        state.tally if tally is None else tally,
        state.match,
        history,
    )


def trump_chooser(state: State, d: DealInfo) -> int:
    """The seat that names trumps: the dealer, the called card's holder, or the declarer."""
    rules = state.game.rules
    by = rules.contracts[d.contract].trump_by if d.contract is not None else rules.trump_chosen_by
    if by is TrumpChooser.DEALER:
        return d.dealer
    if by is TrumpChooser.CALLED_HOLDER and d.partner is not None:
        return d.partner
    assert d.declarer is not None
    return d.declarer


def next_setup(state: State, d: DealInfo, events: list[tuple[Actor, Event]]) -> State:
    """Go to the next step between the auction and the first lead."""
    game = state.game
    assert d.contract is not None
    assert d.declarer is not None
    c = game.rules.contracts[d.contract]
    trump_first = c.trump_by is not TrumpChooser.CALLED_HOLDER
    if d.trump is None and c.trump_by is TrumpChooser.NONE:
        d = evolve(d, trump=NO_TRUMP)
    done = tuple(events)
    declarer, contract = d.declarer, d.contract
    assert declarer is not None
    assert contract is not None
    if trump_first and d.trump is None:
        return moved(state, Phase.TRUMP, trump_chooser(state, d), d, done)
    if c.call and d.called is None:
        return moved(state, Phase.CALL, declarer, d, done)
    if d.trump is None:
        return moved(state, Phase.TRUMP, trump_chooser(state, d), d, done)
    partner = d.partner
    if c.exchange and partner is not None and partner != declarer and len(d.returned) < c.exchange:
        mover = declarer if len(d.given) < c.exchange else partner
        return moved(state, Phase.EXCHANGE, mover, d, done)
    if not d.announce_done and game._tables.announce_offers[contract][d.forced]:
        return moved(state, Phase.ANNOUNCE, declarer, d, done)
    return start_play(state, d, events)


def open_deal(state: State, d: DealInfo, events: list[tuple[Actor, Event]]) -> State:
    """The first decision of a deal whose cards are in hand (after any passing).

    From the eldest hand: the auction, the bids of a number of tricks, or
    trumps made round the table, whichever the rules have; else the dealer
    names trumps, or the play begins.
    """
    rules = state.game.rules
    eldest = (d.dealer + 1) % state.game.players
    done = tuple(events)
    if rules.contracts:
        return moved(state, Phase.BIDDING, eldest, d, done)
    if rules.bids.tricks_bid is not None:
        return moved(state, Phase.TRICKS_BID, eldest, d, done)
    if rules.making is not None:
        return moved(state, Phase.MAKING, eldest, d, done)
    if rules.trump_chosen_by is TrumpChooser.DEALER:
        return moved(state, Phase.TRUMP, d.dealer, d, done)
    return start_play(state, d, events)


def start_play(state: State, d: DealInfo, events: list[tuple[Actor, Event]]) -> State:
    """The first lead: eldest hand leads, unless it sits out."""
    game = state.game
    if d.trump is None:
        return moved(state, Phase.TRUMP, trump_chooser(state, d), d, tuple(events))
    n = game.players
    eldest = (d.dealer + 1) % n
    if (d.seats_out >> eldest) & 1:
        by_declarer = d.contract is not None and game.rules.contracts[d.contract].first_lead is FirstLead.DECLARER
        eldest = d.declarer if by_declarer and d.declarer is not None else game._tables.next_seat[d.seats_out][eldest]
    eldest = first_leader(game, state.hands, eldest)
    history = Step(state.history, tuple(events)) if events else state.history
    return State(game, Phase.PLAY, eldest, state.hands, (), eldest, d, state.tally, state.match, history)


def first_leader(game: GameLike, hands: tuple[int, ...], default: int) -> int:
    """Who leads the first trick: the holder of the ``first_lead`` obligation's card, if any seat holds it."""
    card = game._tables.leads.first_card
    if card is not None:
        for seat, hand in enumerate(hands):
            if (hand >> card) & 1:
                return seat
    return default
