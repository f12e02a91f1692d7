"""Tests for the payout formula language in trickrules.spec.formula."""

from __future__ import annotations

import ast
import doctest
import math
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any, TypeAlias

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trickrules.errors import FormulaError, SpecError
from trickrules.spec import formula
from trickrules.spec.formula import (
    MAX_DEPTH,
    MAX_MAGNITUDE,
    MAX_SOURCE_LENGTH,
    ROUNDING_MODES,
    Formula,
    Number,
    compile_formula,
    to_int,
)

VARIABLES = ("pot", "stake", "tricks", "vole", "x", "y")
WHERE = "specs/quadrille.toml: scoring.payouts.solo.declarer"


def run(source: str, **env: Number | bool) -> Number:
    return compile_formula(source, VARIABLES, where=WHERE).evaluate(env)


def refusal(source: object, allowed: object = VARIABLES) -> str:
    with pytest.raises(FormulaError) as caught:
        compile_formula(source, allowed, where=WHERE)  # type: ignore[arg-type]
    return str(caught.value)


# --- the language -----------------------------------------------------------

OPERATOR_CASES: list[tuple[str, dict[str, Number | bool], Number]] = [
    ("stake * 3 + 1", {"stake": 5}, 16),
    ("pot - 7", {"pot": 3}, -4),
    ("pot / 4", {"pot": 10}, Fraction(5, 2)),
    ("pot / 5", {"pot": 10}, 2),
    ("pot // 4", {"pot": 10}, 2),
    ("-pot // 4", {"pot": 10}, -3),
    ("pot % 4", {"pot": 10}, 2),
    ("-pot % 4", {"pot": 10}, 2),
    ("pot % -4", {"pot": 10}, -2),
    ("stake ** 2", {"stake": -3}, 9),
    ("stake ** 0", {"stake": 0}, 1),
    ("stake ** 8", {"stake": 2}, 256),
    ("-stake", {"stake": 4}, -4),
    ("+stake", {"stake": 4}, 4),
    ("not stake", {"stake": 0}, 1),
    ("not stake", {"stake": 2}, 0),
    ("x < y", {"x": 1, "y": 2}, 1),
    ("x <= y", {"x": 2, "y": 2}, 1),
    ("x > y", {"x": 2, "y": 2}, 0),
    ("x >= y", {"x": 2, "y": 2}, 1),
    ("x == y", {"x": 2, "y": 3}, 0),
    ("x != y", {"x": 2, "y": 3}, 1),
    ("0 <= x < 10", {"x": 9}, 1),
    ("0 <= x < 10", {"x": 10}, 0),
    ("x < y > 1", {"x": 0, "y": 1}, 0),
    ("x and y", {"x": 2, "y": 3}, 1),
    ("x and y", {"x": 2, "y": 0}, 0),
    ("x or y", {"x": 0, "y": 0}, 0),
    ("x or y", {"x": 0, "y": 5}, 1),
    ("2 if vole else 1", {"vole": True}, 2),
    ("2 if vole else 1", {"vole": False}, 1),
    ("max(0, tricks - 5) * stake", {"tricks": 3, "stake": 2}, 0),
    ("max(0, tricks - 5) * stake", {"tricks": 8, "stake": 2}, 6),
    ("min(x, y, 4)", {"x": 7, "y": 5}, 4),
    ("max(x, y, 4)", {"x": 7, "y": 5}, 7),
    ("abs(x - y)", {"x": 2, "y": 9}, 7),
    ("floor(x / 2)", {"x": -7}, -4),
    ("ceil(x / 2)", {"x": -7}, -3),
    ("floor(x)", {"x": 3}, 3),
    ("True + True", {}, 2),
    ("False * 5", {}, 0),
]


@pytest.mark.parametrize(("source", "env", "expected"), OPERATOR_CASES)
def test_every_operator_gives_its_python_meaning(
    source: str, env: dict[str, Number | bool], expected: Number
) -> None:
    result = run(source, **env)
    assert result == expected
    assert type(result) is type(expected)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("2 * 3 ** 2", 18),
        ("-2 ** 2", -4),
        ("(-2) ** 2", 4),
        ("10 - 4 - 3", 3),
        ("2 * 7 // 3", 4),
        ("2 * (7 // 3)", 4),
        ("7 % 4 * 2", 6),
        ("1 + 2 if 0 else 3", 3),
        ("not 1 == 2", 1),
        ("1 or 0 and 0", 1),
        ("(1 or 0) and 0", 0),
        ("1 + 1 < 3 and 2 * 2 == 4", 1),
        ("-max(1, 2) + abs(-3)", 1),
    ],
)
def test_precedence_follows_python(source: str, expected: int) -> None:
    assert run(source) == expected


