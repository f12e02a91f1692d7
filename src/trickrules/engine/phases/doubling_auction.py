"""The doubling auction with strains: bids of a level and a strain, double and redouble, until the passes end it.

A spec uses it by naming its section::

    [mechanisms.doubling_auction]
    strains = ["C", "D", "H", "S", "NT"]   # from the lowest to the highest; a code that is no suit: no trump
    levels = 7                             # bids run from 1 to this level in each strain

The dealer calls first, then each seat in turn. A call is ``pass``, a bid
(``bid 1C`` ... ``bid 7NT``: a level and a strain), ``double`` or
``redouble``. A bid must outrank the last one: a higher level, or the same
level in a higher strain. A seat may double only the last bid, made by the
other side and not yet doubled; it may redouble only the other side's
double of its own side's last bid. Once someone has bid, as many passes in
a row as there are other seats end the auction; if every seat passes
first, the deal is passed out (thrown in, scored as such, and the match
goes on with the next dealer). The contract is the last bid, doubled or
redoubled as the calls after it left it; it makes its strain trumps (no
trump for a strain that is not a suit), and its declarer is the player of
the winning side who first named that strain in the auction. The
declarer's teammate becomes the deal's partner.

The calls are public: every seat sees the whole auction. The record keeps
every call, and the contract's level, strain, doubling (0, 1 or 2) and
declarer; the scoring formulas read ``level`` (0 when passed out),
``strain`` (the strain's position in ``strains``) and ``doubling``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from attrs import frozen

from trickrules.compile.cards import NO_TRUMP
from trickrules.compile.ranges import span
from trickrules.compile.tables import Tables
from trickrules.engine.actions import Action
from trickrules.engine.events import Event, MechanismEvent
from trickrules.engine.loop import advance, moved
from trickrules.engine.mechanism import listed, not_legal, register
from trickrules.engine.phases import deal_end
from trickrules.engine.phases.deal import thrown_in
from trickrules.engine.state import State
from trickrules.engine.values import DEALER, Actor, DealInfo, MatchInfo, evolve, with_part
from trickrules.errors import SpecError

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = [
    "MECHANISM",
    "PHASE",
    "AuctionView",
    "CallMade",
    "Calls",
    "ContractMade",
    "Strains",
    "call_text",
    "calls_of",
    "strains_of",
]

#: This mechanism's phase, and the name of its spec section.
PHASE = "doubling_auction"
#: The calls other than bids, in the order of their codes (a bid's code is 3 + (level - 1) * strains + strain).
_PASS, _DOUBLE, _REDOUBLE = 0, 1, 2
_FIRST_BID = 3
#: The verbs this mechanism adds to the action language (``pass`` and ``bid`` are built in).
VERBS: Mapping[str, bool] = MappingProxyType({"double": False, "redouble": False})


@frozen
class CallMade(MechanismEvent):
    """A seat made a call of the auction: ``pass``, a bid such as ``4H`` or ``3NT``, ``double`` or ``redouble``."""

    TAG: ClassVar[str] = "auction_call"
    seat: int
    call: str

    def describe(self) -> str:
        """One line for a printout of the match."""
        return f"seat {self.seat}: {self.call if self.call in ('pass', 'double', 'redouble') else 'bid ' + self.call}"


@frozen
class ContractMade(MechanismEvent):
    """The auction ended with a contract: its declarer, and its text (``4H``, ``3NTX``, ``6SXX``)."""

    TAG: ClassVar[str] = "contract"
    declarer: int
    contract: str

    def describe(self) -> str:
        """One line for a printout of the match."""
        return f"seat {self.declarer} declares {self.contract}"


@frozen(weakref_slot=False)
class Calls:
    """The auction's record of a deal: the calls so far, and the contract they have reached."""

    #: Every call in order, as codes (0 pass, 1 double, 2 redouble, 3 and up the bids from the lowest).
    calls: tuple[int, ...] = ()
    #: The last bid's level and strain (level 0: nobody has bid), and its doubling (0, 1 doubled, 2 redoubled).
    level: int = 0
    strain: int = 0
    doubling: int = 0
    #: The seat that made the last bid, and the declarer it makes (the first of its side to name the strain).
    bidder: int | None = None
    declarer: int | None = None
    #: The passes since the last call that was not a pass.
    passes: int = 0
    #: Per (side, strain), flattened side-major: the first seat of that side to name that strain (-1: none yet).
    named: tuple[int, ...] = ()
    #: Whether the auction is over (a contract reached, or passed out).
    over: bool = False


@frozen
class AuctionView:
    """What every seat sees of the auction: each call with its seat, and the contract once reached ("" before)."""

    calls: tuple[tuple[int, str], ...]
    contract: str
    declarer: int | None


