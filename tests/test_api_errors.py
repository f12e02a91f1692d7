"""The error contract at every public entry point.

Every public function and method given bad input raises a
:class:`~trickrules.TrickrulesError` (never a bare ``ValueError``,
``TypeError``, ``AttributeError``, ``KeyError`` or ``RecursionError``) whose
message quotes the offending value or names the argument, and changes
nothing: the game, the state and the log are equal before and after, the
state lists the same legal actions, and it plays on exactly as an untouched
copy does.

The walk covers loading (:func:`trickrules.load`, :func:`trickrules.load_spec`),
starting a match (seeds, dealers, stacked hands, the turned card, starting
scores and pot), acting (``apply`` and ``is_legal`` with values that are not
actions, malformed texts, actions of another game or another phase),
per-seat reading (``view``, ``hand``, ``EventLog.for_seat``), logs
(``EventLog.from_json``, ``load``, ``save``, :func:`trickrules.replay`) and
views (``View.from_json``) given hostile text, and scoring, which never
swallows an error.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import trickrules
from strategies import GAMES, deal_out, short_game, uncached
from trickrules import (
    Action,
    ArgumentError,
    EventLog,
    FormulaError,
    Game,
    IllegalActionError,
    LogFormatError,
    LogIntegrityError,
    Phase,
    SpecError,
    State,
    TrickrulesError,
    View,
)
from trickrules.spec.converter import MAX_INT
from trickrules.spec.formula import MAX_MAGNITUDE

# -- the contract, as checks -----------------------------------------------------------


def refused(call: Callable[[], object], *fragments: str, kind: type[TrickrulesError] = TrickrulesError) -> str:
    """Check that ``call()`` raises ``kind`` (a library error) whose message holds one of ``fragments``.

    Any other exception fails the test with its type and message, the way a
    caller catching ``TrickrulesError`` would have been surprised by it.
    Returns the message.
    """
    try:
        result = call()
    except TrickrulesError as exc:
        error = exc
    except BaseException as exc:  # the contract is broken whatever escaped: report it
        pytest.fail(f"{type(exc).__name__} escaped instead of a TrickrulesError: {exc}")
    else:
        pytest.fail(f"accepted, returning {result!r:.200}")
    message = str(error)
    assert isinstance(error, kind), f"{type(error).__name__} where {kind.__name__} was expected: {message}"
    assert isinstance(error, ValueError), f"{type(error).__name__} is not also a ValueError"
    assert message.strip(), "an empty message"
    if fragments:
        assert any(f in message for f in fragments), f"the message {message!r} shows none of {fragments}"
    return message


def assert_unchanged(state: State, twin: State) -> None:
    """Check that ``state`` is still what ``twin`` (an uncached copy made before) is, and plays on the same."""
    assert state == twin
    assert state.entries() == twin.entries()
    assert state.legal_actions() == twin.legal_actions()
    assert state.last_events == twin.last_events
    if not state.is_terminal:
        action = twin.legal_actions()[-1]
        after, again = state.apply(action), twin.apply(action)
        assert after == again
        assert after.last_events == again.last_events
        assert after.legal_actions() == again.legal_actions()


def forged(verb: object, arg: object = "") -> Action:
    """An :class:`Action` built around values of the wrong type (what a careless caller may build)."""
    return Action(cast(str, verb), cast(str, arg))


class LookAlike:
    """Not an action, though it has an action's attributes."""

    verb = "pass"
    arg = ""

    def __str__(self) -> str:
        return "pass"


# -- games and states ------------------------------------------------------------------


@functools.cache
def sample_states(name: str) -> tuple[State, ...]:
    """States of one seeded random match of ``name``: the first of each phase, a trick under way, the last."""
    game = short_game(name)
    rng = random.Random(7)
    state = game.new_match(seed=11)
    found: dict[object, State] = {}
    while not state.is_terminal:
        found.setdefault((state.phase, bool(state.trick)), state)
        state = state.apply(rng.choice(state.legal_actions()))
    found["over"] = state
    return tuple(found.values())


def twins(name: str) -> Iterator[tuple[State, State]]:
    """Each sample state of ``name`` with an uncached copy of it."""
    for state in sample_states(name):
        yield state, uncached(state)


@functools.cache
def finished(name: str) -> State:
    """The last state of the seeded match of ``name``."""
    return sample_states(name)[-1]


def good_hands(game: Game) -> list[list[str]]:
    """A stacked first deal of ``game``: the deck in order, dealt out."""
    return [list(h) for h in deal_out(game, game.cards.codes)]


# -- loading -----------------------------------------------------------------------------

NAMES_THAT_ARE_NOT_GAMES: list[Any] = [
    pytest.param("no-such-game", ("'no-such-game'",), id="unknown name"),
    pytest.param("", ("''",), id="empty name"),
    pytest.param("/nonexistent/spec.toml", ("/nonexistent/spec.toml",), id="missing file"),
    pytest.param(".", ("'.'",), id="a directory"),
    pytest.param(5, ("5",), id="an integer"),
    pytest.param(None, ("None",), id="None"),
    pytest.param(b"manille", ("b'manille'",), id="bytes"),
    pytest.param(["manille"], ("['manille']",), id="a list"),
]


@pytest.mark.parametrize(("name", "fragments"), NAMES_THAT_ARE_NOT_GAMES)
def test_load_of_a_name_that_is_no_game_is_a_spec_error_quoting_it(name: Any, fragments: tuple[str, ...]) -> None:
    before = trickrules.load("manille").fingerprint
    refused(lambda: trickrules.load(name), *fragments, kind=SpecError)
    refused(lambda: trickrules.load_spec(name), *fragments, kind=SpecError)
    assert trickrules.load("manille").fingerprint == before


