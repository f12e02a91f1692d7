"""Per-seat views: what one player may know of a state.

A :class:`View` holds what every game has: the seat's own hand, the cards
on the table and won in tricks, the contract, the declarer, trumps, the
seats out, scores and the pot. What a seat sees of each mechanism's record
is that mechanism's own view value, in :attr:`View.parts`; the mechanism
alone decides it (its ``view``), and this module assembles them without
knowing any of them (``docs/engine.md`` lists the built-in ones). A view
never holds another seat's hand, the seed, cards handed face down to
others, or a secret partnership.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import evolve, frozen
from attrs import fields as attr_fields

from trickrules.engine.mechanism import mechanism_named, registered, seat_views
from trickrules.engine.phases import BUILT_IN
from trickrules.engine.state import GameLike, State
from trickrules.engine.values import Phase
from trickrules.errors import ArgumentError, LogFormatError
from trickrules.records.strictjson import read_json, show
from trickrules.spec.converter import Total, converter, describe_error

if TYPE_CHECKING:
    from trickrules import svg

__all__ = ["MAX_VIEW_BYTES", "View", "make_view"]

#: Larger view texts are refused before parsing (a real view is a few kilobytes).
MAX_VIEW_BYTES = 1024 * 1024
_PHASES = frozenset(p.value for p in Phase)
_V = TypeVar("_V")


@frozen
class View:
    """One seat's knowledge of a state; serialisable to JSON and back."""

    game: str
    seat: int
    phase: str
    #: The seat whose turn it is (whose card is played), and the seat that decides for it.
    to_move: int | None
    chooser: int | None
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
    #: The declarer's partner, when he sits out (see also ``seats_out``).
    sitting_out: int | None
    #: Every seat that sits out this deal (the declarer's partner, a lone defender's partner).
    seats_out: tuple[int, ...]
    scoreboard: tuple[Total, ...]
    pot: Total
    #: The legal actions, when this seat decides (it is the chooser).
    legal: tuple[str, ...]
    #: Each counter carried from deal to deal (``scoring.counters``): its name and its value per seat.
    counters: tuple[tuple[str, tuple[Total, ...]], ...]
    #: What this seat sees of each mechanism of the game, by phase (each a value of the mechanism's ``view_type``).
    parts: tuple[tuple[str, Any], ...] = ()

    def part(self, kind: type[_V]) -> _V | None:
        """The seat's view of the mechanism whose view values are of class ``kind`` (``None``: the game has none)."""
        for _, value in self.parts:
            if type(value) is kind:
                return value
        return None

    @classmethod
    def from_state(cls, state: State, seat: int) -> View:
        """What ``seat`` may know of ``state``."""
        return make_view(state, seat)

    def picture(self, deck: svg.Deck | None = None, game: GameLike | None = None) -> svg.Table:
        """The seat's table as data for :func:`trickrules.svg.table`: its own hand face up, the others hidden.

        ``game`` is the game the view is of: it gives the title, the seating and
        how the cards look. By default it is the bundled game the view names; a
        view of another game shows plain card codes, unless its game is given
        (a spec of one's own may share a bundled game's name). ``deck`` says how
        the cards look, whatever the game. :class:`~trickrules.errors.ArgumentError`
        if ``game`` is not a game named as the view's.
        """
        from trickrules import svg
        from trickrules.engine.game import load
        from trickrules.spec.loader import bundled_names

        if game is None:
            game = load(self.game) if self.game in bundled_names() else None
        elif getattr(game, "name", None) != self.game:
            raise ArgumentError(f"game: the view is of {self.game!r}, not of {show(getattr(game, 'name', game))}.")
        if deck is None:
            deck = svg.Deck.of(game.cards.codes, game.spec.deck.suits) if game is not None else svg.Deck()
        table: dict[str, Any] = {
            "deck": deck,
            "hands": [self.hand if s == self.seat else None for s in range(len(self.hand_sizes))],
            "counts": self.hand_sizes,
            "trick": self.trick,
            "seat": self.seat,
            "clockwise": game is not None and game.spec.seating.direction == "clockwise",
            "scores": self.scoreboard,
            "tricks": self.tricks_won,
            "dealer": self.dealer,
            "to_move": self.to_move,
            "declarer": self.declarer,
            "out": self.seats_out,
            "title": game.title if game is not None else self.game,
            "deal": self.deal,
            "phase": self.phase,
            "contract": self.contract,
            "trump": self.trump,
            "pot": self.pot,
        }
        pictured = {a.name for a in attr_fields(svg.Table)} - {k for k, v in table.items() if v is not None}
        hands = list(table["hands"])
        for _, value in self.parts:  # what a mechanism's view shows that the picture has a place for
            for a in attr_fields(type(value)):
                if a.name in pictured:
                    table[a.name] = getattr(value, a.name)
            shown = getattr(value, "shown_hands", None)  # hands a mechanism lays face up (the dummy's)
            if callable(shown):
                for s, hand in shown().items():
                    hands[s] = hand
        table["hands"] = hands
        return svg.Table(**table)

    def _repr_svg_(self) -> str:
        """The seat's table as SVG (the other hands as card backs with counts): how a notebook shows a view."""
        from trickrules import svg

        return svg.table(self.picture())

    def to_json(self) -> str:
        """The view as compact JSON with sorted keys (stable byte for byte)."""
        data = converter.unstructure(self)
        data["parts"] = [[phase, converter.unstructure(value)] for phase, value in self.parts]
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

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
        raw_parts = data.pop("parts", [])
        if not isinstance(raw_parts, list) or not all(
            isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) for p in raw_parts
        ):
            found = show(raw_parts)
            raise LogFormatError(f"malformed view: parts: expected a list of [phase, view] pairs, found {found}")
        try:
            view = converter.structure(data, cls)
        except Exception as exc:
            raise LogFormatError(f"malformed view: {'; '.join(describe_error(exc))}") from None
        view = evolve(view, parts=tuple(_part_of(phase, value) for phase, value in raw_parts))
        problems = _inconsistencies(view)
        if problems:
            raise LogFormatError(f"malformed view: {'; '.join(problems)}")
        return view


