"""Pictures of cards, hands, tricks and tables, as SVG text (standard library only).

In the manner of python-chess's ``chess.svg``: every function returns the
text of one ``<svg>`` element, deterministic byte for byte, valid XML. The
module is a shared base like :mod:`trickrules.errors`: it imports no layer of
the library and draws from plain data that the caller passes in — card codes,
how each suit looks (:class:`Deck`), and a :class:`Table` of hands, the trick
and the scores. ``State._repr_svg_`` and ``View._repr_svg_`` build those from
a game, and notebooks show them.

>>> from trickrules import svg
>>> deck = svg.Deck.of(["KS", "7H"], [svg.Suit("S", "♠", "black"), svg.Suit("H", "♥", "red")])
>>> picture = svg.hand(["KS", "7H"], deck)
>>> picture.startswith("<svg") and 'data-card="7H"' in picture
True

A hidden hand is drawn as card backs with a count, and its cards' codes
never appear in the text.

Whoever gives a value, it reaches the markup only as escaped text or as a
value checked here: an ink must be a colour (a colour word such as ``red``,
or ``#rgb``, ``#rgba``, ``#rrggbb``, ``#rrggbbaa``), counts, seats and
totals must be integers, and anything else is an
:class:`~trickrules.errors.ArgumentError`.

>>> svg.Face("7H", "7", "♥", ink='red" onmouseover="alert(3)')
Traceback (most recent call last):
    ...
trickrules.errors.ArgumentError: Face.ink: expected a colour (red, #rgb, #rrggbb...), found 'red" onmouseover="alert(3)'
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from typing import Any, Protocol
from xml.sax.saxutils import escape, quoteattr

from attrs import Attribute, field, frozen

from trickrules.errors import ArgumentError, shown

__all__ = [
    "CARD_HEIGHT",
    "CARD_WIDTH",
    "COLOURS",
    "CSS",
    "MAX_SEATS",
    "TABLE_HEIGHT",
    "TABLE_WIDTH",
    "Deck",
    "Face",
    "Suit",
    "SuitLike",
    "Table",
    "card",
    "card_back",
    "hand",
    "table",
    "trick",
]

#: The size of a card in a picture, in SVG user units (pixels at scale 1).
CARD_WIDTH = 44
CARD_HEIGHT = 64
#: Ink for the suit colours a spec names; any other colour word is drawn in ``_INK``.
COLOURS = {
    "black": "#1f1f1f",
    "red": "#c62828",
    "blue": "#1565c0",
    "green": "#2e7d32",
    "yellow": "#a67c00",
    "gold": "#a67c00",
    "orange": "#d84315",
    "purple": "#6a1b9a",
}
_INK = "#1f1f1f"
#: A colour the pictures accept: a colour word (``red``, ``DarkSlateGray``), or ``#`` and 3, 4, 6 or 8 hex digits.
_COLOUR = re.compile(r"[A-Za-z]{1,40}|#(?:[0-9A-Fa-f]{3,4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})")
_FELT = "#2f6b3f"
_HIGHLIGHT = "#ffca28"
#: Horizontal step between overlapping cards: face up (rank and suit in the corner show), and backs.
_STEP_UP = 24
_STEP_BACK = 10
#: At most this many seats are drawn round a table.
MAX_SEATS = 12
# Characters XML 1.0 does not allow in a document, even escaped.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_FONT = "font-family:'DejaVu Sans',Arial,sans-serif"
#: The style sheet every picture carries; a page holding many pictures may give it once instead (``styled``).
CSS = (
    f".c text,.l,.n,.i{{{_FONT}}}.c rect{{fill:#fff;stroke:#555;stroke-width:1}}"
    f".w rect{{stroke:{_HIGHLIGHT};stroke-width:3}}.back{{fill:#3949ab;stroke:#fff;stroke-width:2}}"
    ".r{font-size:13px;font-weight:bold}.s{font-size:12px}.b{font-size:24px;text-anchor:end}"
    ".l{font-size:13px;font-weight:bold;fill:#fff;text-anchor:middle}.m{fill:#ffca28}"
    ".n{font-size:11px;fill:#e8f5e9;text-anchor:middle}.i{font-size:13px;fill:#fff}"
)


class SuitLike(Protocol):
    """Anything that says how a suit looks: a :class:`Suit`, or a spec's ``SuitSpec``."""

    @property
    def code(self) -> str:
        """The suit's code, the end of its cards' codes (``H`` in ``7H``)."""

    @property
    def symbol(self) -> str:
        """The suit's symbol (``♥``); empty to draw the code instead."""

    @property
    def colour(self) -> str:
        """The suit's colour word (``red``, ``black``, ...)."""