BAD_OPTIONS: list[Any] = [
    pytest.param({"nope": "x"}, ("'nope'",), id="unknown option"),
    pytest.param({"match_end": "zz"}, ("'zz'",), id="unknown choice"),
    pytest.param({"match_end": ""}, ("''",), id="empty choice"),
    pytest.param({"match_end": "z" * 10_000}, ("'zzz",), id="huge choice"),
    pytest.param({"match_end": None}, ("None",), id="None as a choice"),
    pytest.param({"match_end": 1.5}, ("1.5",), id="a float as a choice"),
    pytest.param({"match_end": ["12"]}, ("['12']",), id="a list as a choice"),
    pytest.param({"match_end": {"12": 1}}, ("{'12': 1}",), id="a mapping as a choice"),
    pytest.param({"match_end": True}, ("'on'",), id="true where the choices are numbers"),
    pytest.param({5: "12"}, ("5",), id="an integer as an option name"),
    pytest.param({None: "12"}, ("None",), id="None as an option name"),
    pytest.param("match_end", ("options", "'match_end'"), id="a string"),
    pytest.param(["match_end"], ("options", "['match_end']"), id="a list"),
    pytest.param([("match_end", "12")], ("options",), id="a list of pairs"),
    pytest.param(5, ("options", "5"), id="an integer"),
]


@pytest.mark.parametrize(("options", "fragments"), BAD_OPTIONS)
def test_load_with_bad_options_is_a_spec_error_quoting_them(options: Any, fragments: tuple[str, ...]) -> None:
    before = trickrules.load("manille")
    refused(lambda: trickrules.load("manille", options), *fragments, kind=SpecError)
    refused(lambda: trickrules.load_spec("manille", options), *fragments, kind=SpecError)
    after = trickrules.load("manille")
    assert after == before
    assert after.options == before.options


def test_load_takes_an_integer_choice_as_its_text() -> None:
    assert trickrules.load("manille", {"match_end": 12}) == trickrules.load("manille", {"match_end": "12"})


# -- starting a match ----------------------------------------------------------------------


@dataclass(frozen=True)
class Start:
    """A bad ``new_match`` call: the game, the keyword arguments (built from good hands), what the message shows."""

    game: str
    kwargs: Callable[[Game], Mapping[str, object]]
    fragments: tuple[str, ...]


def start(game: str, fragments: tuple[str, ...], **kwargs: object) -> Start:
    """A bad ``new_match`` call with fixed arguments."""
    return Start(game, lambda _: kwargs, fragments)


def stacked(game: str, fragments: tuple[str, ...], edit: Callable[[list[list[str]]], object], **more: object) -> Start:
    """A bad ``new_match`` call whose hands are ``edit`` applied to a good stacked deal."""
    return Start(game, lambda g: {"hands": edit(good_hands(g)), **more}, fragments)


def _swap_in(hands: list[list[str]], seat: int, card: object) -> list[list[object]]:
    out: list[list[object]] = [list(h) for h in hands]
    out[seat][-1] = card
    return out


BAD_STARTS: list[Any] = [
    # Seeds: an integer from 0 to 2**128 - 1 (None draws a secret one).
    *(
        pytest.param(start("manille", ("seed", repr(seed)), seed=seed), id=f"seed {seed!r}")
        for seed in (-1, 2**128, 2**200, 1.5, "7", True, [7])
    ),
    # Dealers: a seat of the table.
    *(
        pytest.param(start("manille", ("dealer", repr(dealer)), dealer=dealer), id=f"dealer {dealer!r}")
        for dealer in (9, 4, -1, "0", None, 1.0, True)
    ),
    # Stacked hands.
    pytest.param(stacked("manille", ("hands", "3"), lambda h: h[:3]), id="hands for 3 seats of 4"),
    pytest.param(stacked("manille", ("hands", "5"), lambda h: [*h, []]), id="hands for 5 seats of 4"),
    pytest.param(stacked("manille", ("hands[1]",), lambda h: _swap_in(h, 1, h[0][0])), id="a card in two hands"),
    pytest.param(stacked("manille", ("'ZZ'",), lambda h: _swap_in(h, 0, "ZZ")), id="a card of no deck"),
    pytest.param(stacked("manille", ("'AO'",), lambda h: _swap_in(h, 0, "AO")), id="a card of another game"),
    pytest.param(stacked("manille", ("hands[0]",), lambda h: _swap_in(h, 0, None)), id="None as a card"),
    pytest.param(stacked("manille", ("hands[0]",), lambda h: _swap_in(h, 0, ["AS"])), id="a list as a card"),
    pytest.param(stacked("manille", ("hands[2]",), lambda h: [h[0], h[1], "AS KS", h[3]]), id="a hand as a string"),
    pytest.param(stacked("manille", ("missing",), lambda h: [x[:-1] for x in h]), id="cards missing"),
    pytest.param(start("manille", ("hands", "5"), hands=5), id="hands as an integer"),
    pytest.param(start("manille", ("hands", "'AS KS'"), hands="AS KS"), id="hands as a string"),
    pytest.param(stacked("manille", ("hands",), lambda h: dict(enumerate(h))), id="hands as a mapping"),
    pytest.param(stacked("manille", ("hands",), lambda h: (x for x in h)), id="hands as a generator"),
    # The turned card.
    pytest.param(start("cuatrola", ("turned",), turned="AO"), id="turned without hands"),
    pytest.param(stacked("cuatrola", ("turned", "'AC'"), lambda h: h, turned="AC"), id="turned not the dealer's"),
    pytest.param(stacked("cuatrola", ("turned", "'ZZ'"), lambda h: h, turned="ZZ"), id="turned of no deck"),
    pytest.param(stacked("cuatrola", ("turned", "5"), lambda h: h, turned=5), id="turned as an integer"),
    pytest.param(
        stacked("cuatrola", ("turned", "['SB']"), lambda h: h, turned=["SB"]),
        id="turned as a list",
    ),
    pytest.param(
        stacked("manille", ("turned", "'7C'"), lambda h: h, turned="7C"),
        id="turned in a game that turns no card",
    ),
    # Starting scores: one integer per seat.
    *(
        pytest.param(start("manille", ("scores",), scores=scores), id=f"scores {scores!r}")
        for scores in ([0, 0, 0], [0] * 5, [0, 0, 0, "1"], [0, 0, 0, 1.5], [True, 0, 0, 0], [0, 0, 0, None])
    ),
    *(
        pytest.param(start("manille", ("scores",), scores=scores), id=f"scores {scores!r}")
        for scores in (5, "0000", {0: 1}, [0, 0, 0, 10**300], [0, 0, 0, -(10**300)])
    ),
    # The pot: chips, never negative, and none in a game scored in points.
    *(
        pytest.param(start("quadrille", ("pot", repr(pot)), pot=pot), id=f"pot {pot!r}")
        for pot in (-1, 10**300, "5", 1.5, True, None)
    ),
    pytest.param(start("manille", ("pot", "5"), pot=5), id="a pot in a game of points"),
]


