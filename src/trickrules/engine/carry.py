"""What a deal carries into the match beyond the scores: counters, and the bonus for winning the match.

After a deal is paid, every counter of ``scoring.counters`` takes its next
value for each side (the fixed teams, or each player) from its ``update``
formula, evaluated in the side's variables of that deal, where the counter
still has the value it had before the deal. When the match ends,
``match.win_bonus`` is added to each winning side that reached the target
and taken from each other side that fell to the mercy threshold.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trickrules.engine.evaluation import evaluate_in_deal
from trickrules.engine.events import Awarded, Event
from trickrules.engine.scoring import side_variables
from trickrules.engine.values import DEALER, Actor, DealInfo, MatchInfo, Tally, evolve
from trickrules.spec.formula import to_int

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["carried_counters", "match_bonus", "match_variables"]


def carried_counters(game: GameLike, match: MatchInfo, d: DealInfo, tally: Tally) -> tuple[tuple[int, ...], ...]:
    """Every counter's value per seat after the deal (``match`` is the match as the deal began)."""
    rules = game.rules
    counters = rules.bids.counters
    if not counters:
        return match.counters
    variables = side_variables(game, match, d, tally)
    out = []
    for k, counter in enumerate(counters):
        values = list(match.counters[k])
        for side in game.tables.groups:
            where = f"deal {d.number}: scoring.counters[{k}].update"
            value = to_int(evaluate_in_deal(counter.update, variables(side), d.number), rules.rounding, where=where)
            for seat in side:
                values[seat] = value
        out.append(tuple(values))
    return tuple(out)


def match_bonus(game: GameLike, match: MatchInfo, events: list[tuple[Actor, Event]]) -> MatchInfo:
    """The match after the bonus for winning it, once its winners are known.

    ``match.win_bonus`` goes to each winning side that reached the target,
    and is taken from each other side at or below the mercy threshold.
    """
    bids = game.rules.bids
    bonus = bids.win_bonus
    if not bonus:
        return match
    target = game.rules.match_target
    scores = list(match.scores)
    for side in game.tables.groups:
        total = match.scores[side[0]]
        if side[0] in match.winners:
            if not target or total < target:
                continue
            points, reason = bonus, "match won"
        elif bids.mercy_threshold is not None and total <= bids.mercy_threshold:
            points, reason = -bonus, "match lost"
        else:
            continue
        for seat in side:
            scores[seat] += points
        events.append((DEALER, Awarded(side, points, reason)))
    return evolve(match, scores=tuple(scores))


def match_variables(game: GameLike, match: MatchInfo, group: tuple[int, ...], number: int) -> dict[str, int | bool]:
    """A side's variables of the match as it stands: its score and counters, the others' highest, the deal's number.

    ``score`` and each counter's name are the side's (its first seat's), ``opp_score`` and ``opp_<name>`` the
    highest of the other seats'; formulas over the match's standing read them (``match.end_when``, a vulnerability
    by ``when``).
    """
    others = [s for s in range(game.players) if s not in group]
    scores = match.scores
    env: dict[str, int | bool] = {
        "score": scores[group[0]],
        "opp_score": max((scores[s] for s in others), default=0),
        "deal": number,
    }
    for name, values in zip(game.scoring.counter_names, match.counters, strict=True):
        env[name] = values[group[0]]
        env[f"opp_{name}"] = max((values[s] for s in others), default=0)
    return env