def _colour(value: object, what: str) -> str:
    """``value`` checked to be a colour that can go into an attribute as it is."""
    if not isinstance(value, str) or not _COLOUR.fullmatch(value):
        raise ArgumentError(f"{what}: expected a colour (red, #rgb, #rrggbb...), found {shown(value)}")
    return value


def _check_text(owner: object, attribute: Attribute[str], value: object) -> None:
    if not isinstance(value, str):
        raise ArgumentError(f"{type(owner).__name__}.{attribute.name}: expected text, found {shown(value)}")


def _check_colour(owner: object, attribute: Attribute[str], value: object) -> None:
    _colour(value, f"{type(owner).__name__}.{attribute.name}")


@frozen
class Suit:
    """How one suit looks: its code, its symbol (``""``: the code is drawn) and its colour word."""

    code: str
    symbol: str = ""
    colour: str = "black"


@frozen
class Face:
    """How one card is drawn: its code, the rank and suit symbol printed on it, and the ink (a CSS colour)."""

    code: str = field(validator=_check_text)
    rank: str = field(validator=_check_text)
    symbol: str = field(validator=_check_text)
    ink: str = field(default=_INK, validator=_check_colour)


def _face_of(code: str, suits: Sequence[SuitLike]) -> Face:
    """The face of ``code``: its rank is the code less the longest suit code it ends with."""
    best: SuitLike | None = None
    for suit in suits:
        if suit.code and code.endswith(suit.code) and (best is None or len(suit.code) > len(best.code)):
            best = suit
    if best is None:
        return Face(code, code, "")
    ink = COLOURS.get(best.colour.lower(), _INK)
    return Face(code, code[: len(code) - len(best.code)], best.symbol or best.code, ink)


def _faces(value: Iterable[Face]) -> tuple[Face, ...]:
    out = tuple(value)
    for face in out:
        if not isinstance(face, Face):
            raise ArgumentError(f"Deck.faces: expected Face values, found {shown(face)}")
    return out


def _looks(value: Iterable[tuple[str, str, str]]) -> tuple[tuple[str, str, str], ...]:
    out = []
    for look in value:
        if not (isinstance(look, tuple | list) and len(look) == 3 and all(isinstance(x, str) for x in look[:2])):
            raise ArgumentError(f"Deck.suits: expected (code, symbol, ink) triples of text, found {shown(look)}")
        out.append((look[0], look[1], _colour(look[2], "Deck.suits: the ink")))
    return tuple(out)


@frozen
class Deck:
    """How the cards of a deck look, and the suit symbols, by code.

    A code the deck does not know is drawn as its code, in black ink.
    """

    faces: tuple[Face, ...] = field(converter=_faces, default=())
    #: (suit code, symbol, ink) for the trump suit named in a table's notes.
    suits: tuple[tuple[str, str, str], ...] = field(converter=_looks, default=())

    @classmethod
    def of(cls, codes: Iterable[str], suits: Iterable[SuitLike]) -> Deck:
        """The deck of cards ``codes``, each code a rank followed by the code of one of ``suits``."""
        suits = tuple(suits)
        looks = tuple((s.code, s.symbol or s.code, COLOURS.get(s.colour.lower(), _INK)) for s in suits)
        return cls(tuple(_face_of(c, suits) for c in codes), looks)

    def face(self, code: str) -> Face:
        """The face of the card ``code`` (its code alone if the deck has no such card)."""
        for face in self.faces:
            if face.code == code:
                return face
        return Face(code, code, "")

    def suit_text(self, code: str) -> tuple[str, str]:
        """A suit code's symbol and ink (the code itself, black, if the deck does not know it)."""
        for suit, symbol, ink in self.suits:
            if suit == code:
                return symbol, ink
        return code, _INK


def _text(value: object) -> str:
    """``value`` as escaped XML text."""
    return escape(_NOT_XML.sub("", str(value)))


def _attr(value: object) -> str:
    """``value`` as a quoted, escaped XML attribute value."""
    return quoteattr(_NOT_XML.sub("", str(value)))


def _svg(width: int, height: int, body: str, label: str, styled: bool = True) -> str:
    """A complete ``<svg>`` element of the given size around ``body`` (with the style sheet if ``styled``)."""
    style = f"<style>{CSS}</style>" if styled else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label={_attr(label)}>{style}{body}</svg>'
    )


