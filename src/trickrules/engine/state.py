"""The engine's immutable state, and applying actions to it.

A :class:`State` is a frozen value. ``state.apply(action)`` returns a new
state and leaves the old one as it was, so undo is keeping the old state and
a bot can branch freely. ``state.last_events`` are the events the step that
made the state produced; ``state.log()`` is every event of the match.

The state is lean on purpose: the fields that change with every card (the
hands, the trick, whose turn) sit on the state itself; what changes once a
deal (:class:`DealInfo`), once a trick (:class:`Tally`) or once a match
(:class:`MatchInfo`) sits in records that successive states share.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from attrs import field, frozen
from attrs import fields as attrs_fields

from trickrules.compile.cards import NO_TRUMP, bits
from trickrules.engine.actions import Action
from trickrules.engine.events import (
    POT,
    Announced,
    AuctionWon,
    CardCalled,
    CardGiven,
    CardPlayed,
    Dealt,
    Declared,
    Event,
    ExchangeDone,
    Misdealt,
    PartnerRevealed,
    Passed,
    Redeal,
    TrickWon,
    TrumpNamed,
    paid,
    shared,
)
from trickrules.engine.fastinit import maker, twin_of
from trickrules.engine.legal import REASONS, legal_play_mask, winner_index
from trickrules.engine.rng import shuffled
from trickrules.errors import IllegalActionError

if TYPE_CHECKING:
    from trickrules.engine.game import Game
    from trickrules.records.eventlog import EventLog
    from trickrules.records.view import View

__all__ = ["PHASES", "DealInfo", "MatchInfo", "State", "Tally", "evolve_deal", "new_match"]

BIDDING, TRUMP, CALL, EXCHANGE, ANNOUNCE, PLAY, DECLARE, OVER = range(1, 9)
#: Phase names by code, as ``state.phase`` reports them.
PHASES = {
    BIDDING: "bidding",
    TRUMP: "trump",
    CALL: "call",
    EXCHANGE: "exchange",
    ANNOUNCE: "announce",
    PLAY: "play",
    DECLARE: "declare",
    OVER: "over",
}
UNSET = -2
DEALER = "dealer"


@frozen(weakref_slot=False)
class DealInfo:
    """What is fixed for a deal once set: dealer, contract, trumps, partner."""

    number: int
    shuffle: int
    dealer: int
    dealt: tuple[int, ...]
    turned: int = -1
    trump: int = UNSET
    contract: int = -1
    declarer: int = -1
    forced: bool = False
    called: int = -1
    partner: int = -1
    revealed: bool = False
    sitting_out: int = -1
    announced: tuple[str, ...] = ()
    given: tuple[int, ...] = ()
    returned: tuple[int, ...] = ()
    announce_done: bool = False
    #: A late announcement being decided (its name), whether the declarer has said yes
    #: and the partner is asked, and the late announcements refused.
    late: str = ""
    consent: bool = False
    declined: tuple[str, ...] = ()


@frozen(weakref_slot=False)
class Tally:
    """What the tricks of the deal so far have decided."""

    won: tuple[int, ...]
    winners: tuple[int, ...] = ()
    declared: tuple[tuple[int, int, int], ...] = ()
    revokes: tuple[tuple[int, str], ...] = ()
    window: tuple[int, ...] = ()
    window_count: int = 0
    #: The auction so far: (highest contract index, its bidder, mask of seats that passed, bids made).
    auction: tuple[int, int, int, int] = (-1, -1, 0, 0)
    #: Melds (seat, declaration index, suit) passed over where that forfeits them (``late = "forfeit"``).
    forfeited: tuple[tuple[int, int, int], ...] = ()


@frozen(weakref_slot=False)
class MatchInfo:
    """What carries over from deal to deal: scores, the pot, the seed."""

    seed: int
    scores: tuple[int, ...]
    pot: int = 0
    deals_done: int = 0
    winners: tuple[int, ...] = ()
    stacked: tuple[tuple[str, ...], ...] = ()
    first_dealer: int = 0
    stacked_turned: str = ""
    start_scores: tuple[int, ...] = ()
    start_pot: int = 0


_TALLY = maker(Tally)
_DEAL = maker(DealInfo)
_DEALT = maker(Dealt)
# The defaults of the fields after ``won`` (Tally) and after ``trump`` (DealInfo), in order.
_TALLY_DEFAULTS = tuple(f.default for f in attrs_fields(Tally)[1:])
_DEAL_DEFAULTS = tuple(f.default for f in attrs_fields(DealInfo)[6:])
_NO_AUCTION = (-1, -1, 0, 0)
_TRICK_WON = maker(TrickWon)

#: The events so far, as a chain of ``(parent, entries)`` pairs that each step
#: extends without copying (a plain tuple: the cheapest object Python builds).
_History = tuple[Any, tuple[tuple[object, Event], ...]]  # (parent or None, (actor, event) pairs)


def _history_entries(node: Any) -> list[tuple[object, Event]]:
    chunks = []
    while node is not None:
        chunks.append(node[1])
        node = node[0]
    out: list[tuple[object, Event]] = []
    for chunk in reversed(chunks):
        out.extend(chunk)
    return out


@frozen(repr=False, weakref_slot=False)
class State:
    """An immutable game state. Make one with ``game.new_match()``."""

    game: Game = field(eq=False)
    # (phase code, seat to move, hands as masks, trick, leader, DealInfo, Tally, MatchInfo): one
    # tuple, so that the step after each card builds one tuple and sets four slots.
    core: tuple[Any, ...]
    history: Any = field(eq=False, repr=False)
    # Computed on first use: (legal mask, reason) in the play phase, else the legal actions.
    cache: Any = field(eq=False, default=None, repr=False)
    #: Whether the match is over: stored rather than computed, since a simulation asks after every step.
    is_terminal: bool = field(eq=False, default=False, repr=False)

    @property
    def last(self) -> tuple[tuple[object, Event], ...]:
        """The (actor, event) pairs of the step that made this state."""
        return self.history[1] if self.history is not None else ()

    @property
    def phase_code(self) -> int:
        """The phase as a small integer (see :data:`PHASES`)."""
        return self.core[0]  # type: ignore[no-any-return]

    @property
    def to_move_seat(self) -> int:
        """The seat to act (``-1`` when the match is over)."""
        return self.core[1]  # type: ignore[no-any-return]

    @property
    def hands(self) -> tuple[int, ...]:
        """Every seat's hand as a bit mask of cards."""
        return self.core[2]  # type: ignore[no-any-return]

    @property
    def trick(self) -> tuple[int, ...]:
        """The cards of the trick in progress, in play order."""
        return self.core[3]  # type: ignore[no-any-return]

    @property
    def leader(self) -> int:
        """The seat that led (or will lead) the trick in progress."""
        return self.core[4]  # type: ignore[no-any-return]

    @property
    def deal(self) -> DealInfo:
        """What is fixed for the current deal."""
        return self.core[5]  # type: ignore[no-any-return]

    @property
    def tally(self) -> Tally:
        """What the tricks of the deal so far decided."""
        return self.core[6]  # type: ignore[no-any-return]

    @property
    def match(self) -> MatchInfo:
        """What carries over from deal to deal."""
        return self.core[7]  # type: ignore[no-any-return]

    # -- public read-only views of the state --------------------------------------------

    @property
    def to_move(self) -> int | None:
        """The seat to act, or ``None`` when the match is over."""
        core = self.core
        return None if core[0] == OVER else core[1]

    @property
    def phase(self) -> str:
        """The phase: bidding, trump, call, exchange, announce, play, declare or over."""
        return PHASES[self.phase_code]

    @property
    def scoreboard(self) -> dict[int, int]:
        """Seat -> chips or points, in the game's unit."""
        return dict(enumerate(self.match.scores))

    @property
    def pot(self) -> int:
        """Chips in the pot (0 in a game without one)."""
        return self.match.pot

    @property
    def dealer(self) -> int:
        """The dealer of the current deal."""
        return self.deal.dealer

    @property
    def trump(self) -> str | None:
        """The trump suit's code, ``"none"`` for no trumps, ``None`` while unknown."""
        t = self.deal.trump
        return None if t == UNSET else self.game.cards.trump_code(t)

    @property
    def contract(self) -> str | None:
        """The contract being played, or ``None``."""
        c = self.deal.contract
        return None if c < 0 else self.game.rules.contracts[c].name

    @property
    def declarer(self) -> int | None:
        """The declarer's seat, or ``None``."""
        return None if self.deal.declarer < 0 else self.deal.declarer

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats once the match is over (empty before)."""
        return self.match.winners

    @property
    def last_events(self) -> tuple[Event, ...]:
        """The events produced by the step that made this state."""
        return tuple(e for _, e in self.last)

    def hand(self, seat: int) -> tuple[str, ...]:
        """The card codes in ``seat``'s hand, in deck order."""
        return self.game.codes_of(self.hands[seat])

    def trick_cards(self) -> tuple[tuple[int, str], ...]:
        """The trick in progress as (seat, card code) pairs, in play order."""
        seats = self._trick_seats(len(self.trick))
        return tuple((s, self.game.cards.codes[c]) for s, c in zip(seats, self.trick, strict=True))

    def tricks_won(self) -> dict[int, int]:
        """Seat -> tricks won so far in this deal."""
        counts = dict.fromkeys(range(self.game.rules.players), 0)
        for w in self.tally.winners:
            counts[w] += 1
        return counts

    def __repr__(self) -> str:
        return (
            f"<State {self.game.name} deal {self.deal.number} {self.phase} "
            f"to_move={self.to_move} trick={self.game.cards.format(self.trick)!r}>"
        )

    # -- actions ---------------------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions of the seat to move, in a stable order (empty when over)."""
        core = self.core
        code = core[0]
        if code == PLAY:
            found = self.cache
            if found is None:
                # _legal_play inlined: this is the hottest call of a bot or a simulation.
                game = self.game
                trick = core[3]
                if trick or (game.lead_rules and core[1] == core[5].partner):
                    found = legal_play_mask(game, core[2][core[1]], trick, core[4], core[1], core[5])
                else:
                    # A lead is free unless a lead rule applies, and the only one there is
                    # binds the called card's holder.
                    found = (core[2][core[1]], "")
                _S_CACHE(self, found)
                return game.play_actions_of(found[0])
            return self.game.play_actions_of(found[0])
        if code == OVER:
            return ()
        return self._legal_list()

    def is_legal(self, action: Action | str) -> bool:
        """Whether ``action`` may be applied now."""
        try:
            self._check(action if isinstance(action, Action) else Action.parse(action))
        except IllegalActionError:
            return False
        return True

    def apply(self, action: Action | str) -> State:
        """The state after the player to move takes ``action``.

        Raises :class:`IllegalActionError` naming the rule that forbids it; the
        state is unchanged either way.
        """
        if action.__class__ is str:
            action = self.game.action(action)
        core = self.core
        if core[0] == PLAY and action.verb == "play":  # type: ignore[union-attr]
            # The check of _play_card, inlined for the common case of a legal card.
            found = self.cache
            game = self.game
            card = game.card_of.get(action.arg)  # type: ignore[union-attr]
            if found is not None and card is not None and (found[0] >> card) & 1:
                trick = core[3]
                d = core[5]
                if len(trick) < game.trick_last[d.sitting_out] and card != d.called:
                    # A card that does not end the trick and reveals nothing: the hottest step
                    # of a simulation, spelled out here (_after_play does the same, and more).
                    seat = core[1]
                    s = _StateTwin()  # see fastinit: a State built without its frozen __setattr__
                    s.game = game
                    s.core = (
                        PLAY,
                        game.next_seat[d.sitting_out][seat],
                        game.toggle[seat](core[2], game.bit[card]),  # a legal card is in the hand
                        trick + (card,),  # noqa: RUF005 - fastest form
                        core[4],
                        d,
                        core[6],
                        core[7],
                    )
                    s.history = (self.history, game.play_events[seat][card])
                    s.cache = None
                    s.is_terminal = False
                    s.__class__ = State
                    return s  # type: ignore[no-any-return]
                return _after_play(self, card, action)  # type: ignore[arg-type]
            return _after_play(self, self._play_card(action), action)  # type: ignore[arg-type]
        if not isinstance(action, Action):
            raise IllegalActionError(f"not an action: {action!r}")
        self._check(action)
        step: Any = _STEPS[core[0]]
        new: State = step(self, action)
        return new

    def step(self, action: Action | str) -> tuple[State, tuple[Event, ...]]:
        """Apply ``action`` and return the new state with the events it produced."""
        new = self.apply(action)
        return new, new.last_events

    def log(self) -> EventLog:
        """The match so far as an :class:`~trickrules.records.eventlog.EventLog`."""
        from trickrules.records.eventlog import EventLog

        return EventLog.from_state(self)

    def view(self, seat: int) -> View:
        """What ``seat`` may know of this state."""
        from trickrules.records.view import make_view

        return make_view(self, seat)

    def entries(self) -> list[tuple[object, Event]]:
        """Every (actor, event) of the match so far, in order."""
        return _history_entries(self.history)

    # -- internals -------------------------------------------------------------------

    def _trick_seats(self, n: int) -> tuple[int, ...]:
        return self.game.trick_seats[self.deal.sitting_out][self.leader][:n]

    def _legal_play(self) -> tuple[int, str]:
        found = self.cache
        if found is None:
            found = _play_mask(self)
            _S_CACHE(self, found)
        return found  # type: ignore[no-any-return]

    def _legal_list(self) -> tuple[Action, ...]:
        """The legal actions outside the play phase (computed once per state)."""
        found = self.cache
        if found is None:
            code = self.core[0]
            if code == TRUMP:
                found = self.game.trump_actions  # the same every time
            elif code == BIDDING:
                found = tuple(_legal_bidding(self))
            else:
                action = self.game.action
                found = tuple(action(t) for t in _LEGAL[code](self))
            _S_CACHE(self, found)
        return found  # type: ignore[no-any-return]

    def _legal_texts(self) -> list[str]:
        return [str(a) for a in self._legal_list()]

    def _check(self, action: Action) -> None:
        code = self.core[0]
        if code == OVER:
            raise IllegalActionError(f"{action}: the match is over.")
        if code == PLAY:
            if action.verb != "play":
                raise IllegalActionError(f"{action}: seat {self.core[1]} must play a card now.")
            self._play_card(action)
            return
        legal = self._legal_list()
        for a in legal:
            if a is action:  # the engine's own actions are shared objects: no __eq__ needed
                return
        if action not in legal:
            raise IllegalActionError(self._why(action, self._legal_texts()))

    def _why(self, action: Action, texts: list[str]) -> str:
        seat = self.to_move_seat
        what = f"{action}: not legal for seat {seat} in the {self.phase} phase"
        d = self.deal
        if action.verb == "bid" and self.phase_code == BIDDING:
            names = [c.name for c in self.game.rules.contracts]
            if action.arg not in names:
                return f"{what}: there is no contract {action.arg!r} (contracts: {', '.join(names)})."
            c = self.game.rules.contracts[names.index(action.arg)]
            if c.index <= self.tally.auction[0]:
                return f"{what}: a bid must be higher than {names[self.tally.auction[0]]}."
            if c.requires_mask & ~d.dealt[seat]:
                need = self.game.cards.format(bits(c.requires_mask))
                return f"{what}: {c.name} needs {need} in the bidder's hand."
            return f"{what}: {c.name} is not allowed now (its eligibility rule forbids it)."
        if action.verb == "call" and self.phase_code == CALL:
            return f"{what}: the cards that may be called are {', '.join(t[5:] for t in texts)}."
        return f"{what} (legal: {', '.join(texts)})."

    def _play_card(self, action: Action) -> int:
        """Check a play; return the card and raise the rule that forbids it if illegal."""
        g = self.game
        seat = self.core[1]
        card = g.card_of.get(action.arg)
        if card is None:
            raise IllegalActionError(f"{action}: {action.arg!r} is not a card of this deck.")
        if not (self.core[2][seat] >> card) & 1:
            raise IllegalActionError(f"{action}: seat {seat} does not hold {action.arg}.")
        found = self.cache
        mask, reason = found if found is not None else self._legal_play()
        if not (mask >> card) & 1 and not g.revoke_penalised:
            raise IllegalActionError(f"{action}: {REASONS[reason]}: seat {seat} holds {g.cards.format(bits(mask))}.")
        return card


