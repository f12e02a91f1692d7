"""Issue #16, finding 6, "Immutability with holes": nothing a game, a state, a view or an event holds can change.

The finding: calling ``__init__`` again on a shared event (``Passed(2).__init__(3)``) changed
every later match in the process, even in newly loaded games, and ``state.game.options`` and
``state.game.card_of`` were plain dicts (editing ``card_of`` made ``play 9S`` record ``10H``).

Two kinds of checks. The walks go through everything reachable from a game, a state (in the
middle of a match and at its end), a view and every event of a played match: through attrs
fields and slots, tuples, frozensets and read-only mappings (``MappingProxyType``,
``FrozenMap``), and fail naming the path of the first mutable thing they find (a dict, a list,
a set, a bytearray, an object with a ``__dict__``, or a slot that can be set). Ints, strings,
enums, functions, code objects and classes are leaves. The attempts try to change shared
values through what Python offers short of ``object.__setattr__`` (``setattr``, ``delattr``,
``__init__`` and ``__setstate__`` called again, item assignment, ``copy.copy``,
``attrs.evolve``), check that each is refused or builds a new value, and that a seeded match
then plays to the same log as before.
"""

from __future__ import annotations

import array
import copy
import enum
import operator
import random
import types
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from typing import Any

import attrs
import pytest
from attrs.exceptions import FrozenInstanceError

import trickrules
from trickrules import Game
from trickrules.engine import actions as engine_actions
from trickrules.engine import events as engine_events
from trickrules.engine import mechanism as engine_mechanism
from trickrules.engine import values as engine_values
from trickrules.engine.actions import Action
from trickrules.engine.events import EVENT_TYPES, CardPlayed, Passed, TrickWon, shared
from trickrules.engine.mechanism import OVER
from trickrules.engine.phases.auction import Auction
from trickrules.engine.state import State
from trickrules.engine.values import Actor, Phase
from trickrules.records import view as records_view
from trickrules.records.view import View
from trickrules.spec import model as spec_model
from trickrules.spec.frozenmap import FrozenMap
from trickrules.spec.sealed import Sealed

GAMES = ("quadrille", "quadrille-fi", "cuatrola", "manille", "whist", "hearts", "spades", "oh-hell", "euchre")
#: What each attempt to change a value may raise (FrozenInstanceError is an AttributeError).
REFUSED = (FrozenInstanceError, TypeError, AttributeError)

_LEAVES = (
    int,  # and bool
    float,
    complex,
    str,
    bytes,
    range,
    types.NoneType,
    Fraction,
    enum.Enum,  # Phase is a StrEnum
    type,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.MethodWrapperType,
    types.CodeType,
    operator.attrgetter,
    operator.itemgetter,
)
_MUTABLE = (dict, list, set, bytearray, deque, array.array, memoryview)
_NO_SLOT = frozenset({"__weakref__", "__dict__"})


def _slots(cls: type) -> Iterator[str]:
    """Every slot of ``cls`` and its bases, but ``__weakref__`` and ``__dict__``."""
    for klass in cls.__mro__:
        names = klass.__dict__.get("__slots__", ())
        for name in (names,) if isinstance(names, str) else names:
            if name not in _NO_SLOT:
                yield name


def _settable(obj: object, name: str, value: object) -> bool:
    """Whether ``obj.name`` can be set (tried with the value it holds, so nothing changes)."""
    try:
        setattr(obj, name, value)
    except REFUSED:
        return False
    return True


def _children(obj: object, path: str, found: list[str]) -> Iterator[tuple[object, str]]:
    """What ``obj`` holds, with its path; appends to ``found`` what makes ``obj`` itself mutable."""
    if isinstance(obj, _MUTABLE):
        found.append(f"{path} is a {type(obj).__name__}")
    elif isinstance(obj, tuple) and hasattr(obj, "_fields"):  # a named tuple (Step)
        yield from ((value, f"{path}.{name}") for name, value in zip(obj._fields, obj, strict=True))
    elif isinstance(obj, tuple | frozenset):
        yield from ((value, f"{path}[{i}]") for i, value in enumerate(obj))
    elif isinstance(obj, types.MappingProxyType | FrozenMap):
        for key, value in obj.items():
            yield key, f"{path} (key {key!r})"
            yield value, f"{path}[{key!r}]"
        if isinstance(obj, FrozenMap):  # its slots must not be settable either
            found.extend(f"{path}.{n} can be set" for n in _slots(type(obj)) if _settable(obj, n, getattr(obj, n)))
    elif hasattr(obj, "__dict__"):
        found.append(f"{path} is a {type(obj).__name__} with a __dict__ (its attributes can be set)")
    else:
        names = [n for n in _slots(type(obj)) if hasattr(obj, n)]
        if not names:
            found.append(f"{path} is a {type(obj).__name__}, which the walk does not know")
        for name in names:
            value = getattr(obj, name)
            if _settable(obj, name, value):
                found.append(f"{path}.{name} can be set ({type(obj).__name__} is not frozen)")
            yield value, f"{path}.{name}"