@pytest.mark.parametrize("case", BAD_STARTS)
def test_new_match_with_a_bad_argument_is_an_argument_error_naming_it(case: Start) -> None:
    game = short_game(case.game)
    reference = game.new_match(seed=0)
    fingerprint = game.fingerprint
    kwargs = case.kwargs(game)
    refused(lambda: game.new_match(**kwargs), *case.fragments, kind=ArgumentError)  # type: ignore[arg-type]
    assert game.fingerprint == fingerprint
    assert game.new_match(seed=0) == reference


def largest_accepted(game: Game, make: Callable[[int], Mapping[str, object]]) -> int | None:
    """The largest ``v`` up to 2**53 that ``game.new_match(**make(v))`` accepts (``None`` if not even 0)."""
    low, high = 0, MAX_INT
    try:
        game.new_match(**make(high))  # type: ignore[arg-type]
        return high
    except ArgumentError:
        pass
    try:
        game.new_match(**make(low))  # type: ignore[arg-type]
    except ArgumentError:
        return None
    while high - low > 1:
        middle = (low + high) // 2
        try:
            game.new_match(**make(middle))  # type: ignore[arg-type]
            low = middle
        except ArgumentError:
            high = middle
    return low


EXTREMES: dict[str, Callable[[Game, int], Mapping[str, object]]] = {
    "highest scores": lambda g, v: {"seed": 3, "scores": [v] * g.players},
    "lowest scores": lambda g, v: {"seed": 3, "scores": [-v] * g.players},
    "largest pot": lambda g, v: {"seed": 3, "pot": v},
}


def _extreme_cases() -> Iterator[Any]:
    for name in GAMES:
        for which in EXTREMES:
            if which == "largest pot" and short_game(name).rules.unit != "chips":
                continue
            yield pytest.param(name, which, id=f"{name}-{which}")


@pytest.mark.parametrize(("name", "which"), list(_extreme_cases()))
def test_a_match_started_from_the_largest_accepted_totals_plays_and_reads_back(name: str, which: str) -> None:
    """Whatever ``new_match`` accepts, the match plays on and its log and views read back.

    The bound itself is the engine's choice: it is found here by bisection. The
    same bound limits the totals a deal may reach (so that every state can be
    resumed), so a match started at it may stop at its first deal's end, with
    that error and no other.
    """
    game = short_game(name)
    extreme = EXTREMES[which]
    value = largest_accepted(game, lambda v: extreme(game, v))
    assert value is not None, "new_match refuses even 0"
    state = game.new_match(**extreme(game, value))  # type: ignore[arg-type]
    rng = random.Random(5)
    stopped: str | None = None
    for _ in range(1500):
        if state.is_terminal:
            break
        try:
            state = state.apply(rng.choice(state.legal_actions()))
        except FormulaError as exc:
            # The one refusal allowed: a deal that would take the totals past the engine's bound
            # ends the match there, leaving the state before it whole.
            stopped = str(exc)
            break
    assert stopped is None or "the match cannot go on" in stopped, stopped
    text = EventLog.from_state(state).to_json()
    assert trickrules.replay(text, partial=True) == state
    for seat in range(game.players):
        view = View.from_state(state, seat)
        assert View.from_json(view.to_json()) == view


# -- acting ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bad:
    """A value given to ``apply`` and ``is_legal`` and what the refusal shows (any one of ``fragments``)."""

    make: Callable[[], object]
    fragments: tuple[str, ...]