@frozen
class Strains:
    """The auction's strains and levels, read from the spec's section."""

    #: The strain codes from the lowest to the highest.
    codes: tuple[str, ...]
    #: Each strain's trump key (a suit index, or ``NO_TRUMP``).
    trumps: tuple[int, ...]
    levels: int
    #: Every call's text and action, by code.
    texts: tuple[str, ...]
    actions: tuple[Action, ...]


_STRAINS: dict[tuple[tuple[str, ...], int, tuple[str, ...]], Strains] = {}


def _strains_for(section: Mapping[str, Any], suit_codes: tuple[str, ...]) -> Strains:
    """The section's strains and levels, checked; :class:`SpecError` naming the key if they are wrong."""
    unknown = set(section) - {"strains", "levels"}
    if unknown:
        raise SpecError(f"mechanisms.{PHASE}: unknown keys {sorted(unknown)} (the keys: strains, levels).")
    codes = section.get("strains", ())
    levels = section.get("levels", 7)
    if (
        not isinstance(codes, (tuple, list))
        or not codes
        or not all(type(c) is str and c for c in codes)
        or len(set(codes)) != len(codes)
    ):
        raise SpecError(f"mechanisms.{PHASE}.strains: expected distinct strain codes, found {codes!r}.")
    if [c for c in codes if c not in suit_codes][1:]:
        raise SpecError(
            f"mechanisms.{PHASE}.strains: at most one strain may be no suit (no trump), found {list(codes)}."
        )
    if type(levels) is not int or not 1 <= levels <= 13:
        raise SpecError(f"mechanisms.{PHASE}.levels: expected 1 to 13, found {levels!r}.")
    key = (tuple(codes), levels, suit_codes)
    found = _STRAINS.get(key)
    if found is None:
        trumps = tuple(suit_codes.index(c) if c in suit_codes else NO_TRUMP for c in codes)
        bids = [f"{level}{code}" for level in range(1, levels + 1) for code in codes]
        texts = ("pass", "double", "redouble", *bids)
        actions = (Action("pass"), Action("double"), Action("redouble"), *(Action("bid", b) for b in bids))
        found = _STRAINS[key] = Strains(tuple(codes), trumps, levels, texts, actions)
    return found


def strains_of(game: GameLike) -> Strains:
    """The strains and levels of ``game``'s auction."""
    t = game.tables
    return _strains_for(t.mechanism_sections[PHASE], t.cards.suit_codes)


def _actions(t: Tables) -> tuple[Action, ...]:
    return _strains_for(t.mechanism_sections[PHASE], t.cards.suit_codes).actions


def _uses(t: Tables) -> bool:
    """Whether a game uses this mechanism (its spec names the section), its section checked once compiled."""
    section = t.mechanism_sections.get(PHASE)
    if section is None:
        return False
    strains = _strains_for(section, t.cards.suit_codes)
    if not t.rules.teams:
        raise SpecError(f"mechanisms.{PHASE}: the auction needs fixed partnerships (seating.teams).")
    if not t.rules.allow_no_trump and NO_TRUMP in strains.trumps:
        raise SpecError(f"mechanisms.{PHASE}.strains: a no-trump strain needs trump.allow_none = true.")
    return True


def calls_of(game: GameLike, d: DealInfo) -> Calls:
    """The auction record of deal ``d``."""
    record: Calls = d.parts[game.slot[PHASE]]
    return record


def call_text(strains: Strains, code: int) -> str:
    """A call's text in events and views: ``pass``, ``double``, ``redouble`` or a bid such as ``4H``."""
    return strains.texts[code]


def contract_text(strains: Strains, record: Calls) -> str:
    """The contract as ``4H``, ``3NTX`` or ``6SXX`` ("" before a bid)."""
    if not record.level:
        return ""
    return f"{record.level}{strains.codes[record.strain]}{'X' * record.doubling}"


def _start(game: GameLike, d: DealInfo, match: MatchInfo) -> Calls:
    sides = len(game.rules.teams)
    return Calls(named=(-1,) * (sides * len(strains_of(game).codes)))


def _due(state: State, d: DealInfo) -> int | None:
    record = calls_of(state.game, d)
    return None if record.over else (d.dealer + len(record.calls)) % state.game.players


def _offered(state: State) -> list[Action]:
    game = state.game
    seat = state.to_move
    assert seat is not None
    record = calls_of(game, state.deal)
    strains = strains_of(game)
    actions = strains.actions
    out = [actions[_PASS]]
    if record.level and record.bidder is not None:
        ours = game.tables.team_of[record.bidder] == game.tables.team_of[seat]
        if record.doubling == 0 and not ours:
            out.append(actions[_DOUBLE])
        elif record.doubling == 1 and ours:
            out.append(actions[_REDOUBLE])
    last = _FIRST_BID + (record.level - 1) * len(strains.codes) + record.strain if record.level else _FIRST_BID - 1
    out.extend(actions[last + 1 :])
    return out