def _card_g(face: Face, x: float, y: float, *, marked: bool = False) -> str:
    """One face-up card with its top-left corner at (x, y); ``marked`` outlines it (a trick's winner)."""
    rank_size = ' style="font-size:10px"' if len(face.rank) > 2 else ""
    return (
        f'<g class="{"c w" if marked else "c"}" data-card={_attr(face.code)} '
        f'transform="translate({round(x)},{round(y)})" fill={_attr(face.ink)}>'
        f'<rect width="{CARD_WIDTH}" height="{CARD_HEIGHT}" rx="4"/>'
        f'<text class="r" x="3" y="14"{rank_size}>{_text(face.rank)}</text>'
        f'<text class="s" x="3" y="27">{_text(face.symbol)}</text>'
        f'<text class="b" x="{CARD_WIDTH - 4}" y="{CARD_HEIGHT - 8}">{_text(face.symbol)}</text></g>'
    )


def _back_g(x: float, y: float) -> str:
    """One card face down with its top-left corner at (x, y)."""
    return f'<rect class="back" x="{round(x)}" y="{round(y)}" width="{CARD_WIDTH}" height="{CARD_HEIGHT}" rx="4"/>'


def _row_width(count: int, step: int) -> int:
    return CARD_WIDTH + step * (count - 1) if count else 0


def _codes(codes: object, what: str) -> tuple[str, ...]:
    """``codes`` checked to be a sequence of card codes (strings)."""
    if isinstance(codes, str) or not isinstance(codes, Iterable):
        raise ArgumentError(f"{what} must be a sequence of card codes, found {shown(codes)}")
    out = tuple(codes)
    for code in out:
        if not isinstance(code, str):
            raise ArgumentError(f"{what} must hold card codes (strings), found {shown(code)}")
    return out


def card(code: str, deck: Deck | None = None) -> str:
    """One card, face up, as SVG."""
    (code,) = _codes([code], "card")
    face = (deck or Deck()).face(code)
    return _svg(CARD_WIDTH + 4, CARD_HEIGHT + 4, _card_g(face, 2, 2), f"card {code}")


def card_back() -> str:
    """One card, face down, as SVG."""
    return _svg(CARD_WIDTH + 4, CARD_HEIGHT + 4, _back_g(2, 2), "a card face down")


def hand(codes: Sequence[str], deck: Deck | None = None, *, overlap: bool = False) -> str:
    """A hand of cards face up, in the order given, as SVG (``overlap``: fanned, only the corners showing)."""
    cards = _codes(codes, "hand")
    deck = deck or Deck()
    step = _STEP_UP if overlap else CARD_WIDTH + 4
    body = "".join(_card_g(deck.face(c), 2 + step * n, 2) for n, c in enumerate(cards))
    return _svg(_row_width(len(cards), step) + 4, CARD_HEIGHT + 4, body, f"a hand of {len(cards)} cards")


def trick(
    plays: Sequence[tuple[int, str]],
    deck: Deck | None = None,
    *,
    winner: int | None = None,
    names: Sequence[str] = (),
) -> str:
    """A trick as SVG: each (seat, card code) in play order, the seat's name under its card.

    ``winner`` outlines the card of the seat that won it; ``names`` names the
    seats (default ``seat N``).
    """
    deck = deck or Deck()
    body = []
    for n, (seat, code) in enumerate(plays):
        (code,) = _codes([code], "trick")
        x = 2 + (CARD_WIDTH + 16) * n
        body.append(_card_g(deck.face(code), x + 8, 2, marked=seat == winner))
        name = names[seat] if seat < len(names) else f"seat {seat}"
        body.append(f'<text class="n" style="fill:{_INK}" x="{round(x + 30)}" y="{CARD_HEIGHT + 18}">')
        body.append(f"{_text(name)}</text>")
    width = max(4, (CARD_WIDTH + 16) * len(plays) + 4)
    return _svg(width, CARD_HEIGHT + 24, "".join(body), f"a trick of {len(plays)} cards")


def _hands(value: Iterable[Iterable[str] | None]) -> tuple[tuple[str, ...] | None, ...]:
    return tuple(None if h is None else _codes(h, "a hand") for h in value)


def _plays(value: Iterable[tuple[int, str]]) -> tuple[tuple[int, str], ...]:
    out = tuple((seat, code) for seat, code in value)
    for _, code in out:
        if not isinstance(code, str):
            raise ArgumentError(f"Table.trick: expected (seat, card code) pairs, found the code {shown(code)}")
    return out


