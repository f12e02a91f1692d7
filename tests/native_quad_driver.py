"""Engine matches with the random bot, for comparing the native Quadrille phases (call, exchange, announce).

:func:`matches` plays engine matches choice by choice as the simulation's
random bot does (one draw of a ``random.Random`` per decision) and hands
each state to a visitor, which may take the match further itself (it
returns the state to go on from). :func:`arrays` builds the kernel's match
array from a state with the records of the three phases, :func:`compare`
lists the fields where two arrays differ, :func:`against_engine` runs a phase
on the kernel and the engine from one position and compares them, and
:func:`assert_not_due` checks a run that has nothing to do. The pieces every
native test shares are :mod:`native_harness`'s.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

import native_harness as H
import trickrules
from trickrules.engine.actions import Verb
from trickrules.engine.game import Game
from trickrules.engine.phases.auction import auction
from trickrules.engine.state import State
from trickrules.engine.values import Phase
from trickrules.native import announce, call, exchange
from trickrules.native import layout as L
from trickrules.native.engine_arrays import core_fields
from trickrules.native.mt import from_random

Array = H.Array
#: One decision of the random bot.
step = H.step
#: (state, rng) -> the state itself (the driver takes the next step), or one the visitor reached with the same rng.
Visitor = Callable[[State, random.Random], State]

#: Every bundled game with the Quadrille phases, and a sample of the options that touch them.
GAMES: list[tuple[str, Mapping[str, str]]] = [
    ("quadrille", {}),
    ("quadrille", {"called_king_public": "on"}),
    ("quadrille", {"may_call_own_king": "off"}),
    ("quadrille", {"may_call_queen": "off"}),
    ("quadrille", {"dimidiator_returns_called_king": "off"}),
    ("quadrille", {"forced_spadille_vole": "off"}),
    ("quadrille", {"vole_announce": "after_sixth_trick"}),
    ("quadrille", {"forced_spadille": "off", "bidding": "single_round"}),
    ("quadrille-no-forced-spadille", {}),
    ("quintille", {}),
    ("quintille", {"called_king_public": "on", "may_call_own_king": "off"}),
    ("quintille", {"dimidiator_returns_called_king": "off", "forced_spadille_vole": "off"}),
    ("quadrille-fi", {}),
    ("quadrille-fi", {"ladder": "with_dimidiator_casco"}),
    ("quadrille-fi", {"queen_call_may_be_trump": "on", "may_call_queen": "off"}),
    ("quadrille-fi", {"forced_queen_call_needs_four_kings": "on", "may_call_own_king": "off"}),
    ("quadrille-fi", {"vole_bid_with_partner": "on"}),
    ("quadrille-fi", {"solo_late_vole": "automatic"}),
    ("quadrille-fi", {"alliance_late_vole": "hombre_decides"}),
    ("quadrille-fi", {"called_king_public": "on", "called_card_obligation": "on"}),
]


def load(name: str, options: Mapping[str, str]) -> Game:
    """The bundled game with these options."""
    return trickrules.load(name, dict(options))


def tables(game: Game) -> Array:
    """The kernel's tables of ``game``: the core and the three phases."""
    return H.kernel_tables(game, call.export, exchange.export, announce.export)


def arrays(state: State) -> Array:
    """The kernel's match array of ``state``, the three phases' records and the auction's ``FORCED`` included."""
    return H.state_arrays(state, _forced, call.part_to_arrays, exchange.part_to_arrays, announce.part_to_arrays)


def _forced(state: State, st: Array) -> None:
    """The auction's ``FORCED`` into ``st``."""
    st[L.FORCED] = int(Phase.BIDDING in state.game.slot and auction(state.game, state.deal).forced)


#: The fields a phase leaves as the engine does (TO_MOVE and LEADER are the next phase's).
def fields(players: int) -> list[tuple[str, int]]:
    """(name, offset) of the fields compared after a phase."""
    out = [(n, o) for n, o in core_fields(players) if n not in ("TO_MOVE", "LEADER")]
    out += [(n, getattr(L, n)) for n in ("FORCED", "ANNOUNCED", "CALLED")]
    for block in ("MECH_CALL", "MECH_EXCHANGE", "MECH_ANNOUNCE"):
        out += [(f"{block}+{i}", getattr(L, block) + i) for i in range(16)]
    return out


def compare(a: Array, b: Array, players: int) -> list[str]:
    """The fields (of :func:`fields`) where ``a`` and ``b`` differ, with both values."""
    return [f"{n}: {a[o]} != {b[o]}" for n, o in fields(players) if a[o] != b[o]]


def against_engine(
    game: Game, tb: Array, run: H.Run, phase: Phase, state: State, st: Array, rng: random.Random
) -> tuple[State, int]:
    """Run ``run`` on ``st`` (``state``'s array) and the engine while in ``phase``; compare.

    Returns the engine's state after the phase and its decisions.

    Both must agree on every field of :func:`fields`, on the generator and on the number of decisions.
    """
    mt = from_random(rng)
    actions = st[L.ACTIONS]
    run(tb, st, mt)
    decisions = 0
    while state.phase is phase:
        state = step(state, rng)
        decisions += 1
    assert not compare(arrays(state), st, game.players), compare(arrays(state), st, game.players)
    assert (mt == from_random(rng)).all()
    assert st[L.ACTIONS] - actions == decisions
    return state, decisions


def assert_not_due(tb: Array, run: H.Run, st: Array, rng: random.Random) -> None:
    """``run`` from ``st`` (where its phase is not due) changes nothing and draws nothing."""
    H.assert_leaves_alone(tb, st, [run], rng)


def matches(
    game: Game, count: int, visit: Visitor, deals: int = 12, seed: int = 0, favour: Callable[[str], bool] | None = None
) -> int:
    """Play ``count`` matches of at most ``deals`` deals, visiting every state; how many deals were played.

    With ``favour``, the auction is steered (still with the same generator):
    a bidder picks among passing and the bids of the contracts ``favour``
    names, so that the phases after the auction are reached more often. The
    phases compared start from wherever the auction left the deal, so this
    changes what is sampled, not what is compared.
    """
    played = 0
    for m in range(count):
        rng = random.Random(seed * 1000 + m)
        state = game.new_match(seed=seed * 7919 + m, dealer=m % game.players)
        while not state.is_terminal and state.deal.number < deals:
            number = state.deal.number
            went = visit(state, rng)
            # A visitor that took the match further hands back the state it reached, visited in turn.
            if went is not state:
                state = went
            elif favour is not None and state.phase is Phase.BIDDING:
                legal = [a for a in state.legal_actions() if a.verb != Verb.BID or favour(a.arg)]
                state = state.apply(legal[int(rng.random() * len(legal))])
            else:
                state = step(state, rng)
            played += state.is_terminal or state.deal.number != number
    return played