NOT_ACTIONS: list[Any] = [
    pytest.param(Bad(lambda: 123, ("123",)), id="an integer"),
    pytest.param(Bad(lambda: None, ("None",)), id="None"),
    pytest.param(Bad(object, ("object",)), id="an object"),
    pytest.param(Bad(LookAlike, ("LookAlike",)), id="an object with an action's attributes"),
    pytest.param(Bad(lambda: b"pass", ("b'pass'",)), id="bytes"),
    pytest.param(Bad(lambda: 1.5, ("1.5",)), id="a float"),
    pytest.param(Bad(lambda: ["pass"], ("['pass']",)), id="a list"),
    pytest.param(Bad(lambda: ("play", "AS"), ("('play', 'AS')",)), id="a tuple"),
    pytest.param(Bad(lambda: "", ("''",)), id="empty text"),
    pytest.param(Bad(lambda: "   ", ("'   '",)), id="blank text"),
    pytest.param(Bad(lambda: "fly away", ("fly away",)), id="an unknown verb"),
    pytest.param(Bad(lambda: "PASS", ("PASS",)), id="a verb in capitals"),
    pytest.param(Bad(lambda: "play", ("'play'",)), id="a verb without its argument"),
    pytest.param(Bad(lambda: "pass now", ("pass now",)), id="an argument to pass"),
    pytest.param(Bad(lambda: "play ZZ", ("ZZ",)), id="a card of no deck"),
    pytest.param(Bad(lambda: "play AS AS", ("AS AS",)), id="two cards"),
    pytest.param(Bad(lambda: "bid grand slam", ("grand slam",)), id="a contract of no game"),
    pytest.param(Bad(lambda: "play " + "A" * 10_000, ("play AAAA",)), id="a huge text"),
    pytest.param(Bad(lambda: "\x00", (r"\x00",)), id="a control character"),
    pytest.param(Bad(lambda: Action("fly", "away"), ("fly away",)), id="an Action with an unknown verb"),
    pytest.param(Bad(lambda: Action("play", "ZZ"), ("ZZ",)), id="an Action of no card"),
    pytest.param(Bad(lambda: Action("pass", "now"), ("pass now",)), id="an Action passing with an argument"),
    pytest.param(Bad(lambda: forged("play", 5), ("5",)), id="an Action with an integer card"),
    pytest.param(
        Bad(lambda: forged("play", ["AS"]), ("['AS']",)),
        id="an Action with a list for a card",
    ),
    pytest.param(
        Bad(lambda: forged(None, None), ("None",)),
        id="an Action of None",
    ),
    pytest.param(
        Bad(lambda: forged(5), ("5",)),
        id="an Action with an integer verb",
    ),
]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("bad", NOT_ACTIONS)
def test_apply_of_what_is_not_a_legal_action_is_refused_quoting_it(name: str, bad: Bad) -> None:
    for state, twin in twins(name):
        refused(lambda s=state: s.apply(bad.make()), *bad.fragments, kind=IllegalActionError)  # type: ignore[misc]
        refused(lambda s=state: s.step(bad.make()), *bad.fragments, kind=IllegalActionError)  # type: ignore[misc]
        assert_unchanged(state, twin)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("bad", NOT_ACTIONS)
def test_is_legal_of_what_is_not_a_legal_action_is_false_and_changes_nothing(name: str, bad: Bad) -> None:
    for state, twin in twins(name):
        try:
            answer = state.is_legal(cast(Any, bad.make()))
        except TrickrulesError:
            pass  # refusing to answer about a value that is no action at all is within the contract
        except BaseException as exc:
            pytest.fail(f"{type(exc).__name__} escaped from is_legal: {exc}")
        else:
            assert answer is False
        assert_unchanged(state, twin)


def other_phase_actions(name: str) -> list[tuple[State, State, Action]]:
    """(state, twin, action): actions legal somewhere in the sample match, tried where they are not."""
    states = sample_states(name)
    seen: dict[str, Action] = {}
    for state in states:
        for action in state.legal_actions()[:3]:
            seen.setdefault(action.verb, action)
    out = []
    for state, twin in twins(name):
        legal = set(state.legal_actions())
        out += [(state, twin, a) for a in seen.values() if a not in legal]
    return out


@pytest.mark.parametrize("name", GAMES)
def test_an_action_of_another_phase_is_refused_naming_it(name: str) -> None:
    cases = other_phase_actions(name)
    assert cases
    for state, twin, action in cases:
        if (
            state.game.rules.play.revoke_penalised
            and action.verb == "play"
            and action.arg in state.hand(state.to_move or 0)
        ):
            continue  # a revoke is accepted and penalised later
        refused(lambda s=state, a=action: s.apply(a), str(action), kind=IllegalActionError)  # type: ignore[misc]
        assert state.is_legal(action) is False
        assert_unchanged(state, twin)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("other", ["cuatrola", "manille", "quadrille"])
def test_an_action_of_another_game_is_refused_naming_it(name: str, other: str) -> None:
    """A card or a contract of another game's (a Cuatrola card in Manille) is refused, as text or Action."""
    strangers = {a for s in sample_states(other) for a in s.legal_actions()}
    tried = 0
    for state, twin in twins(name):
        legal = set(state.legal_actions())
        revoke = state.game.rules.play.revoke_penalised
        for action in sorted(strangers - legal, key=str)[:12]:
            if revoke and action.verb == "play" and action.arg in state.hand(state.to_move or 0):
                continue
            tried += 1
            refused(lambda s=state, a=action: s.apply(a), str(action), kind=IllegalActionError)  # type: ignore[misc]
            refused(lambda s=state, a=action: s.apply(str(a)), str(action), kind=IllegalActionError)  # type: ignore[misc]
        assert_unchanged(state, twin)
    assert tried


