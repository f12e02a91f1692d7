"""Contracts in which the trump suit wins a trick only when it is led (played as a plain suit).

A spec uses it with a ``[mechanisms.trumps_led_only]`` section,
``contracts = [...]``. In those contracts a trick led
with a plain suit goes to the highest card of that suit, even if trumps were
played to it; a trick led with a trump goes to the highest trump as usual.
The play obligations are unchanged (a player who cannot follow suit still
trumps where the rules say so); only who wins the trick changes (the
mechanism's ``trick_winner``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from attrs import frozen

from trickrules.engine.mechanism import register, rule_only
from trickrules.engine.phases.sections import check_keys, contract_flags, named_and_checked
from trickrules.engine.state import State
from trickrules.engine.values import DealInfo

if TYPE_CHECKING:
    from trickrules.compile.tables import Tables

__all__ = ["MECHANISM", "PHASE", "TrumpsLedOnly", "install", "led_only_params"]

#: This mechanism's phase, and the name of its spec section.
PHASE = "trumps_led_only"


@frozen(weakref_slot=False)
class TrumpsLedOnly:
    """The section compiled: per contract index, whether trumps win only when led."""

    binds: tuple[bool, ...]


_PARAMS: dict[int, tuple[Tables, TrumpsLedOnly]] = {}


def led_only_params(t: Tables) -> TrumpsLedOnly:
    """The compiled section of a game that uses this mechanism; :class:`~trickrules.errors.SpecError` if bad."""
    found = _PARAMS.get(id(t))
    if found is not None and found[0] is t:
        return found[1]
    section = t.mechanism_sections[PHASE]
    check_keys(PHASE, section, ("contracts",))
    params = TrumpsLedOnly(contract_flags(PHASE, t, section, "contracts"))
    _PARAMS[id(t)] = (t, params)
    return params


def _winner(state: State, d: DealInfo, trick: tuple[int, ...], index: int) -> int:
    if d.contract is None or d.trump is None or not led_only_params(state.game.tables).binds[d.contract]:
        return index
    data = state.game.tables.trumps[d.trump]
    led = data.eff_suit[trick[0]]
    if data.eff_suit[trick[index]] == led:  # a trump lead, or a trick nobody trumped: the usual winner
        return index
    best = 0
    for i, card in enumerate(trick):
        if data.eff_suit[card] == led and data.power[card] > data.power[trick[best]]:
            best = i
    return best


_uses = named_and_checked(PHASE, led_only_params)


MECHANISM = rule_only(PHASE, trick_winner=_winner)


def install() -> None:
    """Register this mechanism (done once when :mod:`trickrules.engine.phases` is imported)."""
    register(MECHANISM, uses=_uses)
