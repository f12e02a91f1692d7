"""The variables formulas may use, and the range of values each can take in a game.

The names are listed in ``docs/dsl.md`` (Variables); :mod:`trickrules.engine.scoring`
computes their values when a deal is scored. :func:`builtin_ranges` gives the
range of each (:class:`~trickrules.compile.ranges.Range`) from the spec's
numbers: a count of tricks goes from 0 to the largest hand, a condition is 0
or 1, a score is unknown. :mod:`trickrules.compile.formulas` refuses, with
them, a formula that can divide by zero.
"""

from __future__ import annotations

import keyword
from collections.abc import Iterable, Mapping

from attrs import frozen

from trickrules.compile.ranges import BOOL, UNKNOWN, Range, exactly, span
from trickrules.errors import SpecError
from trickrules.spec.formula import FUNCTION_NAMES
from trickrules.spec.sealed import Sealed

__all__ = [
    "BID_PLAYER_VARS",
    "BID_SIDE_VARS",
    "COUNTED_VARS",
    "DEAL_VARS",
    "ELIGIBILITY_VARS",
    "END_VARS",
    "ENGINE_ONLY_PLAYER_VARS",
    "PLAYER_VARS",
    "SIDE_VARS",
    "GameNumbers",
    "builtin_ranges",
    "check_variable_name",
    "fact_ranges",
    "forget_fact_variables",
    "name_problem",
    "register_fact_variables",
]

#: Scoring variables about a side's bids: the sum of its players' bids, and of the others'.
BID_SIDE_VARS = ("bid", "opp_bid")
#: Scoring variables about a player's own bid (``for_each = "player"``).
BID_PLAYER_VARS = ("own_bid",)
#: Variables every scoring formula may use (see ``docs/dsl.md``).
DEAL_VARS = (
    "players",
    "tricks_total",
    "pot",
    "extra_deal",
    "ante",
    "target",
    "deal",
    "no_contract",
    "no_trump",
    "forced",
    "hand",  # the declarer plays from his hand: the widow left as it lies ([mechanisms.widow])
)
#: Variables about the side an outcome is evaluated for.
SIDE_VARS = (
    "tricks",
    "opp_tricks",
    "points",
    "opp_points",
    "card_points",
    "opp_card_points",
    "declared",
    "opp_declared",
    "last_trick",
    "revoked",
    "opp_revoked",
    "is_declarer_side",
    "run",
    "score",
    "opp_score",
    "declarer_tricks",
    "partner_tricks",
    *BID_SIDE_VARS,  # the sum of the side's bids of a number of tricks, and of the others'
    *("alone", "opp_alone"),  # a seat of the side (of the others) sits out: gone or defending alone
    *("point_cards", "opp_point_cards", "point_cards_total", "max_point_cards"),  # cards worth points above 0
)
#: Variables about the player a ``for_each = "player"`` outcome is evaluated for.
PLAYER_VARS = (
    "top_trumps",
    "top_trumps_without",
    "is_declarer",
    "is_partner",
    "own_tricks",
    *BID_PLAYER_VARS,
    *("own_card_points", "own_point_cards", "max_own_card_points", "min_own_card_points"),
)
#: The player variables the native kernel does not compute (a game whose formulas read one is played by the engine).
ENGINE_ONLY_PLAYER_VARS = ("own_card_points", "own_point_cards", "max_own_card_points", "min_own_card_points")
#: The scoring variables whose value at a deal's end depends on its play only through how many tricks each
#: seat took, not on which cards it took nor when: a deal scored by these alone (and by named vars and
#: counters made of them) is searched with the positions of equal trick counts merged.
COUNTED_VARS = frozenset(
    (
        *DEAL_VARS,
        *("tricks", "opp_tricks", "declarer_tricks", "partner_tricks", "own_tricks", *BID_SIDE_VARS, *BID_PLAYER_VARS),
        *("declared", "opp_declared", "revoked", "opp_revoked", "score", "opp_score", "alone", "opp_alone"),
        *("is_declarer_side", "is_declarer", "is_partner", "point_cards_total"),
    )
)
#: Variables of a contract's ``eligible`` formula.
ELIGIBILITY_VARS = ("score", "opp_score", "target", "players", "deal")
#: Variables of a contract's ``end_when`` formula, after each trick: the declarer side's
#: tricks so far, the other side's, how many have been played, and how many a deal has.
END_VARS = ("tricks", "opp_tricks", "tricks_played", "tricks_total")

_CONDITIONS = (
    "hand",
    "extra_deal",
    "no_contract",
    "no_trump",
    "forced",
    "last_trick",
    "revoked",
    "opp_revoked",
    "is_declarer_side",
    "alone",
    "opp_alone",
    "is_declarer",
    "is_partner",
)


