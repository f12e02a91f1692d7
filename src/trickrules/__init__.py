"""trickrules: trick-taking card games played exactly by their rules.

A game is a spec file (TOML) in the rule DSL; :func:`load` compiles it into a
:class:`Game`, whose ``new_match()`` gives an immutable :class:`State`.

>>> import trickrules
>>> game = trickrules.load("manille")
>>> state = game.new_match(seed=7)
>>> state.phase, state.to_move
('trump', 0)
"""

from trickrules.engine.actions import Action
from trickrules.engine.game import Game, load
from trickrules.engine.records import Phase
from trickrules.engine.state import State
from trickrules.errors import (
    ArgumentError,
    FormulaError,
    IllegalActionError,
    LogFormatError,
    LogIntegrityError,
    SpecError,
    TrickrulesError,
)
from trickrules.faces.simulate import Simulation, simulate
from trickrules.records.eventlog import EventLog
from trickrules.records.replay import replay, replay_file
from trickrules.records.view import View
from trickrules.spec.loader import bundled_names, load_spec
from trickrules.spec.model import Spec

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
    "simulate",
]

__version__ = "0.1.0"
