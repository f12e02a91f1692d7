"""The native exchange (trickrules.native.exchange) against the engine: the same cards given and returned.

At every deal of engine matches played by the random bot where the exchange
is due, the kernel's :func:`~trickrules.native.exchange.run` plays it from
the engine's position with the same generator; the engine then goes on with
the same draws until it leaves the exchange, and the two must agree on every
field (the hands after the swap, the record) and on the generator.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping

import pytest

import native_quad_driver as D
from trickrules.engine.state import State
from trickrules.engine.values import Phase
from trickrules.native import exchange
from trickrules.native import layout as L

#: The games whose contracts have an exchange (quadrille-fi only with the Spanish ladder).
EXCHANGING = [(n, o) for n, o in D.GAMES if n != "quadrille-fi"] + [
    ("quadrille-fi", {"ladder": "with_dimidiator_casco"}),
    ("quadrille-fi", {"ladder": "with_dimidiator_casco", "called_king_public": "on"}),
]


def check_exchange(name: str, options: Mapping[str, str], count: int, steer: bool = True) -> Counter[str]:
    """Compare the exchange at every deal of ``count`` matches; what was seen.

    ``steer``: the auction favours the contracts with an exchange.
    """
    game = D.load(name, options)
    tb = D.tables(game)
    swapping = {c.name for c in game.rules.contracts if c.exchange}
    seen: Counter[str] = Counter()

    def visit(state: State, rng: random.Random) -> State:
        if state.phase is Phase.EXCHANGE:
            st = D.arrays(state)
            state, _ = D.against_engine(game, tb, exchange.run, Phase.EXCHANGE, state, st, rng)
            seen["exchanges"] += 1
            seen["called card returned"] += int(st[exchange.X_RETURNED] == st[L.CALLED])
            return state
        if state.phase in (Phase.ANNOUNCE, Phase.TRUMP) or (
            state.phase is Phase.PLAY and not state.trick and not state.tally.winners
        ):
            # Not due (no exchange in the contract, no real partner, or done): nothing changes, nothing is drawn.
            D.assert_not_due(tb, exchange.run, D.arrays(state), rng)
            seen["not due"] += 1
            seen["not due, own card"] += int(
                state.deal.contract is not None
                and game.rules.contracts[state.deal.contract].exchange > 0
                and state.deal.partner == state.deal.declarer
            )
        return state

    seen["deals"] = D.matches(game, count, visit, favour=swapping.__contains__ if steer else None)
    return seen


@pytest.mark.parametrize(("name", "options"), EXCHANGING)
def test_exchange_as_engine(name: str, options: Mapping[str, str]) -> None:
    """Every exchange of the sampled matches is the engine's, field for field and draw for draw."""
    seen = check_exchange(name, options, 6) + check_exchange(name, options, 2, steer=False)
    assert seen["exchanges"] > 10
    assert seen["not due"] > 0


def test_exchange_returns() -> None:
    """The sample reaches the called card handed back, another card handed back, and a call of one's own."""
    kept = check_exchange("quadrille", {}, 10)
    free = check_exchange("quadrille", {"dimidiator_returns_called_king": "off"}, 10)
    assert kept["called card returned"] == kept["exchanges"] > 0
    assert free["called card returned"] < free["exchanges"]
    assert kept["not due, own card"] + free["not due, own card"] > 0
