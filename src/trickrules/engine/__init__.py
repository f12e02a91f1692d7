"""The engine layer: actions, events, state records, the phase mechanisms, scoring and the match.

It knows the compiled game, and nothing of logs, views or front ends.
"""