# -- construction helpers --------------------------------------------------------------

_COPIERS: dict[type, tuple[dict[str, int], Any, Any]] = {}


def evolve(obj: Any, **changes: Any) -> Any:
    """A copy of one of the engine's attrs values with some fields changed.

    Like :func:`attrs.evolve`, but reads every field with one C-level
    ``attrgetter`` call: the engine copies its deal records on every step
    between the auction and the first lead.
    """
    cls = obj.__class__
    found = _COPIERS.get(cls)
    if found is None:
        names = [a.name for a in attrs_fields(cls)]
        found = _COPIERS[cls] = ({n: i for i, n in enumerate(names)}, attrgetter(*names), maker(cls))
    index, get, make = found
    values = list(get(obj))
    for name, value in changes.items():
        values[index[name]] = value
    return make(*values)


def _play_mask(state: State) -> tuple[int, str]:
    """The cards the seat to move may play to the trick on the table, and why it is narrowed.

    ``State.legal_actions`` inlines the same call for speed.
    """
    _, seat, hands, trick, leader, d, _, _ = state.core
    if not trick and not state.game.lead_rules:
        return hands[seat], ""
    return legal_play_mask(state.game, hands[seat], trick, leader, seat, d)


# The lazily computed cache and a rewritten history are set through the slot descriptors.
_S_HIST, _S_CACHE = (State.__dict__[name].__set__ for name in ("history", "cache"))
# New states are built as this twin and then made States (see trickrules.engine.fastinit).
_twin = twin_of(State)
if _twin is None:  # pragma: no cover - CPython allows it for these slotted classes
    raise RuntimeError("this Python does not allow switching a slotted object's class")
