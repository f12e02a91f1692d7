"""Search for any spec: a perfect-information solver (:func:`solve`).

It sits above the records and below the faces: it plays positions through
the engine, and the bots of :mod:`trickrules.faces` may search with it.
"""

from __future__ import annotations

from trickrules.search.solve import MEASURES, Solution, solve

__all__ = ["MEASURES", "Solution", "solve"]