def test_decimal_literal_is_exact_fraction() -> None:
    result = run("stake * 1.5", stake=3)
    assert result == Fraction(9, 2)
    assert isinstance(result, Fraction)
    assert run("0.1 + 0.2 == 0.3") == 1
    assert run("0.1 * 3") == Fraction(3, 10)
    assert run("1_000.25 + .75 + 2.") == 1003


def test_division_is_exact_and_whole_quotients_become_int() -> None:
    assert run("pot / 3", pot=7) == Fraction(7, 3)
    third = run("1 / 3 * 3")
    assert third == 1
    assert type(third) is int
    assert type(run("2.0")) is int


def test_floor_division_and_modulo_floor_on_fractions() -> None:
    assert run("3.5 // 1") == 3
    assert run("-3.5 // 1") == -4
    assert run("3.5 % 2") == Fraction(3, 2)
    assert run("-3.5 % 2") == Fraction(1, 2)
    assert run("x % 0.5", x=Fraction(7, 4)) == Fraction(1, 4)


def test_booleans_count_as_zero_and_one() -> None:
    assert run("vole * 2", vole=True) == 2
    assert run("vole + vole", vole=True) == 2
    assert run("-vole", vole=True) == -1
    assert run("vole * 1.5", vole=True) == Fraction(3, 2)
    assert run("(x > 1 and y > 1) * 5", x=2, y=2) == 5
    result = run("vole", vole=True)
    assert result == 1
    assert type(result) is int


def test_fraction_values_in_env_are_accepted_and_normalised() -> None:
    result = run("stake * 2", stake=Fraction(1, 2))
    assert result == 1
    assert type(result) is int
    assert run("stake", stake=Fraction(4, 2)) == 2


def test_and_or_conditional_and_chains_short_circuit() -> None:
    assert run("x != 0 and 10 / x > 1", x=0) == 0
    assert run("x == 0 or 10 / x > 1", x=0) == 1
    assert run("1 if x == 0 else 1 / x", x=0) == 1
    assert run("1 > 2 > 1 / x", x=0) == 0


@pytest.mark.parametrize("source", ["1 / x", "1 // x", "1 % x", "0.5 / (x * 2)"])
def test_division_by_zero_raises_formula_error(source: str) -> None:
    with pytest.raises(FormulaError, match="division by zero"):
        run(source, x=0)


# --- ranges and limits ------------------------------------------------------


def test_values_beyond_max_magnitude_are_out_of_range() -> None:
    assert run("x + 1", x=MAX_MAGNITUDE - 1) == MAX_MAGNITUDE
    assert run("-x - 1", x=MAX_MAGNITUDE - 1) == -MAX_MAGNITUDE
    for source, env in [
        ("x + 1", {"x": MAX_MAGNITUDE}),
        ("-x - 1", {"x": MAX_MAGNITUDE}),
        ("stake * stake", {"stake": 10**151}),
        ("stake ** 8", {"stake": 10**38}),
        ("(((2 ** 8) ** 8) ** 8) ** 8", {}),
    ]:
        with pytest.raises(FormulaError, match="value out of range"):
            run(source, **env)


def test_intermediate_value_out_of_range_fails_even_if_final_would_fit() -> None:
    with pytest.raises(FormulaError, match=r"value out of range: 'x \* x'"):
        run("x * x - x * x", x=10**151)


def test_fractions_with_huge_denominators_are_out_of_range() -> None:
    assert run("((1 / 7) ** 8) ** 8") == Fraction(1, 7**64)
    with pytest.raises(FormulaError, match="denominator"):
        run("(((1 / 7) ** 8) ** 8) ** 8")


@pytest.mark.parametrize(
    "env",
    [{"x": MAX_MAGNITUDE + 1}, {"x": -MAX_MAGNITUDE - 1}, {"x": Fraction(1, MAX_MAGNITUDE + 1)}],
)
def test_env_values_out_of_range_are_refused(env: dict[str, Number]) -> None:
    with pytest.raises(FormulaError, match="value out of range: the variable 'x'"):
        run("x", **env)