def mutable_paths(roots: Mapping[str, object], skip: tuple[object, ...] = ()) -> list[str]:
    """The paths of everything mutable reachable from ``roots`` (each object is walked once)."""
    found: list[str] = []
    seen = {id(s) for s in skip}
    todo = [(obj, path) for path, obj in reversed(list(roots.items()))]
    while todo:
        obj, path = todo.pop()
        if isinstance(obj, _LEAVES) or id(obj) in seen:
            continue
        seen.add(id(obj))
        todo.extend(reversed(list(_children(obj, path, found))))
    return found


def assert_nothing_mutable(roots: Mapping[str, object], skip: tuple[object, ...] = ()) -> None:
    """Fail naming the path of everything mutable reachable from ``roots``."""
    found = mutable_paths(roots, skip)
    assert not found, f"{len(found)} mutable:\n" + "\n".join(found[:30])


def game_roots(game: Game) -> dict[str, object]:
    """A game's public attributes, then every slot (the documented ``_tables``, ``_legal`` ...), by path."""
    public = ("spec", "source", "name", "fingerprint", "options", "title", "players", "cards", "rules")
    roots: dict[str, object] = {f"game.{name}": getattr(game, name) for name in public}
    roots.update({f"game.{name}": getattr(game, name) for name in _slots(type(game))})
    return roots


def play(game: Game, seed: int, steps: int | None = None) -> State:
    """A seeded random match: ``steps`` actions, or to its end."""
    rng = random.Random(seed)
    state = game.new_match(seed=seed)
    while not state.is_terminal and (steps is None or steps > 0):
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
        steps = None if steps is None else steps - 1
    return state


def log(game: Game, seed: int) -> list[tuple[Actor, str]]:
    """The entries of a seeded match, as (actor, repr of the event)."""
    return [(actor, repr(event)) for actor, event in play(game, seed).entries()]


# -- the walks -------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_finding6_nothing_mutable_is_reachable_from_a_game(name: str) -> None:
    game = trickrules.load(name)
    assert_nothing_mutable(game_roots(game))


def test_finding6_the_scoring_plan_is_immutable() -> None:
    game = trickrules.load("quadrille")
    assert_nothing_mutable({"game.scoring": game.scoring})


@pytest.mark.parametrize("name", GAMES)
def test_finding6_nothing_mutable_is_reachable_from_a_state_a_view_or_an_event(name: str) -> None:
    game = trickrules.load(name)
    skip = ()
    middle = play(game, seed=5, steps=23)
    middle.legal_actions()  # fills the state's cache: walked too
    end = play(game, seed=5)
    assert end.is_terminal
    for state, when in ((middle, "middle"), (end, "end")):
        assert_nothing_mutable({f"state ({when})": state}, skip)
        for seat in range(game.players):
            assert_nothing_mutable({f"view ({when}, seat {seat})": View.from_state(state, seat)}, skip)
    events = {f"event {i} ({type(e).__name__})": e for i, (_, e) in enumerate(end.entries())}
    assert len(events) > 20
    assert_nothing_mutable(events, skip)


def test_finding6_the_walk_finds_what_is_mutable() -> None:
    @attrs.define
    class Loose:
        x: int

    class Plain:
        def __init__(self) -> None:
            self.x = 1

    found = mutable_paths(
        {
            "a": (1, [2]),
            "b": types.MappingProxyType({"k": {3}}),
            "c": FrozenMap({"k": (bytearray(b"x"),)}),
            "d": Loose(1),
            "e": Plain(),
            "f": frozenset({(1, "x")}),
        }
    )
    assert found == [
        "a[1] is a list",
        "b['k'] is a set",
        "c['k'][0] is a bytearray",
        "d.x can be set (Loose is not frozen)",
        "e is a Plain with a __dict__ (its attributes can be set)",
    ]


# -- the attempts ----------------------------------------------------------------------


def _field_values(value: Any) -> dict[str, Any]:
    """The arguments that build ``value`` again (by the fields' init names)."""
    return {f.alias: getattr(value, f.name) for f in attrs.fields(type(value)) if f.init}


def _reachable(roots: Mapping[str, object], skip: object = None) -> Iterator[tuple[str, Any]]:
    """Every non-leaf value reachable from ``roots``, by path (``skip`` and what only it holds left out)."""
    seen: set[int] = {id(skip)}
    todo = list(roots.items())
    while todo:
        path, obj = todo.pop()
        if isinstance(obj, _LEAVES) or id(obj) in seen:
            continue
        seen.add(id(obj))
        yield path, obj
        todo.extend((p, child) for child, p in _children(obj, path, []))