def _texts(value: Iterable[object]) -> tuple[str, ...]:
    return tuple(str(v) for v in value)


def _ints(value: Iterable[int]) -> tuple[int, ...]:
    return tuple(value)


def _check_ints(owner: object, attribute: Attribute[tuple[int, ...]], value: tuple[object, ...]) -> None:
    for n in value:
        if not isinstance(n, int) or n < 0:
            raise ArgumentError(f"Table.{attribute.name}: expected whole numbers of 0 or more, found {shown(n)}")


def _check_int(owner: object, attribute: Attribute[Any], value: object) -> None:
    if value is not None and not isinstance(value, int):
        raise ArgumentError(f"Table.{attribute.name}: expected a whole number, found {shown(value)}")


@frozen
class Table:
    """What a picture of the table shows, as plain data.

    ``hands`` gives each seat's cards face up, or ``None`` for a hand drawn
    face down (``counts`` says how many cards it has). ``seat`` is the seat
    the table is seen from, drawn at the bottom; ``None`` draws it from above
    with seat 0 at the bottom. ``clockwise`` says which way the next seat
    (``seat + 1``) sits. ``trick`` is the trick on the table as (seat, card)
    pairs, and ``winner`` the seat that won it once it is complete. The other
    fields are shown in the seats' labels and in the notes at the top left.
    """

    deck: Deck
    hands: tuple[tuple[str, ...] | None, ...] = field(converter=_hands)
    counts: tuple[int, ...] = field(converter=_ints, default=(), validator=_check_ints)
    trick: tuple[tuple[int, str], ...] = field(converter=_plays, default=())
    winner: int | None = None
    seat: int | None = None
    clockwise: bool = False
    names: tuple[str, ...] = field(converter=_texts, default=())
    scores: tuple[str, ...] = field(converter=_texts, default=())
    tricks: tuple[int, ...] = field(converter=_ints, default=(), validator=_check_ints)
    dealer: int | None = None
    to_move: int | None = None
    declarer: int | None = None
    partner: int | None = None
    out: tuple[int, ...] = field(converter=_ints, default=(), validator=_check_ints)
    title: str = ""
    deal: int | None = field(default=None, validator=_check_int)
    phase: str = ""
    contract: str | None = None
    trump: str | None = None
    called: str = ""
    turned: str = ""
    pot: int = field(default=0, validator=_check_int)

    def __attrs_post_init__(self) -> None:
        n = len(self.hands)
        if not 1 <= n <= MAX_SEATS:
            raise ArgumentError(f"a table has 1 to {MAX_SEATS} seats, found {n} hands")
        for name in ("counts", "names", "scores", "tricks"):
            values = getattr(self, name)
            if values and len(values) != n:
                raise ArgumentError(f"Table.{name}: expected one value per seat ({n}), found {len(values)}")
        seats = [("seat", self.seat), ("winner", self.winner), ("dealer", self.dealer), ("to_move", self.to_move)]
        seats += [("declarer", self.declarer), ("partner", self.partner)]
        seats += [("trick", s) for s, _ in self.trick] + [("out", s) for s in self.out]
        for name, value in seats:
            if value is not None and not (isinstance(value, int) and 0 <= value < n):
                raise ArgumentError(f"Table.{name}: expected a seat from 0 to {n - 1}, found {shown(value)}")

    def count(self, seat: int) -> int:
        """How many cards ``seat`` holds."""
        if self.counts:
            return self.counts[seat]
        held = self.hands[seat]
        return len(held) if held is not None else 0


#: The size of a table picture.
TABLE_WIDTH = 960
TABLE_HEIGHT = 660
_CX, _CY = TABLE_WIDTH // 2, 330
_RX, _RY = 300, 250
_TRICK_REACH = 78


def _place(t: Table, seat: int) -> tuple[float, float, float]:
    """Where a seat sits: the centre of its hand, and its angle (radians, screen coordinates)."""
    n = len(t.hands)
    bottom = t.seat if t.seat is not None else 0
    k = (seat - bottom) % n
    turn = 1 if t.clockwise else -1  # on screen, a growing angle goes clockwise (y points down)
    angle = math.pi / 2 + turn * 2 * math.pi * k / n
    return _CX + _RX * math.cos(angle), _CY + _RY * math.sin(angle), angle


