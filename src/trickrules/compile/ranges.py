"""What values a formula can take, worked out from the ranges of its variables, to refuse its errors at load.

A formula that divides by a variable which can be 0 (``tricks``, a
condition, the ``pot``) would fail in the deal that makes it 0, and that
deal could never be finished. :func:`check_formula` walks a compiled
formula's syntax tree with interval arithmetic: each variable has a
:class:`Range`, each operation gives the range of its result, and a ``/``,
``//`` or ``%`` whose divisor's range holds 0, or a value whose range goes
beyond ``MAX_MAGNITUDE``, is refused with a :class:`FormulaError` that
names the formula and says why.

Conditions narrow the ranges they guard, so the usual ways of writing a
safe division pass: ``x / n if n else 0``, ``n > 0 and x / n > 2``,
``x / max(1, n)``. A range is a bound, not a proof that every value in it
occurs (``tricks + opp_tricks`` ranges from 0 up, though it is never 0 at
the end of a deal); such a formula is refused all the same, and the message
says how to guard it. A variable whose values nobody can bound (a score, a
counter carried from deal to deal) has an *unknown* range: a division by it
is accepted, and a zero met while playing raises the formula's error then.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Mapping
from fractions import Fraction

from attrs import evolve, frozen

from trickrules.errors import FormulaError
from trickrules.spec.formula import MAGNITUDE_TEXT, MAX_MAGNITUDE, Formula
from trickrules.spec.sealed import Sealed

__all__ = ["BOOL", "UNKNOWN", "Range", "check_formula", "exactly", "formula_range", "span", "union"]

Bound = Fraction | None
"""A bound of a range: an exact number, or ``None`` for none (minus or plus infinity)."""

#: Bounds with a larger denominator are rounded outwards to one of this size (keeps the arithmetic cheap).
_FINEST = 2**64
#: Stands for an infinite bound in a product: larger than any product of two bounds within ``MAX_MAGNITUDE``.
_INFINITE = 2**4096


@frozen
class Range(Sealed):
    """The values an expression can take: from ``lo`` to ``hi`` (``None``: no bound that way).

    ``nonzero`` says that 0 is not among them even where ``lo <= 0 <= hi``
    (a variable that a condition such as ``n != 0`` guards). ``known`` is
    false for an expression whose values nobody can bound: it may well be 0,
    but a division by it is accepted (its error, if any, comes while playing).
    """

    lo: Bound
    hi: Bound
    nonzero: bool = False
    known: bool = True

    def may_be_zero(self) -> bool:
        """Whether 0 is among the values (and the range is known)."""
        if not self.known or self.nonzero:
            return False
        return (self.lo is None or self.lo <= 0) and (self.hi is None or self.hi >= 0)

    def excludes_zero(self) -> bool:
        """Whether 0 is surely not among the values."""
        return self.nonzero or (self.lo is not None and self.lo > 0) or (self.hi is not None and self.hi < 0)

    def describe(self) -> str:
        """The range in words (``from 0 to 13``, ``0 or more``)."""
        if not self.known and self.lo is None and self.hi is None:
            return "unknown"
        if self.lo is not None and self.lo == self.hi:
            return f"always {self.lo}"
        low = f"from {self.lo}" if self.lo is not None else ""
        high = f"to {self.hi}" if self.hi is not None else ""
        if low and high:
            return f"between {self.lo} and {self.hi}"
        return f"{self.lo} or more" if low else (f"{self.hi} or less" if high else "any value")


#: The range of a condition (``True`` or ``False``, 1 or 0).
BOOL = Range(Fraction(0), Fraction(1))
#: The range of a value nobody can bound (a score).
UNKNOWN = Range(None, None, known=False)


def exactly(value: int | Fraction) -> Range:
    """The range of one value."""
    return Range(Fraction(value), Fraction(value))


def span(lo: int | None, hi: int | None) -> Range:
    """The range from ``lo`` to ``hi`` (``None``: no bound that way)."""
    return Range(None if lo is None else Fraction(lo), None if hi is None else Fraction(hi))


def _coarse(bound: Bound, up: bool) -> Bound:
    """``bound`` rounded outwards (up or down) when its denominator is too fine to keep exactly."""
    if bound is None or bound.denominator <= _FINEST:
        return bound
    scaled = bound * _FINEST
    return Fraction(math.ceil(scaled) if up else math.floor(scaled), _FINEST)


def _make(lo: Bound, hi: Bound, nonzero: bool, known: bool) -> Range:
    return Range(_coarse(lo, False), _coarse(hi, True), nonzero, known)


def _add(a: Range, b: Range) -> Range:
    lo = None if a.lo is None or b.lo is None else a.lo + b.lo
    hi = None if a.hi is None or b.hi is None else a.hi + b.hi
    return _make(lo, hi, False, a.known and b.known)


def _neg(a: Range) -> Range:
    return Range(None if a.hi is None else -a.hi, None if a.lo is None else -a.lo, a.nonzero, a.known)


def _times(x: Bound, y: Bound, x_low: bool, y_low: bool) -> Bound:
    """The product of two bounds, ``None`` standing for minus (``*_low``) or plus infinity; 0 times infinity is 0."""
    if x is not None and y is not None:
        return x * y
    if x == 0 or y == 0:
        return Fraction(0)
    sign = (-1 if x_low else 1) if x is None else (1 if x > 0 else -1)
    sign *= (-1 if y_low else 1) if y is None else (1 if y > 0 else -1)
    return Fraction(-_INFINITE) if sign < 0 else Fraction(_INFINITE)  # see _unbounded


def _unbounded(value: Fraction) -> Bound:
    return None if abs(value) >= _INFINITE else value


def _mul(a: Range, b: Range) -> Range:
    corners = [
        _times(x, y, xl, yl) for x, xl in ((a.lo, True), (a.hi, False)) for y, yl in ((b.lo, True), (b.hi, False))
    ]
    lo = min(c for c in corners if c is not None)
    hi = max(c for c in corners if c is not None)
    nonzero = a.excludes_zero() and b.excludes_zero()
    return _make(_unbounded(lo), _unbounded(hi), nonzero, a.known and b.known)


def _div(a: Range, b: Range) -> Range:
    """``a / b`` for a divisor that is not 0."""
    known = a.known and b.known
    if b.lo is None or b.hi is None or b.lo <= 0 <= b.hi or b.lo > b.hi:
        return Range(None, None, a.excludes_zero(), known)  # the divisor comes close to 0
    inverse = Range(1 / b.hi, 1 / b.lo, True, b.known)
    return _mul(a, inverse)


def _floor_range(a: Range) -> Range:
    lo = None if a.lo is None else Fraction(math.floor(a.lo))
    hi = None if a.hi is None else Fraction(math.floor(a.hi))
    return Range(lo, hi, False, a.known)


def _ceil_range(a: Range) -> Range:
    return _neg(_floor_range(_neg(a)))


def _mod(a: Range, b: Range) -> Range:
    """``a % b`` for a divisor that is not 0: it has the divisor's sign and is smaller in size."""
    known = a.known and b.known
    if b.lo is not None and b.lo > 0:
        return Range(Fraction(0), b.hi, False, known)
    if b.hi is not None and b.hi < 0:
        return Range(b.lo, Fraction(0), False, known)
    low = None if b.lo is None else min(b.lo, Fraction(0))
    high = None if b.hi is None else max(b.hi, Fraction(0))
    return Range(low, high, False, known)