def _part_of(phase: str, value: object) -> tuple[str, Any]:
    """A mechanism's part of a view read from JSON, structured into its mechanism's view class."""
    mechanism = BUILT_IN.get(phase) or mechanism_named(phase)
    kind = mechanism.view_type if mechanism is not None else None
    if kind is None:
        raise LogFormatError(f"malformed view: parts.{phase}: no mechanism of this phase has a view")
    try:
        return phase, converter.structure(value, kind)
    except Exception as exc:
        raise LogFormatError(f"malformed view: parts.{phase}: {'; '.join(describe_error(exc))}") from None


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

    for name in ("seat", "dealer", "to_move", "chooser", "declarer", "sitting_out"):
        seat(name, getattr(view, name))
    for n, who in enumerate(view.seats_out):
        seat(f"seats_out[{n}]", who)
    for n, (who, _) in enumerate(view.trick):
        seat(f"trick[{n}][0]", who)
    counts("hand_sizes", view.hand_sizes)
    counts("tricks_won", view.tricks_won)
    for name in ("deal", "pot"):
        if getattr(view, name) < 0:
            out.append(f"{name}: expected 0 or more, found {getattr(view, name)}")
    for name in ("tricks_won", "scoreboard"):
        if len(getattr(view, name)) != players:
            out.append(f"{name}: expected one value per seat ({players}), found {len(getattr(view, name))}")
    if view.phase not in _PHASES and view.phase not in registered():  # a built-in phase, or a registered mechanism's
        known = sorted({*_PHASES, *registered()})
        out.append(f"phase: expected one of {', '.join(known)}, found {show(view.phase)}")
    elif (view.phase == Phase.OVER and view.to_move is not None) or (
        view.to_move is None and view.phase not in (Phase.OVER, Phase.DEAL)  # nobody moves at a chance step
    ):
        out.append(f"to_move: {view.to_move} in the {view.phase} phase")
    if view.to_move is None and view.chooser is not None:
        out.append(f"chooser: seat {view.chooser} decides, but nobody is to move")
    if 0 <= view.seat < players and len(view.hand) != view.hand_sizes[view.seat]:
        out.append(f"hand: {len(view.hand)} cards, but hand_sizes[{view.seat}] is {view.hand_sizes[view.seat]}")
    if view.legal and view.chooser != view.seat:
        out.append(f"legal: actions listed for seat {view.seat}, but seat {view.chooser} decides")
    return out


def make_view(state: State, seat: int) -> View:
    """Build ``seat``'s view of ``state``: what every game has, and each mechanism's own view."""
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
    out = tuple(s for s in range(rules.players) if (d.seats_out >> s) & 1)
    team = next((t for t in rules.teams if d.declarer in t), ())
    chooser = state.chooser
    return View(
        game=game.name,
        seat=seat,
        phase=str(state.phase),
        to_move=state.to_move,
        chooser=chooser,
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
        sitting_out=next((s for s in out if s != d.declarer and s in team), None),
        seats_out=out,
        scoreboard=state.match.scores,
        pot=state.match.pot,
        legal=tuple(str(a) for a in state.legal_actions()) if chooser == seat else (),
        counters=tuple((c.name, values) for c, values in zip(rules.bids.counters, state.match.counters, strict=True)),
        parts=seat_views(state, seat),
    )
