"""Value contracts of the spec layer: FrozenMap hashing, and pickling of maps, formulas and specs."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import trickrules.spec
from trickrules.errors import FormulaError
from trickrules.spec.formula import Formula, compile_formula
from trickrules.spec.frozenmap import FrozenMap
from trickrules.spec.loader import bundled_names, load_spec

PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)
# The directory holding the trickrules package under test, for a child process to import it from.
SOURCE_ROOT = str(Path(trickrules.spec.__file__).resolve().parents[2])


def in_another_process(code: str, data: bytes, hash_seed: int) -> str:
    """Run ``code`` in a fresh interpreter with its own string hashes; ``data`` is its stdin."""
    env = {**os.environ, "PYTHONHASHSEED": str(hash_seed), "PYTHONPATH": SOURCE_ROOT}
    done = subprocess.run(
        [sys.executable, "-c", code], input=data, env=env, capture_output=True, check=True, timeout=120
    )
    return done.stdout.decode().strip()


# --- FrozenMap ----------------------------------------------------------------------

keys = st.text(max_size=3) | st.integers(-5, 5)
map_values = st.recursive(
    st.integers() | st.text(max_size=4) | st.none() | st.booleans(),
    lambda inner: st.lists(inner, max_size=3).map(tuple) | st.dictionaries(keys, inner, max_size=3).map(FrozenMap),
    max_leaves=8,
)


@st.composite
def same_items_twice(draw: st.DrawFn) -> tuple[list[tuple[object, object]], list[tuple[object, object]]]:
    """The items of one mapping, and the same items in another order."""
    items: list[tuple[object, object]] = list(draw(st.dictionaries(keys, map_values, max_size=6)).items())
    return items, draw(st.permutations(items))


@given(same_items_twice())
def test_equal_frozen_maps_hash_alike_whatever_their_order(pair: tuple[list[tuple[object, object]], ...]) -> None:
    first, second = FrozenMap(pair[0]), FrozenMap(pair[1])
    assert first == second
    assert hash(first) == hash(second)
    assert len({first, second}) == 1
    # Nested maps built in another order are equal values too.
    assert FrozenMap({"nested": first}) == FrozenMap({"nested": second})
    assert hash(FrozenMap({"nested": first})) == hash(FrozenMap({"nested": second}))


def test_frozen_maps_with_the_same_items_in_another_order_dedupe() -> None:
    forward, backward = FrozenMap({"a": 1, "b": 2}), FrozenMap({"b": 2, "a": 1})
    assert forward == backward
    assert len({forward, backward}) == 1
    assert list(forward) == ["a", "b"]  # order is kept for iteration, not for equality
    assert repr(backward) == "FrozenMap({'b': 2, 'a': 1})"


def test_frozen_map_equals_a_dict_with_the_same_items() -> None:
    assert FrozenMap({"a": 1}) == {"a": 1}
    assert {"a": 1} == FrozenMap({"a": 1})  # noqa: SIM300 - the dict on the left on purpose: symmetry
    assert FrozenMap({"a": 1}) != {"a": 2}
    assert FrozenMap({"a": 1}) != [("a", 1)]


def test_frozen_map_cannot_be_changed_through_its_api() -> None:
    points = FrozenMap({"A": 11, "3": 10})
    with pytest.raises(TypeError):
        points["A"] = 1  # type: ignore[index]
    with pytest.raises(TypeError):
        del points["A"]  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        points.extra = 1  # type: ignore[attr-defined]
    for name in ("update", "pop", "clear", "setdefault", "__setitem__", "__delitem__"):
        assert not hasattr(points, name)
    copied = dict(points)
    copied["A"] = 1
    assert points == {"A": 11, "3": 10}
    assert points["A"] == 11


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_frozen_map_pickles_to_an_equal_map(protocol: int) -> None:
    original = FrozenMap({"A": 11, "nested": FrozenMap({"x": (1, 2)}), 3: None})
    hash(original)  # the remembered hash must not travel with the pickle
    again = pickle.loads(pickle.dumps(original, protocol))
    assert type(again) is FrozenMap
    assert again == original
    assert list(again) == list(original)
    assert hash(again) == hash(original)


def test_frozen_map_pickled_in_one_process_hashes_right_in_another() -> None:
    # String hashes are randomized per process: a pickled hash would be wrong after unpickling.
    original = FrozenMap({"spadille": 1, "manille": 2, "basto": 3})
    hash(original)
    code = (
        "import pickle, sys\n"
        "from trickrules.spec.frozenmap import FrozenMap\n"
        "m = pickle.loads(sys.stdin.buffer.read())\n"
        "print(hash(m) == hash(FrozenMap(dict(reversed(list(m.items()))))), m in {FrozenMap(m): 1})\n"
    )
    for seed in (1, 2):
        assert in_another_process(code, pickle.dumps(original), seed) == "True True"


# --- Formula --------------------------------------------------------------------------

WHERE = "specs/quadrille.toml: scoring.outcomes[3].pay[0].amount"
SAMPLE_ENV = {"pot": 9, "stake": 2, "tricks": 7, "vole": True}


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize(
    "source", ["max(0, tricks - 5) * stake * 1.5 + pot // 2", "2 if vole else 1", "pot / 4 > 2", "3 / 2"]
)
def test_formula_pickles_to_an_equal_working_formula(source: str, protocol: int) -> None:
    original = compile_formula(source, ["pot", "stake", "tricks", "vole", "unused"], where=WHERE)
    again = pickle.loads(pickle.dumps(original, protocol))
    assert isinstance(again, Formula)
    assert again == original
    assert hash(again) == hash(original)
    assert again.variables == original.variables
    assert again.evaluate(SAMPLE_ENV) == original.evaluate(SAMPLE_ENV)
    assert again._evaluator(SAMPLE_ENV) == original._evaluator(SAMPLE_ENV)


def test_unpickled_formula_keeps_where_in_its_errors() -> None:
    again = pickle.loads(pickle.dumps(compile_formula("pot / x", ["pot", "x"], where=WHERE)))
    with pytest.raises(FormulaError) as caught:
        again.evaluate({"pot": 1, "x": 0})
    assert str(caught.value) == f"{WHERE}: division by zero in 'pot / x'."


def test_formula_evaluation_error_for_a_missing_variable_propagates() -> None:
    compiled = compile_formula("stake * 2 + pot", ["stake", "pot"], where=WHERE)
    with pytest.raises(FormulaError, match="the variable 'pot' has no value"):
        compiled.evaluate({"stake": 1})
    with pytest.raises(FormulaError, match="the variable 'pot' has no value"):
        compiled._evaluator({"stake": 1})  # the engine's direct path raises the same


@pytest.mark.parametrize("source", ["pot / x", "pot // x", "pot % x", "pot / (x - x)"])
def test_formula_evaluation_error_for_a_division_by_zero_propagates(source: str) -> None:
    compiled = compile_formula(source, ["pot", "x"], where=WHERE)
    for evaluate in (compiled.evaluate, compiled._evaluator):
        with pytest.raises(FormulaError, match="division by zero") as caught:
            evaluate({"pot": 3, "x": 0})
        assert type(caught.value) is FormulaError
        assert caught.value.__cause__ is None


def test_formula_without_variables_that_divides_by_zero_fails_when_compiled() -> None:
    with pytest.raises(FormulaError, match="division by zero in '1 // 0'"):
        compile_formula("1 // 0", [], where=WHERE)


# --- Spec -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", bundled_names())
def test_every_bundled_spec_pickles_to_an_equal_spec(name: str) -> None:
    spec = load_spec(name)
    hash(spec)
    for protocol in PROTOCOLS:
        again = pickle.loads(pickle.dumps(spec, protocol))
        assert again == spec
        assert hash(again) == hash(spec)


def test_spec_pickled_in_one_process_hashes_like_a_fresh_load_in_another() -> None:
    spec = load_spec("quadrille")
    hash(spec)
    code = (
        "import pickle, sys\n"
        "from trickrules.spec.loader import load_spec\n"
        "spec = pickle.loads(sys.stdin.buffer.read())\n"
        "fresh = load_spec('quadrille')\n"
        "print(spec == fresh, hash(spec) == hash(fresh))\n"
    )
    assert in_another_process(code, pickle.dumps(spec), 3) == "True True"