def _power(a: Range, exponent: int) -> Range:
    if exponent == 0:
        return exactly(1)
    ends = [None if x is None else x**exponent for x in (a.lo, a.hi)]
    nonzero = a.excludes_zero()
    if exponent % 2 or (a.lo is not None and a.lo >= 0):
        return _make(ends[0], ends[1], nonzero, a.known)
    if a.hi is not None and a.hi <= 0:
        return _make(ends[1], ends[0], nonzero, a.known)
    high = None if None in ends else max(e for e in ends if e is not None)
    return _make(Fraction(0), high, nonzero, a.known)


def _abs(a: Range) -> Range:
    if a.lo is not None and a.lo >= 0:
        return a
    if a.hi is not None and a.hi <= 0:
        return _neg(a)
    high = None if a.lo is None or a.hi is None else max(-a.lo, a.hi)
    return Range(Fraction(0), high, a.nonzero, a.known)


def union(a: Range, b: Range) -> Range:
    """The range of a value that is in ``a`` or in ``b``."""
    lo = None if a.lo is None or b.lo is None else min(a.lo, b.lo)
    hi = None if a.hi is None or b.hi is None else max(a.hi, b.hi)
    return Range(lo, hi, a.excludes_zero() and b.excludes_zero(), a.known and b.known)


