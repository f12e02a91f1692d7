"""Announcements, natively: before the first lead, and the late ones offered between tricks.

As :mod:`trickrules.engine.phases.announce`. :func:`run` plays the
announcements before the first lead: the declarer, while some are left,
passes (which ends them) or makes one, in the order of the tables' offers.
:func:`after_trick` is the window between tricks (the mechanism's
``after_trick``) for the play loop to call after every trick that does not
end the deal: after a run of tricks won by the declarer's side from the
first, a late announcement is offered (the declarer answers, or his side in
turn, or a lone declarer answers by leading, or it is made automatically).
It tells the play loop two things through this block: ``A_LEAD``, the card
the lone declarer leads as his answer (already chosen and counted: the loop
plays it without a draw of its own, then sets ``A_LEAD`` back to ``NONE``),
and ``A_ENDED``, set when a declined announcement ends the deal at once
(the loop scores the deal on the tricks so far).

The record: ``ANNOUNCED`` (a bit per announcement, in ``Tables.announcement_names``
order) and the block ``MECH_ANNOUNCE``: ``A_DONE`` (the announcements before
the lead are over), ``A_LATE`` (the late announcement being decided, as its
index in the game's late announcements, ``NONE`` between windows),
``A_DECLINED`` (a bit per announcement declined), ``A_LEAD`` and ``A_ENDED``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trickrules.compile.modes import AnnouncedBy, ContractSide, LateAnswer, LateRefusal
from trickrules.engine.game import Game
from trickrules.engine.phases.announce import Announcements
from trickrules.engine.state import State
from trickrules.engine.values import Phase
from trickrules.native import layout as L
from trickrules.native import tables as T
from trickrules.native.call import C_REVEALED
from trickrules.native.jit import native, native_alloc
from trickrules.native.mt import OFFER_ANNOUNCE, choose, choose_listed

__all__ = [
    "A_DECLINED",
    "A_DONE",
    "A_ENDED",
    "A_LATE",
    "A_LEAD",
    "after_trick",
    "export",
    "part_to_arrays",
    "run",
    "start",
]

# -- the header words (HM_ANNOUNCE .. +7) -----------------------------------------------------------------
#: 1 when the game has the announce phase.
H_ON = T.HM_ANNOUNCE + 0
#: How many announcements the game names (``Tables.announcement_names``).
H_NAMES = T.HM_ANNOUNCE + 1
#: Block: the offers before the lead, ``[(contract * 2 + forced) * names + i]`` -> an announcement (-1: no more).
O_OFFERS = T.HM_ANNOUNCE + 2
#: How many late announcements the game has.
H_LATE = T.HM_ANNOUNCE + 3
#: Block: per late announcement, :data:`LATE_WORDS` words (``LT_*``).
O_LATE = T.HM_ANNOUNCE + 4
#: Block: per contract, 1 when its side is the declarer with the called card's holder.
O_WITH_CALLED = T.HM_ANNOUNCE + 5
#: The numbers of tricks after which a late announcement may be offered, as a mask.
H_RUNS = T.HM_ANNOUNCE + 6

# A late announcement's words.
LT_NAME = 0  # its announcement index
LT_CONTRACTS = 1  # the contracts it is offered in, as a mask of contract indices
LT_RUN = 2  # after_run
LT_BY_SIDE = 3  # 1: decided by the declarer's side (both partners)
LT_ALONE = 4  # a lone declarer's answer: ANSWER_*
LT_ENDS = 5  # 1: declining it ends the deal
LATE_WORDS = 6

ANSWER_ANNOUNCE = 0
ANSWER_LEAD = 1
ANSWER_AUTOMATIC = 2
_ANSWERS = {LateAnswer.ANNOUNCE: ANSWER_ANNOUNCE, LateAnswer.LEAD: ANSWER_LEAD, LateAnswer.AUTOMATIC: ANSWER_AUTOMATIC}

# -- the block (MECH_ANNOUNCE) ---------------------------------------------------------------------------
A_DONE = L.MECH_ANNOUNCE + 0
A_LATE = L.MECH_ANNOUNCE + 1
A_DECLINED = L.MECH_ANNOUNCE + 2
A_LEAD = L.MECH_ANNOUNCE + 3
A_ENDED = L.MECH_ANNOUNCE + 4


def export(game: Game, b: T.Builder) -> None:
    """Write the announcements' tables into ``b`` (nothing if the game has no announce phase).

    Raises :class:`~trickrules.native.tables.Unsupported` where the kernel
    cannot answer a late announcement exactly: a lone declarer who answers by
    leading in a game whose leads are restricted or narrowed by a mechanism
    (the kernel takes every card of his hand as a legal lead); more than 62
    announcements or contracts, or a run past 62 tricks.
    """
    t = game.tables
    if Phase.ANNOUNCE not in t.phases:
        return
    rules = t.rules
    names = t.announcement_names
    contracts = rules.contracts
    if len(names) > 62 or len(contracts) > 62:
        raise T.Unsupported("more than 62 announcements or contracts")
    lates = rules.late_announcements
    if any(e.after_run > 62 for e in lates):
        raise T.Unsupported("a late announcement after more than 62 tricks")
    if any(e.alone is LateAnswer.LEAD for e in lates) and (t.leads.restricted or game.narrow_hooks):
        raise T.Unsupported("a late announcement answered by a lead, with lead rules or a narrowed play")
    b.number(H_ON, 1)
    b.number(H_NAMES, len(names))
    offers: list[int] = []
    for per_contract in t.announce_offers:
        for offered in per_contract:
            row = [names.index(a) for a in offered]
            offers += row + [-1] * (len(names) - len(row))
    b.block(O_OFFERS, offers)
    b.number(H_LATE, len(lates))
    late_words: list[int] = []
    for e in lates:
        mask = sum(1 << c.index for c in contracts if c.name in e.contracts)
        late_words += [
            names.index(e.name),
            mask,
            e.after_run,
            int(e.by is AnnouncedBy.DECLARER_SIDE),
            _ANSWERS[e.alone],
            int(e.refused is LateRefusal.ENDS_DEAL),
        ]
    b.block(O_LATE, late_words or [0])
    b.block(O_WITH_CALLED, (int(c.side is ContractSide.WITH_CALLED) for c in contracts))
    b.number(H_RUNS, sum(1 << r for r in t.late_runs))


@native
def start(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64]) -> None:
    """A new deal's announcements record: nothing announced or declined."""
    st[L.ANNOUNCED] = 0
    for i in range(16):
        st[L.MECH_ANNOUNCE + i] = 0
    st[A_LATE] = L.NONE
    st[A_LEAD] = L.NONE


