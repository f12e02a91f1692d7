"""The native announcements (trickrules.native.announce) against the engine: before the lead and between tricks.

At every deal of engine matches played by the random bot where the
announcements before the first lead are due, the kernel's
:func:`~trickrules.native.announce.run` plays them from the engine's
position with the same generator; at every trick's end that does not end the
deal, :func:`~trickrules.native.announce.after_trick` opens (or not) the late
window from the position the trick left, and the engine goes on with the same
draws until it leaves the window. Both must agree on every field and on the
generator. Late windows need the declarer's side to win a run of tricks from
the first, which random play seldom does: first deals with the declarer
dealt the top trumps reach them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping

import pytest

import native_quad_driver as D
from trickrules.engine.game import Game
from trickrules.engine.state import State
from trickrules.engine.values import Phase
from trickrules.native import announce, call
from trickrules.native import layout as L
from trickrules.native.mt import from_random

Array = D.Array

#: The fields compared after a lone declarer's answer by a lead (the card is on the table then).
LEAD_FIELDS = [("ANNOUNCED", L.ANNOUNCED), ("CALLED", L.CALLED), ("PARTNER", L.PARTNER)] + [
    (f"{b}+{i}", getattr(L, b) + i) for b in ("MECH_CALL", "MECH_ANNOUNCE") for i in range(16)
]


def visitor(game: Game, tb: Array, seen: Counter[str]) -> D.Visitor:
    """The check at the announcements before the lead and at every trick's end."""
    last = game.tables.trick_last

    def visit(state: State, rng: random.Random) -> State:
        if state.phase is Phase.ANNOUNCE:
            st = D.arrays(state)
            assert st[announce.A_LATE] == L.NONE  # a late window is entered from the trick's end below
            state, _ = D.against_engine(game, tb, announce.run, Phase.ANNOUNCE, state, st, rng)
            seen["before the lead"] += 1
            seen["announced before the lead"] += int(st[L.ANNOUNCED] != 0)
            return state
        if state.phase in (Phase.TRUMP, Phase.CALL, Phase.EXCHANGE) or (
            state.phase is Phase.PLAY and not state.trick and not state.tally.winners
        ):
            st = D.arrays(state)
            if state.phase is not Phase.PLAY and not st[announce.A_DONE]:
                return state  # the announcements come after this phase
            # Not due: nothing changes, nothing is drawn.
            D.assert_not_due(tb, announce.run, st, rng)
            seen["not due"] += 1
            return state
        if state.phase is Phase.PLAY and len(state.trick) == last[state.deal.seats_out]:
            return trick_end(state, rng)
        return state

    def trick_end(state: State, rng: random.Random) -> State:
        """The trick's last card played by the bot; then the window, kernel and engine from the same position."""
        number = state.deal.number
        ahead = D.arrays(state)
        after = D.step(state, rng)
        if after.is_terminal or after.deal.number != number:
            return after  # the deal's last trick: no window
        st = D.arrays(after)
        for field in [L.ANNOUNCED, *range(L.MECH_ANNOUNCE, L.MECH_ANNOUNCE + 16)]:
            st[field] = ahead[field]  # the record as the trick left it, before any window opened
        st[L.TO_MOVE] = st[L.LEADER]
        mt = from_random(rng)
        actions = st[L.ACTIONS]
        announce.after_trick(tb, st, mt)
        opened = after.phase is Phase.ANNOUNCE
        decisions = 0
        while after.phase is Phase.ANNOUNCE:
            after = D.step(after, rng)
            decisions += 1
        assert (mt == from_random(rng)).all()
        assert st[L.ACTIONS] - actions == decisions
        ended = after.is_terminal or after.deal.number != number
        assert st[announce.A_ENDED] == int(ended)
        if ended:
            seen["window ended the deal"] += 1
            return after
        if after.trick:
            # The lone declarer answered by leading: the card on the table, the engine's on_card heard it.
            card = after.trick[0]
            assert st[announce.A_LEAD] == card
            st[L.HANDS + after.leader] &= ~(1 << card)
            call.on_card(tb, st, card)
            st[announce.A_LEAD] = L.NONE
            expected = D.arrays(after)
            assert [n for n, o in LEAD_FIELDS if st[o] != expected[o]] == []
            assert st[L.HANDS + after.leader] == expected[L.HANDS + after.leader]
            seen["answered by a lead"] += 1
            return after
        assert not D.compare(D.arrays(after), st, game.players), D.compare(D.arrays(after), st, game.players)
        seen["trick ends"] += 1
        seen["late windows"] += int(opened)
        seen["late announced"] += int(st[L.ANNOUNCED] != ahead[L.ANNOUNCED])
        return after

    return visit