def _frozen_values(roots: Mapping[str, object], skip: object = None) -> Iterator[tuple[str, Any]]:
    """Every attrs value and FrozenMap reachable from ``roots``, by path (``skip`` left out)."""
    return ((p, v) for p, v in _reachable(roots, skip) if attrs.has(type(v)) or isinstance(v, FrozenMap))


def test_finding6_shared_event_init_reentry() -> None:
    game = trickrules.load("quadrille")
    before = log(game, seed=11)
    passes = [e for _, e in play(game, seed=11).entries() if type(e) is Passed]
    assert passes, "the seeded match has passes"
    event = shared(Passed, 2, "bidding")
    assert event is game.shared.pass_events[2][0][1]
    attempts: list[Callable[[], object]] = [
        lambda: event.__init__(3, "bidding"),  # type: ignore[misc]
        lambda: Passed.__init__(event, 3, "bidding"),
        lambda: event.__setstate__({"seat": 3}),  # type: ignore[attr-defined]
        lambda: event.__setstate__((3, "bidding")),  # type: ignore[attr-defined]
        lambda: setattr(event, "seat", 3),
        lambda: delattr(event, "seat"),
    ]
    for attempt in attempts:
        with pytest.raises(FrozenInstanceError):
            attempt()
        assert event.seat == 2
    assert attrs.evolve(event, seat=3) == Passed(3, "bidding")  # a new event; the shared one is as it was
    assert copy.copy(event) == copy.deepcopy(event) == event
    assert event.seat == 2
    assert shared(Passed, 2, "bidding").seat == 2
    assert log(game, seed=11) == before
    assert log(trickrules.load("quadrille"), seed=11) == before  # a newly loaded game too


def _values_of_a_match(state: State) -> dict[int, tuple[str, Any]]:
    """Every attrs value and FrozenMap a state holds, but its game's, by id: (path, value)."""
    return {id(v): (path, v) for path, v in _frozen_values({"state": state}, skip=state.game)}


#: Pairs of games whose matches share values: the same game (its actions and played cards),
#: the same spec loaded twice (the shared events), two games (the default auction, passes).
PAIRS = [("quadrille", "same"), ("quadrille", "quadrille"), ("quadrille", "cuatrola"), ("oh-hell", "spades")]


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_finding6_every_value_two_matches_share_refuses_init_reentry(first: str, second: str) -> None:
    """What two matches hold in common (shared events, actions, the default auction) is Sealed.

    The values only one match holds (its states, records and the events built for it) are
    not: calling their ``__init__`` again would change that match alone.
    """
    game = trickrules.load(first)
    one = play(game, seed=1)
    two = play(game if second == "same" else trickrules.load(second), seed=2, steps=150)
    two.legal_actions()
    ours = _values_of_a_match(one)
    common = [ours[i] for i in _values_of_a_match(two).keys() & ours.keys()]
    assert common
    assert [path for path, value in common if not isinstance(value, Sealed | FrozenMap)] == []
    for path, value in common:
        before = copy.copy(value)
        with pytest.raises(REFUSED):
            _init_again(value)
        assert value == before, path
    kinds = {type(value) for _, value in common}
    if second == "same":
        assert CardPlayed in kinds  # the per-seat table of the game


def test_finding6_only_sealed_events_can_be_shared() -> None:
    """``shared()`` refuses an event class that is not Sealed; the table of event classes is read-only."""
    with pytest.raises(TypeError, match="Sealed"):
        shared(TrickWon, 0, 0, ())
    assert all(isinstance(event, Sealed) for event in engine_events._SHARED.values())
    with pytest.raises(TypeError):
        EVENT_TYPES["pass"] = TrickWon  # type: ignore[index]
    assert EVENT_TYPES["pass"] is Passed


def test_finding6_shared_defaults_refuse_init_reentry() -> None:
    """The default auction of every deal, an action of a game, a mechanism, and the spec's empty maps."""
    game = trickrules.load("quadrille")
    before = log(game, seed=4)
    default = game.new_match(seed=1).part(Phase.BIDDING)
    assert default is trickrules.load("cuatrola").new_match(seed=1).part(Phase.BIDDING)
    code = game.cards.codes[0]
    action = game.action(f"play {code}")
    assert action is game.action(f"play {code}")
    empty: FrozenMap[str, int] = attrs.fields(type(game.spec.deck)).points.default
    attempts: list[Callable[[], object]] = [
        lambda: default.__init__(high=0, bidder=1),
        lambda: Auction.__init__(default, 0, 1),
        lambda: action.__init__("play", game.cards.codes[1]),  # type: ignore[misc]
        lambda: Action.__init__(action, "pass"),
        lambda: OVER.__init__(OVER.phase, OVER.legal, OVER.check, OVER.apply),  # type: ignore[misc]
        lambda: empty.__init__({"A": 99}),  # type: ignore[misc]
        lambda: setattr(empty, "_data", {"A": 99}),
        lambda: delattr(empty, "_hash"),
    ]
    for attempt in attempts:
        with pytest.raises(REFUSED):
            attempt()
    assert default == Auction()
    assert action == Action("play", code)
    assert dict(empty) == {}
    assert log(game, seed=4) == before


