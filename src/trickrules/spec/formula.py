"""A tiny, safe expression language for payout and scoring formulas.

Game specs write payouts as formulas such as ``stake * 3 + 1``, ``pot // 2``,
``max(0, tricks - 5) * stake`` or ``2 if vole else 1``. :func:`compile_formula`
parses a formula once, checks every construct against an allow-list and turns
it into a tree of closures, and that into one generated Python function doing the
same work without a call per node (the closures remain the reference: they take
over whenever a value is unusual, and give every error message);
:meth:`Formula.evaluate` runs it against the variables of one deal without
parsing anything again.

The language
    Whole numbers (at most ``MAX_MAGNITUDE`` in size), decimals such as ``1.5``
    (read exactly, as the fraction 3/2, never through a float), ``True`` and
    ``False``; the caller's variables; unary ``-``, ``+`` and ``not``;
    ``+ - * / // %``; ``**`` with a literal exponent from 0 to 8; comparisons,
    chains such as ``0 <= x < 10`` included; ``and`` and ``or`` (giving a
    bool); ``a if condition else b``; and calls of ``min`` and ``max`` (two or
    more arguments), ``abs``, ``floor`` and ``ceil`` (one argument). Nothing
    else is accepted: no attributes, subscripts, strings, collections, lambdas,
    comprehensions, keyword arguments or calls of anything else.

Exact arithmetic
    ``/`` divides exactly and gives a :class:`~fractions.Fraction`, or an
    ``int`` when the quotient is whole; ``//`` and ``%`` round towards minus
    infinity, as in Python, on fractions too. Booleans count as 0 and 1. Every
    value met while evaluating must be at most ``MAX_MAGNITUDE`` in size and,
    if a fraction, have a denominator of at most ``MAX_MAGNITUDE``, so no
    formula can use much time or memory.

Rounding to whole chips
    :func:`to_int` turns an exact result into an ``int``. ``"exact"`` refuses a
    fraction; ``"floor"`` and ``"ceil"`` round towards minus and plus infinity.
    The three ``half_*`` modes round to the nearest whole number and differ
    only for a value exactly halfway between two: ``"half_up"`` rounds it away
    from zero (2.5 → 3, -2.5 → -3), ``"half_down"`` towards zero (2.5 → 2,
    -2.5 → -2) and ``"half_even"`` to the even neighbour (2.5 → 2, 3.5 → 4,
    -2.5 → -2).

>>> f = compile_formula("max(0, tricks - 5) * stake * 1.5", ["stake", "tricks"])
>>> f
Formula('max(0, tricks - 5) * stake * 1.5')
>>> f.evaluate({"stake": 3, "tricks": 8})
Fraction(27, 2)
>>> to_int(f.evaluate({"stake": 3, "tricks": 8}), "half_even")
14
"""

from __future__ import annotations

import ast
import keyword
import math
import operator
import re
import reprlib
import unicodedata
import warnings
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any, TypeAlias

import attrs

from trickrules.errors import FormulaError

__all__ = [
    "MAX_DEPTH",
    "MAX_MAGNITUDE",
    "MAX_SOURCE_LENGTH",
    "ROUNDING_MODES",
    "Formula",
    "Number",
    "compile_formula",
    "to_int",
]

Number: TypeAlias = int | Fraction
"""An exact number: ``int`` when whole, otherwise a ``Fraction``."""

MAX_SOURCE_LENGTH = 500
"""The longest formula accepted, in characters."""

MAX_DEPTH = 40
"""How many levels deep a formula's syntax tree may nest."""

MAX_MAGNITUDE = 10**15
"""The largest size of any literal or computed value, and of any denominator."""

ROUNDING_MODES = ("exact", "floor", "ceil", "half_up", "half_even", "half_down")
"""The rounding modes :func:`to_int` accepts."""

_Env: TypeAlias = Mapping[str, Number | bool]
_Eval: TypeAlias = Callable[[_Env], Number]

