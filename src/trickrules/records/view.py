"""Per-seat views: what one player may know of a state.

A :class:`View` holds the seat's own hand, the cards on the table and won in
tricks, public bids, trumps, the called card, declarations, scores and the
pot. It never holds another seat's hand, the seed, cards handed face down to
others, or who a secretly called partner is — that appears only once the
called card has been played (or the rules make it public), or when the
viewing seat holds the called card itself.
"""

from __future__ import annotations

import json
from typing import Any

from attrs import frozen

from trickrules.engine.state import State
from trickrules.errors import LogFormatError
from trickrules.spec.converter import converter, describe_error

__all__ = ["View", "make_view"]


@frozen
class View:
    """One seat's knowledge of a state; serialisable to JSON and back."""

    game: str
    seat: int
    phase: str
    to_move: int | None
    dealer: int
    deal: int
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    trick: tuple[tuple[int, str], ...]
    tricks_won: tuple[int, ...]
    played: tuple[str, ...]
    contract: str | None
    declarer: int | None
    trump: str | None
    turned: str
    called: str
    partner: int | None
    sitting_out: int | None
    announced: tuple[str, ...]
    declarations: tuple[tuple[int, str, str], ...]
    given: tuple[str, ...]
    received: tuple[str, ...]
    scoreboard: tuple[int, ...]
    pot: int
    legal: tuple[str, ...]

    def to_json(self) -> str:
        """The view as compact JSON with sorted keys (stable byte for byte)."""
        return json.dumps(converter.unstructure(self), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> View:
        """Read a view written by :meth:`to_json`; :class:`~trickrules.errors.LogFormatError` if it is not one."""
        try:
            data: Any = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise LogFormatError(f"a view must be JSON ({type(exc).__name__}: {str(exc)[:80]})") from None
        if not isinstance(data, dict):
            raise LogFormatError("a view must be a JSON object")
        try:
            return converter.structure(data, cls)
        except Exception as exc:
            raise LogFormatError(f"malformed view: {'; '.join(describe_error(exc))}") from None


def make_view(state: State, seat: int) -> View:
    """Build ``seat``'s view of ``state``."""
    game = state.game
    rules = game.rules
    game.seat(seat, "seat")
    d = state.deal
    codes = game.cards.codes
    tally = state.tally
    counts = [0] * rules.players
    for w in tally.winners:
        counts[w] += 1
    played = 0
    for mask in tally.won:
        played |= mask
    partner: int | None = None
    if d.called is not None and (d.revealed or seat == d.partner):
        partner = d.partner
    given: tuple[str, ...] = ()
    received: tuple[str, ...] = ()
    complete = bool(d.returned) and len(d.returned) == len(d.given)
    if seat == d.declarer and d.partner != seat:
        given = tuple(codes[c] for c in d.given)
        received = tuple(codes[c] for c in d.returned) if complete else ()
    elif seat == d.partner and d.given:
        given = tuple(codes[c] for c in d.returned)
        received = tuple(codes[c] for c in d.given) if complete else ()
    return View(
        game=game.name,
        seat=seat,
        phase=state.phase.value,
        to_move=state.to_move,
        dealer=d.dealer,
        deal=d.number,
        hand=state.hand(seat),
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        trick=state.trick_cards(),
        tricks_won=tuple(counts),
        played=tuple(codes[c] for c in range(len(codes)) if (played >> c) & 1),
        contract=state.contract,
        declarer=state.declarer,
        trump=state.trump,
        turned=codes[d.turned] if d.turned is not None else "",
        called=codes[d.called] if d.called is not None else "",
        partner=partner,
        sitting_out=d.sitting_out,
        announced=d.announced,
        declarations=tuple(
            (m.seat, rules.declarations[m.declaration].name, game.cards.suit_codes[m.suit]) for m in tally.declared
        ),
        given=given,
        received=received,
        scoreboard=state.match.scores,
        pot=state.match.pot,
        legal=tuple(str(a) for a in state.legal_actions()) if state.to_move == seat else (),
    )
