"""Typed readers of the mechanisms' records and views, for tests.

A deal keeps what a mechanism adds to it (the card turned, the card called,
the cards passed or exchanged, the bids) in that mechanism's own record, and
a view keeps what a seat sees of it in the mechanism's view value; these
read them the way the tests used to read flat fields.
"""

from __future__ import annotations

import attrs

from trickrules import Action, State, View
from trickrules.engine.events import Dealt, TrickWon
from trickrules.engine.mechanism import seat_views
from trickrules.engine.phases.announce import AnnouncementsView
from trickrules.engine.phases.auction import auction
from trickrules.engine.phases.call import CallView, call
from trickrules.engine.phases.deal import DealView, dealing
from trickrules.engine.phases.discard import Discard
from trickrules.engine.phases.doubling_auction import AuctionView, CallMade, ContractMade
from trickrules.engine.phases.exchange import ExchangeView, exchange
from trickrules.engine.phases.passing import Passing, PassingView
from trickrules.engine.phases.talon_sets import TalonSetsView
from trickrules.engine.phases.tricks_bid import BidsView, bids
from trickrules.engine.values import Phase


def turned(state: State) -> int | None:
    """The card turned in the state's deal, if any."""
    return dealing(state.deal).turned


def called(state: State) -> int | None:
    """The card called in the state's deal, if any."""
    return call(state.game, state.deal).called if Phase.CALL in state.game.slot else None


def revealed(state: State) -> bool:
    """Whether the called card's holder is publicly known."""
    return Phase.CALL in state.game.slot and call(state.game, state.deal).revealed


def given(state: State) -> tuple[int, ...]:
    """The cards the declarer gave in an exchange."""
    return exchange(state.game, state.deal).given if Phase.EXCHANGE in state.game.slot else ()


def returned(state: State) -> tuple[int, ...]:
    """The cards the partner returned in an exchange."""
    return exchange(state.game, state.deal).returned if Phase.EXCHANGE in state.game.slot else ()


def _passing(state: State) -> Passing | None:
    found: Passing | None = state.part(Phase.PASSING)
    return found


def passed(state: State) -> tuple[int, ...]:
    """The cards each seat has passed, as masks (empty until someone passes)."""
    record = _passing(state)
    return record.passed if record is not None else ()


def pass_offset(state: State) -> int:
    """How many seats on the passed cards go in this deal (0: no passing)."""
    record = _passing(state)
    return record.offset if record is not None else 0


def forced(state: State) -> bool:
    """Whether the contract was forced on the declarer."""
    return Phase.BIDDING in state.game.slot and auction(state.game, state.deal).forced


def tricks_bids(state: State) -> tuple[int | None, ...]:
    """Each seat's bid of a number of tricks (empty before the first)."""
    return bids(state.game, state.deal) if Phase.TRICKS_BID in state.game.slot else ()


def discarded(state: State) -> int:
    """The cards discarded face down, as a mask."""
    record: Discard | None = state.part(Phase.DISCARD)
    return record.discarded if record is not None else 0


def sitting_out(state: State) -> int | None:
    """The declarer's partner, when he sits out."""
    d = state.deal
    team_of = state.game.tables.team_of
    if d.declarer is None:
        return None
    out = [s for s in range(state.game.players) if (d.seats_out >> s) & 1]
    return next((s for s in out if s != d.declarer and team_of[s] == team_of[d.declarer]), None)


def v_turned(view: View) -> str:
    """The turned card as a view shows it (``""``: none)."""
    part = view.part(DealView)
    return part.turned if part is not None else ""


def v_shown(view: View) -> set[str]:
    """The cards of the hands a mechanism lays face up for every seat (the dummy's), as a view shows them."""
    shown: set[str] = set()
    for _, value in view.parts:
        found = getattr(value, "shown_hands", None)
        if callable(found):
            shown |= {code for hand in found().values() for code in hand}
    return shown


