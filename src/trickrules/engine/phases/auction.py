"""The auction: seats bid contracts of the ladder or pass, until the spec's auction form ends it.

Forms (``bidding.auction``): ``until_passes`` (a seat that passed is out),
``until_consecutive_passes`` (the passes after the last bid end it),
``once_around``, ``first_bid`` (the first bid wins) and ``declarer`` (the
declarer another mechanism chose, by value bidding, names the contract
alone). With ``bidding.earlier_may_hold`` a seat that speaks before the
high bidder (counting from the eldest) may bid the same contract. When
everyone passes, the spec forces a contract on the holder of a given
card, plays without a contract, or redeals.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from attrs import frozen

from trickrules.compile.cards import NO_TRUMP
from trickrules.compile.modes import AllPass, AuctionForm, ContractSide, TrumpChooser
from trickrules.engine.actions import Action, Verb
from trickrules.engine.events import AuctionWon, BidMade, Event, Redeal, shared
from trickrules.engine.loop import advance
from trickrules.engine.mechanism import PASS, Mechanism, listed, not_legal
from trickrules.engine.phases import deal_end
from trickrules.engine.phases.deal import dealing, start_deal, thrown_in
from trickrules.engine.scoring import is_eligible
from trickrules.engine.state import State
from trickrules.engine.values import DEALER, Actor, DealInfo, MatchInfo, Phase, Step, evolve, with_part
from trickrules.spec.sealed import Sealed

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["MECHANISM", "Auction", "auction"]

#: This mechanism's phase, bound once (an enum member's lookup costs more than the dict lookup it keys).
_PHASE: str = Phase.BIDDING


@frozen(weakref_slot=False)
class Auction(Sealed):
    """The auction's record of a deal: the bidding so far, and how it ended.

    ``Auction()`` is every new deal's auction, in every game of the process:
    like the events, it cannot be initialised again (:class:`~trickrules.spec.sealed.Sealed`).
    """

    #: The highest contract bid (its index in the ladder), if any.
    high: int | None = None
    #: The seat that bid it.
    bidder: int | None = None
    #: The seats that have passed, as a bit mask.
    passed: int = 0
    #: How many times a seat has spoken.
    spoken: int = 0
    #: Whether the auction is over (won, forced, or passed out to a play without contract).
    over: bool = False
    #: Whether the contract was forced on the declarer (everyone passed).
    forced: bool = False


_NEW = Auction()


def auction(game: GameLike, d: DealInfo) -> Auction:
    """The auction record of deal ``d``."""
    record: Auction = d.parts[game.slot[_PHASE]]
    return record


def _start(game: GameLike, d: DealInfo, match: MatchInfo) -> Auction:
    return _NEW


def _due(state: State, d: DealInfo) -> int | None:
    if auction(state.game, d).over:
        return None
    if state.game.rules.auction is AuctionForm.DECLARER:  # the declarer another mechanism chose names it
        return d.declarer
    return (d.dealer + (2 if state.game.rules.second_speaks_first else 1)) % state.game.players


def _others_passed(state: State, seat: int, record: Auction) -> bool:
    """Whether every seat but ``seat`` has passed."""
    return record.passed | (1 << seat) == (1 << state.game.players) - 1


def _facts(game: GameLike, d: DealInfo) -> Mapping[str, object]:
    return {"forced": auction(game, d).forced}


def _lowest(state: State, seat: int) -> int:
    """The lowest rung ``seat`` may bid: above the high bid, or equal to it when he may hold it."""
    record = auction(state.game, state.deal)
    high, bidder = record.high, record.bidder
    if high is None:
        return 0
    if seat == bidder and state.game.rules.last_bid:  # the high bidder's last bid: he may keep his contract
        return high
    if state.game.rules.earlier_may_hold and bidder is not None:
        n, eldest = state.game.players, state.deal.dealer + 1
        if (seat - eldest) % n < (bidder - eldest) % n:  # he speaks before the high bidder
            return high
    return high + 1


def _offered(state: State) -> list[Action]:
    game = state.game
    shared_ = game.shared
    seat = state.to_move
    assert seat is not None
    rules = game.rules
    record = auction(game, state.deal)
    last = rules.last_bid and _others_passed(state, seat, record)  # the last one left bids, and may not pass
    out = [] if last or rules.auction is AuctionForm.DECLARER else [shared_.pass_action]
    eldest_turn = (
        rules.eldest_only
        and seat == (state.deal.dealer + 1) % game.players
        and _others_passed(state, seat, record)
        and not (record.passed >> seat) & 1
        and record.bidder is None
    )
    dealt = state.deal.dealt[seat]
    for c in rules.contracts[_lowest(state, seat) :]:  # only higher bids, or an equal one held
        if c.requires_mask & ~dealt:
            continue
        if (rules.eldest_only >> c.index) & 1 and not eldest_turn:
            continue
        if not is_eligible(state, seat, c):
            continue
        out.append(shared_.bid_actions[c.index])
    return out


def _why(state: State, action: Action, actions: tuple[Action, ...]) -> str:
    what = not_legal(state, action)
    if action.verb != Verb.BID:
        return f"{what} (legal: {', '.join(str(a) for a in actions)})."
    game = state.game
    names = [c.name for c in game.rules.contracts]
    if action.arg not in names:
        return f"{what}: there is no contract {action.arg!r} (contracts: {', '.join(names)})."
    c = game.rules.contracts[names.index(action.arg)]
    high = auction(game, state.deal).high
    seat = state.to_move
    assert seat is not None
    if high is not None and c.index < _lowest(state, seat):
        return f"{what}: a bid must be higher than {names[high]}."
    if c.requires_mask & ~state.deal.dealt[seat]:
        need = game.cards.format(i for i in range(game.cards.size) if (c.requires_mask >> i) & 1)
        return f"{what}: {c.name} needs {need} in the bidder's hand."
    return f"{what}: {c.name} is not allowed now (its eligibility rule forbids it)."


def _step(state: State, action: Action) -> State:
    game = state.game
    rules = game.rules
    seat = state.to_move
    assert seat is not None
    d = state.deal
    n = game.players
    form = rules.auction
    slot = game.slot[_PHASE]
    old: Auction = d.parts[slot]
    high, bidder, passed = old.high, old.bidder, old.passed
    said: tuple[tuple[Actor, Event], ...]
    if action.verb == Verb.PASS:
        said = game.shared.pass_events[seat]
        passed |= 1 << seat
    else:
        high, bidder = game.tables.contract_index[action.arg], seat
        said = game.shared.bid_events[seat][high]
        if form is AuctionForm.UNTIL_CONSECUTIVE_PASSES:
            passed = 0  # the passes that end the auction are those after the last bid
    record = Auction(high, bidder, passed, old.spoken + 1)
    if form is AuctionForm.ONCE_AROUND:
        over = record.spoken >= n
    elif form is AuctionForm.FIRST_BID or form is AuctionForm.DECLARER:
        over = high is not None or record.spoken >= n
    elif form is AuctionForm.UNTIL_CONSECUTIVE_PASSES:
        over = passed.bit_count() >= (n - 1 if high is not None else n)
    elif rules.last_bid:  # it ends with a bid when every other seat has passed
        over = action.verb != Verb.PASS and passed | (1 << seat) == (1 << n) - 1
    else:
        active = ((1 << n) - 1) & ~passed  # the seats still in, as a mask
        over = not active or (bidder is not None and active == 1 << bidder)
    if not over:
        nxt = game.tables.next_seat[None][seat]
        if form is AuctionForm.UNTIL_PASSES:
            while (passed >> nxt) & 1:
                nxt = game.tables.next_seat[None][nxt]
        history = Step(state.history, said)
        d = with_part(d, slot, record)
        return State(game, Phase.BIDDING, nxt, state.hands, (), state.leader, d, state.tally, state.match, history)
    events: list[tuple[Actor, Event]] = list(said)
    d = with_part(d, slot, evolve(record, over=True))
    if high is not None and bidder is not None:
        return _contract_won(state, d, bidder, high, events)
    # Everyone passed.
    if rules.all_pass is AllPass.FORCED:
        holder = next(s for s in range(n) if (d.dealt[s] >> rules.all_pass_holder) & 1)
        d = with_part(d, slot, evolve(record, over=True, forced=True))
        return _contract_won(state, d, holder, rules.all_pass_contract, events)
    if rules.all_pass is AllPass.PLAY:
        return advance(state, d, events)
    events.append((DEALER, Redeal(d.number, d.dealer)))
    thrown = thrown_in(state, d, not rules.all_pass_redeal_next, "bid a contract")
    if rules.all_pass_redeal_next:
        return deal_end.pass_out(state, d, events)
    return start_deal(state, d.number, dealing(d).shuffle + 1, d.dealer, state.match, events, thrown=thrown)


def _contract_won(state: State, d: DealInfo, declarer: int, contract: int, events: list[tuple[Actor, Event]]) -> State:
    game = state.game
    c = game.rules.contracts[contract]
    events.append((DEALER, shared(AuctionWon, declarer, c.name, auction(game, d).forced)))
    sitting_out = None
    if c.side is ContractSide.PARTNER_SITS_OUT:
        team = game.rules.teams[game.tables.team_of[declarer]]
        sitting_out = next(s for s in team if s != declarer)
    out = 0 if sitting_out is None else 1 << sitting_out
    d = evolve(d, contract=contract, declarer=declarer, seats_out=out)
    if d.trump is None and c.trumps is not None:
        d = evolve(d, trump=c.trumps)
    elif d.trump is None and c.trump_by is TrumpChooser.NONE:
        d = evolve(d, trump=NO_TRUMP)
    return advance(state, d, events)


def _bid(event: BidMade, game: GameLike) -> Action:
    return game.action(f"bid {event.contract}")


MECHANISM: Mechanism = listed(
    Phase.BIDDING,
    _offered,
    _step,
    _why,
    replays=MappingProxyType({**PASS, BidMade: _bid}),
    start=_start,
    due=_due,
    facts=_facts,
)
