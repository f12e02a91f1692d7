"""Announcements: before the first lead (the declarer announces, say, a Vole), and during the play.

A *late* announcement is offered after the declarer's side has won a run of
tricks from the first (``scoring.announcements`` with ``after_run``): the
declarer answers, or his side in turn, or a lone declarer answers by leading;
declining may end the deal at once. Both kinds are this one phase: while a
late announcement is being decided, ``deal.late`` names it.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from attrs import frozen

from trickrules.compile.modes import AnnouncedBy, ContractSide, LateAnswer, LateRefusal
from trickrules.compile.rules import LateAnnouncement
from trickrules.engine.actions import Action, Verb
from trickrules.engine.events import Announced, Event, PartnerRevealed, Passed, shared
from trickrules.engine.loop import advance, moved
from trickrules.engine.mechanism import PASS, Events, Mechanism, listed
from trickrules.engine.phases import deal_end
from trickrules.engine.phases.auction import auction
from trickrules.engine.phases.call import call, reveal
from trickrules.engine.phases.play import play_mask
from trickrules.engine.state import State
from trickrules.engine.values import DEALER, Actor, DealInfo, MatchInfo, Phase, Step, Tally, evolve, with_part

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["MECHANISM", "Announcements", "AnnouncementsView", "announcements"]

#: This mechanism's phase, bound once (an enum member's lookup costs more than the dict lookup it keys).
_PHASE: str = Phase.ANNOUNCE


@frozen(weakref_slot=False)
class Announcements:
    """The announcements' record of a deal."""

    announced: tuple[str, ...] = ()
    #: Whether the announcements before the first lead are over.
    done: bool = False
    #: The late announcement being decided, if any.
    late: str | None = None
    #: The late announcements declined.
    declined: tuple[str, ...] = ()


@frozen(weakref_slot=False)
class AnnouncementsView:
    """What a seat sees of the announcements: those made (all are public)."""

    announced: tuple[str, ...]


_NONE = Announcements()


def announcements(game: GameLike, d: DealInfo) -> Announcements:
    """The announcements record of deal ``d``."""
    record: Announcements = d.parts[game.slot[_PHASE]]
    return record


def _with(game: GameLike, d: DealInfo, **changes: object) -> DealInfo:
    return with_part(d, game.slot[_PHASE], evolve(announcements(game, d), **changes))


def _forced(game: GameLike, d: DealInfo) -> bool:
    return Phase.BIDDING in game.slot and auction(game, d).forced


def _announce_left(state: State, d: DealInfo) -> list[str]:
    """The announcements still open to the declarer before the first lead."""
    assert d.contract is not None
    done = announcements(state.game, d).announced
    return [a for a in state.game.tables.announce_offers[d.contract][_forced(state.game, d)] if a not in done]


def _start(game: GameLike, d: DealInfo, match: MatchInfo) -> Announcements:
    return _NONE


def _due(state: State, d: DealInfo) -> int | None:
    if d.contract is None or announcements(state.game, d).done:
        return None
    return d.declarer if state.game.tables.announce_offers[d.contract][_forced(state.game, d)] else None


def _view(state: State, seat: int) -> AnnouncementsView:
    return AnnouncementsView(announcements(state.game, state.deal).announced)


def _facts(game: GameLike, d: DealInfo) -> Mapping[str, object]:
    return {"announced": announcements(game, d).announced}


def _after_trick(
    state: State, hands: tuple[int, ...], d: DealInfo, tally: Tally, events: Events, winner: int
) -> State | None:
    """After a trick that completes a run of the declarer's side: a late announcement offered, if any."""
    if len(tally.winners) not in state.game.tables.late_runs:
        return None
    late = _late_window(state, d, tally)
    if late is None:
        return None
    game = state.game
    after = State(game, Phase.PLAY, winner, hands, (), winner, d, tally, state.match, state.history)
    return _open_late_window(after, late, events)


def _late_entry(state: State, d: DealInfo) -> LateAnnouncement:
    """The late announcement being decided."""
    assert d.contract is not None
    name = state.game.rules.contracts[d.contract].name
    late = announcements(state.game, d).late
    return next(e for e in state.game.rules.late_announcements if e.name == late and name in e.contracts)


def _late_answer(state: State, d: DealInfo) -> LateAnswer:
    """How the declarer answers the late announcement: announce, lead or automatic."""
    alone = d.partner is None or d.partner == d.declarer
    return _late_entry(state, d).alone if alone else LateAnswer.ANNOUNCE