def v_talon(view: View) -> set[str]:
    """The cards of a talon laid out face up in sets (every seat sees them once they are laid out)."""
    part = view.part(TalonSetsView)
    return {code for group in part.sets for code in group} if part is not None else set()


def v_calls(view: View) -> set[str]:
    """The texts of the calls of a doubling auction (``2H``, ``3NT``, ``pass``), which every seat sees."""
    part = view.part(AuctionView)
    return {call for _, call in part.calls} if part is not None else set()


def exposed_hand(state: State) -> int:
    """The cards, as a mask, of the hands a mechanism lays face up for every seat (0: none).

    Read from the mechanisms' views (their ``shown_hands``), whichever mechanism it is: the dummy's
    hand once exposed, an open hand once opened. What every seat sees alike, so seat 0's views tell.
    """
    mask = 0
    card_of = state.game.tables.card_of
    for _, value in seat_views(state, 0):
        found = getattr(value, "shown_hands", None)
        if callable(found):
            for hand in found().values():
                for code in hand:
                    mask |= 1 << card_of[code]
    return mask


def is_call(event: object) -> bool:
    """Whether an event is a call of a doubling auction, or the contract it reached (its texts name bids)."""
    return isinstance(event, CallMade | ContractMade)


def is_strain_bid(state: State, action: str) -> bool:
    """Whether an action text is a bid of a doubling auction (``bid 2H``: a level and a strain, not a card)."""
    return state.phase == "doubling_auction" and action.startswith("bid ")


def without_calls(view: View) -> View:
    """The view without the record of a doubling auction (whose calls name bids, not cards)."""
    kept = tuple(p for p in view.parts if not isinstance(p[1], AuctionView))
    return view if kept == view.parts else attrs.evolve(view, parts=kept)


def v_called(view: View) -> str:
    """The called card as a view shows it (``""``: none)."""
    part = view.part(CallView)
    return part.called if part is not None else ""


def v_partner(view: View) -> int | None:
    """The called card's holder as a view shows him (``None``: hidden or no call)."""
    part = view.part(CallView)
    return part.partner if part is not None else None


def v_given(view: View) -> tuple[str, ...]:
    """The cards the seat handed over (in an exchange, or passing)."""
    for part in (view.part(ExchangeView), view.part(PassingView)):
        if part is not None and part.given:
            return part.given
    return ()


def v_received(view: View) -> tuple[str, ...]:
    """The cards the seat received (in an exchange, or passing)."""
    for part in (view.part(ExchangeView), view.part(PassingView)):
        if part is not None and part.received:
            return part.received
    return ()


def v_pass_to(view: View) -> int | None:
    """The seat this seat passes cards to in this deal (``None``: no passing)."""
    part = view.part(PassingView)
    return part.pass_to if part is not None else None


def v_bids(view: View) -> tuple[int | None, ...]:
    """Each seat's bid of a number of tricks as the view shows them."""
    part = view.part(BidsView)
    return part.bids if part is not None else ()


def v_announced(view: View) -> tuple[str, ...]:
    """The announcements made, as the view shows them."""
    part = view.part(AnnouncementsView)
    return part.announced if part is not None else ()


def tricks_of_deal(state: State, deal: int) -> list[TrickWon]:
    """The ``trick`` events of deal ``deal`` of the match that led to ``state``, from its log, in order."""
    found: list[TrickWon] = []
    current = -1
    for _, event in state.entries():
        if isinstance(event, Dealt):
            current = event.deal
        elif isinstance(event, TrickWon) and current == deal:
            found.append(event)
    return found



def adapter_legal(state: State) -> tuple[Action, ...]:
    """The legal actions of ``state`` as OpenSpiel sees them through ``trickrules.openspiel``: its ids, decoded."""
    from trickrules.openspiel import wrap

    game = state.game
    return tuple(game.action_of(i) for i in wrap(state).legal_actions())  # type: ignore[attr-defined]
