"""The spec layer: the rule DSL's model, its loader, the formula language and the one converter.

It knows TOML and the DSL, and nothing of compiled games, states or logs.
"""