@frozen
class GameNumbers(Sealed):
    """The numbers of a game that bound its variables."""

    players: int
    #: The fewest and the most tricks a deal may have (the hand sizes).
    fewest_tricks: int
    most_tricks: int
    target: int
    #: The sums of the card points below 0 and above 0, over the deck; how many cards are worth points.
    negative_points: int
    positive_points: int
    point_cards: int
    #: The most and the least points one declaration is worth (0 when there are none).
    declared_low: int
    declared_high: int
    last_trick_bonus: int
    #: The lowest and the highest bid of a number of tricks (both 0 where nobody bids tricks).
    lowest_bid: int
    highest_bid: int


def _declared(n: GameNumbers) -> Range:
    # A side may make several declarations: bounded only on the side where none is worth less (more) than 0.
    lo = 0 if n.declared_low >= 0 else None
    hi = 0 if n.declared_high <= 0 else None
    return span(lo, hi)


def builtin_ranges(n: GameNumbers, names: tuple[str, ...] = ()) -> Mapping[str, Range]:
    """The range of every built-in variable, and of ``announced_<name>`` for each of ``names``."""
    tricks = span(0, n.most_tricks)
    card_points = span(n.negative_points, n.positive_points)
    bonus = span(min(0, n.last_trick_bonus), max(0, n.last_trick_bonus))
    declared = _declared(n)
    points = _sum(_sum(card_points, declared), bonus)
    bids = span(n.lowest_bid, n.highest_bid * n.players)
    out: dict[str, Range] = dict.fromkeys(_CONDITIONS, BOOL)
    out |= {
        "players": exactly(n.players),
        "tricks_total": span(n.fewest_tricks, n.most_tricks),
        "tricks_played": span(1, n.most_tricks),
        "pot": span(0, None),
        "ante": exactly(0),
        "target": exactly(n.target),
        "deal": span(0, None),
        "score": UNKNOWN,
        "opp_score": UNKNOWN,
        "card_points": card_points,
        "opp_card_points": card_points,
        "declared": declared,
        "opp_declared": declared,
        "points": points,
        "opp_points": points,
        "point_cards": span(0, n.point_cards),
        "opp_point_cards": span(0, n.point_cards),
        "point_cards_total": exactly(n.point_cards),
        "max_point_cards": span(0, n.point_cards),
        "bid": bids,
        "opp_bid": bids,
        "own_bid": span(n.lowest_bid, n.highest_bid),
        "own_card_points": card_points,
        "max_own_card_points": card_points,
        "min_own_card_points": card_points,
        "own_point_cards": span(0, n.point_cards),
    }
    for name in ("tricks", "opp_tricks", "run", "declarer_tricks", "partner_tricks", "own_tricks"):
        out[name] = tricks
    for name in ("top_trumps", "top_trumps_without"):  # a hand and a widow: the most cards one seat may hold
        out[name] = span(0, None)
        out[name] = tricks
    for name in names:
        out[f"announced_{name}"] = BOOL
    return out


#: The scoring variables registered mechanisms give through their ``facts``, by the mechanism's section name.
_FACTS: dict[str, dict[str, Range]] = {}


def register_fact_variables(section: str, ranges: Mapping[str, Range]) -> None:
    """Let the formulas of a spec that names ``[mechanisms.SECTION]`` read these variables (name -> range).

    The mechanism registered under that name gives their values for each
    deal through its ``facts`` (:func:`trickrules.engine.mechanism.register`
    calls this). A name that is already a variable is refused.
    """
    for name in ranges:
        problem = name_problem(name)
        taken = [s for s, found in _FACTS.items() if name in found and s != section]
        if problem is not None or taken:
            why = problem or f"the mechanism {taken[0]!r} gives it already"
            raise SpecError(f"mechanisms.{section}: {name!r} cannot be a scoring variable: {why}.")
    _FACTS[section] = dict(ranges)


def forget_fact_variables(section: str) -> None:
    """Forget the scoring variables the mechanism of ``section`` gave (nothing if it gave none)."""
    _FACTS.pop(section, None)


def fact_ranges(sections: Iterable[str]) -> dict[str, Range]:
    """The scoring variables the registered mechanisms named by ``sections`` give, with their ranges."""
    out: dict[str, Range] = {}
    for section in sections:
        out.update(_FACTS.get(section, {}))
    return out


def _sum(a: Range, b: Range) -> Range:
    lo = None if a.lo is None or b.lo is None else a.lo + b.lo
    hi = None if a.hi is None or b.hi is None else a.hi + b.hi
    return Range(lo, hi)


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be the name of a variable a spec defines (``None``: it can)."""
    if not name.isidentifier() or not name.isascii():
        return "a variable's name is a word of ASCII letters, digits and '_', not starting with a digit"
    if keyword.iskeyword(name):
        return "it is a keyword of the formula language"
    if name in FUNCTION_NAMES:
        return "it is a function of the formula language"
    if name in (*DEAL_VARS, *SIDE_VARS, *PLAYER_VARS):
        return "it is a built-in variable"
    return None


def check_variable_name(name: str, where: str, path: str) -> None:
    """Refuse ``name`` as the name of a variable defined at ``path`` (``scoring.vars.if``), saying why."""
    problem = name_problem(name)
    if problem is not None:
        raise SpecError(f"{where}: {path}: {name!r} cannot be the name of a variable: {problem}.")
