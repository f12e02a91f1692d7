"""Compiling the formulas of one spec: within the limits, and refused where they can fail while playing.

:class:`Formulas` compiles every formula of a spec through one object, so
that the limits on their number and size (:data:`~trickrules.spec.limits.MAX_FORMULAS`,
:data:`~trickrules.spec.limits.MAX_FORMULA_NODES`) hold for the spec as a
whole, and checks each one against the ranges of its variables
(:mod:`trickrules.compile.ranges`): a formula that can divide by zero, or
come to a value out of range, is refused when the spec is loaded.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping

from trickrules.compile.ranges import Range, check_formula
from trickrules.errors import SpecError
from trickrules.spec.formula import Formula, compile_formula
from trickrules.spec.limits import MAX_FORMULA_NODES, MAX_FORMULAS

__all__ = ["Formulas"]


class Formulas:
    """Compiles the formulas of one spec (``where`` is its file, for messages).

    ``builtins`` are the ranges of the built-in variables
    (:func:`~trickrules.compile.variables.builtin_ranges`).
    """

    __slots__ = ("builtins", "count", "nodes", "where")

    def __init__(self, where: str, builtins: Mapping[str, Range]) -> None:
        self.where = where
        self.builtins = builtins
        #: How many formulas, and how many syntax-tree nodes, have been compiled so far.
        self.count = 0
        self.nodes = 0

    def compile(
        self, source: str, allowed: Iterable[str], path: str, ranges: Mapping[str, Range] | None = None
    ) -> tuple[Formula, Range]:
        """The formula at ``path``, and the range of its values.

        ``allowed`` names its variables; ``ranges`` gives the ranges of those
        that are not built in (the named vars; one missing is unknown).
        Raises :class:`SpecError` past the limits, and
        :class:`~trickrules.errors.FormulaError` for a formula that is not
        valid, or that can divide by zero or go out of range.
        """
        where = f"{self.where}: {path}"
        self.count += 1
        if self.count > MAX_FORMULAS:
            raise SpecError(f"{where}: the spec has more than {MAX_FORMULAS} formulas.")
        formula = compile_formula(source, allowed, where=where)
        tree = ast.parse(formula.source, mode="eval")
        self.nodes += sum(isinstance(node, ast.expr) for node in ast.walk(tree))
        if self.nodes > MAX_FORMULA_NODES:
            raise SpecError(
                f"{where}: the spec's formulas have more than {MAX_FORMULA_NODES} parts together "
                "(names, numbers, operations and calls)."
            )
        env = self.builtins if not ranges else {**self.builtins, **ranges}
        return formula, check_formula(formula, env, where, tree)
