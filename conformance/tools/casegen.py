"""Helpers that write the long Manille conformance cases (whole deals, whole matches).

Not part of the library or the suite: the runner reads only ``*.toml`` under
``conformance/cases/``. This script found the card plays of the cases that play
whole deals, so that each deal ends with the card points the case is about.
Rerun it only if the shuffle (``trickrules.engine.rng.RNG_VERSION``) or the seeded
deals change; the cases it wrote then need writing again.

It keeps its own small model of Manille (rank order, card points, trick
winner), independent of the engine, and checks every trick the engine
reports against it, so a case's expected scores never come from the engine
being tested.

Usage (from the repository root)::

    .venv/bin/python conformance/tools/casegen.py
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ORDER = ["10", "A", "K", "Q", "J", "9", "8", "7"]
POINTS = {"10": 5, "A": 4, "K": 3, "Q": 2, "J": 1, "9": 0, "8": 0, "7": 0}
TEAM = {0: 0, 1: 1, 2: 0, 3: 1}
SIDES = {0: [0, 2], 1: [1, 3]}


def rank(card: str) -> str:
    """The rank code of a card code (``10`` of ``10S``)."""
    return card[:-1]


def suit(card: str) -> str:
    """The suit code of a card code."""
    return card[-1]


def pts(cards: list[str]) -> int:
    """The card points of some cards (lines 29-34)."""
    return sum(POINTS[rank(c)] for c in cards)


def winner(trick: list[str], leader: int, trump: str) -> int:
    """The seat that wins ``trick`` (cards in play order from ``leader``), by the text's rules."""
    led = suit(trick[0])

    def power(card: str) -> int:
        strength = 8 - ORDER.index(rank(card))
        if suit(card) == trump:
            return 100 + strength
        if suit(card) == led:
            return strength
        return -1

    best = max(range(4), key=lambda i: power(trick[i]))
    return (leader + best) % 4


@dataclass
class DealPlan:
    """What one deal must give: the trump choice and the card points of one side."""

    trump: str  # "S", "H", "D", "C" or "none"
    side: int  # 0: seats 0 and 2; 1: seats 1 and 3
    lo: int
    hi: int
    bonus: int = 0  # the last-trick bonus, when the option is on
    revoke_by: int | None = None  # a seat that plays one illegal card (penalise mode)
    also_revoke_by: int | None = None  # a second such seat
    note: str = ""


@dataclass
class DealResult:
    """A deal found by the search: its actions, the TOML lines that show them, the card points."""

    actions: list[str]
    lines: list[str]  # TOML lines: the actions with comments
    points: tuple[int, int] = (0, 0)
    last: int = 0
    revoked: bool = False
    dealer: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def _playout(state: Any, plan: DealPlan, rng: random.Random) -> list[str] | None:
    """One random play of the deal, leaning towards the plan by a random amount; the plays if it fits."""
    trump = plan.trump
    lean = rng.random()
    team_points = [0, 0]
    path: list[str] = []
    pending = {x for x in (plan.revoke_by, plan.also_revoke_by) if x is not None}
    st = state
    leader = st.to_move
    trick: list[str] = []
    for k in range(32):
        seat = st.to_move
        legal = [str(a)[5:] for a in st.legal_actions()]
        if seat in pending and rng.random() < 0.5:
            illegal = [c for c in st.hand(seat) if c not in legal]
            if illegal:
                legal = [rng.choice(illegal)]
                pending.discard(seat)
        if trick and rng.random() < lean:
            want_more = team_points[plan.side] < plan.lo
            short = plan.lo - team_points[plan.side]

            def key(card: str, trick: list[str] = trick, leader: int = leader, want_more: bool = want_more) -> float:
                t = [*trick, card]
                w = winner(t + ["7X"] * (4 - len(t)), leader, trump)
                side_wins = TEAM[w] == plan.side
                return -(POINTS[rank(card)] + (8 if side_wins == want_more else 0)) + rng.random() * 3

            card = min(legal, key=key) if short > 0 or team_points[plan.side] < plan.hi else rng.choice(legal)
        else:
            card = rng.choice(legal)
        st = st.apply(f"play {card}")
        path.append(f"play {card}")
        trick.append(card)
        if len(trick) == 4:
            w = winner(trick, leader, trump)
            got = [e for e in st.last_events if type(e).__name__ == "TrickWon"]
            assert got and got[0].seat == w, (trick, leader, trump, got)
            gain = pts(trick) + (plan.bonus if k == 31 else 0)
            team_points[TEAM[w]] += gain
            if team_points[plan.side] > plan.hi:
                return None
            trick = []
            leader = w
    if pending or not plan.lo <= team_points[plan.side] <= plan.hi:
        return None
    return path


