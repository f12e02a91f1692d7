"""Where the stepper stops: the codes :func:`trickrules.native.step.advance` gives back.

Kept apart from the compiled code, so that a caller can read them without
importing Numba. A code from 0 below :data:`UNNAMED` is the seat that
decides next, its options named in the stepper's mask; a seat plus
:data:`UNNAMED` decides options the kernel does not name (the caller takes
them from the engine); the negative codes are the rest.
"""

from __future__ import annotations

__all__ = ["DEAL_END", "FAILED_HERE", "ILLEGAL", "OVER", "UNNAMED"]

#: The deal is over (its scores in the match); the next step (``-1``) deals the next one.
DEAL_END = -1
#: The match is over.
OVER = -2
#: The match is the engine's to play from here (a failure the engine reports, or a script too long).
FAILED_HERE = -3
#: An action id that is not legal here: nothing was changed.
ILLEGAL = -5
#: Added to the seat where the phase does not name its options (the engine's ``legal_actions()`` does).
UNNAMED = 1 << 8
