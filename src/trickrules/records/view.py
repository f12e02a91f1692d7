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
from typing import TYPE_CHECKING, Any

from attrs import frozen

from trickrules.engine.records import Phase
from trickrules.engine.state import State
from trickrules.errors import LogFormatError
from trickrules.records.strictjson import read_json, show
from trickrules.spec.converter import Total, converter, describe_error

if TYPE_CHECKING:
    from trickrules import svg

__all__ = ["MAX_VIEW_BYTES", "View", "make_view"]

#: Larger view texts are refused before parsing (a real view is a few kilobytes).
MAX_VIEW_BYTES = 1024 * 1024
_PHASES = frozenset(p.value for p in Phase)


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
    #: The declarer's partner, when he sits out (see also ``seats_out``).
    sitting_out: int | None
    announced: tuple[str, ...]
    declarations: tuple[tuple[int, str, str], ...]
    given: tuple[str, ...]
    received: tuple[str, ...]
    scoreboard: tuple[Total, ...]
    pot: Total
    legal: tuple[str, ...]
    #: The seat this seat passes cards to in this deal (``None``: no passing).
    pass_to: int | None = None
    #: Every seat that sits out this deal (the declarer's partner, a lone defender's partner).
    seats_out: tuple[int, ...] = ()
    #: Each seat's bid of a number of tricks (``None``: not yet); empty before the first bid.
    bids: tuple[int | None, ...] = ()
    #: Each counter carried from deal to deal (``scoring.counters``): its name and its value per seat.
    counters: tuple[tuple[str, tuple[Total, ...]], ...] = ()

    @classmethod
    def from_state(cls, state: State, seat: int) -> View:
        """What ``seat`` may know of ``state``."""
        return make_view(state, seat)

    def picture(self, deck: svg.Deck | None = None) -> svg.Table:
        """The seat's table as data for :func:`trickrules.svg.table`: its own hand face up, the others hidden.

        ``deck`` says how the cards look; by default the bundled game the view
        names gives it (a view of another game shows plain card codes).
        """
        from trickrules import svg
        from trickrules.engine.game import load
        from trickrules.spec.loader import bundled_names

        game = load(self.game) if self.game in bundled_names() else None
        if deck is None:
            deck = svg.Deck.of(game.cards.codes, game.spec.deck.suits) if game is not None else svg.Deck()
        return svg.Table(
            deck=deck,
            hands=[self.hand if s == self.seat else None for s in range(len(self.hand_sizes))],
            counts=self.hand_sizes,
            trick=self.trick,
            seat=self.seat,
            clockwise=game is not None and game.spec.seating.direction == "clockwise",
            scores=self.scoreboard,
            tricks=self.tricks_won,
            dealer=self.dealer,
            to_move=self.to_move,
            declarer=self.declarer,
            partner=self.partner,
            out=self.seats_out,
            title=game.title if game is not None else self.game,
            deal=self.deal,
            phase=self.phase,
            contract=self.contract,
            trump=self.trump,
            called=self.called,
            turned=self.turned,
            pot=self.pot,
        )

    def _repr_svg_(self) -> str:
        """The seat's table as SVG (the other hands as card backs with counts): how a notebook shows a view."""
        from trickrules import svg

        return svg.table(self.picture())

    def to_json(self) -> str:
        """The view as compact JSON with sorted keys (stable byte for byte)."""
        return json.dumps(converter.unstructure(self), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> View:
        """Read a view written by :meth:`to_json`; :class:`~trickrules.errors.LogFormatError` if it is not one.

        The text is untrusted: it is read the way a log is (no repeated keys,
        integers only, within ±2**53, or past it as a string of decimal digits
        where a total may be, at most ``MAX_VIEW_BYTES``), every field
        must have its type, and the seats, counts and phase must make sense
        together (a seat of the table, no negative count, the seat's hand as
        large as its hand size says).
        """
        if isinstance(text, bytes | bytearray):
            if len(text) > MAX_VIEW_BYTES:
                raise LogFormatError(f"a view is at most {MAX_VIEW_BYTES} bytes; this one is {len(text)}")
            try:
                text = bytes(text).decode("utf-8")
            except UnicodeDecodeError as exc:
                raise LogFormatError(f"a view must be UTF-8 text (byte {exc.start} is not)") from None
        if not isinstance(text, str):
            raise LogFormatError(f"a view must be text (str or bytes), found {type(text).__name__} {show(text)}")
        if len(text) > MAX_VIEW_BYTES:
            raise LogFormatError(f"a view is at most {MAX_VIEW_BYTES} characters; this one is {len(text)}")
        data: Any = read_json(text, "view")
        if not isinstance(data, dict):
            raise LogFormatError(f"a view must be a JSON object, found {show(data)}")
        try:
            view = converter.structure(data, cls)
        except Exception as exc:
            raise LogFormatError(f"malformed view: {'; '.join(describe_error(exc))}") from None
        problems = _inconsistencies(view)
        if problems:
            raise LogFormatError(f"malformed view: {'; '.join(problems)}")
        return view


def _inconsistencies(view: View) -> list[str]:
    """What in a view read from JSON cannot be (each a sentence with the field's name)."""
    out: list[str] = []
    players = len(view.hand_sizes)
    if players == 0:
        return ["hand_sizes: expected one hand size per seat, found none"]

    def seat(name: str, value: int | None) -> None:
        if value is not None and not 0 <= value < players:
            out.append(f"{name}: expected a seat from 0 to {players - 1}, found {value}")

    def counts(name: str, values: tuple[int, ...]) -> None:
        for n, value in enumerate(values):
            if value < 0:
                out.append(f"{name}[{n}]: expected a count of 0 or more, found {value}")

    for name in ("seat", "dealer", "to_move", "declarer", "partner", "sitting_out", "pass_to"):
        seat(name, getattr(view, name))
    for n, who in enumerate(view.seats_out):
        seat(f"seats_out[{n}]", who)
    for n, (who, _) in enumerate(view.trick):
        seat(f"trick[{n}][0]", who)
    for n, (who, _, _) in enumerate(view.declarations):
        seat(f"declarations[{n}][0]", who)
    counts("hand_sizes", view.hand_sizes)
    counts("tricks_won", view.tricks_won)
    counts("bids", tuple(b for b in view.bids if b is not None))
    if view.bids and len(view.bids) != players:
        out.append(f"bids: expected one bid per seat ({players}), found {len(view.bids)}")
    for name in ("deal", "pot"):
        if getattr(view, name) < 0:
            out.append(f"{name}: expected 0 or more, found {getattr(view, name)}")
    for name in ("tricks_won", "scoreboard"):
        if len(getattr(view, name)) != players:
            out.append(f"{name}: expected one value per seat ({players}), found {len(getattr(view, name))}")
    if view.phase not in _PHASES:
        out.append(f"phase: expected one of {', '.join(sorted(_PHASES))}, found {show(view.phase)}")
    elif (view.phase == Phase.OVER) != (view.to_move is None):
        out.append(f"to_move: {view.to_move} in the {view.phase} phase")
    if 0 <= view.seat < players and len(view.hand) != view.hand_sizes[view.seat]:
        out.append(f"hand: {len(view.hand)} cards, but hand_sizes[{view.seat}] is {view.hand_sizes[view.seat]}")
    if view.legal and view.to_move != view.seat:
        out.append(f"legal: actions listed for seat {view.seat}, but seat {view.to_move} is to move")
    return out


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
    elif d.passed:  # the cards this seat passed, and once everyone has passed, those it received
        given = game.codes_of(d.passed[seat])
        source = (seat - d.pass_offset) % rules.players
        received = game.codes_of(d.passed[source]) if state.phase is not Phase.PASSING else ()
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
        seats_out=tuple(s for s in range(rules.players) if (d.seats_out >> s) & 1),
        announced=d.announced,
        declarations=tuple(
            (m.seat, rules.declarations[m.declaration].name, game.cards.suit_codes[m.suit]) for m in tally.declared
        ),
        given=given,
        received=received,
        scoreboard=state.match.scores,
        pot=state.match.pot,
        legal=tuple(str(a) for a in state.legal_actions()) if state.to_move == seat else (),
        pass_to=(seat + d.pass_offset) % rules.players if d.pass_offset else None,
        bids=d.bids,
        counters=tuple((c.name, values) for c, values in zip(rules.bids.counters, state.match.counters, strict=True)),
    )
