"""The native kernel: whole matches played by random bots in machine code, from the engine's own tables.

The kernel is compiled by Numba (:mod:`trickrules.native.jit`) from plain
functions over NumPy arrays: the game's tables as one array
(:mod:`trickrules.native.tables`), a match as another
(:mod:`trickrules.native.layout`), and the engine's random numbers
(:mod:`trickrules.native.mt`), so that for the same seed it plays the same
deals as the engine, choice for choice.
"""
