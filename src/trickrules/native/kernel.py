"""The kernel from Python: a game's kernel compiled from its tables, and chunks of matches played on it.

:func:`kernel_for` exports a game's tables for the kernel once per game (by
its fingerprint) and says why not where the kernel does not cover the game
(a mechanism or rule it has no native version of): :class:`Unsupported`,
whose message the simulation shows once before the engine plays instead.
:func:`play_matches` plays matches from their seeds (integers or bytes, as
:func:`trickrules.faces.simulate.derive` gives them) and gives back each
match's statistics row and number of deals; :func:`play_words` does the same
from the seeds' 32-bit words, which a simulation's chunk derives in one piece
(:mod:`trickrules.native.derive`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt
from attrs import frozen

from trickrules.engine.game import Game
from trickrules.engine.values import Phase
from trickrules.native import (
    announce,
    auction,
    call,
    deal,
    declare,
    eligible,
    exchange,
    making,
    match,
    passing,
    record,
    scoring_tables,
    tricks_bid,
    trump,
)
from trickrules.native import tables as T
from trickrules.native.mt import words_of
from trickrules.native.tables import Unsupported

__all__ = ["Kernel", "Played", "Unsupported", "kernel_for", "play_matches", "play_words"]

Array = npt.NDArray[np.int64]


@frozen
class Kernel:
    """A game's kernel: its tables as the kernel reads them, and the names its statistics need."""

    #: The game's tables (:mod:`trickrules.native.tables`).
    tb: Array
    players: int
    #: The contracts' names, by index.
    contracts: tuple[str, ...]
    #: The outcome names the statistics count, by the id the scoring's bits map to.
    names: tuple[str, ...]
    #: Per bit of the scoring's outcome bits, the id of its name (-1: not counted, as ``"none"``).
    bits: tuple[int, ...]

    @property
    def row_size(self) -> int:
        """The length of a match's statistics row."""
        return record.a_size(len(self.contracts))


@frozen
class Played:
    """What :func:`play_matches` gives back: per match, its statistics row and its number of deals."""

    rows: Array
    deals: Array
    #: The first match's first deals, kept whole (``record.R_*`` rows), where asked for.
    records: Array


#: Per game's fingerprint, its kernel or why the kernel does not cover it (a message, not the exception:
#: raising one exception object again and again would chain every raise's frames to its traceback).
_KERNELS: dict[str, Kernel | str] = {}


def _bidding(game: Game, b: T.Builder) -> None:
    """The auction's tables, and the programs of the ``eligible`` rules that read the match."""
    auction.export(game, b, eligibility_given=True)
    rules = game.rules
    dynamic = set()
    for c in rules.contracts:
        if c.eligible is not None:
            names = auction.varying_names(rules, c)
            if names:
                dynamic.add(c.index)
    eligible.export(game, b, frozenset(dynamic))


#: Each exporter of a phase's tables, by phase name (the play has none: its rules are in the core).
EXPORTERS: dict[str, Callable[[Game, T.Builder], None]] = {
    "passing": passing.export,
    "tricks_bid": tricks_bid.export,
    "trump": trump.export,
    "call": call.export,
    "exchange": exchange.export,
    "announce": announce.export,
    "bidding": _bidding,
    "declare": declare.export,
    "making": making.export,
    "discard": making.export,
    "alone": making.export,
}

#: The outcome the engine names a deal thrown in by (``deal_end.pass_out``).
PASSED_OUT = "passed out"


