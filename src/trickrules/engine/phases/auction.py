"""The auction: seats bid contracts of the ladder or pass, until the spec's auction form ends it.

Forms (``bidding.auction``): ``until_passes`` (a seat that passed is out),
``until_consecutive_passes`` (the passes after the last bid end it) and
``once_around``. With ``bidding.earlier_may_hold`` a seat that speaks
before the high bidder (counting from the eldest) may bid the same
contract. When everyone passes, the spec forces a contract on the
holder of a given card, plays without a contract, or redeals.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from trickrules.compile.modes import AllPass, AuctionForm, ContractSide
from trickrules.engine.actions import Action
from trickrules.engine.events import AuctionWon, BidMade, Event, Redeal, shared
from trickrules.engine.mechanism import PASS, Mechanism, listed, not_legal
from trickrules.engine.phases import deal_end, setup
from trickrules.engine.phases.deal import start_deal
from trickrules.engine.records import DEALER, Actor, Auction, DealInfo, Phase, Step, Tally, evolve
from trickrules.engine.scoring import is_eligible
from trickrules.engine.state import State

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["MECHANISM"]


def _lowest(state: State, seat: int) -> int:
    """The lowest rung ``seat`` may bid: above the high bid, or equal to it when he may hold it."""
    high, bidder = state.tally.auction.high, state.tally.auction.bidder
    if high is None:
        return 0
    if state.game.rules.earlier_may_hold and bidder is not None:
        n, eldest = state.game.players, state.deal.dealer + 1
        if (seat - eldest) % n < (bidder - eldest) % n:  # he speaks before the high bidder
            return high
    return high + 1


def _offered(state: State) -> list[Action]:
    game = state.game
    shared_ = game._shared
    seat = state.to_move
    assert seat is not None
    out = [shared_.pass_action]
    dealt = state.deal.dealt[seat]
    for c in game.rules.contracts[_lowest(state, seat) :]:  # only higher bids, or an equal one held
        if c.requires_mask & ~dealt:
            continue
        if not is_eligible(state, seat, c):
            continue
        out.append(shared_.bid_actions[c.index])
    return out


def _why(state: State, action: Action, actions: tuple[Action, ...]) -> str:
    what = not_legal(state, action)
    if action.verb != "bid":
        return f"{what} (legal: {', '.join(str(a) for a in actions)})."
    game = state.game
    names = [c.name for c in game.rules.contracts]
    if action.arg not in names:
        return f"{what}: there is no contract {action.arg!r} (contracts: {', '.join(names)})."
    c = game.rules.contracts[names.index(action.arg)]
    high = state.tally.auction.high
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
    old = state.tally.auction
    high, bidder, passed = old.high, old.bidder, old.passed
    said: tuple[tuple[Actor, Event], ...]
    if action.verb == "pass":
        said = game._shared.pass_events[seat]
        passed |= 1 << seat
    else:
        high, bidder = game._tables.contract_index[action.arg], seat
        said = game._shared.bid_events[seat][high]
        if form is AuctionForm.UNTIL_CONSECUTIVE_PASSES:
            passed = 0  # the passes that end the auction are those after the last bid
    tally = Tally(state.tally.won, auction=Auction(high, bidder, passed, old.spoken + 1))
    if form is AuctionForm.ONCE_AROUND:
        over = tally.auction.spoken >= n
    elif form is AuctionForm.UNTIL_CONSECUTIVE_PASSES:
        over = passed.bit_count() >= (n - 1 if high is not None else n)
    else:
        active = ((1 << n) - 1) & ~passed  # the seats still in, as a mask
        over = not active or (bidder is not None and active == 1 << bidder)
    if not over:
        nxt = game._tables.next_seat[None][seat]
        if form is AuctionForm.UNTIL_PASSES:
            while (passed >> nxt) & 1:
                nxt = game._tables.next_seat[None][nxt]
        history = Step(state.history, said)
        return State(game, Phase.BIDDING, nxt, state.hands, (), state.leader, d, tally, state.match, history)
    events: list[tuple[Actor, Event]] = list(said)
    if high is not None and bidder is not None:
        return _contract_won(state, d, bidder, high, False, events)
    # Everyone passed.
    if rules.all_pass is AllPass.FORCED:
        holder = next(s for s in range(n) if (d.dealt[s] >> rules.all_pass_holder) & 1)
        return _contract_won(state, d, holder, rules.all_pass_contract, True, events)
    if rules.all_pass is AllPass.PLAY:
        return setup.start_play(state, d, events)
    events.append((DEALER, Redeal(d.number, d.dealer)))
    if rules.all_pass_redeal_next:
        return deal_end.pass_out(state, d, events)
    return start_deal(state, d.number, d.shuffle + 1, d.dealer, state.match, events)


def _contract_won(
    state: State, d: DealInfo, declarer: int, contract: int, forced: bool, events: list[tuple[Actor, Event]]
) -> State:
    game = state.game
    c = game.rules.contracts[contract]
    events.append((DEALER, shared(AuctionWon, declarer, c.name, forced)))
    sitting_out = None
    if c.side is ContractSide.PARTNER_SITS_OUT:
        team = game.rules.teams[game._tables.team_of[declarer]]
        sitting_out = next(s for s in team if s != declarer)
    out = 0 if sitting_out is None else 1 << sitting_out
    d = evolve(d, contract=contract, declarer=declarer, forced=forced, sitting_out=sitting_out, seats_out=out)
    return setup.next_setup(state, d, events)


def _bid(event: BidMade, game: GameLike) -> Action:
    return game.action(f"bid {event.contract}")


MECHANISM: Mechanism = listed(
    Phase.BIDDING, _offered, _step, _why, replays=MappingProxyType({**PASS, BidMade: _bid})
)
