"""A match on the kernel one decision at a time: the choices come from outside, not from a random bot.

The kernel's phases are written as whole runs, each choice drawn inside by
``choose(mt, count)``. :func:`advance` steps them from outside without
rewriting them: it gives the generator a script (:func:`~trickrules.native.mt.script`)
of the choices taken so far, replays them from the last snapshot of the
match, and stops where the script is spent, at the next choice, which
raises :class:`~trickrules.native.mt.Decision` with the number of its
options and what they are (each phase names them where it chooses, by
``choose_among`` or ``choose_listed``; only a late announcement's answer
does not). The options are in the order of the engine's ``legal_actions()``,
as the kernel's random bot follows the engine's, so option ``k`` is the
engine's ``k``-th legal action.

A snapshot is taken where the match can be run again from its array alone:
at the start of each stage (the deal, the phases before the play, the play)
and at each card of the play (each lead too, where no window of
declarations or announcements opens after a trick). A choice elsewhere (a
bid, a card passed) is replayed from the stage's start, which is a few
choices at most.

The stepper's words live in one array ``wk`` (``W_*`` offsets): the match,
its snapshot, the next shuffle's generator, the stepper's own words
(``E_*``), the script, and per action id its option's place (``-1``: not
legal). :class:`Stepper` is the Python side.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from trickrules.engine.game import Game
from trickrules.engine.phases.declare import meld_text
from trickrules.errors import ArgumentError
from trickrules.native import layout as L
from trickrules.native import scoring
from trickrules.native.jit import native
from trickrules.native.kernel import Unsupported, kernel_for
from trickrules.native.match import (
    ANNOUNCE,
    FAILED,
    HK_DECLARE,
    HK_STARTS,
    PASSED_OUT,
    REDEALT,
    begin_deal,
    phases,
    phases_over,
    play_rest,
    start_play,
)
from trickrules.native.mt import (
    D_BITS,
    D_COUNT,
    D_KIND,
    D_LIST,
    MT_SIZE,
    OFFER_ALONE,
    OFFER_ANNOUNCE,
    OFFER_BID,
    OFFER_CALL,
    OFFER_DECLARE,
    OFFER_DISCARD,
    OFFER_GIVE,
    OFFER_NONE,
    OFFER_PLAY,
    OFFER_TRICKS,
    OFFER_TRUMP,
    OFFERS,
    SPENT,
    script,
    words_of,
)
from trickrules.native.play import low_card
from trickrules.native.scoring_tables import B_ERROR
from trickrules.native.stops import DEAL_END, FAILED_HERE, ILLEGAL, OVER, UNNAMED

__all__ = [
    "DEAL_END",
    "FAILED_HERE",
    "ILLEGAL",
    "MAX_SCRIPT",
    "OVER",
    "UNNAMED",
    "W_ORDER",
    "W_ST",
    "Stepper",
    "advance",
    "w_mask",
    "w_tables",
]

Array = npt.NDArray[np.int64]

#: The stages of a deal: to be dealt; its phases before the play; its play.
S_DEAL = 0
S_PHASES = 1
S_PLAY = 2

#: The most choices replayed from one snapshot (two generator words each, above a decision's listed options).
MAX_SCRIPT = 250

# -- the stepper's words ------------------------------------------------------------------------------------
E_STAGE = 0  # the stage the match is in
E_SNAP_STAGE = 1  # the stage the snapshot was taken in
E_AT_SNAP = 2  # where the decision's position can itself be run again from (a card of the play): AT_*
E_SCRIPT = 3  # how many choices since the snapshot
E_COUNT = 4  # the decision's number of options
E_KIND = 5  # what they are (mt.OFFER_*)
E_BITS = 6  # their codes
E_ACTIONS = 7  # the game's number of distinct actions
E_SIZE = 8

W_ST = 0
W_SNAP = W_ST + L.ST_SIZE
W_AHEAD = W_SNAP + L.ST_SIZE
W_MT = W_AHEAD + MT_SIZE
W_EV = W_MT + MT_SIZE
W_CHOICES = W_EV + E_SIZE
W_IDS = W_CHOICES + 2 * MAX_SCRIPT
#: Then, per action id, its option's place; then the mask, a byte per id; then the game's tables.
W_ORDER = W_IDS + OFFERS * 64


def w_mask(actions: int) -> int:
    """Where the mask starts (in words) for a game of ``actions`` distinct actions."""
    return W_ORDER + actions


def w_tables(actions: int) -> int:
    """Where the game's tables start."""
    return w_mask(actions) + (actions + 7) // 8


