"""Verifying a standalone spec: the conformance cases of the game it names, run against it.

An overlay (a spec with ``extends``) is verified by what it changes
(:func:`~trickrules.faces.conformance.runner.verify_variant`). A standalone
spec, a game written from scratch or a copy of a bundled one, has no base to
compare with: it is verified by running every case of the game it names
(the cases of the rule documents of that game) with the spec in the game's
place. A spec whose game no case names is reported as having none.
"""

from __future__ import annotations

from pathlib import Path

from attrs import frozen

from trickrules.engine.game import load
from trickrules.faces.conformance.runner import CaseResult, Games, Suite, check_case
from trickrules.spec.loader import read_raw

__all__ = ["SpecReport", "is_overlay", "verify_spec"]


@frozen
class SpecReport:
    """The cases of a standalone spec's game, run against the spec."""

    #: The game the spec names (its ``name``).
    game: str
    results: tuple[CaseResult, ...]

    @property
    def failures(self) -> tuple[CaseResult, ...]:
        """The cases that did not pass."""
        return tuple(r for r in self.results if not r.passed)

    @property
    def ok(self) -> bool:
        """Whether there were cases and every one passed."""
        return bool(self.results) and not self.failures


def is_overlay(path: str) -> bool:
    """Whether the spec file at ``path`` extends another (an overlay), rather than standing alone."""
    return isinstance(read_raw(Path(path)).get("extends"), str)


def verify_spec(path: str, suite: Suite) -> SpecReport:
    """Run every case of the game the standalone spec at ``path`` names, with the spec in its place.

    Raises :class:`~trickrules.errors.SpecError` if the spec does not load.
    """
    name = load(path).spec.name
    documents = {m.document.id for m in suite.manifests if m.document.game == name}
    cases = [c for c in suite.cases if suite.document_of(c.clauses[0]) in documents and (not c.game or c.game == name)]
    games = Games(path, name)
    return SpecReport(name, tuple(check_case(case, games, name) for case in cases))
