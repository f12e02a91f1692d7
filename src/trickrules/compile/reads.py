"""What a deal's scoring reads: :func:`scoring_reads`.

The variables the outcomes and bonuses of a deal of one contract read, through the named vars (the
scoring's and the contract's own) and, where asked, the counters' update formulas. The heuristic bot
reads from them whether tricks and card points count (:mod:`trickrules.faces.hand_reading`); the solver
whether a deal's payment depends on its play only through the tricks each seat took
(:func:`trickrules.search.native_solve.counted`).
"""

from __future__ import annotations

from trickrules.compile.rules import Rules
from trickrules.spec.formula import Formula

__all__ = ["scoring_reads"]


def scoring_reads(rules: Rules, contract: str, counters: bool = False) -> frozenset[str]:
    """Every variable the outcomes and bonuses of a deal of ``contract`` (``""``: without one) read.

    Through the named vars (the scoring's and the contract's own), whose names are listed too;
    ``counters``: what the counters' update formulas read as well.
    """
    own = next((c for c in rules.contracts if c.name == contract), None)
    named: dict[str, Formula] = dict(rules.vars)
    named.update(own.vars if own is not None else ())
    mine = [o for o in (*rules.outcomes, *rules.bonuses) if o.contracts is None or contract in o.contracts]
    formulas = [f for o in mine for f in (o.when, *(p.amount for p in o.pay))]
    formulas += [c.update for c in rules.bids.counters] if counters else []
    seen: set[str] = set()
    while formulas:
        for name in formulas.pop().variables - seen:
            seen.add(name)
            formulas.extend([named[name]] if name in named else [])
    return frozenset(seen)
