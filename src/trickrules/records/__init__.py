"""The records layer: event logs, replay and per-seat views, built on states and events."""
