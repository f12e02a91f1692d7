"""The engine's immutable state.

A :class:`State` is a frozen value. ``state.apply(action)`` returns a new
state and leaves the old one as it was, so undo is keeping the old state and
a bot can branch freely. ``state.last_events`` are the events of the step
that made the state.

The state itself only dispatches: the phase it is in names a mechanism
(:mod:`trickrules.engine.mechanism`) that says which actions are legal and what
applying one gives. It knows no mechanism by name.

A state can be at a **chance step** (:attr:`State.is_chance`): nobody is to
move, and the next step is one of :meth:`State.chance_outcomes`, applied
with :meth:`State.apply` like an action. Only a match started with
``chance="caller"`` rests at one; otherwise the seed resolves them inside
the engine. The mechanism of the state's phase lists the outcomes (its
``chance`` hook).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, Protocol

from attrs import field, frozen
from attrs import fields as attrs_fields

from trickrules.compile.cards import CardTable
from trickrules.compile.rules import Rules
from trickrules.compile.tables import Tables
from trickrules.engine.actions import Action
from trickrules.engine.events import Event
from trickrules.engine.shared import SharedValues
from trickrules.engine.values import Actor, DealInfo, MatchInfo, Phase, Step, Tally
from trickrules.errors import ArgumentError, IllegalActionError, SpecError
from trickrules.spec.model import Spec

if TYPE_CHECKING:
    from trickrules import svg

__all__ = ["GameLike", "State", "dead_end", "history_entries"]


class GameLike(Protocol):
    """What a state and the phase mechanisms know of the game they are of.

    :class:`trickrules.Game` is the one implementation; this protocol lets
    the engine's modules name its type without importing the module that
    compiles it (which imports them).
    """

    spec: Spec
    name: str
    source: str
    fingerprint: str
    options: Mapping[str, str]

    # -- the engine's internal interface to the compiled game (read by mechanisms, built-in or
    # registered, and by the engine's modules; typed here so that mypy checks every read) --------

    #: The compiled lookup tables (cards, rules, play order, trump data).
    tables: Tables
    #: The actions and common events the game builds once and every state shares.
    shared: SharedValues
    #: The game's ScoringPlan (trickrules.engine.scoring, which knows states).
    scoring: Any
    #: Per phase: the legal actions of a state, and applying an action (one lookup per step).
    legal_by_phase: Mapping[str, Callable[[State], tuple[Action, ...]]]
    apply_by_phase: Mapping[str, Callable[[State, Any], State]]
    #: Each a trickrules.engine.mechanism.Mechanism (which knows states): by phase, in the order
    #: of a deal's parts, and in the order the generic loop asks them.
    mechanisms: Mapping[str, Any]
    part_mechanisms: tuple[Any, ...]
    sequence: tuple[Any, ...]
    #: Each mechanism's position in a deal's ``parts``, by phase.
    slot: Mapping[str, int]
    #: What each reason code of a narrowed play says in a refusal.
    reasons: Mapping[str, str]
    #: The mechanisms' hooks (see trickrules.engine.mechanism.Mechanism), in sequence order.
    after_trick_hooks: tuple[Callable[..., State | None], ...]
    on_card_hooks: tuple[Callable[..., tuple[DealInfo, Tally, tuple[tuple[Actor, Event], ...]]], ...]
    narrow_hooks: tuple[Callable[[State, int, int, str], tuple[int, str]], ...]
    chooser_hooks: tuple[Callable[[State], int | None], ...]
    lead_hooks: tuple[Callable[[State, DealInfo], int | None], ...]
    watch_hooks: tuple[Callable[[Any, DealInfo], int], ...]
    trick_winner_hooks: tuple[Callable[[State, DealInfo, tuple[int, ...], int], int], ...]
    on_trick_hooks: tuple[Callable[..., tuple[DealInfo, Tally, tuple[tuple[Actor, Event], ...]]], ...]
    on_play_start_hooks: tuple[Callable[..., tuple[DealInfo, Tally, tuple[tuple[Actor, Event], ...]]], ...]

    def __hash__(self) -> int:
        """Games hash by their fingerprint."""

    @property
    def title(self) -> str:
        """The game's title."""

    @property
    def players(self) -> int:
        """How many seats the table has."""

    @property
    def cards(self) -> CardTable:
        """The deck and its rank tables."""

    @property
    def rules(self) -> Rules:
        """The compiled rules."""

    def codes_of(self, mask: int) -> tuple[str, ...]:
        """The codes of the cards in a mask."""

    def action(self, text: str) -> Action:
        """The action with this text form."""

    def as_action(self, action: object) -> Action:
        """``action`` as an :class:`Action`."""

    def seat(self, seat: object, what: str = "seat") -> int:
        """``seat`` checked to be a seat of this table."""

    def new_match(
        self,
        seed: int | None = ...,
        dealer: int | Literal["first"] = ...,
        hands: Sequence[Sequence[str]] | None = ...,
        turned: str | None = ...,
        scores: Sequence[int] | None = ...,
        pot: int = ...,
        deals: Mapping[int, Any] | None = ...,
        chance: str = ...,
    ) -> State:
        """Start a match."""