def _why(state: State, action: Action, actions: tuple[Action, ...]) -> str:
    what = not_legal(state, action)
    game = state.game
    record = calls_of(game, state.deal)
    strains = strains_of(game)
    if action.verb == "double":
        if not record.level:
            return f"{what}: there is no bid to double."
        if record.doubling:
            return f"{what}: the last bid is doubled already."
        return f"{what}: a seat may double only the other side's bid."
    if action.verb == "redouble":
        if record.doubling != 1:
            return f"{what}: only a doubled bid may be redoubled."
        return f"{what}: a seat may redouble only the other side's double of its own side's bid."
    if action.verb == "bid" and action.arg in strains.texts[_FIRST_BID:]:
        return f"{what}: a bid must outrank {contract_text(strains, evolve(record, doubling=0))}."
    if action.verb == "bid":
        return f"{what}: there is no bid {action.arg!r} (bids run from 1{strains.codes[0]} to {strains.texts[-1]})."
    return f"{what} (legal: {', '.join(str(a) for a in actions)})."


def _step(state: State, action: Action) -> State:
    game = state.game
    seat = state.to_move
    assert seat is not None
    d = state.deal
    strains = strains_of(game)
    record = calls_of(game, d)
    code = strains.actions.index(action)
    n = game.players
    if code == _PASS:
        record = evolve(record, calls=(*record.calls, code), passes=record.passes + 1)
    elif code == _DOUBLE:
        record = evolve(record, calls=(*record.calls, code), passes=0, doubling=1)
    elif code == _REDOUBLE:
        record = evolve(record, calls=(*record.calls, code), passes=0, doubling=2)
    else:
        count = len(strains.codes)
        level, strain = 1 + (code - _FIRST_BID) // count, (code - _FIRST_BID) % count
        side = game.tables.team_of[seat]
        named = list(record.named)
        if named[side * count + strain] < 0:
            named[side * count + strain] = seat
        record = Calls((*record.calls, code), level, strain, 0, seat, named[side * count + strain], 0, tuple(named))
    events: list[tuple[Actor, Event]] = [(seat, CallMade(seat, strains.texts[code]))]
    slot = game.slot[PHASE]
    if not (record.passes >= n or (record.level and record.passes >= n - 1)):
        return moved(state, PHASE, (seat + 1) % n, with_part(d, slot, record), events)
    record = evolve(record, over=True)
    d = with_part(d, slot, record)
    if not record.level:  # everyone passed: the deal is passed out
        thrown_in(state, d, False, "bid a contract")
        return deal_end.pass_out(state, d, events)
    declarer = record.declarer
    assert declarer is not None
    team = game.rules.teams[game.tables.team_of[declarer]]
    partner = next((s for s in team if s != declarer), None)
    events.append((DEALER, ContractMade(declarer, contract_text(strains, record))))
    d = evolve(d, trump=strains.trumps[record.strain], declarer=declarer, partner=partner)
    return advance(state, d, events)


def _view(state: State, seat: int) -> AuctionView:
    game = state.game
    record = calls_of(game, state.deal)
    strains = strains_of(game)
    dealer = state.deal.dealer
    n = game.players
    calls = tuple(((dealer + k) % n, strains.texts[c]) for k, c in enumerate(record.calls))
    contract = contract_text(strains, record) if record.over else ""
    return AuctionView(calls, contract, record.declarer if record.over else None)


def _facts(game: GameLike, d: DealInfo) -> Mapping[str, object]:
    """The contract's level (0: none), strain (its position in ``strains``) and doubling (0, 1, 2)."""
    record = calls_of(game, d)
    done = record.over and record.level > 0
    return {
        "level": record.level if done else 0,
        "strain": record.strain if done else 0,
        "doubling": record.doubling if done else 0,
    }


def _called(event: CallMade, game: GameLike) -> Action:
    call = event.call
    return game.action(call if call in ("pass", "double", "redouble") else f"bid {call}")


MECHANISM = listed(
    PHASE,
    _offered,
    _step,
    _why,
    replays=MappingProxyType({CallMade: _called}),
    actions=_actions,
    start=_start,
    due=_due,
    view=_view,
    view_type=AuctionView,
    facts=_facts,
)

register(
    MECHANISM,
    uses=_uses,
    events=(CallMade, ContractMade),
    verbs=VERBS,
    variables={"level": span(0, 13), "strain": span(0, 12), "doubling": span(0, 2)},
)