def _search(state: Any, plan: DealPlan, rng: random.Random, budget: list[int]) -> list[str] | None:
    while budget[0] > 0:
        budget[0] -= 1
        found = _playout(state, plan, rng)
        if found is not None:
            return found
    return None


def play_deal(state: Any, plan: DealPlan, seed: int = 1) -> tuple[Any, DealResult]:
    """Choose trumps and play one deal so that ``plan.side`` ends with lo..hi points."""
    assert state.phase == "trump", state.phase
    dealer = state.dealer
    hands = [list(state.hand(s)) for s in range(4)]
    st = state.apply(f"trump {plan.trump}")
    rng = random.Random(seed)
    found = _search(st, plan, rng, [50000])
    if found is None:
        raise RuntimeError(f"no play found for {plan}")
    # Replay for the comments and the independent tally.
    lines = []
    trump_word = "en voiture" if plan.trump == "none" else f"trump {plan.trump}"
    lines.append(f'  "trump {plan.trump}",  # deal {state.deal.number + 1}, dealer {dealer}: {trump_word}'
                 + (f"; {plan.note}" if plan.note else ""))
    cur = st
    leader = cur.to_move
    team = [0, 0]
    revoked = False
    last = 0
    for k in range(8):
        cards = []
        revokes = []
        for _ in range(4):
            seat = cur.to_move
            act = found[k * 4 + len(cards)]
            legal = {str(a) for a in cur.legal_actions()}
            if act not in legal:
                revoked = True
                revokes.append(f"seat {seat} revokes with {act[5:]}")
            cur = cur.apply(act)
            cards.append(act[5:])
        w = winner(cards, leader, plan.trump)
        p = pts(cards)
        if k == 7:
            p += plan.bonus
            last = w
        team[TEAM[w]] += p
        acts = ", ".join(f'"play {c}"' for c in cards)
        extra = " (last trick, with the bonus)" if k == 7 and plan.bonus else ""
        rev = f" ({'; '.join(revokes)})" if revokes else ""
        lines.append(f"  {acts},  # trick {k + 1}: seat {w} wins {p}{extra}{rev}; seats 0+2 {team[0]}, 1+3 {team[1]}")
        leader = w
    res = DealResult([f"trump {plan.trump}", *found], lines, (team[0], team[1]), last, revoked, dealer,
                     {"hands": hands})
    return cur, res


def toml_list(values: list[str]) -> str:
    """A TOML array of strings."""
    return "[" + ", ".join(f'"{v}"' for v in values) + "]"


def hands_toml(hands: list[list[str]]) -> str:
    """The ``hands = [...]`` key of a case."""
    return "hands = [\n" + "".join(f"  {toml_list(h)},\n" for h in hands) + "]"


def case_toml(
    case_id: str,
    clauses: list[str],
    note: str,
    results: list[DealResult],
    expect: list[str],
    options: dict[str, str] | None = None,
    seed: int = 0,
    dealer: int = 0,
    hands: list[list[str]] | None = None,
    head: list[str] | None = None,
) -> str:
    out = ["[[case]]", f'id = "{case_id}"']
    if len(clauses) == 1:
        out.append(f'clause = "{clauses[0]}"')
    else:
        out.append("clauses = " + toml_list(clauses))
    if options:
        out.append("options = { " + ", ".join(f'{k} = "{v}"' for k, v in options.items()) + " }")
    if seed:
        out.append(f"seed = {seed}")
    out.append(f"dealer = {dealer}")
    if hands is not None:
        out.append(hands_toml(hands))
    out.append(f'note = """{note}"""')
    out.append("actions = [")
    for r in results:
        out.extend(r.lines)
    out.append("]")
    out.append("")
    out.append("[case.expect]")
    out.extend(expect)
    return "\n".join(out) + "\n"


def run_plans(game: Any, plans: list[DealPlan], seed: int = 0, dealer: int = 0,
              hands: list[list[str]] | None = None) -> tuple[Any, list[DealResult]]:
    state = game.new_match(seed=seed, dealer=dealer, hands=hands)
    results = []
    for n, plan in enumerate(plans):
        state, res = play_deal(state, plan, seed=n + 1)
        results.append(res)
    return state, results


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from make_cases import main  # type: ignore[import-not-found]

    main()