@pytest.mark.parametrize("name", GAMES)
def test_the_finished_match_refuses_every_action_saying_it_is_over(name: str) -> None:
    state = finished(name)
    twin = uncached(state)
    for action in {a for s in sample_states(name) for a in s.legal_actions()}:
        message = refused(lambda a=action: state.apply(a), str(action), kind=IllegalActionError)  # type: ignore[misc]
        assert "over" in message
    assert_unchanged(state, twin)


ACTION_VALUES = st.one_of(
    st.text(max_size=80),
    st.builds(lambda v, a: f"{v} {a}", st.sampled_from(["pass", "bid", "trump", "call", "give", "play"]), st.text()),
    st.builds(Action, st.text(max_size=12), st.text(max_size=12)),
    st.integers(),
    st.none(),
    st.binary(max_size=20),
    st.lists(st.text(max_size=5), max_size=3),
)


@pytest.mark.parametrize("name", ["cuatrola", "manille", "quadrille"])
@given(value=ACTION_VALUES)
def test_apply_of_any_value_gives_a_state_or_a_library_error(name: str, value: object) -> None:
    for state, twin in twins(name):
        try:
            after = state.apply(cast(Any, value))
        except TrickrulesError:
            assert_unchanged(state, twin)
            continue
        except BaseException as exc:
            pytest.fail(f"{type(exc).__name__} escaped from apply({value!r}): {exc}")
        assert state.is_legal(cast(Any, value))
        assert after == twin.apply(cast(Any, value))


# -- the game's helpers ------------------------------------------------------------------------

BAD_ACTION_TEXTS: list[Any] = [
    pytest.param("", ("''",), id="empty"),
    pytest.param("fly away", ("fly away",), id="unknown verb"),
    pytest.param("play", ("'play'",), id="verb without argument"),
    pytest.param("pass now", ("pass now",), id="argument to pass"),
    pytest.param("x" * 1000, ("xxxx",), id="huge"),
    pytest.param(5, ("5",), id="an integer"),
    pytest.param(None, ("None",), id="None"),
    pytest.param(b"pass", ("b'pass'",), id="bytes"),
]


@pytest.mark.parametrize(("text", "fragments"), BAD_ACTION_TEXTS)
def test_game_action_of_a_bad_text_is_an_illegal_action_error_quoting_it(text: Any, fragments: tuple[str, ...]) -> None:
    game = short_game("manille")
    refused(lambda: game.action(text), *fragments, kind=IllegalActionError)
    refused(lambda: game.as_action(text), *fragments, kind=IllegalActionError)
    refused(lambda: Action.parse(text), *fragments, kind=IllegalActionError)


#: Stands for the game's number of seats (one past the last seat), whatever the table's size.
PLAYERS = object()

BAD_SEATS: list[Any] = [
    pytest.param(7, id="7"),
    pytest.param(PLAYERS, id="the number of seats"),
    pytest.param(-1, id="-1"),
    pytest.param(2**100, id="2**100"),
    pytest.param("0", id="'0'"),
    pytest.param(None, id="None"),
    pytest.param(1.5, id="1.5"),
    pytest.param(True, id="True"),
    pytest.param([0], id="[0]"),
]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seat", BAD_SEATS)
def test_view_and_hand_of_a_bad_seat_are_argument_errors_quoting_it(name: str, seat: Any) -> None:
    if seat is PLAYERS:
        seat = trickrules.load(name).players
    for state, twin in twins(name):
        refused(lambda s=state: View.from_state(s, seat), "seat", kind=ArgumentError)  # type: ignore[misc]
        message = refused(lambda s=state: s.hand(seat), "seat", kind=ArgumentError)  # type: ignore[misc]
        assert repr(seat) in message
        refused(lambda s=state: s.game.seat(seat), repr(seat), kind=ArgumentError)  # type: ignore[misc]
        assert_unchanged(state, twin)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seat", BAD_SEATS)
def test_for_seat_of_a_bad_seat_is_an_argument_error_quoting_it(name: str, seat: Any) -> None:
    if seat is PLAYERS:
        seat = trickrules.load(name).players
    log = EventLog.from_state(finished(name))
    text = log.to_json()
    message = refused(lambda: log.for_seat(seat), "seat", kind=ArgumentError)
    assert repr(seat) in message
    assert log.to_json() == text
    assert trickrules.replay(log) == finished(name)


@pytest.mark.parametrize(
    "mask",
    [
        pytest.param("x", id="a string"),
        pytest.param(None, id="None"),
        pytest.param(1.5, id="a float"),
        pytest.param(-1, id="negative"),
        pytest.param(1 << 200, id="cards beyond the deck"),
    ],
)
def test_codes_of_a_bad_mask_is_an_argument_error_quoting_it(mask: Any) -> None:
    game = short_game("manille")
    refused(lambda: game.codes_of(mask), "mask", repr(mask), kind=ArgumentError)


# -- scoring never swallows an error -----------------------------------------------------------


def test_a_scoring_formula_out_of_range_raises_naming_the_formula_and_changes_nothing() -> None:
    """A pot beyond what a formula may read (``MAX_MAGNITUDE``) stops the match at the formula, naming its place.

    The state is put together by hand (``new_match`` may refuse such a pot): the
    check is on scoring, which must let the formula's error through, not skip the payment.
    """
    game = short_game("quadrille")
    raised = 0
    for seed in range(6):
        state = game.new_match(seed=seed)
        state = attrs.evolve(state, match=attrs.evolve(state.match, pot=MAX_MAGNITUDE + 1))
        rng = random.Random(seed)
        while not state.is_terminal:
            action = rng.choice(state.legal_actions())
            twin = uncached(state)
            try:
                state = state.apply(action)
            except FormulaError:
                raised += 1
                message = refused(lambda s=state, a=action: s.apply(a), "pot", kind=FormulaError)  # type: ignore[misc]
                assert "specs/quadrille.toml" in message
                assert state == twin
                assert state.legal_actions() == twin.legal_actions()
                break
    assert raised, "no formula read the oversized pot"