@native
def _left(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> int:
    """The announcements still open to the declarer before the lead, in the offers' order, into ``out``."""
    names = tb[H_NAMES]
    row = tb[O_OFFERS] + (st[L.CONTRACT] * 2 + (1 if st[L.FORCED] else 0)) * names
    n = 0
    for i in range(names):
        a = tb[row + i]
        if a < 0:
            break
        if not (st[L.ANNOUNCED] >> a) & 1:
            out[n] = a
            n += 1
    return n


@native_alloc
def run(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64], mt: npt.NDArray[np.int64]) -> None:
    """The announcements before the first lead, if due: the declarer passes or announces, at random."""
    if tb[H_ON] == 0 or st[L.CONTRACT] < 0:
        return
    names = tb[H_NAMES]
    if names == 0 or tb[tb[O_OFFERS] + (st[L.CONTRACT] * 2 + (1 if st[L.FORCED] else 0)) * names] < 0:
        return
    out = np.empty(names, dtype=np.int64)
    while st[A_DONE] == 0:
        st[L.TO_MOVE] = st[L.DECLARER]
        n = _left(tb, st, out)
        k = choose_listed(mt, n + 1, OFFER_ANNOUNCE, out, True, 0)
        st[L.ACTIONS] += 1
        if k == 0:
            st[A_DONE] = 1
        else:
            st[L.ANNOUNCED] |= 1 << out[k - 1]
            if _left(tb, st, out) == 0:
                st[A_DONE] = 1


