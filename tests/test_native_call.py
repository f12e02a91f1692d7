"""The native call (trickrules.native.call) against the engine: the same card called, partner and record.

At every deal of engine matches played by the random bot where the call is
due, the kernel's :func:`~trickrules.native.call.run` plays the call from the
engine's position with the same generator; the engine then goes on with the
same draws, and the two must agree on every field and on the generator. The
called card's play (``on_card``) is compared at every card of the play.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping

import pytest

import native_harness as H
import native_quad_driver as D
import parts
from trickrules.engine.state import State
from trickrules.engine.values import Phase
from trickrules.native import announce, call, exchange
from trickrules.native import layout as L
from trickrules.native.mt import from_random


def check_call(name: str, options: Mapping[str, str], count: int, steer: bool = True) -> Counter[str]:
    """Compare the call at every deal of ``count`` matches; what was seen (calls, public calls, not due).

    ``steer``: the auction favours the contracts with a call (see ``native_quad_driver.matches``).
    """
    game = D.load(name, options)
    calling = {c.name for c in game.rules.contracts if c.call}
    tb = D.tables(game)
    seen: Counter[str] = Counter()

    def visit(state: State, rng: random.Random) -> State:
        if state.phase is Phase.CALL:
            st = D.arrays(state)
            state, decisions = D.against_engine(game, tb, call.run, Phase.CALL, state, st, rng)
            assert decisions == 1, (name, options)
            seen["called"] += 1
            seen["public"] += int(st[call.C_REVEALED])
            seen["own"] += int(st[L.PARTNER] == st[L.DECLARER])
            seen["fallback rank"] += int(game.cards.rank_of[st[L.CALLED]] not in game.rules.call_ranks)
            seen["before trumps"] += int(st[L.TRUMP_ROW] < 0)
            return state
        after_call = state.phase in (Phase.EXCHANGE, Phase.ANNOUNCE) or (
            state.phase is Phase.TRUMP and parts.called(state) is not None  # a Casco's trump follows the call
        )
        if after_call or (state.phase is Phase.PLAY and not state.trick and not state.tally.winners):
            # Not due: nothing changes, nothing is drawn.
            D.assert_not_due(tb, call.run, D.arrays(state), rng)
            seen["not due"] += 1
        if state.phase is Phase.PLAY and state.deal.contract is not None:
            # The card played: the kernel's on_card changes the record as the engine's hook does
            # (checked for the called card, and for every lead, which is mostly another card).
            legal = state.legal_actions()
            action = legal[int(rng.random() * len(legal))]
            card = game.tables.card_of[action.arg]
            if card != parts.called(state) and state.trick:
                return state.apply(action)
            st = D.arrays(state)
            after = state.apply(action)
            if after.deal.number == state.deal.number and not after.is_terminal:
                call.on_card(tb, st, card)
                expected = D.arrays(after)
                assert st[call.C_REVEALED] == expected[call.C_REVEALED]
                seen["revealed by play"] += int(st[call.C_REVEALED] and not D.arrays(state)[call.C_REVEALED])
            return after
        return state

    deals = D.matches(game, count, visit, deals=6, favour=calling.__contains__ if steer else None)
    seen["deals"] = deals
    return seen


@pytest.mark.parametrize(("name", "options"), D.GAMES)
def test_call_as_engine(name: str, options: Mapping[str, str]) -> None:
    """Every call of the sampled matches is the engine's, field for field and draw for draw."""
    seen = check_call(name, options, 14) + check_call(name, options, 6, steer=False)
    assert seen["called"] > 40
    assert seen["not due"] > 0


def test_call_sample_reaches() -> None:
    """The sample reaches the public call, the own card, a call before trumps, and the play revealing the partner.

    (The fallback ranks are reached by the stacked deals of :func:`test_call_holding_every_king`.)
    """
    seen = check_call("quadrille", {}, 12) + check_call("quadrille", {"called_king_public": "on"}, 6)
    seen += check_call("quadrille-fi", {"ladder": "with_dimidiator_casco"}, 12)
    assert seen["public"] > 0
    assert seen["own"] > 0
    assert seen["revealed by play"] > 0
    assert seen["before trumps"] > 0  # a Casco: the called holder names trumps after the call