def history_entries(step: Step | None) -> list[tuple[Actor, Event]]:
    """Every (actor, event) of a chain of steps, oldest first."""
    chunks = []
    while step is not None:
        chunks.append(step.events)
        step = step.before
    out: list[tuple[Actor, Event]] = []
    for chunk in reversed(chunks):
        out.extend(chunk)
    return out


@frozen(repr=False, weakref_slot=False)
class State:
    """An immutable game state. Make one with ``game.new_match()``.

    Two states are equal when they are of the same game (the same
    fingerprint) and every field below is equal; the history that led to
    them is not compared.
    """

    #: The compiled game (a :class:`trickrules.Game`).
    game: GameLike
    #: The phase: a :class:`~trickrules.engine.values.Phase`, or the name of a registered mechanism.
    phase: str
    #: The seat whose turn it is (whose card is played in the play), or ``None`` when the match is over
    #: or the state is at a chance step. :attr:`chooser` is the seat that decides.
    to_move: int | None
    #: Every seat's hand as a bit mask of cards (``game.cards.codes`` gives their codes).
    hands: tuple[int, ...]
    #: The cards of the trick in progress, in play order.
    trick: tuple[int, ...]
    #: The seat that led (or will lead) the trick in progress.
    leader: int
    deal: DealInfo
    tally: Tally
    match: MatchInfo
    #: The events so far, as a chain of steps (see :meth:`entries`).
    history: Step | None = field(eq=False, default=None)
    # The legal actions, or in the play phase (legal mask, reason), computed on first use.
    _cache: Any = field(eq=False, default=None, init=False)

    # -- reading the state ---------------------------------------------------------

    @property
    def is_terminal(self) -> bool:
        """Whether the match is over."""
        return self.phase is Phase.OVER

    @property
    def is_chance(self) -> bool:
        """Whether the next step is chance's (a card dealt, a hand size or a pass direction drawn), not a seat's.

        Only a match started with ``chance="caller"`` rests at such a step:
        :meth:`chance_outcomes` lists what may happen, and :meth:`apply` takes
        the one chosen. Nobody is to move (:attr:`to_move` and :attr:`chooser`
        are ``None``).
        """
        return self.to_move is None and self.phase is not Phase.OVER

    def chance_outcomes(self) -> tuple[tuple[Action, Fraction], ...]:
        """The outcomes of this chance step, each with its exact probability (they sum to 1); empty elsewhere."""
        if not self.is_chance:
            return ()
        chance = self.game.mechanisms[self.phase].chance
        outcomes: tuple[tuple[Action, Fraction], ...] = () if chance is None else chance(self)
        return outcomes

    def seeded_outcome(self) -> Action:
        """The outcome of this chance step that the match's seed picks (what ``chance="seed"`` would apply).

        :class:`~trickrules.errors.ArgumentError` if the state is not at a chance step.
        """
        seeded = self.game.mechanisms[self.phase].seeded if self.is_chance else None
        if seeded is None:
            raise ArgumentError(f"the state is not at a chance step (phase {self.phase}, seat {self.to_move} to move).")
        picked: Action = seeded(self)
        return picked

    @property
    def chooser(self) -> int | None:
        """The seat that decides the next action: :attr:`to_move`, unless a mechanism has another seat choose for it.

        (As the declarer plays the cards of an exposed partner's hand: the card
        comes from ``to_move``'s hand, and ``chooser`` picks it.)
        """
        if self.to_move is None:  # over, or chance's step
            return None
        for chooser in self.game.chooser_hooks:
            seat = chooser(self)
            if seat is not None:
                return seat
        return self.to_move

    def part(self, phase: str) -> Any:
        """The record the mechanism of ``phase`` keeps in this deal (``None`` if the game has no such mechanism).

        Each mechanism module has a typed reader of its own record; this is the generic one. While a
        deal is being dealt at chance steps, only the dealing has a record (the others start once it is dealt).
        """
        slot = self.game.slot.get(phase)
        return None if slot is None or slot >= len(self.deal.parts) else self.deal.parts[slot]

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
        return None if t is None else self.game.cards.trump_code(t)

    @property
    def contract(self) -> str | None:
        """The contract being played, or ``None``."""
        c = self.deal.contract
        return None if c is None else self.game.rules.contracts[c].name

    @property
    def declarer(self) -> int | None:
        """The declarer's seat, or ``None``."""
        return self.deal.declarer

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats once the match is over (empty before)."""
        return self.match.winners

    @property
    def last(self) -> tuple[tuple[Actor, Event], ...]:
        """The (actor, event) pairs of the step that made this state."""
        return self.history.events if self.history is not None else ()

    @property
    def last_events(self) -> tuple[Event, ...]:
        """The events produced by the step that made this state."""
        return tuple(e for _, e in self.last)

    def entries(self) -> list[tuple[Actor, Event]]:
        """Every (actor, event) of the match so far, in order."""
        return history_entries(self.history)

    def hand(self, seat: int) -> tuple[str, ...]:
        """The card codes in ``seat``'s hand, in deck order."""
        return self.game.tables.codes_of(self.hands[self.game.seat(seat, "seat")])

    def trick_cards(self) -> tuple[tuple[int, str], ...]:
        """The trick in progress as (seat, card code) pairs, in play order."""
        seats = self.game.tables.trick_seats[self.deal.seats_out][self.leader]
        codes = self.game.cards.codes
        return tuple((s, codes[c]) for s, c in zip(seats, self.trick, strict=False))

    def tricks_won(self) -> dict[int, int]:
        """Seat -> tricks won so far in this deal."""
        counts = dict.fromkeys(range(self.game.players), 0)
        for w in self.tally.winners:
            counts[w] += 1
        return counts

    def __repr__(self) -> str:
        return (
            f"<State {self.game.name} deal {self.deal.number} {self.phase} "
            f"to_move={self.to_move} trick={self.game.cards.format(self.trick)!r}>"
        )

    def picture(self) -> svg.Table:
        """The table seen from above, every hand face up, as data for :func:`trickrules.svg.table`.

        What a mechanism adds to the picture comes from its view (``view``) of
        the declarer's partner, who sees most, where a field of the view has
        the name of a field of the picture.
        """
        from trickrules import svg

        game, d = self.game, self.deal
        table: dict[str, Any] = {
            "deck": svg.Deck.of(game.cards.codes, game.spec.deck.suits),
            "hands": [self.hand(s) for s in range(game.players)],
            "trick": self.trick_cards(),
            "clockwise": game.rules.clockwise,
            "scores": self.match.scores,
            "tricks": self.tricks_won().values(),
            "dealer": d.dealer,
            "to_move": self.to_move,
            "declarer": d.declarer,
            "partner": d.partner,
            "out": [s for s in range(game.players) if (d.seats_out >> s) & 1],
            "title": game.title,
            "deal": d.number,
            "phase": self.phase,
            "contract": self.contract,
            "trump": self.trump,
            "pot": self.match.pot,
        }
        pictured = {a.name for a in attrs_fields(svg.Table)} - set(table)
        for mechanism in game.part_mechanisms[: len(d.parts)]:  # at a chance step, only the dealing has started
            if mechanism.view is not None:
                seen = mechanism.view(self, d.partner if d.partner is not None else 0)
                for a in attrs_fields(type(seen)) if seen is not None else ():
                    if a.name in pictured:
                        table[a.name] = getattr(seen, a.name)
        return svg.Table(**table)

    def _repr_svg_(self) -> str:
        """The table seen from above as SVG: how a notebook shows a state."""
        from trickrules import svg

        return svg.table(self.picture())

    def __copy__(self) -> State:
        """The state itself: it is immutable, so a copy would be the same value."""
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        """The state itself (immutable; a copy of a state would copy its whole history)."""
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # The history is a chain as long as the match: pickled flat, so that no depth limit is hit.
        fields = (self.game, self.phase, self.to_move, self.hands, self.trick, self.leader)
        return (_restore, (*fields, self.deal, self.tally, self.match, tuple(self.entries()), self.last))

    # -- acting ----------------------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions of the seat to move, in a stable order (empty when over).

        At a chance step, the chance outcomes (as OpenSpiel lists them): the
        actions of :meth:`chance_outcomes`, in the same order.
        """
        return self.game.legal_by_phase[self.phase](self) or self._none_legal()

    def _none_legal(self) -> tuple[Action, ...]:
        """No action is legal: right when the match is over; otherwise the rules are stuck (:func:`dead_end`)."""
        if self.phase is not Phase.OVER:
            raise dead_end(self)
        return ()

    def is_legal(self, action: Action | str) -> bool:
        """Whether ``action`` may be applied now."""
        try:
            self.game.mechanisms[self.phase].check(self, self.game.as_action(action))
        except IllegalActionError:
            return False
        return True

    def apply(self, action: Action | str) -> State:
        """The state after the player to move takes ``action`` (at a chance step: after that outcome).

        Raises :class:`~trickrules.errors.IllegalActionError` naming the rule
        that forbids it; the state is unchanged either way.
        """
        try:
            return self.game.apply_by_phase[self.phase](self, action)
        except IllegalActionError:
            if self.phase is not Phase.OVER and not self.game.legal_by_phase[self.phase](self):
                raise dead_end(self) from None  # nothing was legal: the rules, not the action, are at fault
            raise

    def step(self, action: Action | str) -> tuple[State, tuple[Event, ...]]:
        """Apply ``action`` and return the new state with the events it produced."""
        new = self.apply(action)
        return new, new.last_events


def dead_end(state: State) -> SpecError:
    """The error for a state that is not over in which the seat to move has no legal action.

    The loader refuses the specs where this can be decided statically
    (``docs/dsl.md``, "Rules that can get stuck"); this is the guard at run time for the rest.
    """
    seat = state.to_move
    who = "nobody" if seat is None else f"seat {seat}"
    return SpecError(
        f"{state.game.name}: {who} has no legal action in the {state.phase} phase of deal {state.deal.number}, "
        "and the match is not over: the rules leave the table stuck (the spec can reach a dead end)."
    )


#: Sets a state's cache of legal actions (the slot is written once, on first use).
set_cache: Callable[[State, Any], None] = State.__dict__["_cache"].__set__


def _restore(
    game: GameLike,
    phase: str,
    to_move: int | None,
    hands: tuple[int, ...],
    trick: tuple[int, ...],
    leader: int,
    deal: DealInfo,
    tally: Tally,
    match: MatchInfo,
    entries: tuple[tuple[Actor, Event], ...],
    last: tuple[tuple[Actor, Event], ...],
) -> State:
    """Rebuild a pickled state: the history is one step before the last one."""
    earlier = entries[: len(entries) - len(last)]
    history = Step(None, earlier) if earlier else None
    if last:
        history = Step(history, last)
    return State(game, phase, to_move, hands, trick, leader, deal, tally, match, history)