#: Where a decision stands (``E_AT_SNAP``): replayed from the snapshot; a card of the play, run again from
#: its own position (kept as the snapshot); the same, where nothing in the play is replayed (no window after
#: a trick), so that its position need not be kept.
AT_REPLAY = 0
AT_SNAP = 1
AT_ANY = 2

#: What :func:`_run` gives back where a choice raised (a code of its own, none of ``stops``').
_DECIDED = -4


@native
def _mark(st: Array, snap: Array, mt: Array, ev: Array, stage: int) -> bool:
    """A snapshot at the start of ``stage``; False where the script is not spent (the replay went astray)."""
    for i in range(L.ST_SIZE):
        snap[i] = st[i]
    ev[E_STAGE] = stage
    ev[E_SNAP_STAGE] = stage
    ev[E_SCRIPT] = 0
    return bool(mt[624] == SPENT)


@native
def _run(tb: Array, st: Array, snap: Array, mt: Array, ev: Array, ahead: Array, stage: int) -> int:
    """Run the match from ``stage`` until a choice raises, the deal ends or the match is the engine's."""
    while True:
        ev[E_STAGE] = stage
        if stage == S_DEAL:
            if st[L.OVER]:
                return OVER
            begin_deal(tb, st, ahead)
            stage = S_PHASES
            if not _mark(st, snap, mt, ev, stage):
                return FAILED_HERE
        elif stage == S_PHASES:
            phases(tb, st, mt)
            after = phases_over(st)
            if after == FAILED:
                return FAILED_HERE
            if after == PASSED_OUT:
                scoring.passed_out(tb, st)
                if st[B_ERROR]:
                    return FAILED_HERE
                return DEAL_END if _mark(st, snap, mt, ev, S_DEAL) else FAILED_HERE
            if after == REDEALT:
                stage = S_DEAL
            else:
                start_play(tb, st)
                stage = S_PLAY
            if not _mark(st, snap, mt, ev, stage):
                return FAILED_HERE
        else:
            play_rest(tb, st, mt)
            scoring.score(tb, st)
            if st[B_ERROR]:
                return FAILED_HERE
            return DEAL_END if _mark(st, snap, mt, ev, S_DEAL) else FAILED_HERE


@native
def _forget(ids: Array, mask: npt.NDArray[np.int8], order: Array, ev: Array) -> None:
    """Clear the last decision's options from the mask and the order."""
    kind = ev[E_KIND]
    if kind == OFFER_NONE or ev[E_BITS] < 0:  # unnamed, or listed: clear every id
        for a in range(mask.shape[0]):
            mask[a] = 0
            order[a] = -1
        return
    bits = ev[E_BITS]
    while bits:
        a = ids[kind * 64 + low_card(bits)]
        bits &= bits - 1
        mask[a] = 0
        order[a] = -1


@native
def _offered(tb: Array, st: Array, mt: Array, ev: Array, ids: Array, mask: npt.NDArray[np.int8], order: Array) -> int:
    """The decision a choice raised: its options into the mask and the order; the seat that decides."""
    count = mt[D_COUNT]
    kind = mt[D_KIND]
    bits = mt[D_BITS]
    ev[E_COUNT] = count
    ev[E_KIND] = kind
    ev[E_BITS] = bits
    if ev[E_STAGE] == S_PLAY:
        if tb[HK_DECLARE] == 0 and not (tb[HK_STARTS] >> ANNOUNCE) & 1:
            ev[E_AT_SNAP] = AT_ANY
        elif st[L.TRICK_N] > 0:
            ev[E_AT_SNAP] = AT_SNAP
    seat = int(st[L.TO_MOVE])
    if kind == OFFER_NONE:
        return seat + UNNAMED
    if bits < 0:  # listed in order
        for j in range(count):
            code = mt[D_LIST + j]
            a = ids[kind * 64 + code] if 0 <= code < 64 else -1
            if a < 0 or mask[a]:
                return FAILED_HERE
            mask[a] = 1
            order[a] = j
        return seat
    j = 0
    while bits:
        a = ids[kind * 64 + low_card(bits)]
        bits &= bits - 1
        if a < 0:
            return FAILED_HERE
        mask[a] = 1
        order[a] = j
        j += 1
    return seat if j == count else FAILED_HERE


