"""The sampler of worlds consistent with what one seat knows (issue 29, item 1).

Each sampled world, seen from the seat, gives back the seat's view and its
per-seat log (every bundled game, random positions); the forbidden sets the
sampler derives from the engine's legality are exact for the engine's
duties. The count and the frequencies against a brute force enumeration
are in ``test_worlds_enumeration.py``.
"""

from __future__ import annotations

import random
from collections import Counter

import attrs
import pytest
from hypothesis import given, settings

import trickrules
from strategies import GAMES, POSITIONS, played_to, scaled, short_game
from trickrules import EventLog, State, View
from trickrules.engine.events import CardPlayed
from trickrules.engine.phases.play import play_mask
from trickrules.errors import ArgumentError
from trickrules.search.probes import forbidden
from trickrules.search.worlds import WorldSampler, sample_worlds, weighted_worlds


def _same_view(name: str, world: State, state: State, seat: int) -> bool:
    return View.from_state(world, seat) == View.from_state(state, seat)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=scaled(6, 30), derandomize=True)  # the same positions every run (docs/search.md: Limits)
@given(**POSITIONS)
def test_each_world_gives_back_the_seats_view_and_log(
    name: str, seed: int, pass_bias: float, stop: int, seat: int
) -> None:
    game = short_game(name)
    state = played_to(game, seed, pass_bias, stop)
    seat %= game.players
    known = EventLog.from_state(state).for_seat(seat)
    for world in sample_worlds(known, 2, seed=seed, view=View.from_state(state, seat)):
        assert EventLog.from_state(world).for_seat(seat).entries == known.entries
        assert _same_view(name, world, state, seat)


@pytest.mark.parametrize("options", [{"players": "4", "deals": "4"}, {"deals": "4"}])
def test_tarok_worlds_with_the_talon_laid_out(options: dict[str, str]) -> None:
    """Tarok's talon (sets taken face up, discards, cards won with tricks, a king called in the talon)."""
    game = trickrules.load("tarok", options)
    kinds: Counter[str] = Counter()
    for seed in range(24):
        rng = random.Random(seed)
        state = game.new_match(seed=seed)
        for _ in range(rng.randrange(5, 120)):
            if state.is_terminal:
                break
            actions = state.legal_actions()
            bids = [a for a in actions if a.verb != "pass"]
            if state.phase == "bidding":  # the lowest bid now and then, so that the talon's contracts are played
                passes = [a for a in actions if a.verb == "pass"]
                state = state.apply(bids[0] if bids and (rng.random() < 0.3 or not passes) else passes[0])
            else:
                state = state.apply(rng.choice(actions))
        seat = rng.randrange(game.players)
        log = EventLog.from_state(state)
        kinds.update(e.event.TAG for e in log.entries)
        known = log.for_seat(seat)
        for world in sample_worlds(known, 2, seed=seed, view=View.from_state(state, seat)):
            assert EventLog.from_state(world).for_seat(seat).entries == known.entries
            assert View.from_state(world, seat) == View.from_state(state, seat)
    assert kinds["set_taken"]  # the positions reached the talon
    assert kinds["talon_discard"]


def test_worlds_give_back_the_skat_players_whole_view() -> None:
    """Every field of the view, ``played`` included (it listed the skat to every seat: decisions M28.7)."""
    game = short_game("skat")
    for seed in range(12):
        state = played_to(game, seed, 0.5, 200)
        for seat in range(game.players):
            known = EventLog.from_state(state).for_seat(seat)
            for world in sample_worlds(known, 2, seed=seed, view=View.from_state(state, seat)):
                assert View.from_state(world, seat) == View.from_state(state, seat)


def test_worlds_keep_the_seats_hand_and_vary_the_others() -> None:
    game = trickrules.load("whist")
    state = played_to(game, 5, 0.0, 20)
    known = EventLog.from_state(state).for_seat(1)
    worlds = sample_worlds(known, 20, seed=1)
    assert all(w.hands[1] == state.hands[1] for w in worlds)
    assert len({w.hands for w in worlds}) > 1
    assert all(w.match.seed != state.match.seed for w in worlds)  # the seed is the world's own