def test_a_bidding_formula_out_of_range_raises_naming_it() -> None:
    game = short_game("cuatrola")
    state = game.new_match(seed=1)
    state = attrs.evolve(state, match=attrs.evolve(state.match, scores=(MAX_MAGNITUDE + 1,) * game.players))
    message = refused(lambda: uncached(state).legal_actions(), "score", kind=FormulaError)
    assert "specs/cuatrola" in message
    refused(lambda: uncached(state).apply("pass"), "score", kind=FormulaError)


# -- logs --------------------------------------------------------------------------------------


def header_of(name: str) -> dict[str, Any]:
    header: dict[str, Any] = json.loads(EventLog.from_state(finished(name)).to_json().splitlines()[0])
    return header


def with_header(name: str, **changes: object) -> str:
    lines = EventLog.from_state(finished(name)).to_json().splitlines()
    return "\n".join([json.dumps({**header_of(name), **changes}), *lines[1:]])


def with_event(name: str, index: int, **changes: object) -> str:
    lines = EventLog.from_state(finished(name)).to_json().splitlines()
    event = {**json.loads(lines[index + 1]), **changes}
    return "\n".join([*lines[: index + 1], json.dumps(event), *lines[index + 2 :]])


DEEP = "[" * 100_000 + "]" * 100_000
GARBAGE_LOGS: list[Any] = [
    pytest.param(lambda: "not json", ("line 1", "JSON"), id="not JSON"),
    pytest.param(lambda: "", ("empty",), id="empty"),
    pytest.param(lambda: "[]", ("line 1",), id="a list"),
    pytest.param(lambda: "{}", ("line 1", "format"), id="an empty object"),
    pytest.param(lambda: "5", ("line 1",), id="a number"),
    pytest.param(lambda: DEEP, ("nested too deeply",), id="100000-deep arrays"),
    pytest.param(lambda: '{"a":' * 100_000 + "1" + "}" * 100_000, ("nested too deeply",), id="100000-deep objects"),
    pytest.param(lambda: '{"format":"trickrules-log","seed":' + "9" * 5000 + "}", ("out of range",), id="a huge int"),
    pytest.param(lambda: '{"format":"trickrules-log","seed":1.5}', ("fractional",), id="a float"),
    pytest.param(lambda: '{"format":"trickrules-log","seed":NaN}', ("NaN",), id="NaN"),
    pytest.param(lambda: '{"format":"x","format":"y"}', ("'format'",), id="a repeated key"),
    pytest.param(lambda: b"\xff\xfe", ("UTF-8",), id="bytes not UTF-8"),
    pytest.param(lambda: 5, ("int", "5"), id="an integer"),
    pytest.param(lambda: None, ("None",), id="None"),
    pytest.param(lambda: ["{}"], ("list",), id="a list of lines"),
    pytest.param(lambda: with_header("manille", seed="x"), ("seed", "'x'"), id="a seed as text"),
    pytest.param(lambda: with_header("manille", dealer=True), ("dealer", "True"), id="a dealer as a bool"),
    pytest.param(lambda: with_header("manille", options=[1, 2]), ("options",), id="options as a list"),
    pytest.param(lambda: with_header("manille", hands="abc"), ("hands", "'abc'"), id="hands as text"),
    pytest.param(lambda: with_header("manille", hands=[[["x"]]]), ("hands[0][0]",), id="a nested card"),
    pytest.param(lambda: with_header("manille", zzz=1), ("'zzz'",), id="an unknown header key"),
    pytest.param(lambda: with_header("manille", version=1), ("version", "1"), id="another version"),
    pytest.param(lambda: with_event("manille", 0, type="nope"), ("line 2", "'nope'"), id="an unknown event"),
    pytest.param(lambda: with_event("manille", 0, seq=True), ("line 2", "seq"), id="a seq as a bool"),
    pytest.param(lambda: with_event("manille", 0, actor=True), ("line 2", "actor"), id="an actor as a bool"),
    pytest.param(lambda: with_event("manille", 0, hands={}), ("line 2", "hands"), id="event hands as an object"),
    pytest.param(lambda: with_event("manille", 0, zzz=1), ("line 2", "'zzz'"), id="an unknown event key"),
]


@pytest.mark.parametrize(("make", "fragments"), GARBAGE_LOGS)
def test_from_json_and_replay_of_garbage_are_log_format_errors_saying_where(
    make: Callable[[], Any], fragments: tuple[str, ...]
) -> None:
    text = make()
    refused(lambda: EventLog.from_json(text), *fragments, kind=LogFormatError)
    refused(lambda: trickrules.replay(text), *fragments, kind=LogFormatError)