# name -> (least number of arguments, function); one-argument functions take exactly one.
_FUNCTIONS: dict[str, tuple[int, Callable[[Any], Any]]] = {
    "min": (2, min),
    "max": (2, max),
    "abs": (1, abs),
    "floor": (1, math.floor),
    "ceil": (1, math.ceil),
}
_OPERATORS: dict[type[ast.AST], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: Fraction,  # Fraction(a, b) divides exactly; _fit turns whole results into ints
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}
_SYMBOLS: dict[type[ast.AST], str] = {ast.MatMult: "@", ast.LShift: "<<", ast.RShift: ">>"}
_SYMBOLS |= {ast.BitOr: "|", ast.BitXor: "^", ast.BitAnd: "&", ast.Invert: "~", ast.Is: "is"}
_SYMBOLS |= {ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}
_CONSTRUCTS: dict[type[ast.AST], str] = {
    ast.Attribute: "attribute access",
    ast.Subscript: "subscripting",
    ast.Lambda: "a lambda",
    ast.ListComp: "a list comprehension",
    ast.SetComp: "a set comprehension",
    ast.DictComp: "a dict comprehension",
    ast.GeneratorExp: "a generator expression",
    ast.JoinedStr: "an f-string",
    ast.NamedExpr: "an assignment expression (:=)",
    ast.Starred: "a starred argument",
    ast.Tuple: "a tuple",
    ast.List: "a list",
    ast.Dict: "a dict",
    ast.Set: "a set",
}
_DECIMAL = re.compile(r"[0-9_]*\.[0-9_]*")


def _error(where: str, message: str) -> FormulaError:
    if where:
        return FormulaError(f"{where}: {message}")
    return FormulaError(message[:1].upper() + message[1:])


def _quote(text: str) -> str:
    # Long sources are cut so that a hostile 10 kB formula cannot flood logs.
    return repr(text if len(text) <= 60 else text[:57] + "...")


def _fit(value: Number, where: str, what: str) -> Number:
    """Normalise a computed value to int where whole, and check its range."""
    if type(value) is int and -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE:
        return value  # the common case, kept cheap
    if isinstance(value, Fraction):
        if value.denominator > MAX_MAGNITUDE:
            raise _error(where, f"value out of range: {what} has a denominator above 10**15.")
        value = value.numerator if value.denominator == 1 else value
    if not -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE:
        raise _error(where, f"value out of range: {what} comes to more than 10**15 in size.")
    return int(value) if isinstance(value, int) else value


@attrs.frozen(slots=True, repr=False)
class Formula:
    """A compiled formula, ready to be evaluated many times.

    Make one with :func:`compile_formula`. ``source`` is the formula's text
    (without surrounding whitespace) and ``variables`` the names it uses.
    Two formulas are equal when their text and variables are.
    """

    source: str
    variables: frozenset[str]
    _evaluator: _Eval = attrs.field(eq=False)

    def __repr__(self) -> str:
        return f"Formula({self.source!r})"

    def evaluate(self, env: Mapping[str, Number | bool]) -> Number:
        """Compute the formula's value for the variables in ``env``.

        Values may be ``int``, ``Fraction`` or ``bool`` (counting as 0 and 1);
        a boolean result, as from ``stake > 10``, is returned as 0 or 1.
        Raises :class:`FormulaError` if a variable the formula uses is missing
        or not such a value, on division by zero, and if any value is out of
        range (see :data:`MAX_MAGNITUDE`).
        """
        value = self._evaluator(env)
        return int(value) if type(value) is bool else value


