"""Which contracts each seat may bid, where a contract's ``eligible`` rule reads the match (scores, the deal).

The auction (:mod:`trickrules.native.auction`) reads each seat's mask of
biddable contracts from ``st``; where a rule reads what changes from deal
to deal (``score``, ``opp_score``, ``deal``, the spec's vars built on them),
:func:`fill` works the masks out natively before the auction, as
:func:`trickrules.engine.scoring.is_eligible` does: the rule's variables for
the seat, the spec's and the contract's vars whose own variables are known
(in their order), then the rule, all by the native formulas
(:mod:`trickrules.native.formula`). A rule that fails where the engine's
raises sets the scoring's error word, so the match goes back to the engine.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trickrules.engine.game import Game
from trickrules.native import layout as L
from trickrules.native import tables as T
from trickrules.native.auction import A_ELIG
from trickrules.native.formula import OUT_SIZE, compile_code, evaluate
from trickrules.native.jit import native_alloc
from trickrules.native.scoring_tables import B_ERROR

__all__ = ["export", "fill"]

Array = npt.NDArray[np.int64]

#: The words this module owns (in the deal's range of the header).
HE_COUNT = T.HM_DEAL + 13  # how many contracts have a rule to work out per deal
O_HE = T.HM_DEAL + 14  # their programs: see export
HE_CONSTANT = T.HM_DEAL + 15  # the contracts biddable whatever the match (a mask)

#: The variables a rule may read, at these indices of the vector (the spec's vars follow).
BASE = ("score", "opp_score", "target", "players", "deal", "tricks_total", "pot", "ante",
        "no_contract", "no_trump", "forced", "extra_deal")  # fmt: skip
_MATCH_DEALS = 6  # words of the block's head: see export


def export(game: Game, b: T.Builder, dynamic: frozenset[int]) -> None:
    """Write the programs of the contracts in ``dynamic`` (their indices) and the mask of the others."""
    rules = game.rules
    constant = 0
    programs: list[list[int]] = []
    for c in rules.contracts:
        if c.index not in dynamic:
            continue
        assert c.eligible is not None
        slots = {name: i for i, name in enumerate(BASE)}
        known = set(slots)
        code: list[int] = []
        for name, formula in (*rules.vars, *c.vars):
            if formula.variables <= known:
                slot = slots.setdefault(name, len(slots))
                known.add(name)
                step = compile_code(formula, slots)
                code += [slot, len(step), *step]
        step = compile_code(c.eligible, slots)
        code += [-1, len(step), *step]
        programs.append([c.index, len(slots), *code])
    for c in rules.contracts:
        if c.index not in dynamic:
            constant |= 1 << c.index
    b.number(HE_COUNT, len(programs))
    b.number(HE_CONSTANT, constant)
    head = [rules.match_target, rules.players, rules.tricks_per_deal, rules.match_deals or 0, 0, 0]
    offsets: list[int] = []
    body: list[int] = []
    base = len(head) + len(programs)
    for p in programs:
        offsets.append(base + len(body))
        body += p
    start = b.block(O_HE, [*head, *offsets, *body])
    for i in range(len(programs)):  # offsets relative to the block, made absolute
        b.blocks[start - T.HEADER + len(head) + i] += start


@native_alloc
def fill(tb: Array, st: Array, masks: Array) -> None:
    """Each seat's mask of the contracts it may bid in this deal, into ``masks``."""
    n = tb[T.H_PLAYERS]
    at = tb[O_HE]
    count = tb[HE_COUNT]
    vn = np.zeros(256, dtype=np.int64)
    vd = np.ones(256, dtype=np.int64)
    out = np.zeros(OUT_SIZE, dtype=np.int64)
    team = tb[T.O_TEAM]
    for seat in range(n):
        mask = tb[HE_CONSTANT]
        other = -(1 << 62)
        for s in range(n):
            if tb[team + s] != tb[team + seat] and st[L.SCORES + s] > other:
                other = st[L.SCORES + s]
        for k in range(count):
            p = tb[at + _MATCH_DEALS + k]
            contract = tb[p]
            for i in range(tb[p + 1]):
                vn[i] = 0
                vd[i] = 1
            vn[0] = st[L.SCORES + seat]
            vn[1] = other if other > -(1 << 62) else 0
            vn[2] = tb[at]
            vn[3] = tb[at + 1]
            vn[4] = st[L.NUMBER]
            vn[5] = tb[at + 2]
            vn[6] = st[L.POT]
            vn[8] = 1
            vn[11] = 1 if tb[at + 3] and st[L.DEALS_DONE] >= tb[at + 3] else 0
            q = p + 2
            while True:
                slot = tb[q]
                size = tb[q + 1]
                if not evaluate(tb, q + 2, vn, vd, out):
                    st[B_ERROR] = 90
                    out[0] = 0
                    break
                if slot < 0:
                    break
                vn[slot] = out[0]
                vd[slot] = out[1]
                q += 2 + size
            if out[0] != 0:
                mask |= 1 << contract
        masks[seat] = mask


@native_alloc
def fill_auction(tb: Array, st: Array) -> None:
    """Fill the auction's masks (``A_ELIG``) for this deal."""
    masks = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    fill(tb, st, masks)
    for s in range(tb[T.H_PLAYERS]):
        st[A_ELIG + s] = masks[s]