def _extreme(ranges: list[Range], pick: Callable[..., Fraction], lowest: bool) -> Range:
    """The range of ``min(...)`` (``pick`` is ``min``, ``lowest`` true) or ``max(...)`` of ``ranges``."""
    # The result is one of the arguments, and at least (max) or at most (min) each of them.
    los, his = [r.lo for r in ranges], [r.hi for r in ranges]
    if lowest:
        lo = None if None in los else pick(x for x in los if x is not None)
        finite = [x for x in his if x is not None]
        hi = pick(finite) if finite else None
    else:
        finite = [x for x in los if x is not None]
        lo = pick(finite) if finite else None
        hi = None if None in his else pick(x for x in his if x is not None)
    nonzero = all(r.excludes_zero() for r in ranges)
    return Range(lo, hi, nonzero, all(r.known for r in ranges))


_FLIP = {ast.Lt: ast.Gt, ast.Gt: ast.Lt, ast.LtE: ast.GtE, ast.GtE: ast.LtE, ast.Eq: ast.Eq, ast.NotEq: ast.NotEq}
_NEGATE = {ast.Lt: ast.GtE, ast.GtE: ast.Lt, ast.Gt: ast.LtE, ast.LtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}


def _compare(op: type[ast.cmpop], a: Range, b: Range) -> Range:
    """The range of a comparison: 1 or 0, or just one of them where the ranges decide it."""
    holds: bool | None = None
    if op in (ast.Lt, ast.LtE, ast.Gt, ast.GtE):
        if op in (ast.Gt, ast.GtE):
            a, b, op = b, a, _FLIP[op]
        strict = op is ast.Lt
        if a.hi is not None and b.lo is not None and (a.hi < b.lo or (not strict and a.hi <= b.lo)):
            holds = True
        elif a.lo is not None and b.hi is not None and (a.lo > b.hi or (strict and a.lo >= b.hi)):
            holds = False
    if holds is None:
        return BOOL
    return exactly(1 if holds else 0)


def _narrowed(r: Range, op: type[ast.cmpop], k: Fraction) -> Range | None:
    """``r`` where ``value op k`` holds; ``None`` where it never does (the guarded part is never evaluated)."""
    lo, hi, nonzero = r.lo, r.hi, r.nonzero
    if op is ast.Eq:
        if (lo is not None and k < lo) or (hi is not None and k > hi):
            return None
        lo = hi = k
    elif op is ast.NotEq:
        if lo is not None and lo == hi == k:
            return None
        nonzero = nonzero or k == 0
    elif op in (ast.Gt, ast.GtE):
        lo = k if lo is None else max(lo, k)
        nonzero = nonzero or k > 0 or (op is ast.Gt and k == 0)
        if op is ast.Gt and hi is not None and hi <= k:
            return None
    else:
        hi = k if hi is None else min(hi, k)
        nonzero = nonzero or k < 0 or (op is ast.Lt and k == 0)
        if op is ast.Lt and lo is not None and lo >= k:
            return None
    return _possible(Range(lo, hi, nonzero, r.known or op is ast.Eq))


def _possible(r: Range) -> Range | None:
    """``r``, or ``None`` where no value is in it."""
    if r.lo is not None and r.hi is not None and (r.lo > r.hi or (r.nonzero and r.lo == r.hi == 0)):
        return None
    return r


_Env = Mapping[str, Range]