def compile_formula(source: str, allowed: Iterable[str], *, where: str = "") -> Formula:
    """Parse ``source`` once and return it as a :class:`Formula`.

    ``allowed`` names the variables the formula may use. ``where`` (such as
    ``"specs/skat.toml: scoring.payouts.grand"``) starts every error message,
    including those that :meth:`Formula.evaluate` raises later. Raises
    :class:`FormulaError` if the source is not a string, is empty, too long,
    holds control characters, nests too deeply, is not valid syntax, uses a
    construct outside the language, or names a variable not allowed.
    """
    names = _check_allowed(allowed, where)
    text = _check_source(source, where)
    try:
        with warnings.catch_warnings():
            # Warnings (e.g. about '1if') concern code that is refused anyway
            # or harmless; a spec loader must not print them.
            warnings.simplefilter("ignore")
            tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        column = f" at column {exc.offset}" if exc.offset else ""
        message = f"the formula {_quote(text)} is not valid syntax ({exc.msg}{column})."
        raise _error(where, message) from None
    except (RecursionError, MemoryError, ValueError) as exc:
        message = f"the formula {_quote(text)} cannot be parsed ({type(exc).__name__})."
        raise _error(where, message) from exc
    compiler = _Compiler(text, where, names)
    compiler.root = tree.body
    evaluator = compiler.build(tree.body, 1)
    if unknown := compiler.unknown:
        listed = ", ".join(sorted(names)) or "none"
        quoted = " and ".join(repr(name) for name in unknown)
        if len(unknown) == 1:
            message = f"the name {quoted} is not a variable of this formula (allowed: {listed})."
        else:
            message = f"the names {quoted} are not variables of this formula (allowed: {listed})."
        raise _error(where, message)
    if not compiler.used:
        # A formula without variables is folded to its value once, here, so that
        # an error in it (a division by zero) shows when the spec is loaded.
        value = evaluator({})
        value = int(value) if type(value) is bool else value

        def evaluator(env: _Env, value: Number = value) -> Number:
            return value

    else:
        evaluator = _Source(compiler, evaluator).function(tree.body)
    return Formula(source=text, variables=frozenset(compiler.used), evaluator=evaluator)


def _check_allowed(allowed: Iterable[str], where: str) -> frozenset[str]:
    if isinstance(allowed, str | bytes):
        # A lone string would otherwise be read as a set of one-letter names.
        raise _error(where, f"the allowed variables must be names, not the string {reprlib.repr(allowed)}.")
    try:
        names = frozenset(allowed)
    except TypeError:
        given = reprlib.repr(allowed)
        raise _error(where, f"the allowed variables must be names, not {given}.") from None
    for name in names:
        if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name):
            raise _error(where, f"{reprlib.repr(name)} cannot be the name of a formula variable.")
        if name in _FUNCTIONS:
            raise _error(where, f"{name!r} cannot be a formula variable: it is a function.")
    return names


def _check_source(source: object, where: str) -> str:
    if not isinstance(source, str):
        kind = type(source).__name__
        raise _error(where, f"a formula must be a string, not {kind} {reprlib.repr(source)}.")
    if len(source) > MAX_SOURCE_LENGTH:
        size = f"{len(source)} characters long; at most {MAX_SOURCE_LENGTH} are allowed"
        raise _error(where, f"the formula {_quote(source)} is {size}.")
    for char in source:
        if unicodedata.category(char).startswith("C"):
            control = f"the control character U+{ord(char):04X}"
            raise _error(where, f"the formula {_quote(source)} contains {control}; use plain text.")
    if not source.strip():
        raise _error(where, "the formula is empty.")
    return source.strip()