_StateTwin: Any = _twin


def _make(
    game: Game,
    phase: int,
    to_move: int,
    hands: tuple[int, ...],
    trick: tuple[int, ...],
    leader: int,
    deal: DealInfo,
    tally: Tally,
    match: MatchInfo,
    history: Any,
    last: tuple[tuple[object, Event], ...],
) -> State:
    """Build a state without attrs' ``__init__`` (this is on the hot path).

    ``last`` are the events of this step; they extend the history. A state
    made with no events is an intermediate value the engine builds on and
    never returns.
    """
    s = _StateTwin()
    s.game = game
    s.core = (phase, to_move, hands, trick, leader, deal, tally, match)
    s.history = (history, last) if last else history
    s.cache = None
    s.is_terminal = phase == OVER
    s.__class__ = State
    return s  # type: ignore[no-any-return]


# -- dealing ---------------------------------------------------------------------------


def new_match(
    game: Game,
    seed: int = 0,
    dealer: int = 0,
    hands: Sequence[Sequence[str]] | None = None,
    turned: str | None = None,
    scores: Sequence[int] | None = None,
    pot: int = 0,
) -> State:
    """Start a match of ``game`` (see :meth:`Game.new_match`)."""
    rules = game.rules
    if type(seed) is not int or not 0 <= seed <= 2**53:
        # 2**53: the largest integer every JSON reader keeps exactly (logs record the seed).
        raise ValueError(f"seed must be an integer from 0 to 2**53, found {seed!r}")
    if type(dealer) is not int or not 0 <= dealer < rules.players:
        raise ValueError(f"dealer must be a seat from 0 to {rules.players - 1}, found {dealer!r}")
    stacked: tuple[tuple[str, ...], ...] = ()
    stacked_turned = ""
    if hands is not None:
        stacked = tuple(tuple(h) for h in hands)
        _, t, _ = _stacked_masks(game, stacked, dealer, turned)
        stacked_turned = game.cards.codes[t] if t >= 0 else ""
    elif turned is not None:
        raise ValueError("a turned card can only be given with stacked hands")
    totals = tuple(scores) if scores is not None else (0,) * rules.players
    if len(totals) != rules.players or any(type(x) is not int or abs(x) > 2**53 for x in totals):
        raise ValueError(f"scores must give an integer per seat ({rules.players}), found {scores!r}")
    if type(pot) is not int or not 0 <= pot <= 2**53 or (pot and rules.unit != "chips"):
        raise ValueError(f"pot must be a non-negative integer (and 0 in a game without a pot), found {pot!r}")
    match = MatchInfo(
        seed=seed,
        scores=totals,
        pot=pot,
        stacked=stacked,
        first_dealer=dealer,
        stacked_turned=stacked_turned,
        start_scores=totals if scores is not None else (),
        start_pot=pot,
    )
    start = _make(
        game,
        BIDDING,
        dealer,
        (0,) * rules.players,
        (),
        dealer,
        DealInfo(0, -1, dealer, (0,) * rules.players),
        Tally((0,) * rules.players),
        match,
        None,
        (),
    )
    return _start_deal(start, 0, 0, dealer, match, [], stacked=stacked, turned=turned)


