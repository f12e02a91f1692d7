"""A mechanism written outside the library, registered and used by a spec, with no edit of ``src/``.

Two mechanisms are defined here, each one module's worth of code:

* ``show``: before the first lead, each player in turn from the eldest hand
  shows one card of his hand face up (``show CARD``); a shown card still in
  hand must be played before any other the rules allow. Its record is the
  cards each seat has shown; every seat sees them; its events go to logs.
* ``exposed``: one seat's hand lies face up and its partner chooses its cards
  (as a bridge declarer plays the dummy): the state's ``chooser`` is the
  partner while that seat is to move, and views, bots, logs and replay follow.

A spec uses either by naming its section (``[mechanisms.show]``). Matches of
both are played by bots, logged, replayed and redacted per seat.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest
from attrs import evolve, frozen

import trickrules
from trickrules import EventLog, IllegalActionError, State, View
from trickrules.engine.actions import Action
from trickrules.engine.events import MechanismEvent
from trickrules.engine.game import Game
from trickrules.engine.loop import advance, moved
from trickrules.engine.mechanism import Mechanism, listed, register, unregister
from trickrules.engine.values import DealInfo, MatchInfo, with_part
from trickrules.faces.bots import make_bots
from trickrules.faces.match import play_match
from trickrules.records.replay import replay
from trickrules.spec.loader import bundled_path

# -- the "show" mechanism ----------------------------------------------------------------


@frozen
class CardShown(MechanismEvent):
    """A seat showed a card of its hand face up."""

    TAG: ClassVar[str] = "show"
    seat: int
    card: str


@frozen
class Shown:
    """The record: each seat's shown cards (a mask), and how many seats have shown."""

    cards: tuple[int, ...]
    asked: int = 0


@frozen
class ShownView:
    """What every seat sees: each seat's shown cards still in its hand."""

    shown: tuple[tuple[str, ...], ...]


SHOW = "show"


def _shown(state: State) -> Shown:
    record: Shown = state.part(SHOW)
    return record


def _show_start(game: Any, d: DealInfo, match: MatchInfo) -> Shown:
    return Shown((0,) * game.players)


def _show_due(state: State, d: DealInfo) -> int | None:
    record: Shown = d.parts[state.game.slot[SHOW]]
    n = state.game.players
    return (d.dealer + 1 + record.asked) % n if record.asked < n else None


def _show_offered(state: State) -> list[Action]:
    seat = state.to_move
    assert seat is not None
    return [Action("show", code) for code in state.hand(seat)]


def _show_step(state: State, action: Action) -> State:
    seat = state.to_move
    assert seat is not None
    game = state.game
    record = _shown(state)
    cards = list(record.cards)
    cards[seat] |= 1 << game.cards.codes.index(action.arg)
    d = with_part(state.deal, game.slot[SHOW], Shown(tuple(cards), record.asked + 1))
    events = ((seat, CardShown(seat, action.arg)),)
    nxt = _show_due(state, d)
    if nxt is not None:
        return moved(state, SHOW, nxt, d, events)
    return advance(state, d, events)


def _show_narrow(state: State, seat: int, mask: int, reason: str) -> tuple[int, str]:
    first = mask & _shown(state).cards[seat] & state.hands[seat]
    return (first, "shown_first") if first and first != mask else (mask, reason)


def _show_view(state: State, seat: int) -> ShownView:
    record = _shown(state)
    return ShownView(tuple(state.game.codes_of(m & h) for m, h in zip(record.cards, state.hands, strict=True)))


def _show_replay(event: CardShown, game: Any) -> Action:
    return Action("show", event.card)


SHOW_MECHANISM = listed(
    SHOW,
    _show_offered,
    _show_step,
    start=_show_start,
    due=_show_due,
    narrow=_show_narrow,
    view=_show_view,
    view_type=ShownView,
    replays={CardShown: _show_replay},
    reasons={"shown_first": "must play a shown card before any other"},
    actions=lambda t: tuple(Action("show", c) for c in t.cards.codes),
)

# -- the "exposed" mechanism: a hand played by its partner --------------------------------

EXPOSED = "exposed"


@frozen
class ExposedView:
    """The exposed seat and its hand, seen by every seat."""

    seat: int
    hand: tuple[str, ...]


def _exposed_seat(game: Any) -> int:
    section: Mapping[str, Any] = game.tables.mechanism_sections[EXPOSED]
    seat: int = section["seat"]
    return seat


