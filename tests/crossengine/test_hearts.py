"""Hearts, deal for deal against OpenSpiel's ``hearts``: the same cards, the same choices, the same rules.

Each deal is dealt by trickrules from a seed (``specs/hearts.toml`` with
OpenSpiel's reading: the pass direction drawn by chance, one deal), and
OpenSpiel is given the chance actions that make the same deal: the pass
direction, then the 52 cards in its dealing order (card ``k`` to seat
``k mod 4``). Some deals go the other way round: OpenSpiel's cards at
random, stacked in trickrules with ``new_match(hands=...)``. A seeded player
then walks one sequence of choices through both engines, each seat playing
at random, high, low, or keeping hearts and the Queen to the end (uniform
choice alone seldom shoots the moon or leads before hearts are broken). At
every decision the seat to move and the legal moves (cards to pass, cards to
play) must be the same sets; at the end, every trick's winner and every
seat's points and returns. OpenSpiel's defaults, and each of its parameters
switched, are walked for ``DEALS`` deals each; a last test crosses the
engines (a parameter switched in OpenSpiel only) to show that every
parameter's situations are reached and a disagreement is caught.

Seats are the same numbers in both: OpenSpiel deals the first card to seat
0, so trickrules' dealer is seat 3; play goes to seat + 1 in both. OpenSpiel
gives the winner of a trick as the seat to move after it, so the winners of
the first twelve tricks are compared directly; it does not show the last
trick's winner, which is compared only through the points it moves.

A disagreement names the option set, the seed, the deal, the seats' styles
and the step; ``walk(*games(switched), seed, label)`` replays that deal alone.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import parts
import trickrules
from trickrules import Game, State
from trickrules.engine.events import DealScored, Dealt, TrickWon

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (pip package open-spiel) is not installed")

#: Seeded random deals per option set (OpenSpiel's defaults, and each parameter switched).
DEALS = 1000
#: Deals dealt the other way round (OpenSpiel's cards, trickrules stacked), with the defaults.
STACKED_DEALS = 300
#: OpenSpiel's parameters with their defaults; the spec's options have the same names.
DEFAULTS = {
    "pass_cards": True,
    "no_pts_on_first_trick": True,
    "can_lead_any_club": False,
    "jd_bonus": False,
    "avoid_all_tricks_bonus": False,
    "qs_breaks_hearts": True,
    "must_break_hearts": True,
    "can_lead_hearts_instead_of_qs": False,
}
#: The option sets: the defaults, then each parameter switched from its default.
CASES: list[tuple[str, dict[str, bool]]] = [
    ("defaults", {}),
    *((f"{name}={not value}", {name: not value}) for name, value in DEFAULTS.items()),
]
#: trickrules' options that give OpenSpiel's reading where a match of several deals differs (docs/decisions.md).
OPENSPIEL_READING = {"pass_direction": "chance", "match_end": "one_deal"}

_RANKS = "23456789TJQKA"
_SUITS = "CDHS"


def card_id(code: str) -> int:
    """OpenSpiel's action id of a trickrules card code (``10H`` is its ``TH``)."""
    rank, suit = code[:-1], code[-1]
    return _RANKS.index("T" if rank == "10" else rank) * 4 + _SUITS.index(suit)