class _Compiler:
    """Checks one syntax tree against the allow-list and builds its closures."""

    def __init__(self, text: str, where: str, allowed: frozenset[str]) -> None:
        self.text = text
        self.where = where
        self.allowed = allowed
        self.used: set[str] = set()
        self.unknown: list[str] = []
        self.root: ast.AST | None = None

    def segment(self, node: ast.AST) -> str:
        return ast.get_source_segment(self.text, node) or ast.unparse(node)

    def what(self, node: ast.AST) -> str:
        if node is self.root:  # its segment may lack the outer parentheses of the text
            return _quote(self.text)
        return f"{_quote(self.segment(node))} (in {_quote(self.text)})"

    def fail(self, message: str) -> FormulaError:
        return _error(self.where, message)

    def refuse(self, construct: str, node: ast.AST) -> FormulaError:
        return self.fail(f"{construct} ({_quote(self.segment(node))}) is not allowed in a formula.")

    def operator(self, op: ast.AST, node: ast.AST) -> Callable[[Any, Any], Any]:
        function = _OPERATORS.get(type(op))
        if function is None:
            raise self.refuse(f"the operator {_SYMBOLS[type(op)]!r}", node)
        return function

    def build(self, node: ast.expr, depth: int) -> _Eval:
        # Depth is checked here rather than left to Python's recursion limit,
        # so a hostile formula fails early and with a clear message.
        if depth > MAX_DEPTH:
            deep = f"more than {MAX_DEPTH} levels deep"
            raise self.fail(f"the formula {_quote(self.text)} nests {deep}.")
        if isinstance(node, ast.Constant):
            return self.constant(node)
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.UnaryOp):
            return self.unary(node, self.build(node.operand, depth + 1))
        if isinstance(node, ast.BinOp):
            return self.binary(node, depth)
        if isinstance(node, ast.Compare):
            return self.compare(node, depth)
        if isinstance(node, ast.BoolOp):
            operands = [self.build(value, depth + 1) for value in node.values]
            conjunction = isinstance(node.op, ast.And)
            if len(operands) <= 4:
                # The common case, as nested pairs rather than a generator per evaluation.
                combined = operands[-1]
                for operand in reversed(operands[:-1]):
                    combined = _pair(operand, combined, conjunction)
                return combined
            if conjunction:
                return lambda env: all(operand(env) for operand in operands)
            return lambda env: any(operand(env) for operand in operands)
        if isinstance(node, ast.IfExp):
            test, body, orelse = (self.build(n, depth + 1) for n in (node.test, node.body, node.orelse))
            return lambda env: body(env) if test(env) else orelse(env)
        if isinstance(node, ast.Call):
            return self.call(node, depth)
        raise self.refuse(_CONSTRUCTS.get(type(node), f"the construct {type(node).__name__}"), node)

    def constant(self, node: ast.Constant) -> _Eval:
        value, text = node.value, self.segment(node)
        number: Number
        if isinstance(value, bool):
            return lambda env: value
        if isinstance(value, int):
            number = value
        elif isinstance(value, float):
            if not _DECIMAL.fullmatch(text):
                raise self.fail(
                    f"the number {_quote(text)} uses exponent notation, which formulas do not "
                    "allow; write it out in full."
                )
            # The literal's own digits, not the float, so 0.1 is exactly 1/10.
            number = Fraction(text.replace("_", ""))
        else:
            kinds = {str: "a string", bytes: "a bytes literal", complex: "an imaginary number"}
            raise self.refuse(kinds.get(type(value), f"the constant {value!r}"), node)
        if not -MAX_MAGNITUDE <= number <= MAX_MAGNITUDE or number.denominator > MAX_MAGNITUDE:
            raise self.fail(
                f"the number {_quote(text)} is out of range: formulas allow at most 10**15 "
                "in size and 15 decimal places."
            )
        number = _fit(number, self.where, _quote(text))
        return lambda env: number

    def name(self, node: ast.Name) -> _Eval:
        name = node.id
        if name in _FUNCTIONS:
            raise self.fail(f"the function {name!r} can only be called, as in {name}(...).")
        if name not in self.allowed:
            if name not in self.unknown:
                self.unknown.append(name)
            return lambda env: 0  # never run: compile_formula raises after the walk
        self.used.add(name)
        return _variable(name, self.where, self.text)

    def unary(self, node: ast.UnaryOp, operand: _Eval) -> _Eval:
        if isinstance(node.op, ast.USub):
            return lambda env: -operand(env)
        if isinstance(node.op, ast.UAdd):
            return lambda env: +operand(env)
        if isinstance(node.op, ast.Not):
            return lambda env: not operand(env)
        raise self.refuse(f"the operator {_SYMBOLS[type(node.op)]!r}", node)

    def binary(self, node: ast.BinOp, depth: int) -> _Eval:
        where, what = self.where, self.what(node)
        if isinstance(node.op, ast.Pow):
            power = node.right
            exponent = power.value if isinstance(power, ast.Constant) else None
            if type(exponent) is not int or not 0 <= exponent <= 8:
                raise self.fail(
                    f"the exponent of '**' must be a whole-number literal from 0 to 8, "
                    f"not {_quote(self.segment(power))}, in {what}."
                )
            base = self.build(node.left, depth + 1)
            # Base at most 10**15 and exponent at most 8: cheap to compute, then refused.
            return lambda env: _fit(base(env) ** exponent, where, what)
        function = self.operator(node.op, node)
        left, right = self.build(node.left, depth + 1), self.build(node.right, depth + 1)

        def run(env: _Env) -> Number:
            a, b = left(env), right(env)
            try:
                result = function(a, b)
            except ZeroDivisionError:
                raise _error(where, f"division by zero in {what}.") from None
            return _fit(result, where, what)

        return run

    def compare(self, node: ast.Compare, depth: int) -> _Eval:
        tests = [self.operator(op, node) for op in node.ops]
        first = self.build(node.left, depth + 1)
        rest = [(t, self.build(c, depth + 1)) for t, c in zip(tests, node.comparators, strict=True)]
        if len(rest) == 1:
            ((only, second),) = rest
            return lambda env: only(first(env), second(env))

        def run(env: _Env) -> bool:
            a = first(env)
            for test, operand in rest:  # left to right and lazily, as Python chains
                b = operand(env)
                if not test(a, b):
                    return False
                a = b
            return True

        return run

    def call(self, node: ast.Call, depth: int) -> _Eval:
        func = node.func
        if not isinstance(func, ast.Name) or func.id not in _FUNCTIONS:
            raise self.fail(
                f"calling {_quote(self.segment(func))} is not allowed in a formula; only "
                "min, max, abs, floor and ceil can be called."
            )
        if node.keywords:
            raise self.refuse("a keyword argument", node.keywords[0])
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                raise self.refuse("a starred argument", arg)
        least, function = _FUNCTIONS[func.id]
        if len(node.args) < least or (least == 1 and len(node.args) > 1):
            wanted = "exactly one argument" if least == 1 else "two or more arguments"
            raise self.fail(f"{func.id}() takes {wanted}, in {self.what(node)}.")
        args = [self.build(arg, depth + 1) for arg in node.args]
        if least == 1:
            return lambda env: function(args[0](env))
        return lambda env: function([arg(env) for arg in args])


