"""The one protocol every phase mechanism answers, and the registry of mechanisms.

A mechanism (dealing, bidding, naming trumps, calling a card, an exchange,
announcements, play, declarations, ... or one written outside this package)
is one module that builds one :class:`Mechanism`. It owns:

- its **record** in each deal (a frozen value kept in
  :attr:`DealInfo.parts <trickrules.engine.values.DealInfo.parts>` at the
  mechanism's position in the game's list, made by ``start``);
- its **actions**: which are legal now (``legal``), whether one is
  (``check``), what applying one gives (``apply``: the next state, which may
  be in another phase) and the action an event of its records
  (``replays``, for replaying a log);
- **who is due**: ``due`` says whether the mechanism wants a decision at
  this point of the deal and from which seat (the generic loop,
  :func:`trickrules.engine.loop.advance`, asks the mechanisms in the game's
  sequence in turn);
- **what each seat sees**: of its events (``reveals``) and of its record
  (``view``, a value the seat's :class:`~trickrules.records.view.View` holds);
- **what it adds to the play and the scoring**: a window between tricks
  (``after_trick``), a reaction to a watched card being played
  (``on_card``; ``watch`` names the cards it watches from the first lead on),
  a reaction to the play's beginning, before the first lead (``on_play_start``),
  who leads the first trick (``leads``), a narrowing of the legal cards (``narrow``), a rule of who
  wins a trick (``trick_winner``), a reaction to a trick's end (``on_trick``), facts for the
  scoring variables (``facts``), and who chooses for the seat to move
  (``chooser``);
- **chance**: what it draws at random for a deal before the cards are dealt
  (``draw``, a :class:`Draw`, such as Hearts' pass direction), and, for the
  mechanism whose phase a chance step is in (the dealing), the outcomes of
  that step (``chance``) and the one the match's seed picks (``seeded``).

The state knows nothing else of a phase: it looks up the mechanism of its
phase in its game and asks it. :func:`register` adds a mechanism written
anywhere (outside ``src/`` too); a spec uses it by naming its section
(``[mechanisms.NAME]``). ``docs/architecture.md`` walks through an example.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from attrs import frozen

from trickrules.compile.ranges import Range
from trickrules.compile.variables import forget_fact_variables, register_fact_variables
from trickrules.engine.actions import VERBS, Action, forget_verb, register_verb
from trickrules.engine.events import Event, MechanismEvent, Passed, forget_event, register_event
from trickrules.engine.state import State, set_cache
from trickrules.engine.values import Actor, DealInfo, Phase, Tally
from trickrules.errors import ArgumentError, IllegalActionError
from trickrules.spec.sealed import Sealed

if TYPE_CHECKING:
    from trickrules.compile.tables import Tables
    from trickrules.engine.state import GameLike
    from trickrules.engine.values import MatchInfo

__all__ = [
    "OVER",
    "PASS",
    "Draw",
    "Events",
    "Mechanism",
    "Replay",
    "Reveal",
    "listed",
    "mechanism_named",
    "not_legal",
    "refusal",
    "register",
    "registered",
    "replayer",
    "revealer",
    "rule_only",
    "seat_views",
    "unregister",
]

#: How a seat sees one kind of event: (event, seat) -> the event as that seat may know it.
Reveal = Callable[[Any, int], Event]
#: How an event that records a player's decision gives back the action: (event, game) -> action.
Replay = Callable[[Any, Any], Action]
#: The events of a step so far.
Events = tuple[tuple[Actor, Event], ...]


@frozen(weakref_slot=False, eq=False)
class Draw(Sealed):
    """Something a mechanism draws at random for a deal before its cards are dealt (a chance outcome of its own).

    The dealing asks every mechanism's draw in turn, before the cards: each
    is a chance step whose outcomes are ``VERB VALUE`` actions, one per value,
    with the probability of its share of ``values`` (each entry is equally
    likely). The seed picks entry ``seeded(seed, shuffle_no, len(values))``.
    The value drawn is kept in the dealing record
    (:attr:`trickrules.engine.phases.deal.Dealing.drawn`, by verb), where the
    mechanism's ``start`` reads it.
    """

    #: The verb of the outcomes (registered in :data:`~trickrules.engine.actions.VERBS`, taking an argument).
    verb: str
    #: (game, deal number) -> the values, each entry equally likely; ``()`` where this deal draws nothing.
    values: Callable[[GameLike, int], tuple[int, ...]]
    #: (seed, shuffle number, count) -> the index of the entry the match's seed picks.
    seeded: Callable[[int, int, int], int]


@frozen(weakref_slot=False, eq=False)
class Mechanism(Sealed):
    """A phase mechanism: its actions, its record, when it is due, what each seat sees of it.

    Only ``phase``, ``legal``, ``check`` and ``apply`` are required; every
    hook left ``None`` means the mechanism does not take part in that
    question. Build one with :func:`listed` where the legal actions are a
    short list.
    """

    #: The phase a state is in while a seat acts in this mechanism (unique among a game's mechanisms).
    phase: str
    #: The legal actions of the seat to move, in a stable order.
    legal: Callable[[State], tuple[Action, ...]]
    #: Raise :class:`IllegalActionError` naming the rule, unless the action is legal.
    check: Callable[[State, Action], None]
    #: The state after the action (an :class:`Action` or its text), checked first.
    apply: Callable[[State, Any], State]
    #: For the event classes this mechanism produces that some seats may not see in full.
    reveals: Mapping[type, Reveal] = MappingProxyType({})
    #: For the event classes that record a decision taken in this mechanism: the action it was.
    replays: Mapping[type, Replay] = MappingProxyType({})
    #: (game, deal so far, match) -> the record a new deal starts with (``None``: keeps no record).
    start: Callable[[GameLike, DealInfo, MatchInfo], Any] | None = None
    #: (state, deal) -> the seat this mechanism asks now, or ``None`` when it is not due.
    due: Callable[[State, DealInfo], int | None] | None = None
    #: (state before the trick's end, hands, deal, tally, events, winner) -> the state of a window
    #: this mechanism opens after the trick, or ``None``.
    after_trick: Callable[[State, tuple[int, ...], DealInfo, Tally, Events, int], State | None] | None = None
    #: (tables) -> whether ``after_trick`` can open anything in this game (``None``: it can). A game whose
    #: mechanisms open nothing between tricks has its tricks played straight through (the bulk path relies on it).
    opens_windows: Callable[[Tables], bool] | None = None
    #: (state, deal, tally, card, events) -> the deal, tally and events after a watched card is played.
    on_card: Callable[[State, DealInfo, Tally, int, Events], tuple[DealInfo, Tally, Events]] | None = None
    #: (state, seat, legal mask, reason) -> the mask narrowed by this mechanism's duty, and its reason.
    narrow: Callable[[State, int, int, str], tuple[int, str]] | None = None
    #: (state, deal, trick, index) -> the index in ``trick`` (cards so far, in play order) of the card winning it,
    #: where ``index`` is the one the rank tables (and the hooks before) give: a rule of this mechanism's own about
    #: who wins a trick. Asked for a full trick at its end and, by ``winning_index``, for a trick being played.
    trick_winner: Callable[[State, DealInfo, tuple[int, ...], int], int] | None = None
    #: (state before the trick's end, deal, tally that counts the trick, winner, events) -> the deal, tally and
    #: events after it (cards added to what the winner took, say).
    on_trick: Callable[[State, DealInfo, Tally, int, Events], tuple[DealInfo, Tally, Events]] | None = None
    #: (state, seat) -> what ``seat`` sees of this mechanism's record (a frozen attrs value of ``view_type``).
    view: Callable[[State, int], Any] | None = None
    #: The class of the values ``view`` gives (a view read from JSON is structured into it).
    view_type: type | None = None
    #: (game, deal) -> this mechanism's facts for the scoring variables (a name -> value mapping).
    facts: Callable[[GameLike, DealInfo], Mapping[str, Any]] | None = None
    #: (state) -> the seat that decides for the seat to move, where it is another one; else ``None``.
    chooser: Callable[[State], int | None] | None = None
    #: Messages of the reasons ``narrow`` gives (reason code -> what the refusal says).
    reasons: Mapping[str, str] = MappingProxyType({})
    #: What this mechanism draws at random for a deal before the cards are dealt, if anything.
    draw: Draw | None = None
    #: (state at a chance step of this phase) -> its outcomes, each with its exact probability (they sum to 1).
    chance: Callable[[State], tuple[tuple[Action, Fraction], ...]] | None = None
    #: (state at a chance step of this phase) -> the outcome the match's seed picks there.
    seeded: Callable[[State], Action] | None = None
    #: (state, deal) -> the seat that leads the first trick, where this mechanism decides it; else ``None``.
    leads: Callable[[State, DealInfo], int | None] | None = None
    #: (game, deal) -> the cards whose play this mechanism watches (its ``on_card``) from the first lead on.
    watch: Callable[[GameLike, DealInfo], int] | None = None
    #: (state before the play, deal, tally, events) -> the deal, tally and events as the play begins, before the
    #: first lead (a hand laid face up, say). Asked each time the play becomes due before the first trick is won,
    #: so it must change nothing the second time.
    on_play_start: Callable[[State, DealInfo, Tally, Events], tuple[DealInfo, Tally, Events]] | None = None
    #: (tables) -> every action a seat may take in this mechanism in the game, in a stable order: what numbers
    #: them (:attr:`Game.distinct_actions <trickrules.engine.game.Game.distinct_actions>`). ``None``: its actions
    #: are among the game's common ones (a card played, given, called or discarded; a pass; a bid of the
    #: contract ladder; a trump named; an announcement or declaration the spec lists; going alone).
    actions: Callable[[Tables], Sequence[Action]] | None = None


def listed(
    phase: str,
    offered: Callable[[State], Sequence[Action]],
    step: Callable[[State, Action], State],
    why: Callable[[State, Action, tuple[Action, ...]], str] | None = None,
    **hooks: Any,
) -> Mechanism:
    """A mechanism whose legal actions are a short list, worked out once per state.

    ``offered`` lists them, ``step`` applies a legal one, and ``why`` (if
    given) explains why an action not in the list is refused. ``hooks`` are
    the other fields of :class:`Mechanism` (``reveals``, ``start``, ``due``, ...).
    """

    def legal(state: State) -> tuple[Action, ...]:
        found = state._cache
        if found is None:
            found = tuple(offered(state))
            set_cache(state, found)
        return found  # type: ignore[no-any-return]

    def check(state: State, action: Action) -> None:
        actions = legal(state)
        for a in actions:
            if a is action:  # the engine's own actions are shared objects: no __eq__ needed
                return
        if action not in actions:
            if why is not None:
                raise IllegalActionError(why(state, action, actions))
            raise IllegalActionError(refusal(state, action, actions))

    def apply(state: State, action: object) -> State:
        chosen = state.game.as_action(action)
        check(state, chosen)
        return step(state, chosen)

    return Mechanism(phase, legal, check, apply, **hooks)


def rule_only(phase: str, **hooks: Any) -> Mechanism:
    """A mechanism that takes no action of its own: it only changes the play or the scoring through ``hooks``.

    Its phase is never due (a seat never acts in it); ``hooks`` are the other fields of :class:`Mechanism`
    (``narrow``, ``trick_winner``, ``on_trick``, ``start``, ``view``, ...).
    """

    def never(state: State) -> tuple[Action, ...]:
        return ()

    def check(state: State, action: Action) -> None:
        raise IllegalActionError(f"{action}: the {phase} rules take no action of their own.")

    def apply(state: State, action: object) -> State:
        check(state, state.game.as_action(action))
        raise AssertionError("unreachable")  # pragma: no cover

    return Mechanism(phase, never, check, apply, **hooks)


def refusal(state: State, action: Action, actions: tuple[Action, ...]) -> str:
    """The plain refusal: not legal for this seat in this phase, and what is."""
    return f"{not_legal(state, action)} (legal: {', '.join(str(a) for a in actions)})."


def not_legal(state: State, action: Action) -> str:
    """The start of every refusal: the action, the seat and the phase."""
    return f"{action}: not legal for seat {state.to_move} in the {state.phase} phase"


def seat_views(state: State, seat: int) -> tuple[tuple[str, Any], ...]:
    """What ``seat`` sees of each mechanism of the state's game: (phase, view value), in the order of the records."""
    # At a chance step only the dealing has started; the other mechanisms' records (and views) come with the deal.
    started = state.game.part_mechanisms[: len(state.deal.parts)]
    return tuple((m.phase, m.view(state, seat)) for m in started if m.view is not None)


