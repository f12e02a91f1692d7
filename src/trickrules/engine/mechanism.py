"""The one protocol every phase mechanism answers.

A phase (bidding, naming trumps, calling a card, an exchange, announcements,
play, declarations) is a module that builds one :class:`Mechanism`: which
actions are legal now, whether one action is, what applying one gives (the
next state, which may be in another phase), and how each seat sees the
events it produces. The state knows nothing else of a phase: it looks up the
mechanism of its phase in its game and asks it. The game selects the
mechanisms its spec uses (:func:`trickrules.engine.phases.mechanisms`).

Adding a mechanism is a new module here, its spec section, and a line in
:func:`trickrules.engine.phases.mechanisms`; ``docs/architecture.md`` walks through an example.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from attrs import frozen

from trickrules.engine.actions import Action
from trickrules.engine.events import Event, Passed
from trickrules.engine.records import Phase
from trickrules.engine.state import State, set_cache
from trickrules.errors import IllegalActionError
from trickrules.spec.sealed import Sealed

__all__ = ["OVER", "PASS", "Mechanism", "Replay", "Reveal", "listed", "not_legal", "refusal"]

#: How a seat sees one kind of event: (event, seat) -> the event as that seat may know it.
Reveal = Callable[[Any, int], Event]
#: How an event that records a player's decision gives back the action: (event, game) -> action.
Replay = Callable[[Any, Any], Action]


@frozen(weakref_slot=False, eq=False)
class Mechanism(Sealed):
    """What a phase answers: its legal actions, a check, applying an action, what each seat sees."""

    phase: Phase
    #: The legal actions of the seat to move, in a stable order.
    legal: Callable[[State], tuple[Action, ...]]
    #: Raise :class:`IllegalActionError` naming the rule, unless the action is legal.
    check: Callable[[State, Action], None]
    #: The state after the action (an :class:`Action` or its text), checked first.
    apply: Callable[[State, Any], State]
    #: For the event classes this phase produces that some seats may not see in full.
    reveals: Mapping[type, Reveal] = MappingProxyType({})
    #: For the event classes that record a decision taken in this phase: the action it was.
    replays: Mapping[type, Replay] = MappingProxyType({})


def listed(
    phase: Phase,
    offered: Callable[[State], Sequence[Action]],
    step: Callable[[State, Action], State],
    why: Callable[[State, Action, tuple[Action, ...]], str] | None = None,
    reveals: Mapping[type, Reveal] = MappingProxyType({}),
    replays: Mapping[type, Replay] = MappingProxyType({}),
) -> Mechanism:
    """A mechanism whose legal actions are a short list, worked out once per state.

    ``offered`` lists them, ``step`` applies a legal one, and ``why`` (if
    given) explains why an action not in the list is refused.
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

    return Mechanism(phase, legal, check, apply, reveals, replays)


def refusal(state: State, action: Action, actions: tuple[Action, ...]) -> str:
    """The plain refusal: not legal for this seat in this phase, and what is."""
    return f"{not_legal(state, action)} (legal: {', '.join(str(a) for a in actions)})."


def not_legal(state: State, action: Action) -> str:
    """The start of every refusal: the action, the seat and the phase."""
    return f"{action}: not legal for seat {state.to_move} in the {state.phase.value} phase"


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