@native
def advance(wk: Array, k: int, by_id: bool) -> int:
    """Take option ``k`` of the decision in ``wk`` (``-1``: go on from a deal's end) and run to what comes next.

    ``by_id``: ``k`` is the action id, not its place among the options (:data:`ILLEGAL`, and nothing
    changed, where it is not one of them). Gives back the seat that decides next (plus :data:`UNNAMED`
    where its options are not named here, and the mask and the order are left clear for the caller to
    fill), or :data:`DEAL_END`, :data:`OVER`, :data:`FAILED_HERE`.
    """
    ev = wk[W_EV : W_EV + E_SIZE]
    n_ids = ev[E_ACTIONS]
    st = wk[W_ST : W_ST + L.ST_SIZE]
    snap = wk[W_SNAP : W_SNAP + L.ST_SIZE]
    ahead = wk[W_AHEAD : W_AHEAD + MT_SIZE]
    mt = wk[W_MT : W_MT + MT_SIZE]
    choices = wk[W_CHOICES:W_IDS]
    ids = wk[W_IDS:W_ORDER]
    order = wk[W_ORDER : W_ORDER + n_ids]
    mask = wk.view(np.int8)[8 * (W_ORDER + n_ids) : 8 * (W_ORDER + n_ids) + n_ids]
    tb = wk[W_ORDER + n_ids + (n_ids + 7) // 8 :]
    if k >= 0 and by_id:  # ``k`` is an action id: its place among the options, or nothing done where not legal
        if k >= n_ids or order[k] < 0:
            return ILLEGAL
        k = order[k]
    _forget(ids, mask, order, ev)
    if k >= 0:
        at = ev[E_AT_SNAP]
        n = 0
        if at == AT_SNAP:
            for i in range(L.ST_SIZE):
                snap[i] = st[i]
            ev[E_SNAP_STAGE] = ev[E_STAGE]
        elif at == AT_ANY:
            ev[E_SNAP_STAGE] = ev[E_STAGE]
        else:
            for i in range(L.ST_SIZE):
                st[i] = snap[i]
            n = ev[E_SCRIPT]
        if n >= MAX_SCRIPT:
            return FAILED_HERE
        choices[2 * n] = k
        choices[2 * n + 1] = ev[E_COUNT]
        ev[E_SCRIPT] = n + 1
        script(mt, choices, n + 1)
        stage = ev[E_SNAP_STAGE]
    else:
        script(mt, choices, 0)
        stage = ev[E_STAGE]
    ev[E_AT_SNAP] = AT_REPLAY
    ev[E_KIND] = OFFER_NONE
    ev[E_BITS] = 0
    mt[D_COUNT] = -1  # a Decision sets it; any other exception leaves it
    code = _DECIDED
    try:
        code = _run(tb, st, snap, mt, ev, ahead, stage)
    except Exception:
        code = _DECIDED if mt[D_COUNT] >= 0 else FAILED_HERE
    if code != _DECIDED:
        return code
    return _offered(tb, st, mt, ev, ids, mask, order)


def option_ids(game: Game) -> Array:
    """``ids[kind * 64 + code]``: the action id of each option the kernel names (``-1`` where no such action).

    The codes of each kind are :mod:`~trickrules.native.mt`'s ``OFFER_*``: a card's deck index to play, give
    or discard; a pass, each suit and no trump; a pass and each contract of the ladder; a number of tricks;
    a pass and going alone; a card to call; a pass and each announcement; a pass and each meld.
    """
    t = game.tables
    texts: dict[int, dict[int, str]] = {
        OFFER_PLAY: {c: f"play {code}" for c, code in enumerate(t.cards.codes)},
        OFFER_GIVE: {c: f"give {code}" for c, code in enumerate(t.cards.codes)},
        OFFER_DISCARD: {c: f"discard {code}" for c, code in enumerate(t.cards.codes)},
        OFFER_TRUMP: {
            0: "pass",
            **{1 + s: f"trump {code}" for s, code in enumerate(t.cards.suit_codes)},
            1 + len(t.cards.suit_codes): "trump none",
        },
        OFFER_BID: {0: "pass", **{1 + c.index: f"bid {c.name}" for c in game.rules.contracts if c.index < 63}},
        OFFER_TRICKS: {n: f"bid {n}" for n in range(64)},
        OFFER_ALONE: {0: "pass", 1: "alone"},
        OFFER_CALL: {c: f"call {code}" for c, code in enumerate(t.cards.codes)},
        OFFER_ANNOUNCE: {0: "pass", **{1 + a: f"announce {name}" for a, name in enumerate(t.announcement_names)}},
        OFFER_DECLARE: {
            0: "pass",
            **{
                1 + x * len(t.cards.suit_codes) + s: meld_text(decl, code)
                for x, decl in enumerate(game.rules.declarations)
                for s, code in enumerate(t.cards.suit_codes)
            },
        },
    }
    ids = np.full(OFFERS * 64, -1, dtype=np.int64)
    for kind, by_code in texts.items():
        for code, text in by_code.items():
            try:
                ids[kind * 64 + code] = game.action_id(text)
            except ArgumentError:
                continue
    return ids


class Stepper:
    """A match of ``game`` on the kernel, stepped one action id at a time (see the module's notes).

    :class:`~trickrules.native.kernel.Unsupported` where the kernel does not cover the game, or a seat
    chooses for another's hand. After :meth:`reset` and each :meth:`step`: ``mask`` (1 per legal id) and
    ``order`` (per id its place among the options, ``-1``: not legal) where the code is a seat; where it
    is the seat plus :data:`UNNAMED` they are clear, and :meth:`name` takes the options' ids from the caller.
    ``stepper.advance(stepper.wk, action_id, True)`` takes an action by its id (as the PettingZoo environment
    does).
    """

    def __init__(self, game: Game) -> None:
        if game.chooser_hooks:
            raise Unsupported("a seat choosing for another's hand")
        tb = kernel_for(game).tb
        self.players = game.players
        n = game.num_distinct_actions
        at = w_tables(n)
        self.wk = wk = np.zeros(at + len(tb), dtype=np.int64)
        wk[at:] = tb
        self._fresh = wk[:at].copy()
        self._fresh[W_EV + E_ACTIONS] = n
        self._fresh[W_IDS:W_ORDER] = option_ids(game)
        self.order = wk[W_ORDER : W_ORDER + n]
        #: :func:`advance` itself, for a caller that steps ``wk`` by action ids (``advance(wk, id, True)``).
        self.advance: Callable[[Array, int, bool], int] = advance
        self.mask = wk.view(np.int8)[8 * w_mask(n) : 8 * w_mask(n) + n]

    def reset(self, seed: int, dealer: int) -> int:
        """A new match from ``seed`` (below 2**128), first dealt by ``dealer``; the code of its first stop."""
        wk = self.wk
        wk[: len(self._fresh)] = self._fresh
        wk[W_ST + L.SEED : W_ST + L.SEED + 4] = words_of(seed)
        wk[W_ST + L.DEALER] = dealer
        wk[W_ST + L.FIRST_DEALER] = dealer
        return int(advance(wk, -1, False))

    def step(self, k: int) -> int:
        """Take option ``k`` of the decision (``-1`` after a deal's end: go on); the code of the next stop."""
        return int(advance(self.wk, k, False))

    def name(self, ids: list[int]) -> None:
        """The options of an unnamed decision, by id in their order."""
        for k, a in enumerate(ids):
            self.mask[a] = 1
            self.order[a] = k

    def deal_number(self) -> int:
        """The number of the deal in play (or next to be dealt)."""
        return int(self.wk[W_ST + L.NUMBER])

    def scores(self) -> list[int]:
        """The match's scores."""
        return [int(v) for v in self.wk[W_ST + L.SCORES : W_ST + L.SCORES + self.players]]
