"""The records layer: event logs, replay and per-seat views, built on states and events.

Importing it registers :meth:`State.view <trickrules.engine.state.State.view>`
and :meth:`State.log <trickrules.engine.state.State.log>`, so the engine
never imports this layer.
"""

from trickrules.engine.state import register_view
from trickrules.records.eventlog import EventLog
from trickrules.records.view import make_view

register_view("view", make_view)
register_view("log", EventLog.from_state)