def _pair(first: _Eval, second: _Eval, conjunction: bool) -> _Eval:
    """``first and second`` (or ``or``), each operand taken as a truth value."""
    if conjunction:
        return lambda env: bool(first(env)) and bool(second(env))
    return lambda env: bool(first(env)) or bool(second(env))


def _variable(name: str, where: str, text: str) -> _Eval:
    def load(env: _Env) -> Number:
        try:
            value = env[name]
        except KeyError:
            message = f"the variable {name!r} has no value, but the formula {_quote(text)} uses it."
            raise _error(where, message) from None
        if type(value) is int and -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE:
            return value
        if isinstance(value, bool):
            return value
        if not isinstance(value, int | Fraction):
            found = f"{reprlib.repr(value)} (a {type(value).__name__})"
            message = f"the variable {name!r} is {found}, not an int, Fraction or bool."
            raise _error(where, message)
        return _fit(value, where, f"the variable {name!r}")

    return load


class _Bail(Exception):
    """A value the generated code leaves to the closures (which then explain any error)."""


_PYTHON_OPERATORS: dict[type[ast.AST], str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
}


class _Source:
    """The same formula as one generated Python function: the closures' work without their calls.

    It is built from the syntax tree that :class:`_Compiler` has already
    checked, so it holds only the allowed constructs; names of variables
    appear only as quoted dictionary keys. Every value is checked as the
    closures check it. Anything unusual (a missing variable, a value out of
    range, a division by zero) hands the whole evaluation to the closures,
    which give the same result or raise the same error, so the generated
    code never needs error messages of its own.
    """

    def __init__(self, compiler: _Compiler, closures: _Eval) -> None:
        self.compiler = compiler
        self.closures = closures
        self.namespace: dict[str, Any] = {
            "_var": _variable_value,
            "_fit": _fit,
            "_F": Fraction,
            "_M": MAX_MAGNITUDE,
            "_max": max,
            "_min": min,
            "_abs": abs,
            "_floor": math.floor,
            "_ceil": math.ceil,
            "_slow": closures,
        }
        self.temps = 0

    def function(self, root: ast.expr) -> _Eval:
        """The generated evaluator, or the closures if Python cannot compile it."""
        try:
            body = self.expr(root)
            source = f"def fast(env):\n    try:\n        return {body}\n"
            source += "    except Exception:\n        return _slow(env)\n"
            exec(compile(source, "<formula>", "exec"), self.namespace)
        except (SyntaxError, RecursionError, MemoryError, ValueError):  # pragma: no cover - nesting is capped
            return self.closures
        made: _Eval = self.namespace["fast"]
        return made

    def temp(self) -> str:
        self.temps += 1
        return f"t{self.temps}"

    def constant(self, value: object) -> str:
        name = f"k{len(self.namespace)}"
        self.namespace[name] = value
        return name

    def checked(self, expression: str) -> str:
        """``expression`` with the closures' range check (``_fit``) of a computed value."""
        t = self.temp()
        return f"({t} if type({t} := {expression}) is int and -_M <= {t} <= _M else _fit({t}, '', ''))"

    def expr(self, node: ast.expr) -> str:
        if isinstance(node, ast.Constant):
            value = self.compiler.build(node, 1)({})  # the closures' own reading of the literal
            return self.constant(value)
        if isinstance(node, ast.Name):
            # Read where it is used, so that a condition that stops early reads no more.
            t = self.temp()
            small = f"type({t} := env[{node.id!r}]) is int and -_M <= {t} <= _M"
            return f"({t} if {small} or type({t}) is bool else _var({t}))"
        if isinstance(node, ast.UnaryOp):
            symbol = {ast.USub: "-", ast.UAdd: "+", ast.Not: "not "}[type(node.op)]
            return f"({symbol}{self.expr(node.operand)})"
        if isinstance(node, ast.BinOp):
            left = self.expr(node.left)
            if isinstance(node.op, ast.Pow):
                return self.checked(f"{left} ** {node.right.value}")  # type: ignore[attr-defined]
            right = self.expr(node.right)
            if isinstance(node.op, ast.Div):
                return f"_fit(_F({left}, {right}), '', '')"
            return self.checked(f"{left} {_PYTHON_OPERATORS[type(node.op)]} {right}")
        if isinstance(node, ast.Compare):
            parts = [self.expr(node.left)]
            for op, operand in zip(node.ops, node.comparators, strict=True):
                parts += [_PYTHON_OPERATORS[type(op)], self.expr(operand)]
            return f"({' '.join(parts)})"
        if isinstance(node, ast.BoolOp):
            joined = f" {'and' if isinstance(node.op, ast.And) else 'or'} ".join(self.expr(v) for v in node.values)
            return f"(True if {joined} else False)"
        if isinstance(node, ast.IfExp):
            return f"({self.expr(node.body)} if {self.expr(node.test)} else {self.expr(node.orelse)})"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            args = ", ".join(self.expr(a) for a in node.args)
            if node.func.id in ("min", "max"):
                return f"_{node.func.id}(({args},))"
            return f"_{node.func.id}({args})"
        raise ValueError(node)  # pragma: no cover - the compiler refused it already