def _passed(event: Passed, game: Any) -> Action:
    return game.action("pass")  # type: ignore[no-any-return]


#: A pass (in the auction, or declining an announcement or a declaration) replays as ``pass``.
PASS: Mapping[type, Replay] = MappingProxyType({Passed: _passed})


def _over_check(state: State, action: Action) -> None:
    raise IllegalActionError(f"{action}: the match is over.")


def _over_apply(state: State, action: object) -> State:
    _over_check(state, state.game.as_action(action))
    raise AssertionError("unreachable")  # pragma: no cover


#: The match is over: nothing is legal.
OVER = Mechanism(Phase.OVER, lambda state: (), _over_check, _over_apply)


# -- the registry ------------------------------------------------------------------------

#: Registered mechanisms by phase name: (the mechanism, whether a game's tables use it).
_REGISTRY: dict[str, tuple[Mechanism, Callable[[Tables], bool], str]] = {}
#: How a seat sees each registered event class (every registered mechanism's ``reveals``).
_REVEALS: dict[type, Reveal] = {}
#: How each registered event class that records a decision gives back its action.
_REPLAYS: dict[type, Replay] = {}
#: What each registered mechanism added: the verbs new to the action language, and its event classes.
_ADDED: dict[str, tuple[tuple[str, ...], tuple[type[MechanismEvent], ...]]] = {}