BAD_REPLAYS: list[Any] = [
    pytest.param(lambda: with_header("manille", dealer=9), ("dealer", "9"), id="a dealer of no seat"),
    pytest.param(lambda: with_header("manille", seed=-1), ("seed", "-1"), id="a negative seed"),
    pytest.param(lambda: with_header("manille", scores=[1, 2]), ("scores",), id="scores for two seats"),
    pytest.param(lambda: with_header("manille", game="no-such-game"), ("'no-such-game'",), id="a game not bundled"),
    pytest.param(lambda: with_header("manille", game="../../etc/passwd"), ("passwd",), id="a game as a path"),
    pytest.param(lambda: with_header("manille", fingerprint="0" * 16), ("fingerprint",), id="another fingerprint"),
    pytest.param(lambda: with_header("manille", seed=None), ("seed",), id="no seed"),
    pytest.param(lambda: with_header("manille", turned="AS"), ("turned",), id="turned without hands"),
    pytest.param(lambda: with_event("manille", 0, actor=99), ("event 0",), id="an actor of no seat"),
    pytest.param(lambda: with_event("manille", 0, seq=5), ("event 0",), id="a wrong sequence number"),
    pytest.param(
        lambda: "\n".join(EventLog.from_state(finished("manille")).to_json().splitlines()[:12]),
        ("incomplete",),
        id="truncated",
    ),
    pytest.param(lambda: EventLog.from_state(finished("manille")).for_seat(1), ("seat 1",), id="a seat's log"),
]


@pytest.mark.parametrize(("make", "fragments"), BAD_REPLAYS)
def test_replay_of_a_log_that_does_not_replay_is_a_log_integrity_error_saying_where(
    make: Callable[[], Any], fragments: tuple[str, ...]
) -> None:
    log = make()
    refused(lambda: trickrules.replay(log), *fragments, kind=LogIntegrityError)


def test_replay_with_a_pot_no_formula_may_read_is_a_log_integrity_error() -> None:
    """A header that starts the match where scoring cannot go: replay reports the event, not a formula error."""
    state = finished("quadrille")
    lines = EventLog.from_state(state).to_json().splitlines()
    header = {**json.loads(lines[0]), "pot": str(MAX_MAGNITUDE)}
    text = "\n".join([json.dumps(header), *lines[1:]])
    refused(lambda: trickrules.replay(text), "header", "event", kind=LogIntegrityError)


@pytest.mark.parametrize(
    ("game", "fragments", "kind"),
    [
        pytest.param(lambda: short_game("cuatrola"), ("fingerprint",), LogIntegrityError, id="another game"),
        pytest.param(lambda: trickrules.load("manille"), ("fingerprint",), LogIntegrityError, id="other options"),
        pytest.param(lambda: "manille", ("game", "'manille'"), ArgumentError, id="a name"),
        pytest.param(lambda: 5, ("game", "5"), ArgumentError, id="an integer"),
        pytest.param(lambda: finished("manille"), ("game", "State"), ArgumentError, id="a state"),
    ],
)
def test_replay_with_a_wrong_game_is_refused_naming_it(
    game: Callable[[], Any], fragments: tuple[str, ...], kind: type[TrickrulesError]
) -> None:
    log = EventLog.from_state(finished("manille"))
    refused(lambda: trickrules.replay(log, game()), *fragments, kind=kind)


@pytest.mark.parametrize("partial", ["yes", 1, None])
def test_replay_with_partial_not_a_bool_is_an_argument_error(partial: Any) -> None:
    log = EventLog.from_state(finished("manille"))
    refused(lambda: trickrules.replay(log, partial=partial), "partial", repr(partial), kind=ArgumentError)


def test_load_of_a_directory_or_a_missing_file_is_a_log_format_error_naming_it(tmp_path: Path) -> None:
    refused(lambda: EventLog.load(str(tmp_path)), str(tmp_path), kind=LogFormatError)
    missing = tmp_path / "nothing.jsonl"
    refused(lambda: EventLog.load(str(missing)), str(missing), kind=LogFormatError)
    refused(lambda: EventLog.load(missing), str(missing), kind=LogFormatError)
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text(DEEP, encoding="utf-8")
    refused(lambda: EventLog.load(garbage), "nested too deeply", kind=LogFormatError)


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(None, id="None"),
        pytest.param(0, id="a file descriptor"),
        pytest.param(1.5, id="a float"),
        pytest.param(b"/tmp/x.jsonl", id="bytes"),
        pytest.param(["x.jsonl"], id="a list"),
    ],
)
def test_load_and_save_of_what_is_not_a_path_are_argument_errors(path: Any) -> None:
    log = EventLog.from_state(finished("manille"))
    text = log.to_json()
    refused(lambda: EventLog.load(path), "path", kind=ArgumentError)
    refused(lambda: log.save(path), "path", kind=ArgumentError)
    assert log.to_json() == text


def test_save_to_a_directory_is_an_argument_error_naming_it(tmp_path: Path) -> None:
    log = EventLog.from_state(finished("manille"))
    refused(lambda: log.save(str(tmp_path)), str(tmp_path), kind=ArgumentError)
    refused(lambda: log.save(tmp_path / "no" / "such" / "dir.jsonl"), "dir.jsonl", kind=ArgumentError)
    assert list(tmp_path.iterdir()) == []


@given(text=st.one_of(st.text(max_size=200), st.binary(max_size=200)))
def test_from_json_of_any_text_gives_a_log_or_a_log_format_error(text: str | bytes) -> None:
    try:
        EventLog.from_json(text)
    except LogFormatError:
        pass
    except BaseException as exc:
        pytest.fail(f"{type(exc).__name__} escaped from EventLog.from_json({text!r}): {exc}")


# -- views -------------------------------------------------------------------------------------


def view_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(View.from_state(sample_states("quadrille")[1], 1).to_json())
    return data


def view_with(**changes: object) -> str:
    return json.dumps({**view_data(), **changes})


