"""Per-contract duty to win the trick: in the contracts named, a player must take the trick if he can.

A spec uses it with a ``[mechanisms.must_win]`` section, ``contracts = [...]``
naming the contracts it binds (contracts in which taking tricks is bad, say).
After the other play obligations have said which cards a player
may play to a trick, he must play one of them that would beat the card
winning the trick so far by the rank order (a trump over a plain card, a
higher card of the suit led), if he holds one; else any of them. A lead is
free. It narrows the legal cards (the mechanism's ``narrow``), so a refusal
names it: "must win the trick (play a card that beats the cards on the
table) when able".

The rank order alone decides what beats what here: a rule that upsets the
order when certain cards fall together (:mod:`.trump_upset`) has its own duty.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from attrs import frozen

from trickrules.engine.mechanism import register, rule_only
from trickrules.engine.obligations import winner_index
from trickrules.engine.phases.sections import check_keys, contract_flags, named_and_checked
from trickrules.engine.state import State

if TYPE_CHECKING:
    from trickrules.compile.tables import Tables

__all__ = ["MECHANISM", "PHASE", "MustWin", "install", "must_win_params"]

#: This mechanism's phase, and the name of its spec section.
PHASE = "must_win"
_REASON = "must_win"


@frozen(weakref_slot=False)
class MustWin:
    """The section compiled: per contract index, whether the duty binds."""

    binds: tuple[bool, ...]


_PARAMS: dict[int, tuple[Tables, MustWin]] = {}


def must_win_params(t: Tables) -> MustWin:
    """The compiled section of a game that uses this mechanism; :class:`~trickrules.errors.SpecError` if bad."""
    found = _PARAMS.get(id(t))
    if found is not None and found[0] is t:
        return found[1]
    section = t.mechanism_sections[PHASE]
    check_keys(PHASE, section, ("contracts",))
    params = MustWin(contract_flags(PHASE, t, section, "contracts"))
    _PARAMS[id(t)] = (t, params)
    return params


def _narrow(state: State, seat: int, mask: int, reason: str) -> tuple[int, str]:
    trick = state.trick
    d = state.deal
    if not trick or d.contract is None or d.trump is None:
        return mask, reason
    if not must_win_params(state.game.tables).binds[d.contract]:
        return mask, reason
    t = state.game.tables
    last = len(trick)
    winning = 0
    rest = mask
    while rest:
        low = rest & -rest
        card = low.bit_length() - 1
        if winner_index(t, (*trick, card), d.trump) == last:
            winning |= low
        rest ^= low
    if winning and winning != mask:
        return winning, _REASON
    return mask, reason


_uses = named_and_checked(PHASE, must_win_params)


MECHANISM = rule_only(
    PHASE,
    narrow=_narrow,
    reasons={_REASON: "must win the trick (play a card that beats the cards on the table) when able"},
)


def install() -> None:
    """Register this mechanism (done once when :mod:`trickrules.engine.phases` is imported)."""
    register(MECHANISM, uses=_uses)