def card_code(action: int) -> str:
    """The trickrules card code of an OpenSpiel card id."""
    rank = _RANKS[action // 4]
    return ("10" if rank == "T" else rank) + _SUITS[action % 4]


def games(switched: dict[str, bool]) -> tuple[Game, Any]:
    """The two engines' games for one option set."""
    params = {**DEFAULTS, **switched}
    options: dict[str, object] = {**params, **OPENSPIEL_READING}
    return trickrules.load("hearts", options), pyspiel.load_game("hearts", params)


def first_deal(state: State) -> tuple[tuple[str, ...], ...]:
    """The hands trickrules dealt."""
    dealt = [e for _, e in state.entries() if isinstance(e, Dealt)]
    return dealt[0].hands


def twin(state: State, game: Any) -> Any:
    """OpenSpiel's state for the deal ``state`` holds: its pass direction, then its cards dealt in order."""
    spiel = game.new_initial_state()
    # OpenSpiel's directions are seat offsets too: no pass 0, left 1, across 2, right 3.
    if parts.pass_offset(state) not in spiel.legal_actions():
        raise Disagreement(f"the deal passes {parts.pass_offset(state)} seats on; OpenSpiel: {spiel.legal_actions()}")
    spiel.apply_action(parts.pass_offset(state))
    hands = first_deal(state)
    for k in range(13):
        for seat in range(4):
            spiel.apply_action(card_id(hands[seat][k]))
    return spiel


#: Rank order low to high, for the players below.
_ORDER = {rank: n for n, rank in enumerate(["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"])}


def _by_rank(code: str) -> tuple[int, str]:
    return _ORDER[code[:-1]], code[-1]


def _hoarding(code: str) -> tuple[bool, int, str]:
    return code[-1] == "H" or code == "QS", _ORDER[code[:-1]], code[-1]


#: How a seat chooses among the legal cards (sorted by code). Uniform choice alone seldom
#: reaches the rules' corners, so some seats play high (and shoot the moon now and then),
#: low, or keep hearts and the Queen to the end (leads before hearts are broken).
STYLES = {
    "random": lambda rng, cards: cards[rng.randrange(len(cards))],
    "high": lambda rng, cards: max(cards, key=_by_rank),
    "low": lambda rng, cards: min(cards, key=_by_rank),
    "hoard": lambda rng, cards: min(cards, key=_hoarding),
}
#: Each seat's style for a deal is drawn from these (hoarding twice as often as the others).
STYLE_DRAW = ("random", "high", "low", "hoard", "hoard")


class Disagreement(AssertionError):
    """The engines differ; the message says where, so the deal can be replayed."""


def stacked_pair(tr_game: Game, os_game: Any, seed: int) -> tuple[State, Any]:
    """The other way round: OpenSpiel deals at random (from ``seed``), trickrules is stacked with its hands.

    The pass direction is trickrules' own draw for the seed, given to OpenSpiel as its first chance action.
    """
    rng = random.Random(-1 - seed)
    order = list(range(52))
    rng.shuffle(order)
    hands = [[card_code(order[k]) for k in range(seat, 52, 4)] for seat in range(4)]
    state = tr_game.new_match(seed=seed, dealer=3, hands=hands)
    if first_deal(state) != tuple(tuple(sorted(h, key=state.game.cards.codes.index)) for h in hands):
        raise Disagreement(f"seed {seed}: the stacked hands {hands} were not dealt as given")
    return state, twin(state, os_game)


def walk(tr_game: Game, os_game: Any, seed: int, label: str, *, stacked: bool = False) -> None:
    """Play deal ``seed`` through both engines, comparing at every step; raise :class:`Disagreement`."""
    rng = random.Random(seed)
    styles = [rng.choice(STYLE_DRAW) for _ in range(4)]
    try:
        if stacked:
            state, spiel = stacked_pair(tr_game, os_game, seed)
        else:
            state = tr_game.new_match(seed=seed, dealer=3)
            spiel = twin(state, os_game)
    except Disagreement as exc:
        raise Disagreement(f"[{label}] seed {seed}, step 0: {exc}") from None
    where = f"[{label}] seed {seed}{' (stacked)' if stacked else ''}, deal {first_deal(state)}, styles {styles}"
    step = 0
    os_winners: list[int] = []
    while not state.is_terminal:
        if spiel.is_terminal() or spiel.current_player() != state.to_move:
            raise Disagreement(f"{where}, step {step}: seat to move {state.to_move} vs OpenSpiel's {spiel}")
        ours = {a.arg for a in parts.adapter_legal(state)}
        theirs = {card_code(a) for a in spiel.legal_actions()}
        if ours != theirs:
            raise Disagreement(
                f"{where}, step {step} ({state.phase}, seat {state.to_move}, after {_moves(state)}): "
                f"trickrules allows {sorted(ours)}, OpenSpiel {sorted(theirs)}"
            )
        assert state.to_move is not None
        choice = STYLES[styles[state.to_move]](rng, sorted(ours))
        before = len(state.tally.winners)
        state = state.apply(f"{state.legal_actions()[0].verb} {choice}")
        spiel.apply_action(card_id(choice))
        if len(state.tally.winners) > before and not spiel.is_terminal():
            os_winners.append(spiel.current_player())  # OpenSpiel: the winner leads the next trick
        step += 1
    if not spiel.is_terminal():
        raise Disagreement(f"{where}: trickrules' deal is over after {step} steps, OpenSpiel's is not")
    check_end(state, spiel, os_winners, where)


def check_end(state: State, spiel: Any, os_winners: list[int], where: str) -> None:
    """Compare the trick winners and the points of the finished deal."""
    events = [e for _, e in state.entries()]
    winners = [e.seat for e in events if isinstance(e, TrickWon)]
    if len(winners) != 13 or winners[:12] != os_winners:
        raise Disagreement(f"{where}: trick winners {winners}, OpenSpiel's (first twelve) {os_winners}")
    scored = [e for e in events if isinstance(e, DealScored)]
    points = [int(spiel.points(p)) for p in range(4)]
    if len(scored) != 1 or list(scored[0].scoreboard) != points:
        raise Disagreement(f"{where}: points {[s.scoreboard for s in scored]}, OpenSpiel's {points}")
    returns = [26 - p for p in scored[0].scoreboard]  # OpenSpiel's returns: 26 less the points
    if spiel.returns() != returns:
        raise Disagreement(f"{where}: returns {returns}, OpenSpiel's {spiel.returns()}")


def _moves(state: State) -> list[str]:
    return [f"{actor}:{e.card}" for actor, e in state.entries() if hasattr(e, "card") and isinstance(actor, int)]


@pytest.mark.parametrize(("label", "switched"), CASES, ids=[label for label, _ in CASES])
def test_hearts_plays_as_openspiel(label: str, switched: dict[str, bool]) -> None:
    tr_game, os_game = games(switched)
    for seed in range(DEALS):
        walk(tr_game, os_game, seed, label)


def test_stacked_deals_play_as_openspiel() -> None:
    tr_game, os_game = games({})
    for seed in range(STACKED_DEALS):
        walk(tr_game, os_game, seed, "stacked", stacked=True)


def test_the_cases_switch_every_openspiel_parameter() -> None:
    assert set(pyspiel.load_game("hearts").get_parameters()) == set(DEFAULTS)
    assert pyspiel.load_game("hearts").get_parameters() == DEFAULTS
    assert len(CASES) == 1 + len(DEFAULTS)


def first_disagreement(tr_game: Game, os_game: Any, label: str) -> str:
    """The report of the first deal of the walk on which the two games disagree ("" if none)."""
    for seed in range(DEALS):
        try:
            walk(tr_game, os_game, seed, label)
        except Disagreement as exc:
            return str(exc)
    return ""


@pytest.mark.parametrize("name", list(DEFAULTS))
def test_each_parameter_changes_some_deal_of_the_walk(name: str) -> None:
    # The comparison can fail, for every parameter: trickrules with OpenSpiel's default against
    # OpenSpiel with the parameter switched disagree on some deal of the walk (so the cases
    # above reach each parameter's situations), and the report names the seed and the step.
    tr_game = trickrules.load("hearts", {**DEFAULTS, **OPENSPIEL_READING})
    os_game = pyspiel.load_game("hearts", {**DEFAULTS, name: not DEFAULTS[name]})
    report = first_disagreement(tr_game, os_game, "crossed")
    assert re.match(r"\[crossed\] seed \d+.*(step \d+|points|returns)", report), report
