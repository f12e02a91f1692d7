"""Cards as small integers, and the rank tables compiled from a spec.

A card is an ``int``: its index in the deck (suit by suit, in the order of
``deck.suits``, each suit in the order of ``deck.ranks``, less removed
cards). A *trump key* is a suit index, or :data:`NO_TRUMP`.

For every trump key the tables hold, per card: its *effective suit* (a
promoted card belongs to the trump suit), and its *power* — an integer that
orders every card the way a trick orders them (trumps above all; within the
led suit by the plain order). The hot path only looks these up.
"""

from __future__ import annotations

from collections.abc import Iterable

from attrs import frozen

from trickrules.errors import SpecError
from trickrules.spec.model import Spec

__all__ = ["NO_TRUMP", "TRUMP_BASE", "CardTable", "TrumpTable", "bits", "compile_cards"]

#: The trump key of a deal played without trumps.
NO_TRUMP = -1
#: Every trump's power is at least this; every plain card's is below it.
TRUMP_BASE = 1000


def bits(mask: int) -> list[int]:
    """The cards in a bit mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@frozen
class TrumpTable:
    """Rank tables for one choice of trumps.

    ``order`` lists the trumps high to low; ``promoted`` maps a promoted
    card to its promotion's name; ``eff_suit[c]`` and ``power[c]`` are per
    card (see the module docstring); ``plain_orders[s]`` lists suit ``s``'s
    cards that are not trumps, high to low.
    """

    trump: int
    order: tuple[int, ...]
    promoted: tuple[tuple[int, str], ...]
    eff_suit: tuple[int, ...]
    power: tuple[int, ...]
    plain_orders: tuple[tuple[int, ...], ...]

    def is_trump(self, card: int) -> bool:
        """Whether ``card`` is a trump under this table."""
        return self.power[card] >= TRUMP_BASE


@frozen
class CardTable:
    """The deck and its rank tables, compiled from a spec."""

    codes: tuple[str, ...]
    suit_of: tuple[int, ...]
    rank_of: tuple[int, ...]
    points: tuple[int, ...]
    suit_codes: tuple[str, ...]
    suit_colours: tuple[str, ...]
    rank_codes: tuple[str, ...]
    trumps: tuple[TrumpTable, ...]
    promotion_names: tuple[str, ...]

    @property
    def size(self) -> int:
        """How many cards are in the deck."""
        return len(self.codes)

    def card(self, code: str) -> int:
        """The card with this code; ``ValueError`` naming the code if there is none."""
        try:
            return self.codes.index(code)
        except ValueError:
            raise ValueError(f"{code!r} is not a card of this deck") from None

    def suit(self, code: str) -> int:
        """The suit index of a suit code; ``ValueError`` if there is none."""
        try:
            return self.suit_codes.index(code)
        except ValueError:
            raise ValueError(f"{code!r} is not a suit of this deck") from None

    def trump_keys(self) -> tuple[int, ...]:
        """The trump choices this deck has tables for (suit indices, maybe NO_TRUMP)."""
        return tuple(t.trump for t in self.trumps)

    def table(self, trump: int) -> TrumpTable:
        """The rank tables for a trump key."""
        for t in self.trumps:
            if t.trump == trump:
                return t
        raise ValueError(f"no rank tables for trump key {trump}")

    def trump_code(self, trump: int) -> str:
        """The text form of a trump key: a suit code, or ``none``."""
        return "none" if trump == NO_TRUMP else self.suit_codes[trump]

    def format(self, cards: Iterable[int]) -> str:
        """Card codes separated by spaces."""
        return " ".join(self.codes[c] for c in cards)


def _order_for(orders: dict[str, tuple[str, ...]], suit_code: str, colour: str) -> tuple[str, tuple[str, ...]] | None:
    for key in (suit_code, colour, "default"):
        if key in orders:
            return key, orders[key]
    return None


def compile_cards(spec: Spec, where: str) -> CardTable:
    """Build the card tables of a spec, checking every cross-reference.

    ``where`` is the file name used in error messages.
    """
    deck = spec.deck
    suit_codes = tuple(s.code for s in deck.suits)
    rank_codes = tuple(r.code for r in deck.ranks)
    for label, codes in (("deck.suits", suit_codes), ("deck.ranks", rank_codes)):
        if len(set(codes)) != len(codes):
            raise SpecError(f"{where}: {label}: codes must be distinct, found {list(codes)}.")
        if not codes or any(not c or not c.isascii() or not c.isprintable() or " " in c for c in codes):
            raise SpecError(f"{where}: {label}: codes must be non-empty printable ASCII without spaces.")
    all_codes = [r + s for s in suit_codes for r in rank_codes]
    if len(set(all_codes)) != len(all_codes):
        raise SpecError(f"{where}: deck: rank code + suit code does not name every card uniquely.")
    for n, code in enumerate(deck.removed):
        if code not in all_codes:
            raise SpecError(f"{where}: deck.removed[{n}]: {code!r} is not a card of this deck.")
    for rank in deck.points:
        if rank not in rank_codes:
            raise SpecError(f"{where}: deck.points.{rank}: {rank!r} is not a rank of this deck.")
    removed = set(deck.removed)
    cards = [
        (s, r)
        for s in range(len(suit_codes))
        for r in range(len(rank_codes))
        if rank_codes[r] + suit_codes[s] not in removed
    ]
    codes = tuple(rank_codes[r] + suit_codes[s] for s, r in cards)
    suit_of = tuple(s for s, _ in cards)
    rank_of = tuple(r for _, r in cards)
    points = tuple(deck.points.get(rank_codes[r], 0) for _, r in cards)
    index = {c: n for n, c in enumerate(codes)}
    colours = tuple(s.colour for s in deck.suits)

    def resolve_rank(suit: int, rank: str, path: str) -> int:
        code = rank + suit_codes[suit]
        if code not in index:
            raise SpecError(f"{where}: {path}: {rank!r} is not a rank in suit {suit_codes[suit]!r}.")
        return index[code]

    promos = spec.trump.promotions
    places = sorted(p.place for p in promos)
    if places != list(range(1, len(promos) + 1)):
        raise SpecError(f"{where}: trump.promotions: places must be 1, 2, 3, ... without gaps, found {places}.")
    fixed: dict[int, str] = {}
    for n, p in enumerate(promos):
        path = f"trump.promotions[{n}]"
        if (p.card is None) == (p.rank is None):
            raise SpecError(f"{where}: {path}: give exactly one of 'card' or 'rank'.")
        if p.card is not None:
            if p.card not in index:
                raise SpecError(f"{where}: {path}.card: {p.card!r} is not a card of this deck.")
            fixed[index[p.card]] = p.name
        else:
            assert p.rank is not None
            for key, rank in p.rank.items():
                if key not in colours and key not in suit_codes:
                    raise SpecError(f"{where}: {path}.rank.{key}: not a colour or suit code of this deck.")
                if rank not in rank_codes:
                    raise SpecError(f"{where}: {path}.rank.{key}: {rank!r} is not a rank of this deck.")
    plain_spec = dict(spec.ranks.plain)
    trump_spec = dict(spec.ranks.trump)

    plain_orders: list[tuple[int, ...]] = []
    for s, code in enumerate(suit_codes):
        found = _order_for(plain_spec, code, colours[s])
        if found is None:
            raise SpecError(f"{where}: ranks.plain: no order for suit {code!r} (by code, colour or 'default').")
        key, ranks = found
        order = tuple(resolve_rank(s, r, f"ranks.plain.{key}") for r in ranks)
        expected = {c for c in range(len(codes)) if suit_of[c] == s and c not in fixed}
        if len(set(order)) != len(order) or set(order) != expected:
            missing = sorted(codes[c] for c in expected - set(order))
            extra = sorted({codes[c] for c in set(order) - expected} | {codes[c] for c in order if order.count(c) > 1})
            raise SpecError(
                f"{where}: ranks.plain.{key}: the order for suit {code!r} must list each of its cards once "
                f"(cards that are always trumps excepted); missing {missing}, unexpected or repeated {extra}."
            )
        plain_orders.append(order)

    trump_keys: list[int] = [] if spec.trump.chosen_by == "none" else list(range(len(suit_codes)))
    if spec.trump.allow_none or spec.trump.chosen_by == "none":
        trump_keys.append(NO_TRUMP)
    if fixed and NO_TRUMP in trump_keys:
        raise SpecError(f"{where}: trump.allow_none: cards promoted whatever the trump suit need a trump suit.")

    tables: list[TrumpTable] = []
    for t in trump_keys:
        promoted: dict[int, str] = {}
        top: list[int] = []
        for p in sorted(promos, key=lambda p: p.place):
            if p.card is not None:
                card = index[p.card]
            else:
                assert p.rank is not None
                found_rank = p.rank.get(suit_codes[t]) or p.rank.get(colours[t])
                if found_rank is None:
                    raise SpecError(
                        f"{where}: trump.promotions '{p.name}': no rank given for trump suit {suit_codes[t]!r}."
                    )
                card = resolve_rank(t, found_rank, f"trump.promotions '{p.name}'")
            if card in promoted:
                raise SpecError(f"{where}: trump.promotions: {codes[card]} is promoted twice.")
            promoted[card] = p.name
            top.append(card)
        rest: tuple[int, ...] = ()
        if t != NO_TRUMP:
            found = _order_for(trump_spec, suit_codes[t], colours[t])
            if found is None:
                rest = tuple(c for c in plain_orders[t] if c not in promoted)
            else:
                key, ranks = found
                rest = tuple(resolve_rank(t, r, f"ranks.trump.{key}") for r in ranks)
                expected = {c for c in range(len(codes)) if suit_of[c] == t and c not in promoted}
                if len(set(rest)) != len(rest) or set(rest) != expected:
                    raise SpecError(
                        f"{where}: ranks.trump.{key}: must list each card of the trump suit "
                        f"{suit_codes[t]!r} once, promoted cards excepted."
                    )
        order = (*top, *rest)
        eff = [suit_of[c] for c in range(len(codes))]
        power = [0] * len(codes)
        for pos, c in enumerate(order):
            eff[c] = t
            power[c] = TRUMP_BASE + len(order) - pos
        plains: list[tuple[int, ...]] = []
        for s in range(len(suit_codes)):
            plain = tuple(c for c in plain_orders[s] if c not in promoted and (s != t))
            plains.append(plain)
            for pos, c in enumerate(plain):
                power[c] = 1 + len(plain) - pos
        tables.append(TrumpTable(t, order, tuple(promoted.items()), tuple(eff), tuple(power), tuple(plains)))

    return CardTable(
        codes=codes,
        suit_of=suit_of,
        rank_of=rank_of,
        points=points,
        suit_codes=suit_codes,
        suit_colours=colours,
        rank_codes=rank_codes,
        trumps=tuple(tables),
        promotion_names=tuple(p.name for p in sorted(promos, key=lambda p: p.place)),
    )