class _Walk:
    """One formula's walk: the ranges of its names, and what it is (for messages)."""

    def __init__(self, formula: Formula, fail: Callable[[str], FormulaError]) -> None:
        self.text = formula.source
        self.fail = fail

    def segment(self, node: ast.AST) -> str:
        text = ast.get_source_segment(self.text, node) or ast.unparse(node)
        return repr(text if len(text) <= 60 else text[:57] + "...")

    def range(self, node: ast.expr, env: Mapping[str, Range]) -> Range:
        """The range of ``node``'s values where the variables range over ``env``."""
        if isinstance(node, ast.Constant):
            value = node.value
            text = ast.get_source_segment(self.text, node) or repr(value)
            if isinstance(value, float):
                return exactly(Fraction(text.replace("_", "")))
            assert isinstance(value, int)  # bool or int: the compiler allowed nothing else
            return exactly(int(value))
        if isinstance(node, ast.Name):
            return env.get(node.id, UNKNOWN)
        if isinstance(node, ast.UnaryOp):
            operand = self.range(node.operand, env)
            if isinstance(node.op, ast.Not):
                return BOOL
            return self.checked(_neg(operand) if isinstance(node.op, ast.USub) else operand, node)
        if isinstance(node, ast.BinOp):
            return self.binary(node, env)
        if isinstance(node, ast.Compare):
            return self.compare(node, env)
        if isinstance(node, ast.BoolOp):
            self.boolean(node, env)
            return BOOL
        if isinstance(node, ast.IfExp):
            return self.choice(node, env)
        assert isinstance(node, ast.Call)
        assert isinstance(node.func, ast.Name)
        return self.call(node.func.id, node, env)

    def checked(self, r: Range, node: ast.AST) -> Range:
        """``r``, refused if a bounded end of it is beyond ``MAX_MAGNITUDE`` (where the range is known).

        An unknown range loses such an end instead, so that no bound grows without limit.
        """
        beyond = [b for b in (r.lo, r.hi) if b is not None and abs(b) > MAX_MAGNITUDE]
        if not beyond:
            return r
        if not r.known:
            lo = None if r.lo is not None and abs(r.lo) > MAX_MAGNITUDE else r.lo
            hi = None if r.hi is not None and abs(r.hi) > MAX_MAGNITUDE else r.hi
            return Range(lo, hi, r.nonzero, False)
        size = max(abs(b) for b in beyond)
        shown = str(size) if size <= 10**18 else f"about 10**{int(size).bit_length() * 30103 // 100000}"
        raise self.fail(
            f"{self.segment(node)} can come to more than {MAGNITUDE_TEXT} in size (up to {shown}), "
            "which is out of range when the deal is scored."
        )

    def binary(self, node: ast.BinOp, env: Mapping[str, Range]) -> Range:
        left = self.range(node.left, env)
        if isinstance(node.op, ast.Pow):
            exponent = node.right
            assert isinstance(exponent, ast.Constant)
            assert type(exponent.value) is int
            return self.checked(_power(left, exponent.value), node)
        right = self.range(node.right, env)
        if isinstance(node.op, ast.Add | ast.Sub):
            return self.checked(_add(left, right if isinstance(node.op, ast.Add) else _neg(right)), node)
        if isinstance(node.op, ast.Mult):
            return self.checked(_mul(left, right), node)
        if right.may_be_zero():
            divisor = self.segment(node.right)
            if right.lo == right.hi == 0:
                raise self.fail(f"{self.segment(node)} divides by zero: its divisor {divisor} is always 0.")
            raise self.fail(
                f"{self.segment(node)} can divide by zero: its divisor {divisor} can be 0 (it is {right.describe()}). "
                "Guard it, as in 'x / n if n else 0' or 'x / max(1, n)'."
            )
        if isinstance(node.op, ast.Div):
            return self.checked(_div(left, right), node)
        if isinstance(node.op, ast.FloorDiv):
            return self.checked(_floor_range(_div(left, right)), node)
        return self.checked(_mod(left, right), node)

    def compare(self, node: ast.Compare, env: _Env) -> Range:
        # A chain stops at its first false link: each link is looked at where the ones before it hold.
        left = node.left
        links = []
        where: _Env | None = env
        for op, right in zip(node.ops, node.comparators, strict=True):
            if where is None:
                return exactly(0)  # a link before this one never holds
            links.append(_compare(type(op), self.range(left, where), self.range(right, where)))
            if links[-1].hi == 0:
                return exactly(0)
            where = self.narrow(ast.Compare(left, [op], [right]), True, where)
            left = right
        return exactly(1) if all(link.lo == 1 for link in links) else BOOL

    def boolean(self, node: ast.BoolOp, env: _Env) -> None:
        # ``and`` looks at each operand where the ones before it held; ``or`` where they did not.
        truth = isinstance(node.op, ast.And)
        where: _Env | None = env
        for value in node.values:
            if where is None:
                return  # the operands before it decide: it is never evaluated
            r = self.range(value, where)
            if r.lo is not None and r.lo == r.hi and bool(r.lo) != truth:
                return
            where = self.narrow(value, truth, where)

    def choice(self, node: ast.IfExp, env: _Env) -> Range:
        test = self.range(node.test, env)
        if test.lo is not None and test.lo == test.hi:  # decided: only one branch is ever evaluated
            return self.range(node.body if test.lo else node.orelse, env)
        ranges = []
        for branch, truth in ((node.body, True), (node.orelse, False)):
            where = self.narrow(node.test, truth, env)
            if where is not None:  # a branch whose condition can never be met is never evaluated
                ranges.append(self.range(branch, where))
        if not ranges:
            return BOOL  # the variables' ranges leave no case: the formula is never evaluated here
        return ranges[0] if len(ranges) == 1 else union(ranges[0], ranges[1])

    def call(self, name: str, node: ast.Call, env: Mapping[str, Range]) -> Range:
        args = [self.range(arg, env) for arg in node.args]
        if name == "min":
            return _extreme(args, min, True)
        if name == "max":
            return _extreme(args, max, False)
        if name == "abs":
            return _abs(args[0])
        return _floor_range(args[0]) if name == "floor" else _ceil_range(args[0])

    def narrow(self, test: ast.expr, truth: bool, env: _Env) -> _Env | None:
        """``env`` where ``test`` is ``truth``: what a simple condition on one variable says of it.

        ``None`` where ``test`` can never be ``truth``.
        """
        if isinstance(test, ast.Name) and test.id in env:
            r = env[test.id]
            narrowed = _possible(evolve(r, nonzero=True)) if truth else _narrowed(r, ast.Eq, Fraction(0))
            return None if narrowed is None else {**env, test.id: narrowed}
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self.narrow(test.operand, not truth, env)
        if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) == truth:
            where: _Env | None = env
            for value in test.values:  # all of them hold (and), or none of them (or)
                if where is None:
                    return None
                where = self.narrow(value, truth, where)
            return where
        if isinstance(test, ast.Compare) and len(test.ops) == 1:
            return self._narrow_comparison(test, truth, env)
        return env

    def _narrow_comparison(self, test: ast.Compare, truth: bool, env: _Env) -> _Env | None:
        op: type[ast.cmpop] = type(test.ops[0])
        if op not in _FLIP:
            return env
        name, other = test.left, test.comparators[0]
        if not isinstance(name, ast.Name):
            name, other, op = other, name, _FLIP[op]
        if not isinstance(name, ast.Name) or name.id not in env:
            return env
        k = self.range(other, env)
        if k.lo is None or k.lo != k.hi:
            return env
        narrowed = _narrowed(env[name.id], op if truth else _NEGATE[op], k.lo)
        return None if narrowed is None else {**env, name.id: narrowed}


def formula_range(
    formula: Formula, env: Mapping[str, Range], fail: Callable[[str], FormulaError], tree: ast.Expression | None = None
) -> Range:
    """The range of ``formula``'s values where its variables range over ``env`` (a missing one: unknown).

    Raises what ``fail`` makes of a message where the formula can divide by
    zero or go out of range (see the module's docstring). ``tree`` is the
    formula's syntax tree, where the caller has it already.
    """
    if tree is None:
        tree = ast.parse(formula.source, mode="eval")
    return _Walk(formula, fail).range(tree.body, env)


def check_formula(formula: Formula, env: Mapping[str, Range], where: str, tree: ast.Expression | None = None) -> Range:
    """:func:`formula_range`, with errors that start with ``where`` (a file and a key path)."""

    def fail(message: str) -> FormulaError:
        return FormulaError(f"{where}: {message}" if where else message)

    return formula_range(formula, env, fail, tree)
