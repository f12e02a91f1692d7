"""The records layer: event logs, replay and per-seat views, built on states and events.

``View.from_state(state, seat)`` and ``EventLog.from_state(state)`` read a
state; the engine never imports this layer.
"""