@pytest.mark.parametrize("value", [1.5, "3", None, [1]])
def test_env_values_of_other_types_are_refused(value: object) -> None:
    with pytest.raises(FormulaError, match=r"the variable 'x' is .* not an int, Fraction or bool"):
        run("x + 1", x=value)  # type: ignore[arg-type]


def test_missing_variable_raises_formula_error_naming_it() -> None:
    with pytest.raises(FormulaError, match="the variable 'stake' has no value") as caught:
        run("pot + stake", pot=1)
    assert str(caught.value).startswith(WHERE + ": ")


def test_literal_limits() -> None:
    assert run(str(MAX_MAGNITUDE)) == MAX_MAGNITUDE
    assert run("0." + "0" * 299 + "1") == Fraction(1, 10**300)
    for source in [str(MAX_MAGNITUDE + 1), "0." + "0" * 300 + "1", "1" * 301 + ".5"]:
        assert "out of range" in refusal(source)


def test_source_length_limit() -> None:
    assert run("0" * MAX_SOURCE_LENGTH) == 0
    assert "501 characters long" in refusal("0" * (MAX_SOURCE_LENGTH + 1))


def test_depth_limit() -> None:
    assert run("-" * (MAX_DEPTH - 1) + "1") == -1
    assert f"more than {MAX_DEPTH} levels deep" in refusal("-" * MAX_DEPTH + "1")
    assert "levels deep" in refusal("(1 + " * 45 + "1" + ")" * 45)
    assert "levels deep" in refusal("max(1, " * 45 + "1" + ")" * 45)


# --- refusals ---------------------------------------------------------------

HOSTILE: list[tuple[str, str]] = [
    ("().__class__.__bases__", "attribute access"),
    ("x.real", "attribute access"),
    ("__import__('os')", "calling '__import__'"),
    ("eval('1')", "calling 'eval'"),
    ("x.y()", "calling 'x.y'"),
    ("(lambda: 1)()", "calling 'lambda: 1'"),
    ("9**9**9", "exponent of '**'"),
    ("2**x", "exponent of '**'"),
    ("2**9", "exponent of '**'"),
    ("2**-1", "exponent of '**'"),
    ("2**True", "exponent of '**'"),
    ("2**0.5", "exponent of '**'"),
    ("x[0]", "subscripting"),
    ("lambda: 1", "lambda"),
    ("'a'", "a string"),
    ("b'a'", "bytes"),
    ("f'{x}'", "f-string"),
    ("[1]", "a list"),
    ("(1,2)", "a tuple"),
    ("{1: 2}", "a dict"),
    ("{1}", "a set"),
    ("[i for i in x]", "list comprehension"),
    ("{i for i in x}", "set comprehension"),
    ("{i: i for i in x}", "dict comprehension"),
    ("max(1, (i for i in x))", "generator expression"),
    ("(y:=1)", ":="),
    ("max(*x)", "starred"),
    ("min(a=1)", "keyword argument"),
    ("max(1, **x)", "keyword argument"),
    ("1e9", "exponent notation"),
    ("1.5E3", "exponent notation"),
    ("1j", "imaginary"),
    ("nan", "'nan'"),
    ("inf", "'inf'"),
    ("None", "None"),
    ("...", "Ellipsis"),
    ("1 << 2", "'<<'"),
    ("1 | 2", "'|'"),
    ("1 & 2", "'&'"),
    ("1 ^ 2", "'^'"),
    ("~1", "'~'"),
    ("x @ y", "'@'"),
    ("x is y", "'is'"),
    ("x is not y", "'is not'"),
    ("x in y", "'in'"),
    ("x not in y", "'not in'"),
    ("x if y", "not valid syntax"),
    ("1 +", "not valid syntax"),
    ("x = 1", "not valid syntax"),
    ("import os", "not valid syntax"),
    ("await x", "Await"),
    ("min", "function 'min' can only be called"),
    ("min(1)", "two or more arguments"),
    ("abs(1, 2)", "exactly one argument"),
    ("floor()", "exactly one argument"),
    ("x" * 10_000, "10000 characters long"),
    ("(" * 1000 + "1" + ")" * 1000, "2001 characters long"),
    ("(" * 240 + "1" + ")" * 240, "too many nested parentheses"),
    ("-" * 400 + "1", "levels deep"),
    ("1\x00", "U+0000"),
    ("1\n+ 2", "U+000A"),
    ("1\t+ 2", "U+0009"),
    ("1 +\x7f2", "U+007F"),
    ("1\u200b+ 2", "U+200B"),
    ("", "empty"),
    ("   ", "empty"),
]