def _offered(state: State) -> list[Action]:
    d = state.deal
    action = state.game.action
    late = announcements(state.game, d).late
    if late is not None:
        if _late_answer(state, d) is LateAnswer.LEAD:
            # Leading is the answer: pass, or lead any card the lead rules allow.
            return [action("pass"), *(action(f"play {c}") for c in state.game.codes_of(play_mask(state)[0]))]
        return [action("pass"), action(f"announce {late}")]
    return [action("pass"), *(action(f"announce {a}") for a in _announce_left(state, d))]


def _late_window(state: State, d: DealInfo, tally: Tally) -> str | None:
    """The late announcement the declarer's side is offered after this trick, if any."""
    if d.contract is None:
        return None
    c = state.game.rules.contracts[d.contract]
    won = len(tally.winners)
    side = {d.declarer, d.partner} if c.side is ContractSide.WITH_CALLED else {d.declarer}
    record = announcements(state.game, d)
    for late in state.game.rules.late_announcements:
        offered = (
            late.after_run == won
            and c.name in late.contracts
            and late.name not in record.announced
            and late.name not in record.declined
        )
        if offered and all(w in side for w in tally.winners):
            return late.name
    return None


def _open_late_window(state: State, late: str, events: tuple[tuple[Actor, Event], ...]) -> State:
    """After the trick that completed the run: ask, or make an automatic announcement."""
    game = state.game
    d = _with(game, state.deal, late=late)
    answer = _late_answer(state, d)
    declarer = d.declarer
    assert declarer is not None
    if answer is LateAnswer.AUTOMATIC:
        d = _with(game, d, late=None, announced=(*announcements(game, d).announced, late))
        events = (*events, (declarer, shared(Announced, declarer, late)))
        return moved(state, Phase.PLAY, state.leader, d, events)
    asked = state.leader if answer is LateAnswer.LEAD else declarer
    return moved(state, Phase.ANNOUNCE, asked, d, events)


def _step_late(state: State, action: Action) -> State:
    d = state.deal
    game = state.game
    seat = state.to_move
    record = announcements(game, d)
    late = record.late
    assert seat is not None
    assert late is not None
    entry = _late_entry(state, d)
    answer = _late_answer(state, d)
    real_partner = d.partner is not None and d.partner != d.declarer
    events: list[tuple[Actor, Event]]
    if action.verb == Verb.PASS:
        events = [(seat, shared(Passed, seat, Phase.ANNOUNCE.value))]
        d = _with(game, d, late=None, declined=(*record.declined, late))
        if entry.refused is LateRefusal.ENDS_DEAL:
            # The deal ends here and is scored on the tricks taken so far.
            return deal_end.finish_deal(state, state.hands, d, state.tally, events)
    elif answer is LateAnswer.LEAD:
        # Leading commits: the card played is the seat's action, and the announcement it makes
        # follows from it, so the log records it as derived (replay plays the card and finds it).
        announced: tuple[Actor, Event] = (DEALER, shared(Announced, seat, late))
        d = _with(game, d, announced=(*record.announced, late), late=None)
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
        partner, the_call = d.partner, call(game, d)
        assert partner is not None
        assert the_call.called is not None
        events = [(seat, shared(Announced, seat, late))]
        if not the_call.revealed:
            events.append((DEALER, PartnerRevealed(partner, game.cards.codes[the_call.called])))
        d, tally = reveal(state, d, state.tally)
        return moved(state, Phase.ANNOUNCE, partner, d, tuple(events), tally)
    else:
        events = [(seat, shared(Announced, seat, late))]
        d = _with(game, d, announced=(*record.announced, late), late=None)
    return moved(state, Phase.PLAY, state.leader, d, tuple(events))


def _step(state: State, action: Action) -> State:
    d = state.deal
    game = state.game
    if announcements(game, d).late is not None:
        return _step_late(state, action)
    seat = state.to_move
    assert seat is not None
    events: list[tuple[Actor, Event]]
    if action.verb == Verb.PASS:
        events = [(seat, shared(Passed, seat, Phase.ANNOUNCE.value))]
        d = _with(game, d, done=True)
    else:
        events = [(seat, shared(Announced, seat, action.arg))]
        d = _with(game, d, announced=(*announcements(game, d).announced, action.arg))
        if not _announce_left(state, d):
            d = _with(game, d, done=True)
    return advance(state, d, events)


def _announced(event: Announced, game: GameLike) -> Action:
    return game.action(f"announce {event.name}")


MECHANISM: Mechanism = listed(
    Phase.ANNOUNCE,
    _offered,
    _step,
    replays=MappingProxyType({**PASS, Announced: _announced}),
    start=_start,
    due=_due,
    view=_view,
    view_type=AnnouncementsView,
    facts=_facts,
    after_trick=_after_trick,
    opens_windows=lambda t: bool(t.late_runs),
)
