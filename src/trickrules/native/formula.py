"""Spec formulas natively: compiled at export into a small bytecode, evaluated by a stack machine.

A formula (:mod:`trickrules.spec.formula`) computes exactly, with ``int``
and :class:`~fractions.Fraction`. Here every value is a rational number held
as two ``int64`` words, a numerator and a positive denominator in lowest
terms, so every result is the engine's own, digit for digit, as long as it
fits: a value (or a denominator) past :data:`LIMIT` stops the evaluation
with an error, as does a division by zero or a fraction rounded under
``"exact"`` (where the engine raises :class:`~trickrules.errors.FormulaError`;
the engine's own limit, ``MAX_MAGNITUDE``, is far beyond ``int64``).

:func:`compile_code` writes a formula as a list of ``int64`` words (see the
``OP_*`` codes), its variables as indices into a vector of values given by
the caller (two arrays, numerators and denominators). :func:`evaluate` runs
such code from an offset of ``tb``. ``and``, ``or``, ``if``-``else`` and
chained comparisons jump, so they evaluate as lazily as Python does (a
division by zero in a branch not taken is no error, as in the engine).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from trickrules.native.jit import native
from trickrules.native.tables import Unsupported
from trickrules.spec.formula import Formula

__all__ = [
    "LIMIT",
    "OUT_SIZE",
    "ROUNDING_CODES",
    "compile_code",
    "evaluate",
    "rounded",
]

#: The largest size of a value or a denominator the native formulas carry (beyond it: an error).
LIMIT = 1 << 62
_FLIMIT = float(LIMIT)

#: The rounding modes of :func:`trickrules.spec.formula.to_int`, by code.
ROUNDING_CODES = {"exact": 0, "floor": 1, "ceil": 2, "half_up": 3, "half_even": 4, "half_down": 5}

# The instructions. Operands follow their code in the next words; a jump's target is relative to the code's start.
OP_END = 0
OP_CONST = 1  # num, den
OP_VAR = 2  # index
OP_NEG = 3
OP_NOT = 4
OP_ADD = 5
OP_SUB = 6
OP_MUL = 7
OP_DIV = 8
OP_FLOORDIV = 9
OP_MOD = 10
OP_POW = 11  # exponent
OP_CMP = 12  # comparison code (CMP_*)
OP_JZ = 13  # target: pop, jump if zero
OP_JNZ = 14  # target: pop, jump if not zero
OP_JMP = 15  # target
OP_CHAIN = 16  # comparison code, target: [l, r] -> [r] if l op r holds, else [0] and jump
OP_MIN = 17
OP_MAX = 18
OP_ABS = 19
OP_FLOOR = 20
OP_CEIL = 21

CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_EQ, CMP_NE = range(6)
_CMP = {ast.Lt: CMP_LT, ast.LtE: CMP_LE, ast.Gt: CMP_GT, ast.GtE: CMP_GE, ast.Eq: CMP_EQ, ast.NotEq: CMP_NE}
_BIN = {
    ast.Add: OP_ADD,
    ast.Sub: OP_SUB,
    ast.Mult: OP_MUL,
    ast.Div: OP_DIV,
    ast.FloorDiv: OP_FLOORDIV,
    ast.Mod: OP_MOD,
}
_CALLS = {"abs": OP_ABS, "floor": OP_FLOOR, "ceil": OP_CEIL}

#: The deepest stack a formula may need (deeper: Unsupported).
STACK = 48
#: The words of the ``out`` array :func:`evaluate` takes: the value, then its two stacks.
OUT_SIZE = 2 + 2 * STACK


def _const(value: int | Fraction) -> list[int]:
    f = Fraction(value)
    if abs(f.numerator) > LIMIT or f.denominator > LIMIT:
        raise Unsupported(f"the number {value} is past the native formulas' 62 bits")
    return [OP_CONST, f.numerator, f.denominator]


class _Writer:
    def __init__(self, names: Mapping[str, int], source: str) -> None:
        self.names = names
        self.source = source
        self.code: list[int] = []
        self.depth = 0
        self.most = 0

    def push(self, k: int = 1) -> None:
        self.depth += k
        self.most = max(self.most, self.depth)

    def jump(self, op: int, *operands: int) -> int:
        """Write a jump; the index of its target word (patched later)."""
        self.code.extend((op, *operands, -1))
        return len(self.code) - 1

    def land(self, at: int) -> None:
        self.code[at] = len(self.code)

    def node(self, node: ast.expr) -> None:
        """Write ``node``: its value is pushed on the stack."""
        code = self.code
        if isinstance(node, ast.Constant):
            self.constant(node)
        elif isinstance(node, ast.Name):
            if node.id not in self.names:
                raise Unsupported(f"the variable {node.id!r} in a formula")
            code.extend((OP_VAR, self.names[node.id]))
            self.push()
        elif isinstance(node, ast.UnaryOp):
            self.node(node.operand)
            if isinstance(node.op, ast.USub):
                code.append(OP_NEG)
            elif isinstance(node.op, ast.Not):
                code.append(OP_NOT)
            elif not isinstance(node.op, ast.UAdd):
                raise Unsupported(f"the operator {type(node.op).__name__}")
        elif isinstance(node, ast.BinOp):
            self.binary(node)
        elif isinstance(node, ast.Compare):
            self.compare(node)
        elif isinstance(node, ast.BoolOp):
            self.boolean(node)
        elif isinstance(node, ast.IfExp):
            self.node(node.test)
            other = self.jump(OP_JZ)
            self.depth -= 1
            self.node(node.body)
            done = self.jump(OP_JMP)
            self.depth -= 1
            self.land(other)
            self.node(node.orelse)
            self.land(done)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            self.call(node, node.func.id)
        else:
            raise Unsupported(f"the construct {type(node).__name__}")

    def constant(self, node: ast.Constant) -> None:
        value = node.value
        if isinstance(value, bool):
            self.code.extend((OP_CONST, int(value), 1))
        elif isinstance(value, int):
            self.code.extend(_const(value))
        elif isinstance(value, float):
            # The literal's own digits, as the engine reads them: 0.1 is exactly 1/10.
            text = ast.get_source_segment(self.source, node) or repr(value)
            self.code.extend(_const(Fraction(text.replace("_", ""))))
        else:
            raise Unsupported(f"the constant {value!r}")
        self.push()

    def binary(self, node: ast.BinOp) -> None:
        self.node(node.left)
        if isinstance(node.op, ast.Pow):
            exponent = node.right.value if isinstance(node.right, ast.Constant) else None
            if type(exponent) is not int or not 0 <= exponent <= 8:
                raise Unsupported("a power that is not a literal from 0 to 8")
            self.code.extend((OP_POW, exponent))
            return
        op = _BIN.get(type(node.op))
        if op is None:
            raise Unsupported(f"the operator {type(node.op).__name__}")
        self.node(node.right)
        self.code.append(op)
        self.depth -= 1

    def compare(self, node: ast.Compare) -> None:
        # A chain ``a < b < c`` stops at the first comparison that fails, as Python's does.
        self.node(node.left)
        ends = []
        ops = [_CMP[type(op)] for op in node.ops]
        for k, (cmp, right) in enumerate(zip(ops, node.comparators, strict=True)):
            self.node(right)
            if k < len(ops) - 1:
                ends.append(self.jump(OP_CHAIN, cmp))
            else:
                self.code.extend((OP_CMP, cmp))
            self.depth -= 1
        for at in ends:
            self.land(at)

    def boolean(self, node: ast.BoolOp) -> None:
        # ``a and b``: True if every operand is true, else False (``or``: True if any is), lazily.
        is_and = isinstance(node.op, ast.And)
        exits = []
        for operand in node.values:
            self.node(operand)
            exits.append(self.jump(OP_JZ if is_and else OP_JNZ))
            self.depth -= 1
        self.code.extend((OP_CONST, 1 if is_and else 0, 1))
        done = self.jump(OP_JMP)
        for at in exits:
            self.land(at)
        self.code.extend((OP_CONST, 0 if is_and else 1, 1))
        self.land(done)
        self.push()

    def call(self, node: ast.Call, name: str) -> None:
        if name in ("min", "max"):
            self.node(node.args[0])
            for arg in node.args[1:]:
                self.node(arg)
                self.code.append(OP_MIN if name == "min" else OP_MAX)
                self.depth -= 1
        elif name in _CALLS and len(node.args) == 1:
            self.node(node.args[0])
            self.code.append(_CALLS[name])
        else:
            raise Unsupported(f"the call of {name}")


def compile_code(formula: Formula, names: Mapping[str, int]) -> list[int]:
    """``formula`` as native code (ending with ``OP_END``), its variables read at their index in ``names``.

    Raises :class:`Unsupported` for a variable not in ``names``, a literal
    past 62 bits, or a formula deeper than the native stack.
    """
    tree = ast.parse(formula.source, mode="eval")
    writer = _Writer(names, formula.source)
    writer.node(tree.body)
    if writer.most > STACK:
        raise Unsupported(f"the formula {formula.source!r} is too deep for the native stack")
    return [*writer.code, OP_END]


# -- exact arithmetic on (numerator, denominator) pairs -------------------------------------------


@native
def _gcd(a: int, b: int) -> int:
    a = -a if a < 0 else a
    b = -b if b < 0 else b
    while b:
        a, b = b, a % b
    return a


@native
def _floor_div(a: int, b: int) -> int:
    """``a // b`` rounded towards minus infinity (``b`` not 0), whatever the signs."""
    if b < 0:
        a, b = -a, -b
    if a >= 0:
        return a // b
    return -((-a + b - 1) // b)


@native
def _fits(x: float) -> bool:
    return -_FLIMIT <= x <= _FLIMIT


@native
def _norm(n: int, d: int, out: npt.NDArray[np.int64]) -> bool:
    """``n / d`` in lowest terms into ``out[0:2]``; False where it is out of range (``d`` not 0)."""
    if d < 0:
        n, d = -n, -d
    g = _gcd(n, d) if d != 1 else 1
    if g > 1:
        n //= g
        d //= g
    if n > LIMIT or n < -LIMIT or d > LIMIT:
        return False
    out[0] = n
    out[1] = d
    return True


@native
def _mul(an: int, ad: int, bn: int, bd: int, out: npt.NDArray[np.int64]) -> bool:
    if ad == 1 and bd == 1:  # whole numbers, the common case: no common factors to take out
        if not _fits(float(an) * float(bn)):
            return False
        return _norm(an * bn, 1, out)
    g1 = _gcd(an, bd)
    g2 = _gcd(bn, ad)
    if g1 > 1:
        an //= g1
        bd //= g1
    if g2 > 1:
        bn //= g2
        ad //= g2
    if not _fits(float(an) * float(bn)) or not _fits(float(ad) * float(bd)):
        return False
    return _norm(an * bn, ad * bd, out)


@native
def _add(an: int, ad: int, bn: int, bd: int, out: npt.NDArray[np.int64]) -> bool:
    if ad == 1 and bd == 1:
        if not _fits(float(an) + float(bn)):
            return False
        return _norm(an + bn, 1, out)
    g = _gcd(ad, bd)
    da = bd // g
    db = ad // g
    x = float(an) * float(da) + float(bn) * float(db)
    if not _fits(float(an) * float(da)) or not _fits(float(bn) * float(db)) or not _fits(x):
        return False
    if not _fits(float(ad) * float(da)):
        return False
    return _norm(an * da + bn * db, ad * da, out)


@native
def _order(an: int, ad: int, bn: int, bd: int) -> int:
    """-1, 0 or 1 as ``an / ad`` is below, equal to or above ``bn / bd`` (positive denominators), exactly.

    By continued fractions (Euclid's steps on both at once), so no product can overflow.
    """
    if ad == bd:
        return -1 if an < bn else 1 if an > bn else 0
    sign = 1
    while True:
        qa = _floor_div(an, ad)
        qb = _floor_div(bn, bd)
        if qa != qb:
            return sign if qa > qb else -sign
        ra = an - qa * ad  # 0 <= ra < ad
        rb = bn - qb * bd
        if ra == 0 or rb == 0:
            if ra == rb:
                return 0
            return sign if ra > 0 else -sign
        # ra/ad against rb/bd is bd/rb against ad/ra.
        an, ad, bn, bd = ad, ra, bd, rb
        sign = -sign


@native
def _cmp(code: int, an: int, ad: int, bn: int, bd: int) -> int:
    """``a op b`` as 0 or 1."""
    c = _order(an, ad, bn, bd)
    if code == CMP_LT:
        return 1 if c < 0 else 0
    if code == CMP_LE:
        return 1 if c <= 0 else 0
    if code == CMP_GT:
        return 1 if c > 0 else 0
    if code == CMP_GE:
        return 1 if c >= 0 else 0
    if code == CMP_EQ:
        return 1 if c == 0 else 0
    return 1 if c != 0 else 0


@native
def rounded(n: int, d: int, mode: int, out: npt.NDArray[np.int64]) -> bool:
    """``to_int(n / d, mode)`` into ``out[0]`` (mode: a :data:`ROUNDING_CODES` value); False: a fraction, exact."""
    if d < 0:
        n, d = -n, -d
    down = _floor_div(n, d)
    if down * d == n:  # whole (``n / d`` need not be in lowest terms)
        out[0] = down
        return True
    if mode == 0:
        return False
    if mode == 1:
        out[0] = down
        return True
    if mode == 2:
        out[0] = down + 1
        return True
    twice = 2 * (n - down * d)
    if twice != d:
        out[0] = down + 1 if twice > d else down
        return True
    if mode == 3:
        out[0] = down + 1 if n > 0 else down
    elif mode == 5:
        out[0] = down if n > 0 else down + 1
    else:
        out[0] = down if down % 2 == 0 else down + 1
    return True


@native
def _binary(op: int, an: int, ad: int, bn: int, bd: int, arg: int, out: npt.NDArray[np.int64]) -> bool:
    """``a op b`` (an arithmetic operator, a comparison, min or max) into ``out[0:2]``; False on an error."""
    if op == OP_ADD:
        return _add(an, ad, bn, bd, out)
    if op == OP_SUB:
        return _add(an, ad, -bn, bd, out)
    if op == OP_MUL:
        return _mul(an, ad, bn, bd, out)
    if op == OP_CMP:
        out[0] = _cmp(arg, an, ad, bn, bd)
        out[1] = 1
        return True
    if op in (OP_MIN, OP_MAX):
        c = _order(bn, bd, an, ad)
        take_b = c < 0 if op == OP_MIN else c > 0  # on a tie, the first (an equal value: the same number)
        out[0] = bn if take_b else an
        out[1] = bd if take_b else ad
        return True
    if bn == 0:
        return False  # a division by zero
    # a / b = (an * bd) / (ad * bn)
    if not (_mul(an, ad, bd, bn, out) if bn > 0 else _mul(an, ad, -bd, -bn, out)):
        return False
    if op == OP_DIV:
        return True
    q = _floor_div(out[0], out[1])
    if op == OP_FLOORDIV:
        out[0] = q
        out[1] = 1
        return True
    # a % b = a - b * floor(a / b)
    return _mul(bn, bd, q, 1, out) and _add(an, ad, -out[0], out[1], out)


@native
def _unary(op: int, n: int, d: int, arg: int, out: npt.NDArray[np.int64]) -> bool:
    """``op`` of ``n / d`` (-, not, abs, floor, ceil, a power) into ``out[0:2]``; False on an error."""
    out[1] = d
    if op == OP_NEG:
        out[0] = -n
    elif op == OP_NOT:
        out[0] = 1 if n == 0 else 0
        out[1] = 1
    elif op == OP_ABS:
        out[0] = -n if n < 0 else n
    elif op == OP_FLOOR:
        out[0] = _floor_div(n, d)
        out[1] = 1
    elif op == OP_CEIL:
        out[0] = -_floor_div(-n, d)
        out[1] = 1
    else:  # OP_POW
        rn, rd = 1, 1
        for _ in range(arg):
            if not _mul(rn, rd, n, d, out):
                return False
            rn, rd = out[0], out[1]
        out[0] = rn
        out[1] = rd
    return True


#: How many operand words each instruction has.
_WIDTH = np.array([0, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 0, 0, 0, 0, 0], dtype=np.int64)
_BINARY = np.array([0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0], dtype=np.int64)


@native
def evaluate(
    tb: npt.NDArray[np.int64],
    at: int,
    vnum: npt.NDArray[np.int64],
    vden: npt.NDArray[np.int64],
    out: npt.NDArray[np.int64],
) -> bool:
    """Run the code at ``tb[at:]`` over the variables ``vnum / vden``; the value into ``out[0:2]`` (num, den).

    ``out`` has :data:`OUT_SIZE` words: past the value, the machine's stacks (so that scoring a deal,
    which runs dozens of formulas, allocates them once). False on an error: a value past
    :data:`LIMIT`, a division by zero.
    """
    # The stacks live in ``out`` itself, indexed directly (a slice of it costs a view per call):
    # numerators at ``out[top]``, denominators at ``out[top + STACK]``; the first is at 2.
    top = 1
    pc = at
    while True:
        op = tb[pc]
        if op == OP_END:
            break
        if op in (OP_CONST, OP_VAR):
            top += 1
            out[top] = tb[pc + 1] if op == OP_CONST else vnum[tb[pc + 1]]
            out[top + STACK] = tb[pc + 2] if op == OP_CONST else vden[tb[pc + 1]]
        elif _BINARY[op]:
            top -= 1
            if not _binary(op, out[top], out[top + STACK], out[top + 1], out[top + 1 + STACK], tb[pc + 1], out):
                return False
            out[top] = out[0]
            out[top + STACK] = out[1]
        elif op in (OP_JZ, OP_JNZ):
            top -= 1
            if (out[top + 1] == 0) == (op == OP_JZ):
                pc = at + tb[pc + 1]
                continue
        elif op == OP_JMP:
            pc = at + tb[pc + 1]
            continue
        elif op == OP_CHAIN:
            # [l, r] -> [r] if ``l op r`` holds, else [0] and the chain's end.
            top -= 1
            if _cmp(tb[pc + 1], out[top], out[top + STACK], out[top + 1], out[top + 1 + STACK]):
                out[top] = out[top + 1]
                out[top + STACK] = out[top + 1 + STACK]
            else:
                out[top] = 0
                out[top + STACK] = 1
                pc = at + tb[pc + 2]
                continue
        else:
            if not _unary(op, out[top], out[top + STACK], tb[pc + 1], out):
                return False
            out[top] = out[0]
            out[top + STACK] = out[1]
        pc += 1 + _WIDTH[op]
    out[0] = out[top]
    out[1] = out[top + STACK]
    return True