def test_the_sampler_reads_only_a_seats_log() -> None:
    state = trickrules.load("whist").new_match(seed=1)
    with pytest.raises(ArgumentError, match="one seat's view"):
        sample_worlds(EventLog.from_state(state), 1)
    with pytest.raises(ArgumentError, match="known must be"):
        sample_worlds(state, 1)  # type: ignore[arg-type]
    full = EventLog.from_state(state)
    forged = attrs.evolve(full, header=attrs.evolve(full.header, seat=0))  # every hand, labelled as one seat's
    with pytest.raises(ArgumentError, match="cannot see"):
        sample_worlds(forged, 1)
    with pytest.raises(ArgumentError, match="view must be seat 0"):
        sample_worlds(EventLog.from_state(state).for_seat(0), 1, view=View.from_state(state, 1))
    with pytest.raises(ArgumentError, match="n must be"):
        sample_worlds(EventLog.from_state(state).for_seat(0), -1)


def test_weights_are_normalized() -> None:
    state = played_to(trickrules.load("spades"), 3, 0.0, 30)
    known = EventLog.from_state(state).for_seat(0)
    found = weighted_worlds(known, 5, lambda w: 1 + w.hands[1] % 3, seed=2)
    assert len(found) == 5
    assert abs(sum(x for _, x in found) - 1) < 1e-9
    raw = [1 + w.hands[1] % 3 for w, _ in found]
    assert [x for _, x in found] == pytest.approx([r / sum(raw) for r in raw])
    with pytest.raises(ArgumentError):
        weighted_worlds(known, 3, lambda w: -1.0, seed=2)


def test_forbidden_sets_are_exact_for_the_engines_duties() -> None:
    """For every card of a true hand: legal by the engine iff the hand holds none of the card's forbidden set."""
    checked = 0
    for name in GAMES:
        game = short_game(name)
        for seed in range(6):
            state = played_to(game, seed, 0.8, 40 + 13 * seed)
            if state.phase != "play" or state.to_move is None:
                continue
            seat = state.to_move
            hand = state.hands[seat]
            legal, _ = play_mask(state)
            for c in range(len(game.cards.codes)):
                if hand >> c & 1:
                    barred = forbidden(state, seat, c)
                    assert bool(legal >> c & 1) == (not any(hand >> x & 1 for x in barred)), (name, seed, c)
                    checked += 1
    assert checked > 200


def test_the_widow_the_declarer_sees_before_his_first_discard_stays_in_every_world() -> None:
    """OpenSpiel's Skat shows the declarer the skat as he discards (his view), before the log says he took it."""
    game = short_game("skat-openspiel")
    state = played_to(game, 70, 0.0, 2)
    assert state.phase == "widow"
    seat = state.to_move
    assert seat is not None
    view = View.from_state(state, seat)
    known = EventLog.from_state(state).for_seat(seat)
    for world in sample_worlds(known, 4, seed=70, view=view):
        assert View.from_state(world, seat) == view


def test_the_plays_ahead_only_guide_the_reading() -> None:
    # While the log is read, the worlds drawn hold the deal's later plays (DealFacts.ahead); once it
    # is read they are facts of their own and `ahead` is empty. A play ahead that the facts read so
    # far cannot place (here: one of the seat's own cards said to be another's) is dropped, not an error.
    game = trickrules.load("hearts")
    state = game.new_match(seed=5)
    rng = random.Random(5)
    while state.phase != "play" or len(state.hand(0)) > 10:
        state = state.apply(state.seeded_outcome() if state.is_chance else rng.choice(state.legal_actions()))
    seat = state.chooser or 0
    sampler = WorldSampler(EventLog.from_state(state).for_seat(seat), game, View.from_state(state, seat))
    d = sampler.deals[-1]
    assert not d.ahead
    plays = sum(isinstance(e.event, CardPlayed) for e in EventLog.from_state(state).entries)
    assert len(d.stays) == plays > 0
    own = next(game.cards.codes.index(c) for c in state.hand(seat) if c in d.own)  # dealt to the seat, still held
    d.ahead.append((own, (seat + 1) % game.players, len(sampler.entries) - 1))
    assert d.problem()[0].count() == 0
    chosen = sampler._sample_deal(d, random.Random(1))
    assert not d.ahead
    assert chosen[own].start == seat