def _export(game: Game) -> Kernel:
    t = game.tables
    builtin = {str(p) for p in Phase}
    for name in game.mechanisms:
        if str(name) not in builtin:  # a window, a narrowing or a chooser of its own, even where never due
            raise Unsupported(f"the registered mechanism {str(name)!r}")
    if t.cards.set_names:
        raise Unsupported("trump sets (trump.sets)")
    b = T.Builder()
    T.export_core(t, b)
    deal.export(game, b)
    codes = []
    exported: set[Callable[[Game, T.Builder], None]] = set()
    for phase in t.phases[1:]:
        code = T.PHASE_CODES.get(str(phase))
        if code is None:
            raise Unsupported(f"the phase {str(phase)!r}")
        if str(phase) != "play":
            exporter = EXPORTERS.get(str(phase))
            if exporter is None:
                raise Unsupported(f"the phase {str(phase)!r}")
            if exporter not in exported:
                exported.add(exporter)
                exporter(game, b)
            codes.append(code)
    named = set(map(str, t.phases))
    b.number(match.HK_DECLARE, "declare" in named)
    b.number(match.HK_STARTS, sum(1 << T.PHASE_CODES[p] for p in ("call", "exchange", "announce") if p in named))
    b.number(T.H_PHASES, len(codes))
    b.block(T.O_PHASES, codes)
    if any(c.first_lead.value == "declarer_always" for c in game.rules.contracts):
        raise Unsupported("a contract whose declarer always leads the first trick")
    b.block(match.HK_DECLARER_LEADS, (c.first_lead.value == "declarer" for c in game.rules.contracts))
    scoring_tables.export(game, b)
    entries = scoring_tables.outcome_names(game)
    names = tuple(sorted({e for e in entries if e and e != "none"} | {PASSED_OUT}))
    if len(names) > record.MAX_NAMES:
        raise Unsupported(f"more than {record.MAX_NAMES} outcome names")
    bits = tuple(names.index(e) if e and e != "none" else -1 for e in entries)
    b.block(record.H_NAME_OF_BIT, (*bits, *(-1,) * (128 - len(bits))))
    b.number(record.H_PASSED_NAME, names.index(PASSED_OUT))
    return Kernel(b.array(), game.players, tuple(c.name for c in game.rules.contracts), names, bits)


def kernel_for(game: Game) -> Kernel:
    """The kernel of ``game`` (built once per game); :class:`Unsupported` saying what it does not cover."""
    key = game.fingerprint
    found = _KERNELS.get(key)
    if found is None:
        try:
            found = _export(game)
        except Unsupported as error:
            found = str(error)
        _KERNELS[key] = found
    if isinstance(found, str):
        raise Unsupported(found)
    return found


def play_matches(
    kernel: Kernel,
    seeds: Sequence[tuple[int | bytes, int | bytes]],
    dealers: Sequence[int],
    max_deals: int,
    keep: int = 0,
) -> Played:
    """Play one match per (match seed, bots' seed) of ``seeds``, match ``i`` first dealt by ``dealers[i]``.

    A seed is an integer below 2**128, or 16 bytes, low byte first. ``keep``: how many of the first
    match's deals to keep whole.
    """
    count = len(seeds)
    words = np.zeros((count, 8), dtype=np.int64)
    for i, (seed, bots) in enumerate(seeds):
        words[i, :4] = words_of(seed if isinstance(seed, int) else int.from_bytes(seed, "little"))
        words[i, 4:] = words_of(bots if isinstance(bots, int) else int.from_bytes(bots, "little"))
    return play_words(kernel, words, dealers, max_deals, keep)


def play_words(
    kernel: Kernel, words: Array, dealers: Sequence[int], max_deals: int, keep: int = 0
) -> Played:
    """:func:`play_matches` with the seeds given as 32-bit words, a simulation's chunk built in one piece.

    Row ``i`` of ``words`` holds match ``i``'s seed's four words, then its bots' seed's four, each low first.
    """
    count = len(words)
    rows = np.zeros((count, kernel.row_size), dtype=np.int64)
    deals = np.zeros(count, dtype=np.int64)
    kept = np.zeros((keep, record.R_SIZE), dtype=np.int64)
    match.play_chunk(kernel.tb, words, np.array(dealers, dtype=np.int64), rows, deals, kept, max_deals)
    return Played(rows, deals, kept)