@pytest.mark.parametrize(("source", "construct"), HOSTILE)
def test_hostile_sources_are_refused_quickly_naming_the_construct(
    source: str, construct: str
) -> None:
    start = time.perf_counter()
    message = refusal(source)
    assert time.perf_counter() - start < 20.0  # a hang guard, not a speed measurement
    assert construct in message
    assert message.startswith(WHERE + ": ")
    assert message.endswith(".")


@pytest.mark.parametrize("source", [None, 5, b"1", ["1"], 1.5])
def test_non_string_sources_are_refused(source: object) -> None:
    assert "a formula must be a string" in refusal(source)


def test_unknown_names_are_all_listed_with_the_allowed_ones() -> None:
    message = refusal("stak + trick * stak", ["stake", "tricks", "pot"])
    assert message == (
        f"{WHERE}: the names 'stak' and 'trick' are not variables of this formula "
        "(allowed: pot, stake, tricks)."
    )
    message = refusal("stak", ["stake", "tricks", "pot"])
    assert message == (
        f"{WHERE}: the name 'stak' is not a variable of this formula (allowed: pot, stake, tricks)."
    )
    assert "(allowed: none)" in refusal("x", [])


@pytest.mark.parametrize(
    ("allowed", "fragment"),
    [
        (["stake", "min"], "'min' cannot be a formula variable"),
        (["ceil"], "'ceil' cannot be a formula variable"),
        ("stake", "must be names, not the string 'stake'"),
        (["1x"], "'1x' cannot be the name"),
        (["if"], "'if' cannot be the name"),
        ([3], "3 cannot be the name"),
        (None, "must be names, not None"),
    ],
)
def test_bad_allowed_names_are_refused(allowed: object, fragment: str) -> None:
    assert fragment in refusal("1", allowed)


def test_error_without_where_is_a_capitalised_sentence() -> None:
    with pytest.raises(FormulaError) as caught:
        compile_formula("x[0]", ["x"])
    assert str(caught.value) == "Subscripting ('x[0]') is not allowed in a formula."


def test_formula_error_is_a_spec_error_and_value_error() -> None:
    with pytest.raises(SpecError):
        compile_formula("'a'", [])
    with pytest.raises(ValueError, match="string"):
        compile_formula("'a'", [])


# --- the Formula object -----------------------------------------------------


def test_formula_repr_equality_and_variables() -> None:
    first = compile_formula("stake * 3 + 1", ["stake", "pot"])
    assert isinstance(first, Formula)
    again = compile_formula("  stake * 3 + 1 ", ["stake", "tricks"])
    assert repr(first) == "Formula('stake * 3 + 1')"
    assert first.source == "stake * 3 + 1"
    assert first.variables == frozenset({"stake"})
    assert first == again
    assert hash(first) == hash(again)
    assert compile_formula("max(pot, 2) if vole else 0", VARIABLES).variables == {"pot", "vole"}
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        first.source = "1"  # type: ignore[misc]


