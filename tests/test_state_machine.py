"""Stateful tests: Hypothesis drives each bundled game through a mix of operations.

The machine plays legal actions (one at a time, or a run of them), tries
illegal ones (each must raise and change nothing), round-trips views and the
log through JSON, takes every seat's view, and now and then replays the log;
after every step it checks that every card is in one place and that exactly
one seat is to move until the match is over.
"""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from strategies import (
    GAMES,
    Policy,
    Tracker,
    all_illegal,
    check_cards,
    check_illegal,
    check_json,
    check_partner_secret,
    check_replay,
    check_turn,
    check_views,
    scaled,
    seeds,
    shared,
    short_game,
    stacked_deals,
)
from trickrules import EventLog, Game, State, View

#: At most this many replays per run: each one replays the whole match so far.
MAX_REPLAYS = 2
#: At most this many log round trips per run: each one reads the whole log.
MAX_LOG_TRIPS = 4


class GameMachine(RuleBasedStateMachine):
    """One match of ``game`` (set by :func:`machine_for`), and the checks on it."""

    game: Game

    def __init__(self) -> None:
        super().__init__()
        self._state: State | None = None
        self.tracker = Tracker(self.game)
        self.replays = 0
        self.log_trips = 0

    @property
    def state(self) -> State:
        """Return the current state (after the machine has started a match)."""
        assert self._state is not None
        return self._state

    def _start(self, seed: int, dealer: int, hands: tuple[tuple[str, ...], ...] | None) -> None:
        self._state = self.game.new_match(seed=seed, dealer=dealer, hands=hands)
        self.tracker = Tracker(self.game)
        self.tracker.step(self._state)

    def _advance(self, state: State) -> None:
        self._state = state
        self.tracker.step(state)

    def can_act(self) -> bool:
        """Tell whether the seat to move has a legal action."""
        return bool(self.state.legal_actions())

    def finished(self) -> bool:
        """Tell whether the match is over."""
        return self.state.is_terminal

    @initialize(
        seed=seeds(),
        dealer=st.integers(0, 3),
        stack=st.booleans(),
        data=st.data(),
    )
    def start(self, seed: int, dealer: int, stack: bool, data: st.DataObject) -> None:
        """Start a match from a seed, or from a stacked first deal."""
        hands = data.draw(stacked_deals(self.game), label="hands") if stack else None
        self._start(seed, dealer % self.game.rules.players, hands)

    @precondition(lambda self: self.finished())
    @rule(seed=seeds())
    def start_again(self, seed: int) -> None:
        """Start another match once this one is over."""
        self._start(seed, 0, None)

    @precondition(lambda self: self.can_act())
    @rule(pick=st.integers(0, 2**16))
    def apply_legal(self, pick: int) -> None:
        """Apply one legal action."""
        actions = self.state.legal_actions()
        self._advance(self.state.apply(actions[pick % len(actions)]))

    @precondition(lambda self: self.can_act())
    @rule(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 40))
    def apply_run(self, seed: int, count: int) -> None:
        """Apply a run of random legal actions (the text form, for a change)."""
        policy = Policy(seed, pass_bias=0.7)
        for _ in range(count):
            if self.finished():
                break
            self._advance(self.state.apply(str(policy.choose(self.state))))

    @rule(data=st.data())
    def apply_illegal(self, data: st.DataObject) -> None:
        """Try an illegal action: it must raise IllegalActionError and change nothing."""
        text = data.draw(st.sampled_from(all_illegal(self.state)), label="illegal")
        check_illegal(self.state, [text])

    @rule(seat=st.integers(0, 3))
    def view_round_trip(self, seat: int) -> None:
        """Check that a seat's view survives JSON byte for byte."""
        seat %= self.game.rules.players
        view = View.from_state(self.state, seat)
        text = view.to_json()
        assert View.from_json(text) == view
        assert View.from_json(text).to_json() == text

    @precondition(lambda self: self.log_trips < MAX_LOG_TRIPS)
    @rule(seat=st.integers(0, 3))
    def log_round_trip(self, seat: int) -> None:
        """Check that the log and a seat's log survive JSON byte for byte (sparingly)."""
        self.log_trips += 1
        check_json(self.state, EventLog.from_state(self.state), [seat % self.game.rules.players])

    @rule()
    def take_views(self) -> None:
        """Take every seat's view: each is consistent and keeps what it must secret."""
        check_views(self.state)
        check_partner_secret(self.state)

    @precondition(lambda self: self.replays < MAX_REPLAYS)
    @rule()
    def replay_matches(self) -> None:
        """Replay the log to the current state (sparingly: it costs a whole match)."""
        self.replays += 1
        check_replay(self.state, EventLog.from_state(self.state))

    @invariant()
    def cards_conserved(self) -> None:
        """Check that every card is in exactly one place."""
        if self._state is not None:
            check_cards(self._state)

    @invariant()
    def one_seat_to_move(self) -> None:
        """Check that exactly one seat is to move until the match is over."""
        if self._state is not None:
            check_turn(self._state)


def machine_for(name: str) -> type[GameMachine]:
    """Return the state machine class for the bundled game ``name``."""
    return type(f"{name.capitalize()}Machine", (GameMachine,), {"game": short_game(name)})


@pytest.mark.parametrize("name", GAMES)
def test_state_machine(name: str) -> None:
    """Run the state machine of each bundled game."""
    run_state_machine_as_test(
        machine_for(name),
        settings=settings(max_examples=shared(20, 40, least=scaled(8, 20)), stateful_step_count=60),
    )
