"""Action ids: every game numbers its distinct actions stably (``Game.distinct_actions``).

Every action a seat is offered along random matches of every bundled game has
an id that gives it back; a card's ``play`` has the card's deck index; and the
numbering of each bundled game is pinned (``tests/golden/action_ids.json``: the
count and a digest of the list), so a change of ids is a deliberate one.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

import trickrules
from trickrules import ArgumentError
from trickrules.spec.loader import bundled_names

PINNED = json.loads((Path(__file__).parent / "golden" / "action_ids.json").read_text())


@pytest.mark.parametrize("name", bundled_names())
def test_every_offered_action_has_an_id_that_gives_it_back(name: str) -> None:
    game = trickrules.load(name)
    rng = random.Random(name)
    offered = 0
    for seed in range(3):
        state = game.new_match(seed=seed)
        for _ in range(400):
            if state.is_terminal:
                break
            if state.is_chance:
                state = state.apply(state.seeded_outcome())
                continue
            legal = state.legal_actions()
            ids = [game.action_id(a) for a in legal]
            assert len(set(ids)) == len(ids)
            assert all(0 <= i < game.num_distinct_actions for i in ids)
            assert [game.action_of(i) for i in ids] == list(legal)
            assert [game.action_id(str(a)) for a in legal] == ids
            offered += len(legal)
            state = state.apply(rng.choice(legal))
    assert offered


@pytest.mark.parametrize("name", bundled_names())
def test_a_cards_play_has_its_deck_index_and_the_numbering_is_pinned(name: str) -> None:
    game = trickrules.load(name)
    assert [game.action_id(f"play {c}") for c in game.cards.codes] == list(range(game.cards.size))
    text = "\n".join(str(a) for a in game.distinct_actions)
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    assert [game.num_distinct_actions, digest] == PINNED[name]
    assert len({str(a) for a in game.distinct_actions}) == game.num_distinct_actions


@pytest.mark.parametrize("bad", ["play ZZ", "bid nonsense", "", 7, None])
def test_an_unknown_action_has_no_id(bad: object) -> None:
    game = trickrules.load("manille")
    with pytest.raises(ArgumentError, match="is not an action of manille"):
        game.action_id(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 102, True, 1.0, "3"])
def test_an_id_out_of_range_is_refused(bad: object) -> None:
    game = trickrules.load("manille")
    with pytest.raises(ArgumentError, match="action_id must be an integer from 0 to 101"):
        game.action_of(bad)  # type: ignore[arg-type]