def _roles(t: Table, seat: int) -> list[str]:
    roles = []
    if seat == t.dealer:
        roles.append("dealer")
    if seat == t.declarer:
        roles.append("declarer")
    if seat == t.partner and seat != t.declarer:
        roles.append("partner")
    if seat in t.out:
        roles.append("sits out")
    if t.tricks:
        roles.append(f"{t.tricks[seat]} trick{'' if t.tricks[seat] == 1 else 's'}")
    if t.scores:
        roles.append(f"score {t.scores[seat]}")
    return roles


def _seat_g(t: Table, seat: int) -> str:
    """One seat: its hand (face up or backs) and its label above it."""
    x, y, _ = _place(t, seat)
    held = t.hands[seat]
    count = t.count(seat)
    step = _STEP_UP if held is not None else _STEP_BACK
    width = _row_width(len(held) if held is not None else count, step)
    left, top = x - width / 2, y - CARD_HEIGHT / 2
    parts = [f'<g class="seat" data-seat={_attr(seat)} data-count={_attr(count)}>']
    if held is not None:
        parts += [_card_g(t.deck.face(c), left + step * n, top) for n, c in enumerate(held)]
    else:
        parts += [_back_g(left + step * n, top) for n in range(count)]
    name = t.names[seat] if t.names else f"Seat {seat}"
    if seat == t.seat:
        name += " (you)"
    moving = seat == t.to_move
    hidden = f" · {count} card{'' if count == 1 else 's'}"
    label = ("▶ " if moving else "") + name + ("" if held is not None else hidden)
    parts.append(f'<text class="{"l m" if moving else "l"}" x="{round(x)}" y="{round(top - 22)}">{_text(label)}</text>')
    roles = " · ".join(_roles(t, seat))
    parts.append(f'<text class="n" x="{round(x)}" y="{round(top - 7)}">{_text(roles)}</text>')
    parts.append("</g>")
    return "".join(parts)


def _trick_g(t: Table) -> str:
    """The trick in the middle: each card pushed toward the seat that played it."""
    parts = ['<g class="trick">']
    for seat, code in t.trick:
        _, _, angle = _place(t, seat)
        x = _CX + _TRICK_REACH * 1.25 * math.cos(angle) - CARD_WIDTH / 2
        y = _CY + _TRICK_REACH * math.sin(angle) - CARD_HEIGHT / 2
        parts.append(_card_g(t.deck.face(code), x, y, marked=seat == t.winner))
    parts.append("</g>")
    return "".join(parts)


def _notes(t: Table) -> list[tuple[str, str]]:
    """The notes at the top left, each (text, ink)."""
    out = []
    if t.title:
        out.append((t.title, "#fff"))
    head = [f"Deal {t.deal + 1}" if t.deal is not None else "", t.phase]
    if any(head):
        out.append((" · ".join(h for h in head if h), "#fff"))
    if t.contract:
        by = f" by seat {t.declarer}" if t.declarer is not None else ""
        out.append((f"Contract: {t.contract}{by}", "#fff"))
    if t.trump:
        symbol, ink = ("no trumps", "#fff") if t.trump == "none" else t.deck.suit_text(t.trump)
        out.append((f"Trumps: {symbol}", "#fff" if ink == _INK else "#ff8a80"))
    for label, code in (("Called", t.called), ("Turned", t.turned)):
        if code:
            face = t.deck.face(code)
            out.append((f"{label}: {face.rank}{face.symbol}", "#fff"))
    if t.pot:
        out.append((f"Pot: {t.pot}", "#fff"))
    return out


def table(t: Table, *, styled: bool = True) -> str:
    """The table as SVG: every seat's hand round the felt, the trick in the middle, notes at the top left.

    Seats whose hand is ``None`` show card backs and a count; nothing of
    those cards is in the text. ``styled=False`` leaves out the style sheet,
    for a page that gives :data:`CSS` once for many pictures.
    """
    parts = [f'<rect width="{TABLE_WIDTH}" height="{TABLE_HEIGHT}" rx="18" fill="{_FELT}"/>']
    parts += [_seat_g(t, s) for s in range(len(t.hands))]
    parts.append(_trick_g(t))
    for n, (line, ink) in enumerate(_notes(t)):
        parts.append(f'<text class="i" x="14" y="{24 + 18 * n}" style="fill:{ink}">{_text(line)}</text>')
    seen = "from above" if t.seat is None else f"from seat {t.seat}"
    return _svg(TABLE_WIDTH, TABLE_HEIGHT, "".join(parts), f"the table {seen}", styled)
