"""Announcements: before the first lead (the declarer announces, say, a Vole), and during the play.

A *late* announcement is offered after the declarer's side has won a run of
tricks from the first (``scoring.announcements`` with ``after_run``): the
declarer answers, or his side in turn, or a lone declarer answers by leading;
declining may end the deal at once. Both kinds are this one phase: while a
late announcement is being decided, ``deal.late`` names it.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from trickrules.compile.modes import AnnouncedBy, ContractSide, LateAnswer, LateRefusal
from trickrules.compile.rules import LateAnnouncement
from trickrules.engine.actions import Action
from trickrules.engine.events import Announced, Event, PartnerRevealed, Passed, shared
from trickrules.engine.mechanism import PASS, Mechanism, listed
from trickrules.engine.obligations import play_mask
from trickrules.engine.phases import deal_end, setup
from trickrules.engine.records import DEALER, Actor, DealInfo, Phase, Step, Tally, evolve
from trickrules.engine.state import State

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["MECHANISM", "late_window", "open_late_window"]


def _announce_left(state: State, d: DealInfo) -> list[str]:
    """The announcements still open to the declarer before the first lead."""
    assert d.contract is not None
    return [a for a in state.game._tables.announce_offers[d.contract][d.forced] if a not in d.announced]


def _late_entry(state: State, d: DealInfo) -> LateAnnouncement:
    """The late announcement being decided."""
    assert d.contract is not None
    name = state.game.rules.contracts[d.contract].name
    return next(e for e in state.game.rules.late_announcements if e.name == d.late and name in e.contracts)


def _late_answer(state: State, d: DealInfo) -> LateAnswer:
    """How the declarer answers the late announcement: announce, lead or automatic."""
    alone = d.partner is None or d.partner == d.declarer
    return _late_entry(state, d).alone if alone else LateAnswer.ANNOUNCE


def _offered(state: State) -> list[Action]:
    d = state.deal
    action = state.game.action
    if d.late is not None:
        if _late_answer(state, d) is LateAnswer.LEAD:
            # Leading is the answer: pass, or lead any card the lead rules allow.
            return [action("pass"), *(action(f"play {c}") for c in state.game.codes_of(play_mask(state)[0]))]
        return [action("pass"), action(f"announce {d.late}")]
    return [action("pass"), *(action(f"announce {a}") for a in _announce_left(state, d))]


def late_window(state: State, d: DealInfo, tally: Tally) -> str | None:
    """The late announcement the declarer's side is offered after this trick, if any."""
    if d.contract is None:
        return None
    c = state.game.rules.contracts[d.contract]
    won = len(tally.winners)
    side = {d.declarer, d.partner} if c.side is ContractSide.WITH_CALLED else {d.declarer}
    for late in state.game.rules.late_announcements:
        offered = (
            late.after_run == won
            and c.name in late.contracts
            and late.name not in d.announced
            and late.name not in d.declined
        )
        if offered and all(w in side for w in tally.winners):
            return late.name
    return None


def open_late_window(state: State, late: str, events: tuple[tuple[Actor, Event], ...]) -> State:
    """After the trick that completed the run: ask, or make an automatic announcement."""
    d = evolve(state.deal, late=late)
    answer = _late_answer(state, d)
    declarer = d.declarer
    assert declarer is not None
    if answer is LateAnswer.AUTOMATIC:
        d = evolve(d, late=None, announced=(*d.announced, late))
        events = (*events, (declarer, shared(Announced, declarer, late)))
        return setup.moved(state, Phase.PLAY, state.leader, d, events)
    asked = state.leader if answer is LateAnswer.LEAD else declarer
    return setup.moved(state, Phase.ANNOUNCE, asked, d, events)


def _step_late(state: State, action: Action) -> State:
    d = state.deal
    seat = state.to_move
    late = d.late
    assert seat is not None
    assert late is not None
    entry = _late_entry(state, d)
    answer = _late_answer(state, d)
    real_partner = d.partner is not None and d.partner != d.declarer
    events: list[tuple[Actor, Event]]
    if action.verb == "pass":
        events = [(seat, shared(Passed, seat, Phase.ANNOUNCE.value))]
        d = evolve(d, late=None, consent=False, declined=(*d.declined, late))
        if entry.refused is LateRefusal.ENDS_DEAL:
            # The deal ends here and is scored on the tricks taken so far.
            return deal_end.finish_deal(state, state.hands, d, state.tally, events)
    elif answer is LateAnswer.LEAD:
        # Leading commits: the card played is the seat's action, and the announcement it makes
        # follows from it, so the log records it as derived (replay plays the card and finds it).
        announced: tuple[Actor, Event] = (DEALER, shared(Announced, seat, late))
        d = evolve(d, announced=(*d.announced, late), late=None)
        lead = State(state.game, Phase.PLAY, seat, state.hands, (), seat, d, state.tally, state.match, state.history)
        after = lead.apply(action)
        step = after.history
        if step is not None and step.before is state.history:
            a = after
            history = Step(state.history, (*step.events, announced))
            after = State(a.game, a.phase, a.to_move, a.hands, a.trick, a.leader, a.deal, a.tally, a.match, history)
        return after
    elif entry.by is AnnouncedBy.DECLARER_SIDE and real_partner and seat == d.declarer:
        # The declarer says yes; the partner is asked next (which makes the partnership known).
        partner, called = d.partner, d.called
        assert partner is not None
        assert called is not None
        events = [(seat, shared(Announced, seat, late))]
        if not d.revealed:
            events.append((DEALER, PartnerRevealed(partner, state.game.cards.codes[called])))
        d = evolve(d, consent=True, revealed=True)
        return setup.moved(state, Phase.ANNOUNCE, partner, d, tuple(events))
    else:
        events = [(seat, shared(Announced, seat, late))]
        d = evolve(d, announced=(*d.announced, late), late=None, consent=False)
    return setup.moved(state, Phase.PLAY, state.leader, d, tuple(events))


def _step(state: State, action: Action) -> State:
    d = state.deal
    if d.late is not None:
        return _step_late(state, action)
    seat = state.to_move
    assert seat is not None
    events: list[tuple[Actor, Event]]
    if action.verb == "pass":
        events = [(seat, shared(Passed, seat, Phase.ANNOUNCE.value))]
        d = evolve(d, announce_done=True)
    else:
        events = [(seat, shared(Announced, seat, action.arg))]
        d = evolve(d, announced=(*d.announced, action.arg))
        if not _announce_left(state, d):
            d = evolve(d, announce_done=True)
    return setup.next_setup(state, d, events)


def _announced(event: Announced, game: GameLike) -> Action:
    return game.action(f"announce {event.name}")


MECHANISM: Mechanism = listed(
    Phase.ANNOUNCE, _offered, _step, replays=MappingProxyType({**PASS, Announced: _announced})
)