def _exposed_chooser(state: State) -> int | None:
    seat = _exposed_seat(state.game)
    if state.phase == "play" and state.to_move == seat:
        return (seat + 2) % state.game.players
    return None


def _exposed_view(state: State, seat: int) -> ExposedView:
    exposed = _exposed_seat(state.game)
    return ExposedView(exposed, state.hand(exposed))


def _never(state: State) -> tuple[Action, ...]:
    return ()


def _refuse(state: State, action: Any) -> State:
    raise IllegalActionError("the exposed hand takes no action of its own")


def _refuse_check(state: State, action: Action) -> None:
    raise IllegalActionError("the exposed hand takes no action of its own")


EXPOSED_MECHANISM = Mechanism(
    EXPOSED, _never, _refuse_check, _refuse, chooser=_exposed_chooser, view=_exposed_view, view_type=ExposedView
)



@pytest.fixture(autouse=True, scope="module")
def registered() -> Iterator[None]:
    """The two mechanisms registered for this module's tests, and forgotten after them."""
    register(SHOW_MECHANISM, events=(CardShown,), verbs={"show": True})
    register(EXPOSED_MECHANISM)
    yield
    unregister(SHOW)
    unregister(EXPOSED)


# -- specs that use them -----------------------------------------------------------------


def _spec(tmp_path: Path, name: str, section: str) -> Game:
    text = bundled_path("whist").read_text().replace('name = "whist"', f'name = "{name}"', 1)
    path = tmp_path / f"{name}.toml"
    path.write_text(text + "\n" + section)
    return trickrules.load(path)


@pytest.fixture
def show_game(tmp_path: Path) -> Game:
    return _spec(tmp_path, "whist-show", "[mechanisms.show]\n")


@pytest.fixture
def exposed_game(tmp_path: Path) -> Game:
    return _spec(tmp_path, "whist-exposed", "[mechanisms.exposed]\nseat = 2\n")


def test_a_registered_mechanism_is_a_phase_of_the_game_that_names_it(show_game: Game) -> None:
    state = show_game.new_match(seed=3)
    assert state.phase == SHOW
    assert state.to_move == 1  # the eldest hand shows first
    assert all(a.verb == "show" for a in state.legal_actions())
    assert len(state.legal_actions()) == 13
    assert trickrules.load("whist").new_match(seed=3).phase == "play"  # a game that does not name it is unchanged


def test_every_seat_shows_then_the_play_begins_and_shown_cards_go_first(show_game: Game) -> None:
    state = show_game.new_match(seed=5)
    chosen = {}
    for _ in range(4):
        seat = state.to_move
        assert seat is not None
        action = state.legal_actions()[0]
        chosen[seat] = action.arg
        state = state.apply(action)
        assert state.last_events == (CardShown(seat, action.arg),)
    assert state.phase == "play"
    view = View.from_state(state, 3)
    part = view.part(ShownView)
    assert part is not None
    assert part.shown == tuple((chosen[s],) for s in range(4))  # public: every seat sees every shown card
    leader = state.to_move
    assert leader is not None
    assert [str(a) for a in state.legal_actions()] == [f"play {chosen[leader]}"]
    other = next(c for c in state.hand(leader) if c != chosen[leader])
    with pytest.raises(IllegalActionError, match="must play a shown card before any other"):
        state.apply(f"play {other}")


def test_matches_of_a_registered_mechanism_play_log_and_replay(show_game: Game) -> None:
    for seed in range(4):
        final = play_match(show_game, make_bots(show_game, "random", seed=seed), seed=seed, max_deals=2)
        log = EventLog.from_state(final)
        text = log.to_json()
        assert '"type":"show"' in text.replace(" ", "")
        again = replay(EventLog.from_json(text), game=show_game, partial=True)
        assert again == final
        for seat in range(4):
            seen = log.for_seat(seat)
            assert any(isinstance(e, CardShown) for e in seen.events)


def test_a_tampered_show_is_caught_on_replay(show_game: Game) -> None:
    final = play_match(show_game, make_bots(show_game, "random", seed=1), seed=1, max_deals=1)
    log = EventLog.from_state(final)
    lines = log.to_json().splitlines()
    k = next(i for i, line in enumerate(lines) if '"show"' in line)
    shown = next(e for e in log.events if isinstance(e, CardShown))
    hand = final.game.codes_of(final.deal.dealt[shown.seat])
    other = next(c for c in show_game.cards.codes if c not in hand)
    lines[k] = lines[k].replace(f'"{shown.card}"', f'"{other}"')
    with pytest.raises(trickrules.LogIntegrityError):
        replay(EventLog.from_json("\n".join(lines) + "\n"), game=show_game, partial=True)


