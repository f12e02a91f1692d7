"""The talon in exposed sets (``[mechanisms.talon_sets]``): take one set of the talon, discard as many.

The game here is a small spec on a 54-card tarok pack (22 taroks, four suits of eight) for three
players, 16 cards each, so six cards lie in the talon; only the mechanism's behaviour is checked.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import trickrules
from trickrules import EventLog, IllegalActionError, SpecError, View
from trickrules.engine.game import Game
from trickrules.engine.phases.talon_sets import (
    SetTaken,
    TalonDiscarded,
    TalonSetsView,
    arrangement,
    arrangement_index,
)
from trickrules.engine.values import Stacked
from trickrules.records.replay import replay

_TAROKS = [
    "I",
    "II",
    "III",
    "IIII",
    "V",
    "VI",
    "VII",
    "VIII",
    "IX",
    "X",
    "XI",
    "XII",
    "XIII",
    "XIV",
    "XV",
    "XVI",
    "XVII",
    "XVIII",
    "XIX",
    "XX",
    "XXI",
    "Sk",
]
_RED = ["4", "3", "2", "1", "J", "Kn", "Q", "K"]
_BLACK = ["7", "8", "9", "10", "J", "Kn", "Q", "K"]
_RANKS = [*_TAROKS, "4", "3", "2", "1", "7", "8", "9", "10", "J", "Kn", "Q", "K"]


def _spec_text(section: str) -> str:
    removed = [f"{r}T" for r in _RANKS[22:]]
    for suit, kept in (("H", _RED), ("D", _RED), ("S", _BLACK), ("C", _BLACK)):
        removed += [f"{r}{suit}" for r in _RANKS if r not in kept]
    ranks = ", ".join(f'{{ code = "{r}", name = "{r}" }}' for r in _RANKS)
    quoted = ", ".join(f'"{c}"' for c in removed)
    return f"""
name = "talon-test"
title = "Talon test"

[deck]
suits = [
  {{ code = "T", name = "taroks", colour = "taroks" }},
  {{ code = "H", name = "hearts", colour = "red" }},
  {{ code = "D", name = "diamonds", colour = "red" }},
  {{ code = "S", name = "spades", colour = "black" }},
  {{ code = "C", name = "clubs", colour = "black" }},
]
ranks = [{ranks}]
removed = [{quoted}]

[ranks.plain]
taroks = [{", ".join(f'"{r}"' for r in reversed(_TAROKS))}]
red = ["K", "Q", "Kn", "J", "1", "2", "3", "4"]
black = ["K", "Q", "Kn", "J", "10", "9", "8", "7"]

[trump]
chosen_by = "fixed"
suit = "T"

[seating]
players = 3

[deal]
packets = [16]

[bidding]
auction = "until_passes"
contracts = [{{ name = "three" }}, {{ name = "two" }}, {{ name = "one" }}, {{ name = "solo" }}]

[play]
obligations = [{{ rule = "follow_suit" }}, {{ rule = "trump_when_void" }}]

[[scoring.outcomes]]
name = "won"
when = "tricks > 8"
pay = [{{ to = "declarer", amount = "1" }}]

[match]
deals = 1