def register(
    mechanism: Mechanism,
    uses: Callable[[Tables], bool] | None = None,
    before: str = "play",
    events: Sequence[type[MechanismEvent]] = (),
    verbs: Mapping[str, bool] | None = None,
    variables: Mapping[str, Range] | None = None,
) -> None:
    """Make ``mechanism`` available to every game of this process.

    ``uses(tables)`` says whether a compiled game uses it; by default a game
    uses it when its spec has a ``[mechanisms.PHASE]`` section naming it. A
    used mechanism is asked in the deal's sequence just ``before`` the named
    phase (the play, by default). ``events`` are its event classes (each
    derived from :class:`~trickrules.engine.events.MechanismEvent`; those
    in its ``replays`` record a decision) and ``verbs`` its action verbs,
    each with whether it takes an argument. ``variables`` are the scoring
    variables its ``facts`` give (name -> the range of its values), which
    the formulas of a spec naming it may read. Registering the same mechanism
    again changes nothing; another one under a phase already registered is
    an :class:`~trickrules.errors.ArgumentError`, as is a built-in phase.
    """
    if not isinstance(mechanism, Mechanism):
        raise ArgumentError(f"register() takes a Mechanism, found {type(mechanism).__name__}.")
    name = mechanism.phase
    if type(name) is not str or not name.isidentifier() or not name.islower():
        raise ArgumentError(f"a mechanism's phase must be a lower-case identifier, found {name!r}.")
    if name in {p.value for p in Phase}:
        raise ArgumentError(f"{name!r} is a built-in phase; a registered mechanism needs a name of its own.")
    found = _REGISTRY.get(name)
    if found is not None:
        if found[0] is mechanism:
            return
        raise ArgumentError(f"a mechanism is already registered for the phase {name!r}.")
    if uses is None:

        def uses(t: Tables) -> bool:
            return name in t.mechanism_sections

    added = tuple(v for v in (verbs or {}) if v not in VERBS)
    for verb, takes_arg in (verbs or {}).items():
        register_verb(verb, takes_arg)
    for cls in events:
        register_event(cls, records_action=cls in mechanism.replays)
    if variables:
        register_fact_variables(name, variables)
    _REGISTRY[name] = (mechanism, uses, before)
    _ADDED[name] = (added, tuple(events))
    _REVEALS.update(mechanism.reveals)
    _REPLAYS.update(mechanism.replays)