def test_evaluate_does_not_parse_again(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = compile_formula("max(0, tricks - 5) * stake * 1.5", VARIABLES)

    def refuse_to_parse(*args: object, **kwargs: object) -> None:
        raise AssertionError("evaluate parsed the source again")

    monkeypatch.setattr(ast, "parse", refuse_to_parse)
    assert compiled.evaluate({"tricks": 7, "stake": 3}) == 9


def test_errors_raised_while_evaluating_carry_where() -> None:
    compiled = compile_formula("pot / x + 1", ["pot", "x"], where=WHERE)
    with pytest.raises(FormulaError) as caught:
        compiled.evaluate({"pot": 1, "x": 0})
    assert str(caught.value) == f"{WHERE}: division by zero in 'pot / x' (in 'pot / x + 1')."


def test_module_docstring_examples_hold() -> None:
    assert doctest.testmod(formula).failed == 0


# --- rounding ---------------------------------------------------------------

ROUNDING_TABLE: dict[Fraction, dict[str, int]] = {
    Fraction(5, 2): {"floor": 2, "ceil": 3, "half_up": 3, "half_even": 2, "half_down": 2},
    Fraction(-5, 2): {"floor": -3, "ceil": -2, "half_up": -3, "half_even": -2, "half_down": -2},
    Fraction(7, 2): {"floor": 3, "ceil": 4, "half_up": 4, "half_even": 4, "half_down": 3},
    Fraction(-7, 2): {"floor": -4, "ceil": -3, "half_up": -4, "half_even": -4, "half_down": -3},
    Fraction(9, 4): {"floor": 2, "ceil": 3, "half_up": 2, "half_even": 2, "half_down": 2},
    Fraction(-9, 4): {"floor": -3, "ceil": -2, "half_up": -2, "half_even": -2, "half_down": -2},
    Fraction(11, 4): {"floor": 2, "ceil": 3, "half_up": 3, "half_even": 3, "half_down": 3},
    Fraction(-1, 2): {"floor": -1, "ceil": 0, "half_up": -1, "half_even": 0, "half_down": 0},
}


@pytest.mark.parametrize(
    ("value", "mode", "expected"),
    [
        (value, mode, want)
        for value, modes in ROUNDING_TABLE.items()
        for mode, want in modes.items()
    ],
)
def test_to_int_rounds_per_mode(value: Fraction, mode: str, expected: int) -> None:
    assert to_int(value, mode) == expected


@pytest.mark.parametrize("mode", ROUNDING_MODES)
@pytest.mark.parametrize("value", [7, -7, 0, True, Fraction(8, 2)])
def test_to_int_passes_whole_values_through_in_every_mode(value: Number, mode: str) -> None:
    result = to_int(value, mode)
    assert result == value
    assert type(result) is int


def test_to_int_exact_refuses_fractions() -> None:
    with pytest.raises(FormulaError, match="9/2 is not a whole number") as caught:
        to_int(Fraction(9, 2), "exact", where=WHERE)
    assert str(caught.value).startswith(WHERE + ": ")


@pytest.mark.parametrize(
    ("value", "mode", "fragment"),
    [
        (1, "nearest", "'nearest' is not a rounding mode"),
        (Fraction(1, 2), "HALF_UP", "is not a rounding mode"),
        (1.5, "floor", "1.5 (a float)"),
        ("3", "floor", "'3' (a str)"),
    ],
)
def test_to_int_refuses_bad_modes_and_values(value: object, mode: str, fragment: str) -> None:
    with pytest.raises(FormulaError) as caught:
        to_int(value, mode)  # type: ignore[arg-type]
    assert fragment in str(caught.value)


fraction_values = st.fractions(min_value=-(10**6), max_value=10**6, max_denominator=1000)


@given(fraction_values)
def test_to_int_modes_agree_with_their_definitions(value: Fraction) -> None:
    floor, ceil = math.floor(value), math.ceil(value)
    assert to_int(value, "floor") == floor
    assert to_int(value, "ceil") == ceil
    assert to_int(value, "half_even") == round(value)  # Fraction rounds halves to even
    for mode in ("half_up", "half_even", "half_down"):
        result = to_int(value, mode)
        assert floor <= result <= ceil
        assert abs(result - value) <= Fraction(1, 2)
    assert to_int(-value, "half_up") == -to_int(value, "half_up")
    assert to_int(-value, "half_down") == -to_int(value, "half_down")
    if value.denominator == 2:
        assert abs(to_int(value, "half_up")) > abs(value) > abs(to_int(value, "half_down"))


# --- properties -------------------------------------------------------------

small = st.integers(min_value=-1000, max_value=1000)


@given(st.lists(small, min_size=1, max_size=5), st.lists(st.sampled_from("+-*"), max_size=4))
def test_flat_integer_expressions_agree_with_python(numbers: list[int], ops: list[str]) -> None:
    # At most five numbers of at most 1000: no value can pass MAX_MAGNITUDE.
    source = str(numbers[0])
    for op, number in zip(ops, numbers[1:], strict=False):
        source += f" {op} {number}"
    assert compile_formula(source, []).evaluate({}) == eval(source)


Tree: TypeAlias = int | str | tuple[str, "Tree", "Tree"]
leaves = small | st.sampled_from(["a", "b", "c"])
trees: st.SearchStrategy[Tree] = st.recursive(
    leaves,
    lambda inner: st.tuples(st.sampled_from(["+", "-", "*", "neg"]), inner, inner),
    max_leaves=12,
)


def render(tree: Tree) -> str:
    if isinstance(tree, int | str):
        return str(tree)
    op, left, right = tree
    return f"-({render(left)})" if op == "neg" else f"({render(left)} {op} {render(right)})"


def oracle(tree: Tree, env: dict[str, int], sizes: list[int]) -> int:
    if isinstance(tree, int):
        return tree
    if isinstance(tree, str):
        return env[tree]
    op, left, right = tree
    functions: dict[str, Callable[[], int]] = {
        "neg": lambda: -oracle(left, env, sizes),
        "+": lambda: oracle(left, env, sizes) + oracle(right, env, sizes),
        "-": lambda: oracle(left, env, sizes) - oracle(right, env, sizes),
        "*": lambda: oracle(left, env, sizes) * oracle(right, env, sizes),
    }
    value = functions[op]()
    sizes.append(abs(value))
    return value


@settings(max_examples=75)
@given(trees, st.fixed_dictionaries({name: st.integers(-(10**60), 10**60) for name in "abc"}))
def test_integer_expression_trees_agree_with_python(tree: Tree, env: dict[str, int]) -> None:
    source = render(tree)
    compiled = compile_formula(source, ["a", "b", "c"])
    sizes: list[int] = []
    expected = oracle(tree, env, sizes)
    assert expected == eval(source, {"__builtins__": {}}, dict(env))
    if max(sizes, default=0) > MAX_MAGNITUDE:
        with pytest.raises(FormulaError, match=r"(?i)value out of range"):
            compiled.evaluate(env)
    else:
        assert compiled.evaluate(env) == expected


UNARY = ["(-{})", "(+{})", "(not {})", "abs({})", "floor({})", "ceil({})", "({} ** 2)", "({} ** 8)"]
BINARY = ["+", "-", "*", "/", "//", "%", "<", "<=", ">", ">=", "==", "!=", "and", "or"]
values = st.integers(-MAX_MAGNITUDE, MAX_MAGNITUDE) | st.booleans() | fraction_values
any_leaf = st.sampled_from(["x", "y", "z", "0", "1", "2.5", "True", "0.001", "((10 ** 8) ** 8)"])


def any_node(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return (
        st.builds(lambda shape, a: shape.format(a), st.sampled_from(UNARY), inner)
        | st.builds(lambda a, op, b: f"({a} {op} {b})", inner, st.sampled_from(BINARY), inner)
        | st.builds(lambda a, b, c: f"({a} if {b} else {c})", inner, inner, inner)
        | st.builds(lambda f, a, b: f"{f}({a}, {b})", st.sampled_from(["min", "max"]), inner, inner)
    )


@settings(max_examples=75)
@given(st.recursive(any_leaf, any_node, max_leaves=10), st.lists(values, min_size=3, max_size=3))
def test_evaluation_raises_nothing_but_formula_error(source: str, numbers: list[Number]) -> None:
    try:
        # A formula without variables is evaluated (folded) when compiled.
        compiled = compile_formula(source, ["x", "y", "z"])
        result = compiled.evaluate(dict(zip("xyz", numbers, strict=True)))
    except FormulaError:
        return
    assert type(result) in (int, Fraction)
    assert -MAX_MAGNITUDE <= result <= MAX_MAGNITUDE
    if isinstance(result, Fraction):
        assert 1 < result.denominator <= MAX_MAGNITUDE


class Refused(Exception):
    """What the reference interpreter refuses, by kind: missing, type, range or zero."""


def fit(value: object) -> Number:
    # The range rule, as the module docstring states it; whole fractions become ints.
    assert isinstance(value, int | Fraction)
    if isinstance(value, Fraction):
        if value.denominator > MAX_MAGNITUDE:
            raise Refused("range")
        value = value.numerator if value.denominator == 1 else value
    if not -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE:
        raise Refused("range")
    return int(value) if isinstance(value, int) else value


def reference(node: ast.expr, text: str, env: dict[str, object]) -> object:
    """A formula's meaning read off its syntax tree one node at a time: slow and plain."""

    def run(child: ast.expr) -> Any:
        return reference(child, text, env)

    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool):
            return node.value
        return fit(Fraction(ast.get_source_segment(text, node) or ""))
    if isinstance(node, ast.Name):
        if node.id not in env:
            raise Refused("missing")
        value = env[node.id]
        if isinstance(value, bool):
            return value
        if not isinstance(value, int | Fraction):
            raise Refused("type")
        return fit(value)
    if isinstance(node, ast.UnaryOp):
        operand = run(node.operand)
        unary: dict[type[ast.AST], Callable[[Any], object]] = {
            ast.USub: lambda a: -a, ast.UAdd: lambda a: +a, ast.Not: lambda a: not a
        }  # fmt: skip
        return unary[type(node.op)](operand)
    if isinstance(node, ast.BinOp):
        a = run(node.left)
        if isinstance(node.op, ast.Pow):
            return fit(a**node.right.value)  # type: ignore[attr-defined]
        b = run(node.right)
        if isinstance(node.op, ast.Div | ast.FloorDiv | ast.Mod) and b == 0:
            raise Refused("zero")
        binary: dict[type[ast.AST], Callable[[Any, Any], Any]] = {
            ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
            ast.Div: Fraction, ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
        }  # fmt: skip
        return fit(binary[type(node.op)](a, b))
    if isinstance(node, ast.Compare):
        tests: dict[type[ast.AST], Callable[[Any, Any], bool]] = {
            ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b,
            ast.GtE: lambda a, b: a >= b, ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b,
        }  # fmt: skip
        left = run(node.left)
        for op, comparator in zip(node.ops, node.comparators, strict=True):
            right = run(comparator)  # only once the comparisons before it held
            if not tests[type(op)](left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.BoolOp):
        for value in node.values:
            if bool(run(value)) != isinstance(node.op, ast.And):
                return not isinstance(node.op, ast.And)
        return isinstance(node.op, ast.And)
    if isinstance(node, ast.IfExp):
        return run(node.body) if run(node.test) else run(node.orelse)
    assert isinstance(node, ast.Call)
    assert isinstance(node.func, ast.Name)
    args = [run(arg) for arg in node.args]
    functions: dict[str, Callable[[list[Any]], object]] = {
        "min": min, "max": max, "abs": lambda a: abs(a[0]),
        "floor": lambda a: math.floor(a[0]), "ceil": lambda a: math.ceil(a[0]),
    }  # fmt: skip
    return functions[node.func.id](args)


ERROR_KINDS = {
    "missing": "has no value",
    "type": "not an int, Fraction or bool",
    "range": "value out of range",
    "zero": "division by zero",
}


@settings(max_examples=300)
@given(
    st.recursive(any_leaf, any_node, max_leaves=10),
    st.lists(values | st.sampled_from(["missing", "text", None]), min_size=3, max_size=3),
)
def test_evaluation_agrees_with_a_plain_interpreter(source: str, numbers: list[object]) -> None:
    # The same value of the same type, or the same first error, as reading the tree node by node.
    env = {name: value for name, value in zip("xyz", numbers, strict=True) if value != "missing"}
    expected: tuple[object, ...]
    try:
        expected = ("value", reference(ast.parse(source, mode="eval").body, source, env))
    except Refused as refused:
        expected = ("error", refused.args[0])
    actual: tuple[object, ...]
    message = ""
    try:
        compiled = compile_formula(source, ["x", "y", "z"], where="f")
        raw = compiled._evaluator(env)  # type: ignore[arg-type]
        value = compiled.evaluate(env)  # type: ignore[arg-type]
    except FormulaError as exc:
        message = str(exc)
        actual = ("error", *[kind for kind, fragment in ERROR_KINDS.items() if fragment in message])
    else:
        # A formula without variables is folded when compiled: its evaluator gives 0 or 1 for a bool.
        actual = ("value", raw if compiled.variables else fit(raw))
        if not compiled.variables and expected[0] == "value":
            expected = ("value", fit(expected[1]))
    assert actual == expected, message or source
    if actual[0] == "error":
        assert message.startswith("f: ")
    else:
        assert type(actual[1]) is type(expected[1])  # the evaluator keeps a bool a bool
        assert (type(value), value) == (type(fit(raw)), fit(raw))  # evaluate() gives a number


@pytest.mark.parametrize(
    ("source", "env", "expected"),
    [
        ("is_partner and tricks >= 6 and (pot % 2 == 1 or ceil(stake * rate) % 2 == 1)",
         {"is_partner": True, "tricks": 7, "pot": 4, "stake": 2, "rate": Fraction(3, 2)}, True),
        ("(premium if premium else ceil(stake * rate)) * 3 + (3 if vole else 0)",
         {"premium": 0, "stake": 3, "rate": Fraction(3, 2), "vole": True}, 18),
        ("max(0, tricks - 5) * stake / 2", {"tricks": 8, "stake": 3}, Fraction(9, 2)),
        ("-a if not b else abs(a) // 2", {"a": -7, "b": False}, 7),
        ("pot % x + pot // x + pot / x", {"pot": 7, "x": 2}, Fraction(15, 2)),
    ],
)  # fmt: skip
def test_spec_like_formulas_give_their_values(source: str, env: dict[str, Number | bool], expected: object) -> None:
    compiled = compile_formula(source, list(env))
    assert compiled._evaluator(env) == expected  # the engine calls the evaluator directly
    assert type(compiled._evaluator(env)) is type(expected)


@pytest.mark.parametrize(
    "shape",
    ["({}+x)", "({}/x)", "(x//{})", "({}%y)", "-{}", "not {}", "({})**1", "max({},x)", "abs({})",
     "x if({})else y", "({}<x<y)", "(({})and x or y)", "-(x/{})", "floor(x+{})"],
)  # fmt: skip
def test_the_deepest_formulas_allowed_compile_and_run(shape: str) -> None:
    # Nest the shape until the depth or length limit refuses it; the last formula accepted must run.
    source, levels = "x", 1
    while len(deeper := shape.format(source)) <= MAX_SOURCE_LENGTH:
        try:
            compile_formula(deeper, ["x", "y"])
        except FormulaError as exc:
            refusal = str(exc)
            break
        source, levels = deeper, levels + 1
    else:
        refusal = "too long"
    assert "levels deep" in refusal or refusal == "too long"
    assert levels >= MAX_DEPTH // 2
    compiled = compile_formula(source, ["x", "y"])
    assert type(compiled.evaluate({"x": 2, "y": 3})) in (int, Fraction)


@pytest.mark.parametrize(
    ("source", "env", "message"),
    [
        ("pot + stake", {"pot": 1},
         "the variable 'stake' has no value, but the formula 'pot + stake' uses it."),
        ("x + 1", {"x": 1.5}, "the variable 'x' is 1.5 (a float), not an int, Fraction or bool."),
        ("x + 1", {"x": MAX_MAGNITUDE + 1},
         "value out of range: the variable 'x' comes to more than 10**300 in size."),
        ("x * x + 1", {"x": 10**151},
         "value out of range: 'x * x' (in 'x * x + 1') comes to more than 10**300 in size."),
        ("(x / 7) ** 8 ** 1", {"x": 1}, "the exponent of '**' must be a whole-number literal from 0 to 8, "
         "not '8 ** 1', in '(x / 7) ** 8 ** 1'."),
        ("x % y", {"x": 1, "y": 0}, "division by zero in 'x % y'."),
        ("1 + x // (y - 1)", {"x": 1, "y": 1}, "division by zero in 'x // (y - 1)' (in '1 + x // (y - 1)')."),
        ("x / 0.0", {"x": 1}, "division by zero in 'x / 0.0'."),
        ("x / False", {"x": 1}, "division by zero in 'x / False'."),
        ("(((x / 7) ** 8) ** 8) ** 8", {"x": 1},
         "value out of range: '(((x / 7) ** 8) ** 8) ** 8' has a denominator above 10**300."),
    ],
)  # fmt: skip
def test_evaluation_errors_say_what_went_wrong(source: str, env: dict[str, object], message: str) -> None:
    with pytest.raises(FormulaError) as caught:
        compile_formula(source, ["pot", "stake", "x", "y"], where=WHERE).evaluate(env)  # type: ignore[arg-type]
    assert str(caught.value) == f"{WHERE}: {message}"


class Strict(dict[str, object]):
    """A variable mapping that fails in a way of its own for one name."""

    def __getitem__(self, key: str) -> object:
        if key == "broken":
            raise RuntimeError("the table is on fire")
        if key == "other":
            raise KeyError("not the variable asked for")
        return super().__getitem__(key)


@pytest.mark.parametrize(("name", "kind"), [("broken", RuntimeError), ("other", KeyError)])
def test_errors_of_the_variable_mapping_itself_are_not_disguised(name: str, kind: type[Exception]) -> None:
    compiled = compile_formula(f"x + {name}", ["x", name])
    with pytest.raises(kind):
        compiled.evaluate(Strict(x=1))  # type: ignore[arg-type]
