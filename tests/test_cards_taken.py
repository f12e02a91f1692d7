"""The cards_taken mechanism, and Tarok's silent bonuses as the rule book has them (option ``bonuses = "rules"``).

The mechanism's counts are checked against the log (the cards of each ``trick``
event, credited to its winner) at every step of random deals. The option's
kings and trula are checked against an overlay that reads the rules alike but
pays neither bonus: on the same random deals the scores may differ only by 10
to or from the declarer whose side (or whose opponents) took all four kings, or
the three trula cards, in the tricks of three, two or one.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import parts
import trickrules
from trickrules import SpecError, State
from trickrules.engine.events import DealScored
from trickrules.engine.scoring import deal_facts

KINGS = {"KH", "KD", "KS", "KC"}
TRULA = {"IT", "XXIT", "SkT"}


def taken(state: State, cards: set[str], deal: int | None = None) -> list[int]:
    """How many of ``cards`` each seat took in the tricks of deal ``deal`` (default: the current one), from the log."""
    counts = [0] * state.game.players
    for trick in parts.tricks_of_deal(state, state.deal.number if deal is None else deal):
        counts[trick.seat] += len(cards & set(trick.cards))
    return counts


@pytest.mark.parametrize("players", ["3", "4"])
def test_the_counts_are_the_cards_each_seat_took_in_tricks(players: str) -> None:
    game = trickrules.load("tarok", {"bonuses": "rules", "players": players})
    checked = 0
    for seed in range(100):
        rng = random.Random(seed)
        state = game.new_match(seed=seed)
        while not state.is_terminal:
            if state.phase == "play":
                external = deal_facts(game, state.deal)["external"]
                assert list(external["kings_taken"]) == taken(state, KINGS)
                assert list(external["trula_taken"]) == taken(state, TRULA)
                checked += 1
            state = state.apply(rng.choice(state.legal_actions()))
    assert checked > 400


#: The rule book's reading with its two silent bonuses at 0: against it, the option's payments differ by them alone.
WITHOUT_BONUSES = """extends = "tarok"
[variant]
name = "tarok-rules-without-bonuses"
title = "t"
changes = []
[mechanisms.cards_taken]
sets = { kings_taken = ["KH", "KD", "KS", "KC"], trula_taken = ["IT", "XXIT", "SkT"] }
[scoring]
external = ["captured", "king_last", "pagat_last", "kings_taken", "trula_taken"]
[scoring.vars]
kings = "0"
trula = "0"
[[bidding.announcements]]
name = "kings"
contracts = ["three", "two", "one"]
[[bidding.announcements]]
name = "trula"
contracts = ["three", "two", "one"]
[[bidding.announcements]]
name = "pagat_ultimo"
contracts = ["three", "two", "one"]
[[scoring.outcomes]]
name = "valat won"
when = "opp_tricks == 0"
[[scoring.outcomes]]
name = "valat lost"
when = "tricks == 0"
"""


def _played(game: trickrules.Game, seed: int, announce: str = "") -> State:
    """A one-deal match to its end, played alike in any reading, with the announcement given.

    A bid of one, two or three where one is offered (random bids climb to the valats, which have no bonuses),
    else random bids and cards.
    """
    rng = random.Random(seed)
    state = game.new_match(seed=seed)
    while not state.is_terminal:
        legal = [str(a) for a in state.legal_actions()]
        if any(a.startswith("announce ") for a in legal):
            state = state.apply(announce if announce in legal else "pass")
            continue
        games = [a for a in legal if a in ("bid three", "bid two", "bid one")]
        state = state.apply(rng.choice(games) if games else rng.choice(legal))
    return state


def _outcome(state: State) -> str:
    return next(e for _, e in reversed(state.entries()) if isinstance(e, DealScored)).outcome


def _scores(state: State) -> list[int]:
    scored = next(e for _, e in reversed(state.entries()) if isinstance(e, DealScored))
    return list(scored.scoreboard)


def test_the_rule_books_kings_and_trula_pay_10_to_the_side_that_took_them_all(tmp_path: Path) -> None:
    path = tmp_path / "tarok-rules-without-bonuses.toml"
    path.write_text(WITHOUT_BONUSES)
    rules, without = trickrules.load("tarok", {"bonuses": "rules"}), trickrules.load(path)
    paid = {"kings": 0, "trula": 0}
    for seed in range(400):
        a, b = _played(rules, seed), _played(without, seed)
        assert a.deal.dealt == b.deal.dealt  # the same deal, played alike
        d = a.deal
        kings, trula = taken(a, KINGS, d.number), taken(a, TRULA, d.number)
        expected = [0] * 3
        contract = a.game.rules.contracts[d.contract].name if d.contract is not None else ""
        if contract in ("three", "two", "one") and d.declarer is not None:  # three players: the declarer alone
            mine, theirs = kings[d.declarer], sum(kings) - kings[d.declarer]
            expected[d.declarer] += 10 if mine == 4 else -10 if theirs == 4 else 0
            paid["kings"] += 4 in (mine, theirs)
            mine, theirs = trula[d.declarer], sum(trula) - trula[d.declarer]
            expected[d.declarer] += 10 if mine == 3 else -10 if theirs == 3 else 0
            paid["trula"] += 3 in (mine, theirs)
        assert [x - y for x, y in zip(_scores(a), _scores(b), strict=True)] == expected, (seed, contract, kings, trula)
    assert paid["kings"] > 0
    assert paid["trula"] > 0


def test_a_bad_section_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(
        'extends = "tarok"\n[variant]\nname = "t"\ntitle = "t"\nchanges = []\n'
        '[mechanisms.cards_taken]\nsets = { kings_taken = ["KH", "ZZ"] }\n'
        '[scoring]\nexternal = ["captured", "king_last", "pagat_last", "kings_taken"]\n'
    )
    with pytest.raises(SpecError, match=r"mechanisms\.cards_taken\.sets\.kings_taken: 'ZZ' is not a card"):
        trickrules.load(path)


def test_an_announced_bonus_counts_double_and_is_lost_double() -> None:
    rules = trickrules.load("tarok", {"bonuses": "rules"})
    outcomes = set()
    for seed in range(1000):
        silent = _played(rules, seed)
        announced = _played(rules, seed, "announce kings")
        d = silent.deal
        contract = rules.rules.contracts[d.contract].name if d.contract is not None else ""
        if contract not in ("three", "two", "one") or d.declarer is None:
            continue
        kings = taken(silent, KINGS, d.number)
        assert kings == taken(announced, KINGS, d.number)  # the same play: only the announcement differs
        if "valat" in _outcome(silent):
            continue  # a valat is scored in place of the game and its bonuses
        mine, theirs = kings[d.declarer], sum(kings) - kings[d.declarer]
        single = 10 if mine == 4 else -10 if theirs == 4 else 0
        double = 20 if mine == 4 else -20
        delta = _scores(announced)[d.declarer] - _scores(silent)[d.declarer]
        assert delta == double - single, (seed, kings)
        outcomes.add("made" if mine == 4 else "lost")
    assert outcomes == {"made", "lost"}