def _shared_defaults() -> Iterator[tuple[str, Any]]:
    """Every attrs value or FrozenMap that a field of the spec's, the engine's or the faces' classes defaults to."""
    for module in (spec_model, engine_values, engine_events, engine_mechanism, engine_actions, records_view):
        for cls in vars(module).values():
            if isinstance(cls, type) and attrs.has(cls) and cls.__module__ == module.__name__:
                for f in attrs.fields(cls):
                    if attrs.has(type(f.default)) or isinstance(f.default, FrozenMap):
                        yield f"{cls.__name__}.{f.name}", f.default


def test_finding6_shared_spec_and_engine_defaults_refuse_init_reentry() -> None:
    """A spec that leaves out ``[passing]`` shares ``PassingSpec()`` with every other such spec, in every game."""
    assert trickrules.load("quadrille").spec.passing is trickrules.load("manille").spec.passing
    defaults = list(_shared_defaults())
    assert {"Spec.passing", "Spec.making", "DeckSpec.points"} <= {path for path, _ in defaults}
    for path, value in defaults:
        before = copy.copy(value)
        with pytest.raises(REFUSED):
            _init_again(value)
        assert value == before, path


def _init_again(value: Any) -> None:
    """Call ``value``'s ``__init__`` again: a FrozenMap with other items, an attrs value with its own fields."""
    if isinstance(value, FrozenMap):
        value.__init__({"x": 1})  # type: ignore[misc]
    else:
        type(value).__init__(value, **_field_values(value))


def test_finding6_the_game_refuses_every_change() -> None:
    game = trickrules.load("quadrille")
    before = log(game, seed=7)
    roots = game_roots(game)
    for path, value in roots.items():
        name = path.removeprefix("game.")
        with pytest.raises(REFUSED):
            setattr(game, name, value)
        with pytest.raises(REFUSED):
            delattr(game, name)
    with pytest.raises(REFUSED):
        game.__init__(trickrules.load("manille").spec)  # type: ignore[misc]
    shared_values = game.shared
    with pytest.raises(REFUSED):
        shared_values.__init__(game.tables)  # type: ignore[misc]
    for name in _slots(type(shared_values)):
        with pytest.raises(REFUSED):
            setattr(shared_values, name, getattr(shared_values, name))
        with pytest.raises(REFUSED):
            delattr(shared_values, name)
    mappings = {p: v for p, v in _reachable(roots) if isinstance(v, Mapping)}
    assert len(mappings) > 20
    assert [path for path, mapping in mappings.items() if _item_assignable(mapping)] == []
    assert log(game, seed=7) == before
    assert game == trickrules.load("quadrille")


def _item_assignable(mapping: Mapping[Any, Any]) -> bool:
    """Whether an item of ``mapping`` can be set or deleted (tried with one of its own items)."""
    key, value = next(iter(mapping.items()), ("key", "value"))
    try:
        mapping[key] = value  # type: ignore[index]
    except TypeError:
        try:
            del mapping[key]  # type: ignore[attr-defined]
        except TypeError:
            return False
    return True


def test_finding6_card_of_cannot_be_edited() -> None:
    """The finding's example: editing ``card_of`` made ``play 9S`` record another card."""
    game = trickrules.load("quadrille")
    rng = random.Random(2)
    state = game.new_match(seed=2)
    while state.phase != "play":
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
    action = state.legal_actions()[-1]
    other = next(c for c in game.cards.codes if c != action.arg)
    with pytest.raises(TypeError):
        game.tables.card_of[action.arg] = game.tables.card_of[other]  # type: ignore[index]
    with pytest.raises(TypeError):
        game.options["deals"] = "1"  # type: ignore[index]
    played = state.apply(str(action)).last_events[0]
    assert isinstance(played, CardPlayed)
    assert played.card == action.arg
    assert game.options["deals"] == "12"




def test_finding6_no_value_of_a_game_can_be_initialised_again() -> None:
    """Every attrs value a game holds refuses ``__init__`` called again (tried with its own fields)."""
    game = trickrules.load("quadrille")
    again = []
    for path, value in _frozen_values(game_roots(game)):
        if isinstance(value, FrozenMap):
            continue  # checked above; it has no attrs fields
        try:
            type(value).__init__(value, **_field_values(value))
        except REFUSED:
            continue
        again.append(f"{path} ({type(value).__name__})")
    assert again == []