def _stacked_masks(
    game: Game, hands: tuple[tuple[str, ...], ...], dealer: int, turned: str | None
) -> tuple[tuple[int, ...], int, str]:
    """Read stacked hands; return masks, the turned card, and a misdeal reason ("" if none)."""
    cards = game.cards
    n = game.rules.players
    if len(hands) != n:
        raise ValueError(f"hands must give one list of cards per seat ({n}), found {len(hands)}")
    seen: dict[str, int] = {}
    masks = []
    for seat, hand in enumerate(hands):
        mask = 0
        for code in hand:
            if code not in cards.codes:
                raise ValueError(f"hands[{seat}]: {code!r} is not a card of this deck")
            if code in seen:
                raise ValueError(f"hands[{seat}]: {code} is also in hands[{seen[code]}]")
            seen[code] = seat
            mask |= 1 << cards.codes.index(code)
        masks.append(mask)
    if len(seen) != cards.size:
        missing = [c for c in cards.codes if c not in seen]
        raise ValueError(f"hands must hold the whole deck; missing {', '.join(missing)}")
    reason = ""
    if any(len(h) != game.rules.hand_size for h in hands):
        reason = f"hands of {', '.join(str(len(h)) for h in hands)} cards instead of {game.rules.hand_size} each"
    t = -1
    if game.rules.turn_last_card:
        code = turned if turned is not None else (hands[dealer][-1] if hands[dealer] else "")
        if code not in seen or seen[code] != dealer:
            raise ValueError(f"the turned card {code!r} must be in the dealer's hand")
        t = cards.codes.index(code)
    return tuple(masks), t, reason


def _deal_from_seed(
    game: Game, seed: int, shuffle_no: int, dealer: int
) -> tuple[tuple[int, ...], int, tuple[tuple[str, ...], ...]]:
    """Shuffle and deal; return the hands as masks, the turned card and the hands as codes."""
    order = shuffled(seed, shuffle_no, game.cards.size)
    masks = game.deal_hands[dealer](order)  # undealt cards stay out
    codes_of = game.codes_of
    texts = tuple([codes_of(m) for m in masks])
    return masks, (order[-1] if game.rules.turn_last_card else -1), texts


def _start_deal(
    prev: State,
    number: int,
    shuffle_no: int,
    dealer: int,
    match: MatchInfo,
    events: list[tuple[object, Event]],
    stacked: tuple[tuple[str, ...], ...] = (),
    turned: str | None = None,
) -> State:
    game = prev.game
    rules = game.rules
    n = rules.players
    if stacked:
        hands, turned_card, misdeal = _stacked_masks(game, stacked, dealer, turned)
        texts = tuple(game.codes_of(h) for h in hands)
        if misdeal:
            events.append((DEALER, Misdealt(number, dealer, misdeal)))
            shuffle_no += 1
            hands, turned_card, texts = _deal_from_seed(game, match.seed, shuffle_no, dealer)
    else:
        hands, turned_card, texts = _deal_from_seed(game, match.seed, shuffle_no, dealer)
    ante = _ante_due(game, match, number)
    if ante:
        scores = list(match.scores)
        for seat in range(n):
            events.append((DEALER, paid(seat, POT, ante, "ante")))
            scores[seat] -= ante
        match = evolve(match, scores=tuple(scores), pot=match.pot + ante * n)
    events.append((DEALER, _DEALT(number, dealer, texts, game.cards.codes[turned_card] if turned_card >= 0 else "")))
    if rules.trump_chosen_by == "turned":
        trump = game.cards.suit_of[turned_card]
    elif rules.trump_chosen_by == "none":
        trump = NO_TRUMP
    else:
        trump = UNSET
    deal = _DEAL(number, shuffle_no, dealer, hands, turned_card, trump, *_DEAL_DEFAULTS)
    tally = _TALLY((0,) * n, *_TALLY_DEFAULTS)
    eldest = (dealer + 1) % n
    if rules.contracts:
        state = _make(game, BIDDING, eldest, hands, (), eldest, deal, tally, match, prev.history, tuple(events))
        return state
    if rules.trump_chosen_by == "dealer":
        return _make(game, TRUMP, dealer, hands, (), eldest, deal, tally, match, prev.history, tuple(events))
    return _make(game, PLAY, eldest, hands, (), eldest, deal, tally, match, prev.history, tuple(events))