def check_random(name: str, options: Mapping[str, str], count: int, steer: bool = True) -> Counter[str]:
    """Compare at every deal of ``count`` random matches (the auction steered to contracts with announcements)."""
    game = D.load(name, options)
    tb = D.tables(game)
    t = game.tables
    offering = {c.name for c in game.rules.contracts if any(t.announce_offers[c.index])}
    offering |= {n for e in game.rules.late_announcements for n in e.contracts}
    seen: Counter[str] = Counter()
    favour = offering.__contains__ if steer else None
    seen["deals"] = D.matches(game, count, visitor(game, tb, seen), deals=6, favour=favour)
    return seen


#: Seat 0's hand in the strong first deals: every top trump of spades (so every trick is his) and a side King.
STRONG = ["AS", "2S", "AC", "KS", "QS", "JS", "7S", "6S"]


def check_strong(name: str, options: Mapping[str, str], count: int, contracts: Callable[[str], bool]) -> Counter[str]:
    """Compare at first deals where seat 0, dealt :data:`STRONG` and a side King, plays a contract with spades.

    The auction and the trump are steered (seat 0 bids a contract ``contracts``
    names, the others pass; he names spades); every other choice is the random bot's.
    """
    game = D.load(name, options)
    tb = D.tables(game)
    seen: Counter[str] = Counter()
    visit = visitor(game, tb, seen)
    codes = list(game.cards.codes)
    size = game.rules.hand_size
    for m in range(count):
        rng = random.Random(m)
        rest = [c for c in codes if c not in STRONG and c != "KH"]
        rng.shuffle(rest)
        held = [*STRONG, "KH", *rest[: size - len(STRONG) - 1]]
        rest = rest[size - len(STRONG) - 1 :]
        hands = [held] + [rest[i * size : (i + 1) * size] for i in range(game.players - 1)]
        state = game.new_match(seed=m, dealer=game.players - 1, hands=hands)
        while not state.is_terminal and state.deal.number == 0:
            went = visit(state, rng)
            if went is not state:
                state = went
                continue
            legal = state.legal_actions()
            if state.phase is Phase.BIDDING:
                wanted = [a for a in legal if a.verb == "bid" and contracts(a.arg)] if state.to_move == 0 else []
                legal = tuple(wanted) or tuple(a for a in legal if a.verb == "pass")
            elif state.phase is Phase.TRUMP:
                legal = tuple(a for a in legal if a.arg == "S") or legal
            state = state.apply(legal[int(rng.random() * len(legal))])
        seen["deals"] += 1
    return seen


@pytest.mark.parametrize(("name", "options"), D.GAMES)
def test_announce_as_engine(name: str, options: Mapping[str, str]) -> None:
    """The announcements before the lead and every trick's end of the sampled matches are the engine's."""
    seen = check_random(name, options, 8) + check_random(name, options, 3, steer=False)
    assert seen["trick ends"] > 100
    game = D.load(name, options)
    if any(any(o) for o in game.tables.announce_offers):
        assert seen["before the lead"] > 5
        assert seen["announced before the lead"] > 0


#: The late Vole in every reading: the Finnish text's options and the Spanish option.
LATE = [
    ("quadrille", {"vole_announce": "after_sixth_trick"}),
    ("quadrille-fi", {}),
    ("quadrille-fi", {"solo_late_vole": "automatic"}),
    ("quadrille-fi", {"alliance_late_vole": "hombre_decides"}),
    ("quadrille-fi", {"vole_bid_with_partner": "on"}),
    ("quadrille-fi", {"called_king_public": "on", "forced_spadille": "off"}),
]


@pytest.mark.parametrize(("name", "options"), LATE)
@pytest.mark.parametrize("contract", ["alliance", "solo"])
def test_late_windows(name: str, options: Mapping[str, str], contract: str) -> None:
    """A declarer with every top trump wins the first six tricks: the late window, as the engine opens it."""
    seen = check_strong(name, options, 30, contract.__eq__)
    assert (
        seen["late windows"] + seen["late announced"] + seen["answered by a lead"] + seen["window ended the deal"] > 10
    ), seen