HOSTILE_VIEWS: list[Any] = [
    pytest.param(lambda: "not json", ("JSON",), id="not JSON"),
    pytest.param(lambda: "", ("JSON",), id="empty"),
    pytest.param(lambda: "[]", ("object", "[]"), id="a list"),
    pytest.param(lambda: "{}", ("required",), id="an empty object"),
    pytest.param(lambda: "null", ("object", "None"), id="null"),
    pytest.param(lambda: DEEP, ("nested too deeply",), id="100000-deep arrays"),
    pytest.param(lambda: '{"a":' * 100_000 + "1" + "}" * 100_000, ("nested too deeply",), id="100000-deep objects"),
    pytest.param(lambda: view_with().replace('"seat": 1', '"seat": ' + "9" * 5000), ("out of range",), id="a huge int"),
    pytest.param(lambda: view_with(pot=1.5), ("fractional",), id="a float"),
    pytest.param(lambda: view_with(pot=float("nan")), ("NaN",), id="NaN"),
    pytest.param(lambda: '{"seat":1,"seat":2}', ("'seat'",), id="a repeated key"),
    pytest.param(lambda: b"\xff", ("UTF-8",), id="bytes not UTF-8"),
    pytest.param(lambda: 5, ("int", "5"), id="an integer"),
    pytest.param(lambda: None, ("None",), id="None"),
    pytest.param(lambda: ["{}"], ("list",), id="a list of texts"),
    pytest.param(lambda: "x" * (2 * 1024 * 1024), ("at most",), id="two megabytes"),
    pytest.param(lambda: view_with(zzz=1), ("'zzz'",), id="an unknown key"),
    pytest.param(lambda: view_with(seat="1"), ("seat", "'1'"), id="a seat as text"),
    pytest.param(lambda: view_with(seat=True), ("seat", "True"), id="a seat as a bool"),
    pytest.param(lambda: view_with(seat=-1), ("seat", "-1"), id="a negative seat"),
    pytest.param(lambda: view_with(seat=9), ("seat", "9"), id="a seat of no table"),
    pytest.param(lambda: view_with(to_move=9), ("to_move", "9"), id="a mover of no seat"),
    pytest.param(lambda: view_with(hand="AS"), ("hand", "'AS'"), id="a hand as text"),
    pytest.param(lambda: view_with(hand=[1]), ("hand[0]", "1"), id="a card as a number"),
    pytest.param(lambda: view_with(hand=[]), ("hand",), id="a hand of the wrong size"),
    pytest.param(lambda: view_with(hand_sizes=[-1, 10, 10, 10]), ("hand_sizes[0]", "-1"), id="a negative count"),
    pytest.param(lambda: view_with(hand_sizes=[]), ("hand_sizes",), id="no seats"),
    pytest.param(lambda: view_with(trick=[["x", "AS"]]), ("trick",), id="a trick seat as text"),
    pytest.param(lambda: view_with(trick=[[9, "AS"]]), ("trick[0][0]", "9"), id="a trick seat of no table"),
    pytest.param(lambda: view_with(scoreboard=[0]), ("scoreboard",), id="a scoreboard of one seat"),
    pytest.param(lambda: view_with(phase="dancing"), ("phase", "'dancing'"), id="an unknown phase"),
    pytest.param(lambda: view_with(pot=-5), ("pot", "-5"), id="a negative pot"),
    pytest.param(lambda: view_with(legal="pass"), ("legal", "'pass'"), id="legal as text"),
]


@pytest.mark.parametrize(("make", "fragments"), HOSTILE_VIEWS)
def test_view_from_json_of_hostile_input_is_a_log_format_error_saying_what(
    make: Callable[[], Any], fragments: tuple[str, ...]
) -> None:
    text = make()
    refused(lambda: View.from_json(text), *fragments, kind=LogFormatError)


@pytest.mark.parametrize("name", GAMES)
def test_every_sampled_view_reads_back_through_the_checks(name: str) -> None:
    for state in sample_states(name):
        for seat in range(state.game.players):
            view = View.from_state(state, seat)
            assert View.from_json(view.to_json()) == view
            assert View.from_json(view.to_json().encode("utf-8")) == view


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@given(changes=st.dictionaries(st.sampled_from(sorted(view_data())), JSON_VALUES, min_size=1, max_size=3))
def test_view_from_json_of_any_change_gives_a_view_or_a_log_format_error(changes: dict[str, Any]) -> None:
    text = json.dumps({**view_data(), **changes})
    try:
        View.from_json(text)
    except LogFormatError:
        pass
    except BaseException as exc:
        pytest.fail(f"{type(exc).__name__} escaped from View.from_json: {exc}")


# -- every error is a library error ------------------------------------------------------------


def test_every_error_class_is_a_library_error_and_a_value_error() -> None:
    for cls in (ArgumentError, SpecError, FormulaError, IllegalActionError, LogFormatError, LogIntegrityError):
        assert issubclass(cls, TrickrulesError)
        assert issubclass(cls, ValueError)


def test_the_sample_matches_reach_several_phases() -> None:
    """The walk above is only as good as its states: each game's sample holds a trick under way and an end."""
    for name in GAMES:
        states: Sequence[State] = sample_states(name)
        assert any(s.trick for s in states), name
        assert states[-1].is_terminal, name
        acting = [p for p in short_game(name).mechanisms if p != Phase.DEAL]  # dealing asks nobody
        assert len({s.phase for s in states}) >= min(3, len(acting)), name