def _ante_due(game: Game, match: MatchInfo, number: int) -> int:
    rules = game.rules
    when = rules.ante_when
    if when == "never" or (when == "first_deal" and number != 0) or (when == "empty_pot" and match.pot):
        return 0
    from trickrules.engine.scoring import deal_constants

    value = rules.ante.evaluate(deal_constants(game, match, number) if rules.ante.variables else {})
    from trickrules.spec.formula import to_int

    return to_int(value, rules.rounding, where="scoring.ante")


# -- the auction -----------------------------------------------------------------------


def _legal_bidding(state: State) -> list[Action]:
    game = state.game
    _, seat, _, _, _, d, tally, _ = state.core
    out = [game.pass_action]
    dealt = d.dealt[seat]
    for c in game.rules.contracts[tally.auction[0] + 1 :]:  # only higher bids
        if c.requires_mask & ~dealt:
            continue
        if c.eligible is not None:
            from trickrules.engine.scoring import eligibility_env

            if not c.eligible.evaluate(eligibility_env(state, seat, c)):
                continue
        out.append(game.bid_actions[c.index])
    return out


def _step_bidding(state: State, action: Action) -> State:
    game = state.game
    rules = game.rules
    _, seat, hands, _, leader, d, old_tally, match = state.core
    n = game.players
    auction = rules.auction
    high, high_seat, passed, spoken = old_tally.auction
    if action.verb == "pass":
        said = game.pass_events[seat]
        passed |= 1 << seat
    else:
        high, high_seat = game.contract_index[action.arg], seat
        said = game.bid_events[seat][high]
        if auction == "until_consecutive_passes":
            passed = 0  # the passes that end the auction are those after the last bid
    spoken += 1
    tally = _TALLY(old_tally.won, (), (), (), (), 0, (high, high_seat, passed, spoken), ())
    if auction == "once_around":
        over = spoken >= n
    elif auction == "until_consecutive_passes":
        over = passed.bit_count() >= (n - 1 if high >= 0 else n)
    else:
        active = ((1 << n) - 1) & ~passed  # the seats still in, as a mask
        over = not active or (high_seat >= 0 and active == 1 << high_seat)
    if not over:
        nxt = game.next_seat[-1][seat]
        if auction == "until_passes":
            while (passed >> nxt) & 1:
                nxt = game.next_seat[-1][nxt]
        return _make(game, BIDDING, nxt, hands, (), leader, d, tally, match, state.history, said)
    events: list[tuple[object, Event]] = list(said)
    if high >= 0:
        return _contract_won(state, d, high_seat, high, False, events)
    # Everyone passed.
    if rules.all_pass == "forced":
        holder = next(s for s in range(n) if (d.dealt[s] >> rules.all_pass_holder) & 1)
        return _contract_won(state, d, holder, rules.all_pass_contract, True, events)
    if rules.all_pass == "play":
        return _start_play_phase(state, d, events)
    events.append((DEALER, Redeal(d.number, d.dealer)))
    if rules.all_pass_redeal_next:
        from trickrules.engine.scoring import pass_out

        return pass_out(state, d, events)
    base = _next_phase(state, BIDDING, seat, d, ())
    return _start_deal(base, d.number, d.shuffle + 1, d.dealer, state.match, events)


def _contract_won(
    state: State, d: DealInfo, declarer: int, contract: int, forced: bool, events: list[tuple[object, Event]]
) -> State:
    game = state.game
    c = game.rules.contracts[contract]
    events.append((DEALER, shared(AuctionWon, declarer, c.name, forced)))
    sitting_out = -1
    if c.side == "partner_sits_out":
        team = game.rules.teams[game.team_of[declarer]]
        sitting_out = next(s for s in team if s != declarer)
    d = evolve(d, contract=contract, declarer=declarer, forced=forced, sitting_out=sitting_out)
    return _next_setup(state, d, events)


def _trump_chooser(state: State, d: DealInfo) -> int:
    game = state.game
    by = game.rules.contracts[d.contract].trump_by if d.contract >= 0 else game.rules.trump_chosen_by
    if by == "dealer":
        return d.dealer
    if by == "called_holder":
        return d.partner
    return d.declarer


def _next_setup(state: State, d: DealInfo, events: list[tuple[object, Event]]) -> State:
    """Go to the next step between the auction and the first lead."""
    game = state.game
    rules = game.rules
    c = rules.contracts[d.contract]
    trump_first = c.trump_by != "called_holder"
    if d.trump == UNSET and c.trump_by == "none":
        d = evolve(d, trump=NO_TRUMP)
    if trump_first and d.trump == UNSET:
        return _next_phase(state, TRUMP, _trump_chooser(state, d), d, tuple(events))
    if c.call and d.called < 0:
        return _next_phase(state, CALL, d.declarer, d, tuple(events))
    if d.trump == UNSET:
        return _next_phase(state, TRUMP, _trump_chooser(state, d), d, tuple(events))
    if c.exchange and d.partner != d.declarer and len(d.returned) < c.exchange:
        mover = d.declarer if len(d.given) < c.exchange else d.partner
        return _next_phase(state, EXCHANGE, mover, d, tuple(events))
    if not d.announce_done and game.announce_offers[d.contract][d.forced]:
        return _next_phase(state, ANNOUNCE, d.declarer, d, tuple(events))
    return _start_play_phase(state, d, events)


def _start_play_phase(state: State, d: DealInfo, events: list[tuple[object, Event]]) -> State:
    game = state.game
    if d.trump == UNSET:
        return _next_phase(state, TRUMP, _trump_chooser(state, d), d, tuple(events))
    eldest = (d.dealer + 1) % game.rules.players
    if eldest == d.sitting_out:
        by_declarer = d.contract >= 0 and game.rules.contracts[d.contract].first_lead == "declarer"
        eldest = d.declarer if by_declarer else (eldest + 1) % game.rules.players
    core = state.core
    return _make(game, PLAY, eldest, core[2], (), eldest, d, core[6], core[7], state.history, tuple(events))


# -- trumps, calling, exchange, announcements --------------------------------------------


def _step_trump(state: State, action: Action) -> State:
    game = state.game
    trump = NO_TRUMP if action.arg == "none" else game.cards.suit_codes.index(action.arg)
    seat = state.core[1]
    d = evolve(state.core[5], trump=trump)
    events: list[tuple[object, Event]] = [(seat, shared(TrumpNamed, seat, action.arg))]
    if d.contract >= 0:
        return _next_setup(state, d, events)
    return _start_play_phase(state, d, events)


