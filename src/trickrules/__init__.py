"""trickrules: trick-taking card games played exactly by their rules.

A game is a spec file (TOML) in the rule DSL; :func:`load` compiles it into a
:class:`Game`, whose ``new_match()`` gives an immutable :class:`State`.

>>> import trickrules
>>> game = trickrules.load("manille")
>>> state = game.new_match(seed=7)
>>> state.phase, state.to_move
('trump', 0)

The names below are imported when first used, so that ``import trickrules``
stays quick for a program (a command line, a worker process) that needs only
part of the library.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from trickrules.errors import (
    ArgumentError,
    FormulaError,
    IllegalActionError,
    LogFormatError,
    LogIntegrityError,
    SpecError,
    TrickrulesError,
)

if TYPE_CHECKING:
    from trickrules.engine.actions import Action
    from trickrules.engine.game import Game, load
    from trickrules.engine.state import State
    from trickrules.engine.values import Phase
    from trickrules.faces.simulate import Simulation, simulate
    from trickrules.records.eventlog import EventLog
    from trickrules.records.replay import replay, replay_file
    from trickrules.records.view import View
    from trickrules.search.solve import Solution, solve
    from trickrules.search.worlds import sample_worlds
    from trickrules.spec.loader import bundled_names, load_spec
    from trickrules.spec.model import Spec

#: Where each lazily imported public name lives.
_LAZY = {
    "Action": "trickrules.engine.actions",
    "Game": "trickrules.engine.game",
    "load": "trickrules.engine.game",
    "Phase": "trickrules.engine.values",
    "State": "trickrules.engine.state",
    "Simulation": "trickrules.faces.simulate",
    "simulate": "trickrules.faces.simulate",
    "sample_worlds": "trickrules.search.worlds",
    "EventLog": "trickrules.records.eventlog",
    "replay": "trickrules.records.replay",
    "replay_file": "trickrules.records.replay",
    "View": "trickrules.records.view",
    "Solution": "trickrules.search.solve",
    "solve": "trickrules.search.solve",
    "bundled_names": "trickrules.spec.loader",
    "load_spec": "trickrules.spec.loader",
    "Spec": "trickrules.spec.model",
}

__all__ = [
    "Action",
    "ArgumentError",
    "EventLog",
    "FormulaError",
    "Game",
    "IllegalActionError",
    "LogFormatError",
    "LogIntegrityError",
    "Phase",
    "Simulation",
    "Solution",
    "Spec",
    "SpecError",
    "State",
    "TrickrulesError",
    "View",
    "bundled_names",
    "load",
    "load_spec",
    "replay",
    "replay_file",
    "sample_worlds",
    "simulate",
    "solve",
]

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """Import a public name on first use (PEP 562)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'trickrules' has no attribute {name!r}")
    # The mechanisms that ship with the library register their verbs and event types when the engine's phases are
    # imported: the action language and the log format are then whole, whichever public name is used first.
    importlib.import_module("trickrules.engine.phases")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*__all__, "__version__"])