def _variable_value(value: object) -> Number:
    """A variable's value that is not a small int, as the closures take it (or :class:`_Bail`)."""
    if isinstance(value, bool):
        return value
    if not isinstance(value, int | Fraction):
        raise _Bail
    return _fit(value, "", "")


def to_int(value: Number, rounding: str, *, where: str = "") -> int:
    """Turn an exact value into a whole number of chips.

    ``rounding`` is one of :data:`ROUNDING_MODES`; the module docstring says
    how each treats halves. Whole values pass through unchanged in every mode.
    Raises :class:`FormulaError` for an unknown mode, for a value that is not
    an ``int`` or ``Fraction``, and for a fraction under ``"exact"``.
    """
    if not isinstance(rounding, str) or rounding not in ROUNDING_MODES:
        modes = ", ".join(ROUNDING_MODES)
        raise _error(where, f"{reprlib.repr(rounding)} is not a rounding mode; use one of {modes}.")
    if isinstance(value, int):
        return int(value)
    if not isinstance(value, Fraction):
        kind = type(value).__name__
        raise _error(where, f"cannot round {reprlib.repr(value)} (a {kind}): it is not exact.")
    num, den = value.numerator, value.denominator
    if den == 1:
        return num
    if rounding == "exact":
        raise _error(where, f"the value {value} is not a whole number, and rounding is 'exact'.")
    down = num // den  # floor, in integers (Fraction arithmetic is slow)
    if rounding in ("floor", "ceil"):
        return down if rounding == "floor" else down + 1
    twice_excess = 2 * (num - down * den)  # the excess over ``down``, strictly between 0 and 1, times 2 * den
    if twice_excess != den:
        return down + 1 if twice_excess > den else down
    if rounding == "half_up":
        return down + 1 if value > 0 else down
    if rounding == "half_down":
        return down if value > 0 else down + 1
    return down if down % 2 == 0 else down + 1
