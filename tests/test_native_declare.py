"""The native declarations (:mod:`trickrules.native.declare`) against the engine's, choice for choice.

For every bundled game with declarations and a sample of the options that
change them, engine matches are played with the random bot; after every
trick that does not end the deal, the kernel plays the declaration window
(if one opens) from the same position and generator, the engine goes on
until the window closes, and the two are compared: every core field, the
points declared, the declarations' record and the generator.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import native_harness as H
import trickrules
from trickrules.engine.game import Game
from trickrules.engine.state import State
from trickrules.engine.values import Phase
from trickrules.native import declare
from trickrules.native import layout as L
from trickrules.native.engine_arrays import to_arrays
from trickrules.native.mt import from_random
from trickrules.native.tables import Builder

#: (game, options): every bundled game with declarations, and the options that change them.
CASES: list[tuple[str, dict[str, str]]] = [
    ("cuatrola", {}),
    ("cuatrola", {"cante_by": "trick_winner"}),
    ("cuatrola", {"cantes_per_window": "1"}),
    ("cuatrola", {"late_cante": "forfeit"}),
    ("cuatrola", {"late_cante": "forfeit", "cantes_per_window": "1", "bidding_rounds": "until_three_passes"}),
    ("cuatrola", {"cante_by": "trick_winner", "end_hand_when_decided": "on", "sitout_lead": "bidder"}),
    ("cuatrola-11", {}),
]
#: Cuatrola with cantes in every contract (a test overlay): random bots rarely leave a deal in a contract that
#: allows them (they bid up to Quintola), so these cases give the many windows, with the same options.
EVERY_CONTRACT = "cuatrola, cantes in every contract"
OVERLAY = """extends = "cuatrola"
[variant]
name = "cuatrola-cantes-always"
title = "Cuatrola with cantes in every contract"
doc = "A test overlay."
[[declarations]]
name = "40"
contracts = ["", "solo", "cuatrola", "quintola"]
[[declarations]]
name = "20"
contracts = ["", "solo", "cuatrola", "quintola"]
"""
CASES += [(EVERY_CONTRACT, options) for _, options in CASES[:6]]
#: Matches, each played until a deal whose contract allows no declaration, or DEALS deals.
MATCHES = 150
DEALS = 4


def compare(game: Game, st: H.Array, state: State) -> None:
    """``st`` holds what the engine's ``state`` holds: every core field, the points declared and the block."""
    want = H.state_arrays(state, declare.part_to_arrays)
    H.assert_fields(st, want, game.players, skip=())
    H.assert_words(
        st, want, (*range(L.DECLARED, L.DECLARED + game.players), *range(L.MECH_DECLARE, L.MECH_DECLARE + 32))
    )


def meld_hands(game: Game, seed: int) -> list[list[str]] | None:
    """Every other match: a first deal where each seat holds a King and Caballo of a suit (melds to declare)."""
    if seed % 2 == 0:
        return None
    r = random.Random(seed)
    suits = list(game.cards.suit_codes)
    r.shuffle(suits)
    hands = [["R" + s, "C" + s] for s in suits[: game.players]]
    rest = [c for c in game.cards.codes if all(c not in h for h in hands)]
    r.shuffle(rest)
    size = game.rules.hand_size
    for seat, hand in enumerate(hands):
        hand += rest[(size - 2) * seat : (size - 2) * (seat + 1)]
    return hands


def play_match(game: Game, tb: H.Array, seed: int, seen: dict[str, int]) -> None:
    """A match of random bots, the kernel's window checked after every trick that leaves the deal going."""
    rng = random.Random(seed)
    state = game.new_match(seed=seed * 104729 + 3, dealer=seed % game.players, hands=meld_hands(game, seed))
    t = game.tables
    allowed = [any(c.name in x.contracts for x in game.rules.declarations) for c in game.rules.contracts]
    start = state.match.deals_done
    while not state.is_terminal and state.match.deals_done - start < DEALS:
        d = state.deal
        if state.phase == Phase.PLAY and d.contract is not None and not allowed[d.contract] and seed % 4:
            return  # no window can open in this deal (one match in four plays it through): on to the next match
        ends_trick = state.phase == Phase.PLAY and len(state.trick) == t.trick_last[state.deal.seats_out]
        before = state
        state = H.step(state, rng)
        going = state.deal.number == before.deal.number and state.match.deals_done == before.match.deals_done
        if not (ends_trick and going):
            continue
        assert len(state.tally.winners) == len(before.tally.winners) + 1
        st = to_arrays(state)
        declare.part_to_arrays(before, st)  # the record as the trick ended, before any window
        if len(state.tally.winners) == 1:  # a deal's first trick: the block as the last deal left it (or cleared)
            st[L.MECH_DECLARE : L.MECH_DECLARE + 32] = 0 if seed % 2 else 1 << 40
            st[L.DECLARED : L.DECLARED + game.players] = 20
        mt = from_random(rng)
        declare.run(tb, st, mt)
        steps = 0
        while state.phase == Phase.DECLARE:
            state = H.step(state, rng)
            steps += 1
        H.assert_same_generator(mt, rng)
        assert st[L.ACTIONS] == steps
        compare(game, st, state)
        seen["window" if steps else "none"] = seen.get("window" if steps else "none", 0) + 1
        if steps and st[declare.D_WINDOW_COUNT]:
            seen["declared"] = seen.get("declared", 0) + 1
        if any(st[declare.D_FORFEITED + s] for s in range(game.players)):
            seen["forfeited"] = seen.get("forfeited", 0) + 1


@pytest.mark.parametrize(
    ("name", "options"), CASES, ids=[f"{n}[{','.join(f'{k}={v}' for k, v in o.items())}]" for n, o in CASES]
)
def test_declarations_match_engine(name: str, options: dict[str, str], tmp_path: Path) -> None:
    """The kernel's windows take the engine's decisions and leave the engine's deal, trick after trick."""
    if name == EVERY_CONTRACT:
        overlay = tmp_path / "cuatrola-cantes-always.toml"
        overlay.write_text(OVERLAY, encoding="utf-8")
        game = trickrules.load(overlay, options)
    else:
        game = trickrules.load(name, options)
    tb = H.kernel_tables(game, declare.export)
    seen: dict[str, int] = {}
    for seed in range(MATCHES):
        play_match(game, tb, seed, seen)
    if name != EVERY_CONTRACT:
        assert seen.get("window", 0) >= 3, seen
        assert seen.get("none", 0) >= 80, seen
        return
    assert seen.get("window", 0) >= 300, seen
    assert seen.get("declared", 0) >= 25, seen
    assert options.get("late_cante") != "forfeit" or seen.get("forfeited", 0) >= 10, seen


def test_every_declaring_game_is_covered() -> None:
    """Every bundled spec with declarations is among the cases; the others export none."""
    names = {p.stem for p in (Path(__file__).parent.parent / "specs").glob("*.toml")}
    declaring = {n for n in names if trickrules.load(n).rules.declarations}
    assert declaring == {n for n, _ in CASES} - {EVERY_CONTRACT}
    b = Builder()
    declare.export(trickrules.load("quadrille"), b)
    assert b.array()[declare._PRESENT] == 0
