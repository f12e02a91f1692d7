"""Evaluating a formula while a deal is played or scored: an error names the deal and the variables' values.

The loader refuses a formula that the ranges of its variables show can fail
(:mod:`trickrules.compile.ranges`); one whose variables have no known range
(a score, a counter) can still meet a zero divisor, or a value out of range,
in some deal. Its :class:`~trickrules.errors.FormulaError` then names the
formula (its file and key path), the deal's number and the values of the
formula's variables, and the step that met it is not taken: states are
immutable, so the state it was applied to stays as it was.
"""

from __future__ import annotations

from collections.abc import Mapping

from trickrules.errors import FormulaError
from trickrules.spec.formula import Formula, Number

__all__ = ["evaluate_in_deal", "in_deal"]


def in_deal(error: FormulaError, formula: Formula, env: Mapping[str, Number | bool], number: int) -> FormulaError:
    """``error``, met while evaluating ``formula`` in deal ``number``, with the deal and the variables' values added."""
    values = ", ".join(f"{name} = {env[name]}" for name in sorted(formula.variables) if name in env)
    return FormulaError(f"{error} In deal {number}, with {values or 'no variables'}.")


def evaluate_in_deal(formula: Formula, env: Mapping[str, Number | bool], number: int) -> Number:
    """``formula``'s value in ``env``; an error names deal ``number`` and the variables' values (:func:`in_deal`)."""
    try:
        return formula.evaluate(env)
    except FormulaError as error:
        raise in_deal(error, formula, env, number) from None
