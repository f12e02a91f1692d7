"""Compiling a spec's scoring section: its named variables, outcomes, bonuses and payments.

:func:`compile_scoring_vars` compiles ``scoring.vars`` in order (each may use
the built-in variables, the counters and the vars before it) and works out
the range of each; :func:`compile_outcomes` compiles the outcomes and
bonuses, each checked against the ranges of the variables of the deals it
applies to. :mod:`trickrules.compile.rules` calls both and re-exports the
records.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from attrs import frozen

from trickrules.compile.formulas import Formulas
from trickrules.compile.modes import OutcomeScope, PaymentRole, Remainder
from trickrules.compile.ranges import UNKNOWN, Range, union
from trickrules.compile.variables import DEAL_VARS, PLAYER_VARS, SIDE_VARS, check_variable_name, fact_ranges
from trickrules.errors import SpecError
from trickrules.spec.formula import Formula
from trickrules.spec.limits import key_path
from trickrules.spec.model import OutcomeSpec, Spec
from trickrules.spec.sealed import Sealed

__all__ = [
    "PAYMENT_ROLES",
    "CompiledOutcome",
    "CompiledPayment",
    "VarRanges",
    "compile_outcomes",
    "compile_scoring_vars",
    "contexts_of",
]

#: The roles a payment may name.
PAYMENT_ROLES = tuple(role.value for role in PaymentRole)

VarRanges = Mapping[str, Range]
"""The ranges of named variables (``scoring.vars``, a contract's ``vars``, counters), by name."""


@frozen
class CompiledPayment(Sealed):
    """One payment line of an outcome."""

    #: Who pays (``None`` in a points game, where points are awarded, not moved).
    payer: PaymentRole | None
    to: PaymentRole
    amount: Formula
    split: bool
    remainder: Remainder = Remainder.STAYS


@frozen
class CompiledOutcome(Sealed):
    """A scoring outcome or bonus with its formulas compiled."""

    name: str
    when: Formula
    pay: tuple[CompiledPayment, ...]
    contracts: frozenset[str] | None
    for_each: OutcomeScope


def _fail(where: str, path: str, message: str) -> SpecError:
    return SpecError(f"{where}: {path}: {message}")


def compile_scoring_vars(
    spec: Spec, formulas: Formulas, where: str
) -> tuple[tuple[tuple[str, Formula], ...], dict[str, Range]]:
    """``scoring.vars``, compiled in order, and the range of each (with the counters': unknown)."""
    for name in spec.scoring.vars:
        check_variable_name(name, where, key_path("scoring.vars", name))
    counters = {given: UNKNOWN for c in spec.scoring.counters for given in (c.name, f"opp_{c.name}")}
    for k, name in enumerate(spec.scoring.external):
        for given in (name, f"opp_{name}"):
            check_variable_name(given, where, f"scoring.external[{k}]")
            counters[given] = UNKNOWN  # a mechanism's value: nothing is known of its range
    ranges: dict[str, Range] = dict(counters)
    facts = fact_ranges(spec.mechanisms)  # what registered mechanisms give
    out = []
    announced = tuple(f"announced_{a.name}" for a in spec.bidding.announcements)
    for name, source in spec.scoring.vars.items():
        # A var may use the built-in variables, the announcements, the counters and the vars defined before it.
        path = key_path("scoring.vars", name)
        formula, found = formulas.compile(source, (*DEAL_VARS, *SIDE_VARS, *announced, *facts, *ranges), path, ranges)
        out.append((name, formula))
        ranges[name] = found
    return tuple(out), ranges


def contexts_of(spec: Spec, contracts: Iterable[str]) -> tuple[int | None, ...]:
    """The kinds of deal an outcome for ``contracts`` (empty: every deal) applies to: contract indices, ``None``.

    ``None`` is a deal played without a contract: in a game without contracts,
    or where everyone passed and the deal is played (``all_pass = "play"``).
    """
    names = [c.name for c in spec.bidding.contracts]
    wanted = tuple(contracts)
    if wanted:
        return tuple(None if name == "" else names.index(name) for name in wanted if name == "" or name in names)
    without = not names or spec.bidding.all_pass.action == "play"
    return (*((None,) if without else ()), *range(len(names)))


def _ranges_for(contexts: tuple[int | None, ...], by_context: Mapping[int | None, VarRanges]) -> dict[str, Range]:
    """The ranges of the named variables over the deals of ``contexts`` (a name defined in several: their union)."""
    out: dict[str, Range] = {}
    for context in contexts:
        for name, r in by_context.get(context, {}).items():
            out[name] = union(out[name], r) if name in out else r
    return out


def _compile_outcome(
    n: int,
    o: OutcomeSpec,
    kind: str,
    spec: Spec,
    formulas: Formulas,
    allowed: tuple[str, ...],
    by_context: Mapping[int | None, VarRanges],
) -> CompiledOutcome:
    where = formulas.where
    path = f"scoring.{kind}[{n}]"
    if o.for_each == "player":
        allowed = (*allowed, *PLAYER_VARS)
    contract_names = {c.name for c in spec.bidding.contracts}
    for k, name in enumerate(o.contracts):
        if name and name not in contract_names:
            raise _fail(where, f"{path}.contracts[{k}]", f"{name!r} is not a contract of bidding.contracts.")
    ranges = _ranges_for(contexts_of(spec, o.contracts), by_context)
    pays: list[CompiledPayment] = []
    for k, p in enumerate(o.pay):
        ppath = f"{path}.pay[{k}]"
        for key, role in (("to", p.to), ("from", p.from_)):
            if role and role not in PAYMENT_ROLES:
                raise _fail(where, f"{ppath}.{key}", f"{role!r} is not a role (roles: {', '.join(PAYMENT_ROLES)}).")
        if spec.scoring.unit == "chips" and not p.from_:
            raise _fail(where, f"{ppath}.from", "chips move from someone: give 'from' (a role, or 'pot').")
        if spec.scoring.unit == "points" and p.from_:
            raise _fail(where, f"{ppath}.from", "points are awarded, not moved: leave out 'from'.")
        if p.to == "pot" and spec.scoring.unit == "points":
            raise _fail(where, f"{ppath}.to", "a points game has no pot.")
        amount, _ = formulas.compile(p.amount, allowed, f"{ppath}.amount", ranges)
        payer = PaymentRole(p.from_) if p.from_ else None
        to = PaymentRole(p.to) if p.to else PaymentRole.ALL  # an empty role has always meant every seat
        pays.append(CompiledPayment(payer, to, amount, p.split, Remainder(p.remainder)))
    when, _ = formulas.compile(o.when, allowed, f"{path}.when", ranges)
    return CompiledOutcome(
        name=o.name,
        when=when,
        pay=tuple(pays),
        contracts=frozenset(o.contracts) if o.contracts else None,
        for_each=OutcomeScope(o.for_each),
    )


def compile_outcomes(
    spec: Spec, formulas: Formulas, var_names: tuple[str, ...], by_context: Mapping[int | None, VarRanges]
) -> tuple[tuple[CompiledOutcome, ...], tuple[CompiledOutcome, ...]]:
    """The outcomes and the bonuses, each formula checked against the ranges of the deals it applies to.

    ``var_names`` are the named variables; ``by_context`` their ranges per
    kind of deal (see :func:`contexts_of`).
    """
    where = formulas.where
    for kind, items in (("outcomes", spec.scoring.outcomes), ("bonuses", spec.scoring.bonuses)):
        onames = [o.name for o in items]
        if len(set(onames)) != len(onames):
            raise _fail(where, f"scoring.{kind}", f"names must be distinct (overlays merge by name), found {onames}.")
    announced = tuple(f"announced_{a.name}" for a in spec.bidding.announcements)
    facts = tuple(fact_ranges(spec.mechanisms))
    allowed: tuple[str, ...] = (*DEAL_VARS, *SIDE_VARS, *facts, *var_names, *announced)
    outcomes = tuple(
        _compile_outcome(n, o, "outcomes", spec, formulas, allowed, by_context)
        for n, o in enumerate(spec.scoring.outcomes)
    )
    bonuses = tuple(
        _compile_outcome(n, o, "bonuses", spec, formulas, allowed, by_context)
        for n, o in enumerate(spec.scoring.bonuses)
    )
    return outcomes, bonuses