@native
def _late_window(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64]) -> int:
    """The late announcement (its index) the declarer's side is offered after this trick, or ``NONE``."""
    contract = st[L.CONTRACT]
    if contract < 0:
        return L.NONE
    won = st[L.TRICKS_PLAYED]
    declarer, partner = st[L.DECLARER], st[L.PARTNER]
    with_called = tb[tb[O_WITH_CALLED] + contract] != 0
    for w in range(won):
        seat = st[L.WINNERS + w]
        if seat != declarer and not (with_called and seat == partner):
            return L.NONE
    base = tb[O_LATE]
    for i in range(tb[H_LATE]):
        e = base + i * LATE_WORDS
        name = tb[e + LT_NAME]
        if (
            tb[e + LT_RUN] == won
            and (tb[e + LT_CONTRACTS] >> contract) & 1
            and not (st[L.ANNOUNCED] >> name) & 1
            and not (st[A_DECLINED] >> name) & 1
        ):
            return i
    return L.NONE


@native
def after_trick(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64], mt: npt.NDArray[np.int64]) -> None:
    """The window after a trick that does not end the deal: a late announcement offered and answered, if any.

    Called by the play loop with the trick counted (``TRICKS_PLAYED``,
    ``WINNERS``) and its winner to lead. It may set ``A_LEAD`` (the card the
    lone declarer leads as his answer, to be played next without a draw) or
    ``A_ENDED`` (the deal ends now).
    """
    if tb[H_ON] == 0 or tb[H_LATE] == 0:
        return
    won = st[L.TRICKS_PLAYED]
    if won > 62 or not (tb[H_RUNS] >> won) & 1:
        return
    late = _late_window(tb, st)
    if late < 0:
        return
    e = tb[O_LATE] + late * LATE_WORDS
    name = tb[e + LT_NAME]
    declarer, partner = st[L.DECLARER], st[L.PARTNER]
    real_partner = partner >= 0 and partner != declarer
    answer = ANSWER_ANNOUNCE if real_partner else tb[e + LT_ALONE]
    if answer == ANSWER_AUTOMATIC:
        st[L.ANNOUNCED] |= 1 << name
        return
    if answer == ANSWER_LEAD:
        # The leader (the declarer, who won the trick) passes or leads any card of his hand.
        leader = st[L.WINNERS + won - 1]
        hand = st[L.HANDS + leader]
        cards = tb[T.H_CARDS]
        n = 0
        for c in range(cards):
            n += (hand >> c) & 1
        k = choose(mt, n + 1)
        st[L.ACTIONS] += 1
        if k == 0:
            _decline(tb, st, e, name)
            return
        k -= 1
        for c in range(cards):
            if (hand >> c) & 1:
                if k == 0:
                    st[A_LEAD] = c
                    break
                k -= 1
        st[L.ANNOUNCED] |= 1 << name
        return
    # The declarer answers; where his side decides, a yes asks the partner next (the partnership made known).
    k = choose(mt, 2)
    st[L.ACTIONS] += 1
    if k == 0:
        _decline(tb, st, e, name)
        return
    if tb[e + LT_BY_SIDE] and real_partner:
        st[C_REVEALED] = 1
        k = choose(mt, 2)
        st[L.ACTIONS] += 1
        if k == 0:
            _decline(tb, st, e, name)
            return
    st[L.ANNOUNCED] |= 1 << name


@native
def _decline(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64], e: int, name: int) -> None:
    """The late announcement declined: recorded, and the deal ends where declining ends it."""
    st[A_DECLINED] |= 1 << name
    if tb[e + LT_ENDS]:
        st[A_ENDED] = 1


def part_to_arrays(state: State, st: npt.NDArray[np.int64]) -> None:
    """Fill ``ANNOUNCED`` and the block ``MECH_ANNOUNCE`` from the state's record (nothing without the phase).

    ``A_LEAD`` and ``A_ENDED`` are the kernel's messages to its play loop: ``NONE`` and 0 here.
    """
    record: Announcements | None = state.part(Phase.ANNOUNCE)
    if record is None:
        return
    t = state.game.tables
    names = t.announcement_names
    st[L.ANNOUNCED] = sum(1 << names.index(a) for a in set(record.announced))
    st[A_DONE] = int(record.done)
    if record.late is None:
        st[A_LATE] = L.NONE
    else:
        contract = state.game.rules.contracts[state.deal.contract or 0].name
        st[A_LATE] = next(
            i
            for i, e in enumerate(state.game.rules.late_announcements)
            if e.name == record.late and contract in e.contracts
        )
    st[A_DECLINED] = sum(1 << names.index(a) for a in set(record.declined))
    st[A_LEAD] = L.NONE
    st[A_ENDED] = 0