{section}
"""


_SECTION = """[mechanisms.talon_sets]
sets = { three = 3, two = 2, one = 1 }
never = ["KH", "KD", "KS", "KC", "IT", "XXIT", "SkT"]
last_resort = ["T"]
shown = ["T"]
"""


def _game(tmp_path: Path, section: str = _SECTION) -> Game:
    path = tmp_path / "talon-test.toml"
    path.write_text(_spec_text(section))
    return trickrules.load(path)


@pytest.fixture
def game(tmp_path: Path) -> Game:
    return _game(tmp_path)


def test_arrangement_and_its_index_are_inverse() -> None:
    cards = (3, 9, 14, 20)
    seen = set()
    for k in range(24):
        order = arrangement(cards, k)
        assert sorted(order) == list(cards)
        assert arrangement_index(cards, order) == k
        seen.add(order)
    assert len(seen) == 24  # every arrangement once
    assert arrangement(cards, 0) == cards
    assert arrangement(cards, 23) == tuple(reversed(cards))


def _stacked(game: Game, talon: list[str], hands: list[list[str]]) -> trickrules.State:
    talon_cards = tuple(game.cards.card(c) for c in talon)
    index = arrangement_index(tuple(sorted(talon_cards)), talon_cards)
    return game.new_match(seed=1, dealer=2, deals={0: Stacked(tuple(map(tuple, hands)), "", (("arrange", index),))})


def _deal() -> tuple[list[str], list[list[str]]]:
    codes = (
        [f"{r}T" for r in _TAROKS] + [f"{r}{s}" for s in "HD" for r in _RED] + [f"{r}{s}" for s in "SC" for r in _BLACK]
    )
    talon = ["KH", "IIT", "7S", "XXIT", "QD", "JC"]
    rest = [c for c in codes if c not in talon]
    random.Random(4).shuffle(rest)
    return talon, [sorted(rest[k * 16 : (k + 1) * 16]) for k in range(3)]


def test_the_declarer_takes_a_set_of_the_talon_in_its_drawn_order_and_discards_as_many(game: Game) -> None:
    talon, hands = _deal()
    state = _stacked(game, talon, hands)
    assert state.phase == "bidding"
    assert state.to_move == 0
    state = state.apply("bid two").apply("pass").apply("pass")
    assert state.phase == "talon_sets"
    assert state.to_move == 0
    assert [str(a) for a in state.legal_actions()] == ["take 1", "take 2", "take 3"]
    seen = View.from_state(state, 1).part(TalonSetsView)
    assert seen is not None
    assert seen.sets == (("KH", "IIT"), ("7S", "XXIT"), ("QD", "JC"))
    state = state.apply("take 2")
    taken = state.last_events[0]
    assert isinstance(taken, SetTaken)
    assert taken.cards == ("7S", "XXIT")
    assert taken.number == 2
    assert "7S" in state.hand(0)
    assert "XXIT" in state.hand(0)
    offered = {a.arg for a in state.legal_actions()}
    assert "XXIT" not in offered
    assert not any(c.startswith("K") and len(c) == 2 for c in offered)
    assert not any(c.endswith("T") for c in offered)  # taroks only when nothing else may go
    state = state.apply("discard 7S")
    assert state.phase == "talon_sets"
    assert state.to_move == 0
    plain = next(a for a in state.legal_actions())
    state = state.apply(plain)
    assert state.phase == "play"
    assert len(state.hand(0)) == 16
    assert "7S" not in state.hand(0)
    log = EventLog.from_state(state)
    other = [e for e in log.for_seat(1).events if isinstance(e, TalonDiscarded)]
    own = [e for e in log.for_seat(0).events if isinstance(e, TalonDiscarded)]
    assert [e.card for e in other] == ["?", "?"]
    assert [e.card for e in own] == ["7S", plain.arg]


def test_a_refused_discard_names_the_rule(game: Game) -> None:
    talon, hands = _deal()
    state = _stacked(game, talon, hands).apply("bid one").apply("pass").apply("pass").apply("take 4")
    with pytest.raises(IllegalActionError, match="never one the rules keep"):
        state.apply("discard XXIT")
    with pytest.raises(IllegalActionError, match="first takes one of the talon's sets"):
        _stacked(game, talon, hands).apply("bid one").apply("pass").apply("pass").apply("discard QD")


def test_taroks_go_when_nothing_else_may_and_are_seen_by_all(tmp_path: Path) -> None:
    talon, hands = _deal()
    game = _game(tmp_path)
    taroks = [f"{r}T" for r in _TAROKS if f"{r}T" not in talon]
    kings = ["KS", "KC", "KD"]
    hands = [sorted(taroks[:13] + kings), [], []]
    rest = [c for c in game.cards.codes if c not in talon and c not in hands[0]]
    hands[1], hands[2] = sorted(rest[:16]), sorted(rest[16:])
    state = _stacked(game, talon, hands).apply("bid one").apply("pass").apply("pass").apply("take 1")
    # KH came in: the kings and the trula stay, so only the other taroks may go
    offered = [a.arg for a in state.legal_actions()]
    assert offered
    assert all(c.endswith("T") and c not in ("IT", "XXIT", "SkT") for c in offered)
    state = state.apply(f"discard {offered[0]}")
    public = state.last_events[0]
    assert isinstance(public, TalonDiscarded)
    assert public.public
    assert [e.card for e in EventLog.from_state(state).for_seat(2).events if isinstance(e, TalonDiscarded)] == [
        offered[0]
    ]


def test_no_talon_in_a_contract_without_sets(game: Game) -> None:
    talon, hands = _deal()
    state = _stacked(game, talon, hands).apply("bid solo").apply("pass").apply("pass")
    assert state.phase == "play"


def test_matches_with_the_talon_play_log_and_replay(game: Game) -> None:
    from trickrules.faces.bots import make_bots
    from trickrules.faces.match import play_match

    taken = 0
    for seed in range(6):
        final = play_match(game, make_bots(game, "random", seed=seed), seed=seed, max_deals=1)
        log = EventLog.from_state(final)
        taken += sum(isinstance(e, SetTaken) for e in log.events)
        again = replay(EventLog.from_json(log.to_json()), game=game, partial=True)
        assert again.match == final.match
        assert again.hands == final.hands
    assert taken  # some of these deals took a set of the talon


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ("[mechanisms.talon_sets]\nsets = { three = 4 }\n", r"sets\.three: a set size must divide the talon's 6 cards"),
        ("[mechanisms.talon_sets]\nsets = { four = 3 }\n", r"sets\.four: not a contract"),
        ('[mechanisms.talon_sets]\nsets = { three = 3 }\nnever = ["ZZ"]\n', r"never: 'ZZ' is not a card"),
        ('[mechanisms.talon_sets]\nsets = { three = 3 }\nshown = ["X"]\n', r"shown: 'X' is not a suit"),
        ("[mechanisms.talon_sets]\nsets = { three = 3 }\nkeep = []\n", r"keep: not a key of this section"),
    ],
)
def test_a_bad_section_is_a_spec_error_naming_the_key(tmp_path: Path, section: str, message: str) -> None:
    with pytest.raises(SpecError, match=message):
        _game(tmp_path, section)