def unregister(phase: str) -> None:
    """Forget the mechanism registered for ``phase``, with the verbs and event classes it brought.

    Games already compiled keep it; games loaded afterwards that name it are
    refused. For a test, or a program that swaps one mechanism for another.
    """
    found = _REGISTRY.pop(phase, None)
    if found is None:
        raise ArgumentError(f"no mechanism is registered for the phase {phase!r}.")
    forget_fact_variables(phase)
    verbs, events = _ADDED.pop(phase, ((), ()))
    for verb in verbs:
        forget_verb(verb)
    for cls in events:
        forget_event(cls)
    for cls in found[0].reveals:
        _REVEALS.pop(cls, None)
    for cls in found[0].replays:
        _REPLAYS.pop(cls, None)


def registered() -> Mapping[str, tuple[Mechanism, Callable[[Tables], bool], str]]:
    """Every registered mechanism by phase: the mechanism, its ``uses`` test and the phase it comes before."""
    return MappingProxyType(_REGISTRY)


def mechanism_named(name: str) -> Mechanism | None:
    """The registered mechanism of this phase, if any."""
    found = _REGISTRY.get(name)
    return None if found is None else found[0]


def revealer(cls: type) -> Reveal | None:
    """How a seat sees events of class ``cls`` (``None``: every seat sees them whole)."""
    return _REVEALS.get(cls)


def replayer(cls: type) -> Replay | None:
    """How an event of class ``cls`` gives back the action it records (``None``: a derived event)."""
    return _REPLAYS.get(cls)