def check_stacked(name: str, options: Mapping[str, str], held: list[str], count: int) -> Counter[str]:
    """The call of first deals where seat 0 holds ``held`` and bids alone with a call (the others pass).

    So the declarer holds every callable card: the fallback ranks, and the
    call of one of his own when nothing else is left.
    """
    game = D.load(name, options)
    tb = D.tables(game)
    calling = [c.name for c in game.rules.contracts if c.call]
    codes = list(game.cards.codes)
    seen: Counter[str] = Counter()
    for m in range(count):
        rng = random.Random(m)
        rest = [c for c in codes if c not in held]
        rng.shuffle(rest)
        size = game.rules.hand_size
        fill = size - len(held)
        hands = [held + rest[:fill]] + [rest[fill + i * size : fill + (i + 1) * size] for i in range(game.players - 1)]
        state = game.new_match(seed=m, dealer=game.players - 1, hands=hands)
        while state.phase is not Phase.CALL and state.deal.number == 0:
            legal = state.legal_actions()
            if state.phase is Phase.BIDDING:
                wanted = [a for a in legal if a.verb == "bid" and a.arg in calling] if state.to_move == 0 else []
                legal = tuple(wanted) or tuple(a for a in legal if a.verb == "pass")
            state = state.apply(legal[int(rng.random() * len(legal))])
        if state.phase is not Phase.CALL:
            continue
        st = D.arrays(state)
        mt = from_random(rng)
        call.run(tb, st, mt)
        state = D.step(state, rng)
        assert not D.compare(D.arrays(state), st, game.players)
        assert (mt == from_random(rng)).all()
        rank = game.cards.rank_of[st[L.CALLED]]
        seen["fallback rank"] += int(rank in game.rules.call_fallback_ranks)
        seen["own"] += int(st[L.PARTNER] == 0)
        seen["called"] += 1
    return seen


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("quadrille", {}),
        ("quadrille", {"may_call_own_king": "off"}),
        ("quadrille", {"may_call_queen": "off"}),
        ("quadrille", {"may_call_queen": "off", "may_call_own_king": "off"}),
        ("quadrille-fi", {}),
        ("quadrille-fi", {"queen_call_may_be_trump": "on"}),
        ("quadrille-fi", {"forced_queen_call_needs_four_kings": "on", "forced_spadille": "on"}),
        ("quintille", {"may_call_own_king": "off"}),
    ],
)
def test_call_holding_every_king(name: str, options: Mapping[str, str]) -> None:
    """A declarer with every King (and with every King and Queen) calls as the engine does."""
    kings = ["KS", "KH", "KD", "KC"]
    queens = ["QS", "QH", "QD", "QC"]
    seen = check_stacked(name, options, [*kings, "AS"], 12) + check_stacked(name, options, kings + queens, 12)
    assert seen["called"] > 10
    if D.load(name, options).rules.call_fallback_ranks:
        assert seen["fallback rank"] > 0
    assert seen["own"] > 0


@pytest.mark.parametrize("name", ["quadrille", "quintille", "quadrille-fi"])
def test_start_resets_the_records(name: str) -> None:
    """``start`` of each of the three phases leaves its fields as a new deal's records are."""
    game = D.load(name, {})
    tb = D.tables(game)
    fresh = D.arrays(game.new_match(seed=5))
    st = fresh.copy()
    for o in (L.CALLED, L.ANNOUNCED, *range(L.MECH_CALL, L.MECH_ANNOUNCE + 16)):
        st[o] = 99
    call.start(tb, st)
    exchange.start(tb, st)
    announce.start(tb, st)
    assert not D.compare(fresh, st, game.players)


@pytest.mark.parametrize("name", ["whist", "euchre", "hearts", "spades", "manille"])
def test_games_without_the_phases(name: str) -> None:
    """A game without the phases: nothing exported, and the three runs change nothing and draw nothing."""
    game = D.load(name, {})
    tb = D.tables(game)
    assert (tb == H.kernel_tables(game)).all()
    rng = random.Random(3)
    state = game.new_match(seed=3)
    for _ in range(30):
        H.assert_leaves_alone(tb, D.arrays(state), [call.run, exchange.run, announce.run, announce.after_trick], rng)
        state = D.step(state, rng)
