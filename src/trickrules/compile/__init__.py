"""The compile layer: a spec turned into tables (cards as integers, rank and trump tables, compiled rules).

It knows the spec layer, and nothing of states, events or logs.
"""