def test_the_chooser_plays_an_exposed_hand(exposed_game: Game) -> None:
    state = exposed_game.new_match(seed=2)
    while state.to_move != 2:
        state = state.apply(state.legal_actions()[0])
    assert (state.to_move, state.chooser) == (2, 0)  # seat 2's card, chosen by seat 0
    chooser_view = View.from_state(state, 0)
    assert chooser_view.legal == tuple(str(a) for a in state.legal_actions())
    assert View.from_state(state, 2).legal == ()
    exposed = chooser_view.part(ExposedView)
    assert exposed is not None
    assert exposed.hand == state.hand(2)
    after = state.apply(state.legal_actions()[0])
    assert after.entries()[-1][0] == 0  # the log names the seat that chose the card


def test_matches_with_a_chooser_play_and_replay(exposed_game: Game) -> None:
    for seed in range(3):
        final = play_match(exposed_game, make_bots(exposed_game, "heuristic", seed=seed), seed=seed, max_deals=2)
        actors = {actor for actor, event in final.entries() if getattr(event, "seat", None) == 2 and actor != "dealer"}
        assert actors == {0}
        log = EventLog.from_state(final)
        assert replay(EventLog.from_json(log.to_json()), game=exposed_game, partial=True) == final
        # The exposed seat "choosing" its own card is a forgery.
        forged = log.to_json().replace('"actor":0,"type":"play","seat":2', '"actor":2,"type":"play","seat":2', 1)
        assert forged != log.to_json()
        with pytest.raises(trickrules.LogIntegrityError, match="seat 2 acted, but it was seat 0's turn"):
            replay(EventLog.from_json(forged), game=exposed_game, partial=True)


def test_a_spec_naming_an_unregistered_mechanism_is_refused(tmp_path: Path) -> None:
    with pytest.raises(trickrules.SpecError, match=r"mechanisms\.nosuch: no mechanism is registered"):
        _spec(tmp_path, "whist-nosuch", "[mechanisms.nosuch]\n")


def test_registering_clashes_are_refused() -> None:
    with pytest.raises(trickrules.ArgumentError, match="already registered"):
        register(evolve(SHOW_MECHANISM))
    with pytest.raises(trickrules.ArgumentError, match="built-in phase"):
        register(evolve(SHOW_MECHANISM, phase="play"))
    register(SHOW_MECHANISM)  # the same one again: nothing changes


def test_a_forgotten_mechanism_takes_its_verbs_and_events_with_it(tmp_path: Path) -> None:
    extra = evolve(SHOW_MECHANISM, phase="show_again")
    register(extra, verbs={"reveal": True})
    assert Action.parse("reveal AS") == Action("reveal", "AS")
    unregister("show_again")
    with pytest.raises(IllegalActionError, match="the verbs are"):
        Action.parse("reveal AS")
    assert Action.parse("show AS") == Action("show", "AS")  # the module's own mechanism is still there


def test_random_play_of_a_registered_mechanism_keeps_the_deck_whole(show_game: Game) -> None:
    rng = random.Random(9)
    state = show_game.new_match(seed=9)
    while not state.is_terminal and state.match.deals_done < 2:
        held = sum(h.bit_count() for h in state.hands) + sum(m.bit_count() for m in state.tally.won)
        assert held + len(state.trick) == 52
        state = state.apply(rng.choice(state.legal_actions()))


def test_a_registered_mechanisms_actions_have_ids_after_the_common_ones(show_game: Game) -> None:
    """A plug-in lists its actions (``actions=``); they are numbered after the game's common ones."""
    size = show_game.cards.size
    shows = [show_game.action_id(f"show {c}") for c in show_game.cards.codes]
    assert shows == list(range(show_game.num_distinct_actions - size, show_game.num_distinct_actions))
    state = show_game.new_match(seed=3)
    seen = set()
    while not state.is_terminal:
        if state.is_chance:
            state = state.apply(state.seeded_outcome())
            continue
        for action in state.legal_actions():
            assert show_game.action_of(show_game.action_id(action)) == action
            seen.add(action.verb)
        state = state.apply(state.legal_actions()[0])
    assert {"show", "play"} <= seen