def _callable(state: State) -> list[int]:
    game = state.game
    rules = game.rules
    d = state.deal
    cards = game.cards
    hand = state.hands[d.declarer]
    trump_mask = game.trump_masks[d.trump] if d.trump != UNSET else 0
    # Before trumps are named, only the cards promoted whatever the trump suit are sure trumps.
    always = game.always_trumps

    def pick(ranks: tuple[int, ...], own: bool, allow_trump: bool) -> tuple[list[int], bool]:
        found = []
        all_held = True
        for c in range(cards.size):
            if cards.rank_of[c] not in ranks:
                continue
            if not allow_trump and ((trump_mask >> c) & 1 or (d.trump == UNSET and (always >> c) & 1)):
                continue
            held = bool((hand >> c) & 1)
            all_held = all_held and held
            if held and not own:
                continue
            found.append(c)
        return found, all_held

    primary, all_held = pick(rules.call_ranks, rules.call_allow_own, rules.call_allow_trump)
    if all_held and rules.call_fallback_ranks:
        extra, _ = pick(rules.call_fallback_ranks, rules.call_allow_own_fallback, rules.call_allow_trump_fallback)
        if rules.call_fallback_replaces:
            primary = extra
        else:
            primary.extend(c for c in extra if c not in primary)
    if not primary:
        # Holding every card that may be called, the declarer calls one of his
        # own and so plays alone (docs/decisions.md): a call is never impossible.
        primary = [
            c
            for c in range(cards.size)
            if (hand >> c) & 1
            and cards.rank_of[c] in (*rules.call_ranks, *rules.call_fallback_ranks)
            and not (trump_mask >> c) & 1
        ]
    return primary


def _legal_call(state: State) -> list[str]:
    codes = state.game.cards.codes
    return [f"call {codes[c]}" for c in _callable(state)]


def _step_call(state: State, action: Action) -> State:
    game = state.game
    card = game.cards.codes.index(action.arg)
    partner = next(s for s in range(game.rules.players) if (state.hands[s] >> card) & 1)
    public = game.rules.call_public or game.rules.contracts[state.deal.contract].public_call
    d = evolve(state.deal, called=card, partner=partner, revealed=public)
    events: list[tuple[object, Event]] = [(d.declarer, shared(CardCalled, d.declarer, action.arg))]
    if public:
        events.append((DEALER, PartnerRevealed(partner, action.arg)))
    return _next_setup(state, d, events)


def _legal_exchange(state: State) -> list[str]:
    d = state.deal
    seat = state.to_move_seat
    hand = state.hands[seat]
    codes = state.game.cards.codes
    returns = state.game.rules.contracts[d.contract].exchange_returns
    if returns == "called_card" and seat == d.partner and seat != d.declarer and (hand >> d.called) & 1:
        return [f"give {codes[d.called]}"]
    return [f"give {codes[c]}" for c in bits(hand)] if seat in (d.declarer, d.partner) else []


def _step_exchange(state: State, action: Action) -> State:
    game = state.game
    d = state.deal
    seat = state.to_move_seat
    card = game.cards.codes.index(action.arg)
    c = game.rules.contracts[d.contract]
    hands = list(state.hands)
    hands[seat] &= ~(1 << card)
    other = d.partner if seat == d.declarer else d.declarer
    events: list[tuple[object, Event]] = [(seat, CardGiven(seat, other, action.arg))]
    if seat == d.declarer:
        d = evolve(d, given=(*d.given, card))
    else:
        d = evolve(d, returned=(*d.returned, card))
    if len(d.returned) == c.exchange:
        for g_card in d.given:
            hands[d.partner] |= 1 << g_card
        for r_card in d.returned:
            hands[d.declarer] |= 1 << r_card
        events.append((DEALER, ExchangeDone((d.declarer, d.partner), c.exchange)))
    moved = _make(game, EXCHANGE, seat, tuple(hands), (), state.leader, d, state.tally, state.match, state.history, ())
    return _next_setup(moved, d, events)


def _legal_announce(state: State) -> list[str]:
    d = state.deal
    if d.late:
        if _late_answer(state.game, d) == "lead":
            # Leading is the answer: pass, or lead any card the lead rules allow.
            mask = _play_mask(state)[0]
            return ["pass"] + [f"play {c}" for c in state.game.codes_of(mask)]
        return ["pass", f"announce {d.late}"]
    return ["pass"] + [f"announce {a}" for a in _announce_left(state.game, d)]


def _announce_left(game: Game, d: DealInfo) -> list[str]:
    """The announcements still open to the declarer before the first lead."""
    return [a for a in game.announce_offers[d.contract][d.forced] if a not in d.announced]


def _ends_early(game: Game, d: DealInfo, tally: Tally) -> bool:
    """Whether the contract's ``end_when`` stops the play after this trick."""
    if d.contract < 0:
        return False
    end_when = game.rules.contracts[d.contract].end_when
    if end_when is None:
        return False
    from trickrules.engine.scoring import sides_of_deal

    side = sides_of_deal(game, d)[0]
    tricks = sum(1 for w in tally.winners if w in side)
    env = {
        "tricks": tricks,
        "opp_tricks": len(tally.winners) - tricks,
        "tricks_played": len(tally.winners),
        "tricks_total": game.rules.tricks_per_deal,
    }
    return bool(end_when.evaluate(env))


def _late_window(game: Game, d: DealInfo, tally: Tally) -> str:
    """The late announcement the declarer's side is offered after this trick, or ``""``."""
    if d.contract < 0:
        return ""
    name = game.rules.contracts[d.contract].name
    won = len(tally.winners)
    side = {d.declarer, d.partner} if game.rules.contracts[d.contract].side == "with_called" else {d.declarer}
    for late, contracts, run, _, _, _ in game.rules.late_announcements:
        offered = run == won and name in contracts and late not in d.announced and late not in d.declined
        if offered and all(w in side for w in tally.winners):
            return late
    return ""


def _late_entry(game: Game, d: DealInfo) -> tuple[str, frozenset[str], int, str, str, str]:
    """The late announcement being decided: (name, contracts, run, by, alone, refused)."""
    name = game.rules.contracts[d.contract].name
    return next(e for e in game.rules.late_announcements if e[0] == d.late and name in e[1])


