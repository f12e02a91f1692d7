"""The end of a deal: scoring it, then the next deal or the end of the match.

A deal ends after its last trick, when the contract's ``end_when`` stops the
play, when a declined late announcement ends it, or (thrown in) when
everyone passed and the rules redeal to the next dealer. The match ends at
its target score, at the mercy threshold, when ``match.end_when`` holds for a
side, or after its number of deals, with the spec's tie-break; :mod:`trickrules.engine.carry` carries the counters
from deal to deal and adds the bonus for winning the match.
"""

from __future__ import annotations

from trickrules.compile.modes import MatchWinner, PotAtEnd, TieBreak
from trickrules.engine.carry import carried_counters, match_bonus, match_variables
from trickrules.engine.evaluation import evaluate_in_deal
from trickrules.engine.events import POT, DealScored, Event, MatchEnded, paid
from trickrules.engine.phases.deal import MAX_START, MAX_START_TEXT, dealing, start_deal
from trickrules.engine.scoring import pay_deal, sides_of_deal
from trickrules.engine.state import State
from trickrules.engine.values import DEALER, Actor, DealInfo, MatchInfo, Phase, Step, Tally, evolve
from trickrules.errors import FormulaError

__all__ = ["ends_early", "finish_deal", "pass_out"]


def ends_early(state: State, d: DealInfo, tally: Tally) -> bool:
    """Whether the contract's ``end_when`` stops the play after this trick."""
    if d.contract is None:
        return False
    end_when = state.game.rules.contracts[d.contract].end_when
    if end_when is None:
        return False
    side = sides_of_deal(state.game.tables, d)[0]
    tricks = sum(1 for w in tally.winners if w in side)
    env = {
        "tricks": tricks,
        "opp_tricks": len(tally.winners) - tricks,
        "tricks_played": len(tally.winners),
        "tricks_total": d.tricks,
    }
    return bool(evaluate_in_deal(end_when, env, state.deal.number))


def finish_deal(
    state: State, hands: tuple[int, ...], d: DealInfo, tally: Tally, events: list[tuple[Actor, Event]]
) -> State:
    """Score the finished deal, then deal the next one or end the match."""
    scores, pot, applied = pay_deal(state.game, state.match, d, tally, events)
    _check_totals(d, scores, pot)
    events.append((DEALER, DealScored(d.number, ", ".join(applied) or "none", tuple(scores), pot)))
    counters = carried_counters(state.game, state.match, d, tally)
    match = evolve(state.match, scores=tuple(scores), pot=pot, deals_done=state.match.deals_done + 1, counters=counters)
    return _after_deal(state, hands, d, tally, match, events)


def pass_out(state: State, d: DealInfo, events: list[tuple[Actor, Event]]) -> State:
    """A deal everyone passed, thrown in: it counts as played, and the next dealer deals.

    The caller has counted it (``deal.thrown_in``); the next deal knows how many were thrown in before it.
    """
    match = state.match
    events.append((DEALER, DealScored(d.number, "passed out", match.scores, match.pot)))
    match = evolve(match, deals_done=match.deals_done + 1)
    return _after_deal(state, state.hands, d, state.tally, match, events, dealing(d).thrown + 1)


def _check_totals(d: DealInfo, scores: list[int], pot: int) -> None:
    """Refuse totals past ``MAX_START``, the largest a match may start from (so every state can be resumed)."""
    if any(abs(x) > MAX_START for x in scores) or abs(pot) > MAX_START:
        raise FormulaError(
            f"deal {d.number}: the totals after scoring ({', '.join(map(str, scores))}; pot {pot}) pass "
            f"{MAX_START_TEXT}, the largest the engine carries; the match cannot go on from this deal."
        )


def _after_deal(
    state: State,
    hands: tuple[int, ...],
    d: DealInfo,
    tally: Tally,
    match: MatchInfo,
    events: list[tuple[Actor, Event]],
    thrown: int = 0,
) -> State:
    """The match over, or the next deal dealt by the next dealer (after ``thrown`` deals in a row thrown in)."""
    game = state.game
    winners = _match_winners(state, match, d)
    if winners:
        match = evolve(_share_pot(state, match, events), winners=winners)
        match = match_bonus(game, match, events)
        events.append((DEALER, MatchEnded(match.scores, winners)))
        history = Step(state.history, tuple(events))
        return State(game, Phase.OVER, None, hands, (), state.leader, d, tally, match, history)
    ended = State(game, Phase.OVER, None, hands, (), state.leader, d, tally, match, state.history)
    dealer = (d.dealer + 1) % game.players
    return start_deal(ended, d.number + 1, dealing(d).shuffle + 1, dealer, match, events, thrown=thrown)


def _share_pot(state: State, match: MatchInfo, events: list[tuple[Actor, Event]]) -> MatchInfo:
    """At the end of a match with ``pot_at_end = "shared"``: the pot shared equally (a remainder stays)."""
    n = state.game.players
    each = match.pot // n if state.game.rules.pot_at_end is PotAtEnd.SHARED else 0
    if not each:
        return match
    for seat in range(n):
        events.append((DEALER, paid(POT, seat, each, "pot shared at the end")))
    return evolve(match, scores=tuple(x + each for x in match.scores), pot=match.pot - each * n)


def _match_winners(state: State, match: MatchInfo, d: DealInfo) -> tuple[int, ...]:
    """The winning seats if the match is over after this deal, else ``()``."""
    rules = state.game.rules
    groups = state.game.tables.groups
    scores = match.scores
    totals = [scores[g[0]] for g in groups]
    done = False
    if rules.match_target and max(totals) >= rules.match_target:
        reached = [g for g, t in zip(groups, totals, strict=True) if t >= rules.match_target]
        if len(reached) > 1 and rules.tie_break is TieBreak.DEALER_SIDE:
            dealer_group = [g for g in reached if d.dealer in g]
            if dealer_group:
                return tuple(sorted(dealer_group[0]))
        done = True
    mercy = rules.bids.mercy_threshold
    if mercy is not None and min(totals) <= mercy:  # the mercy rule: a side fell to the threshold
        done = True
    if rules.bids.end_when is not None and _ends_by_rule(state, match, d):
        done = True
    # "played_out": past the agreed number, deals go on until one ends with the pot empty.
    if (
        rules.match_deals
        and match.deals_done >= rules.match_deals
        and (not match.pot or rules.pot_at_end is not PotAtEnd.PLAYED_OUT)
    ):
        done = True
    if not done:
        return ()
    lowest_wins = state.game.rules.match_winner is MatchWinner.LOWEST  # penalty points
    best = min(totals) if lowest_wins else max(totals)
    leaders = [g for g, t in zip(groups, totals, strict=True) if t == best]
    if len(leaders) > 1 and rules.tie_break is TieBreak.EXTRA_DEAL:
        return ()
    return tuple(sorted(s for g in leaders for s in g))


def _ends_by_rule(state: State, match: MatchInfo, d: DealInfo) -> bool:
    """Whether ``match.end_when`` holds for some side after deal ``d`` (``match``: its counters and scores after it)."""
    game = state.game
    end_when = game.rules.bids.end_when
    assert end_when is not None
    groups = game.tables.groups
    return any(evaluate_in_deal(end_when, match_variables(game, match, g, d.number), d.number) for g in groups)