def _late_answer(game: Game, d: DealInfo) -> str:
    """How the declarer answers the late announcement: announce, lead or automatic."""
    alone = d.partner < 0 or d.partner == d.declarer
    return _late_entry(game, d)[4] if alone else "announce"


def _open_late_window(state: State, late: str, events: tuple[tuple[object, Event], ...]) -> State:
    """After the trick that completed the run: ask, or make an automatic announcement."""
    game = state.game
    d = evolve(state.deal, late=late)
    answer = _late_answer(game, d)
    if answer == "automatic":
        d = evolve(d, late="", announced=(*d.announced, late))
        events = (*events, (d.declarer, shared(Announced, d.declarer, late)))
        return _next_phase(state, PLAY, state.leader, d, events)
    asked = state.leader if answer == "lead" else d.declarer
    return _next_phase(state, ANNOUNCE, asked, d, events)


def _step_late(state: State, action: Action) -> State:
    game = state.game
    d = state.deal
    seat = state.to_move_seat
    _, _, _, by, _, refused = _late_entry(game, d)
    answer = _late_answer(game, d)
    real_partner = d.partner >= 0 and d.partner != d.declarer
    if action.verb == "pass":
        events: list[tuple[object, Event]] = [(seat, shared(Passed, seat))]
        d = evolve(d, late="", consent=False, declined=(*d.declined, d.late))
        if refused == "ends_deal":
            # The deal ends here and is scored on the tricks taken so far.
            from trickrules.engine.scoring import finish_deal

            return finish_deal(state, state.hands, d, state.tally, events)
    elif answer == "lead":
        # Leading commits: the announcement is recorded, then the card is played.
        announced = (seat, shared(Announced, seat, d.late))
        d = evolve(d, announced=(*d.announced, d.late), late="")
        lead = _make(game, PLAY, seat, state.hands, (), seat, d, state.tally, state.match, state.history, ())
        after = lead.apply(action)
        node = after.history
        if node is not None and node[0] is state.history:
            _S_HIST(after, (state.history, (announced, *node[1])))
        return after
    elif by == "declarer_side" and real_partner and seat == d.declarer:
        # The declarer says yes; the partner is asked next (which makes the partnership known).
        events = [(seat, shared(Announced, seat, d.late))]
        if not d.revealed:
            events.append((DEALER, PartnerRevealed(d.partner, game.cards.codes[d.called])))
        d = evolve(d, consent=True, revealed=True)
        return _next_phase(state, ANNOUNCE, d.partner, d, tuple(events))
    else:
        events = [(seat, shared(Announced, seat, d.late))]
        d = evolve(d, announced=(*d.announced, d.late), late="", consent=False)
    return _next_phase(state, PLAY, state.leader, d, tuple(events))


def _step_announce(state: State, action: Action) -> State:
    d = state.core[5]
    if d.late:
        return _step_late(state, action)
    seat = state.core[1]
    if action.verb == "pass":
        events: list[tuple[object, Event]] = [(seat, shared(Passed, seat))]
        d = evolve(d, announce_done=True)
    else:
        events = [(seat, shared(Announced, seat, action.arg))]
        d = evolve(d, announced=(*d.announced, action.arg))
        if not _announce_left(state.game, d):
            d = evolve(d, announce_done=True)
    return _next_setup(state, d, events)


def _next_phase(
    state: State,
    phase: int,
    to_move: int,
    d: DealInfo,
    events: tuple[tuple[object, Event], ...],
    tally: Tally | None = None,
) -> State:
    """The state after a step that moves to ``phase`` between tricks (same hands, no trick on the table)."""
    core = state.core  # not the properties: each costs a call
    return _make(
        state.game,
        phase,
        to_move,
        core[2],
        (),
        core[4],
        d,
        core[6] if tally is None else tally,
        core[7],
        state.history,
        events,
    )


def evolve_deal(state: State, d: DealInfo) -> State:
    """A copy of ``state`` with another :class:`DealInfo` (no events)."""
    return _make(
        state.game,
        state.phase_code,
        state.to_move_seat,
        state.hands,
        state.trick,
        state.leader,
        d,
        state.tally,
        state.match,
        state.history,
        (),
    )


# -- play ------------------------------------------------------------------------------


def _after_play(state: State, card: int, action: Action) -> State:
    game = state.game
    _, seat, hands, trick, leader, d, tally, match = state.core
    hands = game.toggle[seat](hands, game.bit[card])  # _play_card has checked that the seat holds it
    trick = trick + (card,)  # noqa: RUF005 - fastest form
    revoke = ""
    if game.revoke_penalised:
        mask, reason = state._legal_play()
        if not (mask >> card) & 1:
            revoke = reason
            tally = evolve(tally, revokes=(*tally.revokes, (seat, reason)))
    # Events are values: the common (seat, CardPlayed) entries are built once per game and shared.
    if revoke:
        events: tuple[tuple[object, Event], ...] = ((seat, CardPlayed(seat, action.arg, revoke)),)
    else:
        events = game.play_events[seat][card]  # a shared ((seat, CardPlayed),) per seat and card
    if card == d.called and not d.revealed:
        # The partner is whoever held the called card when it was called, even if
        # an exchange has moved the card since.
        d = evolve(d, revealed=True)
        events = (*events, (DEALER, PartnerRevealed(d.partner, action.arg)))
    if len(trick) <= game.trick_last[d.sitting_out]:
        nxt = game.next_seat[d.sitting_out][seat]
        return _make(game, PLAY, nxt, hands, trick, leader, d, tally, match, state.history, events)
    trump = d.trump
    if game.play_rules.any_suit_wins:
        # Any row gives the cards taken and their codes; the winner follows the any-suit rule.
        _, taken, texts = game.trick_end[len(trick)](trick, game.led_power[trump][0])
        index = winner_index(game, trick, trump)
    else:
        value = game.led_power[trump][game.trump_data[trump][0][trick[0]]]
        index, taken, texts = game.trick_end[len(trick)](trick, value)
    winner = game.trick_seats[d.sitting_out][leader][index]
    won = game.toggle[winner](tally.won, taken)  # the cards of a trick were won by nobody before
    winners = (*tally.winners, winner)
    tally = _TALLY(won, winners, tally.declared, tally.revokes, (), 0, _NO_AUCTION, tally.forfeited)
    events = (*events, (DEALER, _TRICK_WON(winner, len(winners), texts)))
    if len(winners) == game.rules.tricks_per_deal or (game.ends_early and _ends_early(game, d, tally)):
        from trickrules.engine.scoring import finish_deal

        return finish_deal(state, hands, d, tally, list(events))
    if game.between_tricks:
        if len(winners) in game.late_runs:
            late = _late_window(game, d, tally)
            if late:
                after = _make(game, PLAY, winner, hands, (), winner, d, tally, match, state.history, ())
                return _open_late_window(after, late, events)
        if game.rules.declarations:
            window = _declaration_window(game, d, tally, hands, winner)
            if window:
                tally = evolve(tally, window=window, window_count=0)
                return _make(game, DECLARE, window[0], hands, (), winner, d, tally, match, state.history, events)
    return _make(game, PLAY, winner, hands, (), winner, d, tally, match, state.history, events)


# -- declarations ----------------------------------------------------------------------


def _available_melds(game: Game, d: DealInfo, tally: Tally, hand: int, seat: int) -> list[tuple[int, int]]:
    """(declaration index, suit) pairs ``seat`` could declare now, best first."""
    contract = game.rules.contracts[d.contract].name if d.contract >= 0 else ""
    cards = game.cards
    done = {(k, s) for _, k, s in tally.declared}
    done_suits = {s for _, _, s in tally.declared}
    done |= {(k, s) for who, k, s in tally.forfeited if who == seat}
    out = []
    for decl in game.rules.declarations:
        if contract not in decl.contracts:
            continue
        for s in range(len(cards.suit_codes)):
            is_trump = s == d.trump
            if (decl.suit == "trump" and not is_trump) or (decl.suit == "plain" and is_trump):
                continue
            if (decl.index, s) in done or s in done_suits:
                continue
            need = 0
            for r in decl.ranks:
                code = cards.rank_codes[r] + cards.suit_codes[s]
                if code not in cards.codes:
                    need = -1
                    break
                need |= 1 << cards.codes.index(code)
            if need > 0 and hand & need == need:
                out.append((decl.index, s))
    return out


def _window_limit(game: Game, tally: Tally, winner: int) -> int:
    """How many declarations this window allows: the first window of the winner's side may differ."""
    side = game.team_of[winner]
    first = sum(1 for w in tally.winners if game.team_of[w] == side) == 1
    return max(
        (decl.max_first_window or decl.max_per_window) if first else decl.max_per_window
        for decl in game.rules.declarations
    )


def _meld_possible(game: Game, d: DealInfo, tally: Tally, hands: tuple[int, ...], seat: int) -> bool:
    """Whether ``seat`` might hold a meld it may still declare.

    This is judged on public information only (cards played, melds
    declared, hand sizes), so that the window itself tells nobody whether
    the seat holds one.
    """
    contract = game.rules.contracts[d.contract].name if d.contract >= 0 else ""
    cards = game.cards
    played = 0
    for mask in tally.won:
        played |= mask
    done = {s for _, _, s in tally.declared}
    size = hands[seat].bit_count()
    for decl in game.rules.declarations:
        if contract not in decl.contracts or size < len(decl.ranks):
            continue
        for s in range(len(cards.suit_codes)):
            is_trump = s == d.trump
            if (decl.suit == "trump" and not is_trump) or (decl.suit == "plain" and is_trump) or s in done:
                continue
            codes = [cards.rank_codes[r] + cards.suit_codes[s] for r in decl.ranks]
            if all(c in game.card_of and not (played >> game.card_of[c]) & 1 for c in codes):
                return True
    return False


def _declaration_window(game: Game, d: DealInfo, tally: Tally, hands: tuple[int, ...], winner: int) -> tuple[int, ...]:
    seats = [winner]
    if game.rules.teams and any(x.window_seats == "side" for x in game.rules.declarations):
        seats += [s for s in game.rules.teams[game.team_of[winner]] if s != winner]
    return tuple(s for s in seats if s != d.sitting_out and _meld_possible(game, d, tally, hands, s))


def _legal_declare(state: State) -> list[str]:
    game = state.game
    seat = state.to_move_seat
    melds = _available_melds(game, state.deal, state.tally, state.hands[seat], seat)
    if not melds:
        return ["pass"]
    best = melds[0][0]
    out = ["pass"]
    for k, s in melds:
        if k != best:
            continue
        decl = game.rules.declarations[k]
        out.append(
            f"declare {decl.name}" if decl.suit == "trump" else f"declare {decl.name} {game.cards.suit_codes[s]}"
        )
    return out


def _step_declare(state: State, action: Action) -> State:
    game = state.game
    seat = state.to_move_seat
    tally = state.tally
    events: list[tuple[object, Event]] = []
    window = tally.window
    if action.verb == "pass":
        events.append((seat, shared(Passed, seat)))
        window = window[1:]
        lost = [
            (seat, k, s)
            for k, s in _available_melds(game, state.deal, tally, state.hands[seat], seat)
            if game.rules.declarations[k].late == "forfeit"
        ]
        if lost:
            # Passed over where it could have been declared: gone for the rest of the deal.
            tally = evolve(tally, forfeited=(*tally.forfeited, *lost))
    else:
        words = action.arg.split()
        k = next(x.index for x in game.rules.declarations if x.name == words[0])
        decl = game.rules.declarations[k]
        s = state.deal.trump if decl.suit == "trump" else game.cards.suit_codes.index(words[1])
        events.append((seat, Declared(seat, decl.name, game.cards.suit_codes[s], decl.points)))
        tally = evolve(tally, declared=(*tally.declared, (seat, k, s)), window_count=tally.window_count + 1)
        if tally.window_count >= _window_limit(game, tally, state.leader):
            window = ()
    window = tuple(s for s in window if _meld_possible(game, state.deal, tally, state.hands, s))
    tally = evolve(tally, window=window)
    if window:
        return _next_phase(state, DECLARE, window[0], state.deal, tuple(events), tally)
    return _next_phase(state, PLAY, state.leader, state.deal, tuple(events), tally)


_LEGAL: dict[int, Any] = {
    CALL: _legal_call,
    EXCHANGE: _legal_exchange,
    ANNOUNCE: _legal_announce,
    DECLARE: _legal_declare,
    OVER: lambda s: [],
}
_STEPS: dict[int, Any] = {
    BIDDING: _step_bidding,
    TRUMP: _step_trump,
    CALL: _step_call,
    EXCHANGE: _step_exchange,
    ANNOUNCE: _step_announce,
    DECLARE: _step_declare,
}
