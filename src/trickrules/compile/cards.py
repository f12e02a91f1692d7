"""Cards as small integers, and the rank tables compiled from a spec.

A card is an ``int``: its index in the deck (suit by suit, in the order of
``deck.suits``, each suit in the order of ``deck.ranks``, less removed
cards). A *trump key* is a suit index, :data:`NO_TRUMP`, or, for the
``k``-th of ``trump.sets`` (a choice of trumps other than a suit, fixed by a
contract), the number of suits plus ``k``: under such a key the trumps'
effective suit is the key itself, a suit of their own.

For every trump key the tables hold, per card: its *effective suit* (a
promoted card belongs to the trump suit), and its *power* — an integer that
orders every card the way a trick orders them (trumps above all; within the
led suit by the plain order). The hot path only looks these up.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping

from attrs import frozen

from trickrules.errors import SpecError
from trickrules.spec.limits import MAX_CARDS
from trickrules.spec.model import DeckSpec, PromotionSpec, Spec, TrumpSetSpec, TrumpSpec
from trickrules.spec.sealed import Sealed

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
class TrumpTable(Sealed):
    """Rank tables for one choice of trumps.

    ``order`` lists the trumps high to low; ``promoted`` maps a promoted
    card to its promotion's name; ``eff_suit[c]`` and ``power[c]`` are per
    card (see the module docstring); ``plain_orders[s]`` lists effective suit
    ``s``'s cards that are not trumps, high to low (none for a trump set's).
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
class CardTable(Sealed):
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
    #: The names of ``trump.sets``: the ``k``-th is trump key ``len(suit_codes) + k``.
    set_names: tuple[str, ...] = ()

    @property
    def suit_count(self) -> int:
        """How many effective suits a card may have: the deck's suits, and one per trump set."""
        return len(self.suit_codes) + len(self.set_names)

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
        """The text form of a trump key: a suit code, a trump set's name, or ``none``."""
        if trump == NO_TRUMP:
            return "none"
        n = len(self.suit_codes)
        return self.suit_codes[trump] if trump < n else self.set_names[trump - n]

    def trump_key(self, code: str) -> int:
        """The trump key of a text form (:meth:`trump_code`); ``ValueError`` naming it if there is none."""
        if code == "none":
            return NO_TRUMP
        if code in self.suit_codes:
            return self.suit_codes.index(code)
        if code in self.set_names:
            return len(self.suit_codes) + self.set_names.index(code)
        raise ValueError(f"{code!r} is not a suit, a trump set or 'none' of this deck")

    def format(self, cards: Iterable[int]) -> str:
        """Card codes separated by spaces."""
        return " ".join(self.codes[c] for c in cards)


def _order_for(orders: dict[str, tuple[str, ...]], suit_code: str, colour: str) -> tuple[str, tuple[str, ...]] | None:
    """The order a suit takes from ``orders``: by its code, else its colour, else ``default``.

    Returns the key that matched and the order, or None if no key matches.
    """
    for key in (suit_code, colour, "default"):
        if key in orders:
            return key, orders[key]
    return None


@frozen
class _Deck(Sealed):
    """The deck's cards while the tables are being built, with ``where`` for error messages."""

    where: str
    suit_codes: tuple[str, ...]
    colours: tuple[str, ...]
    rank_codes: tuple[str, ...]
    codes: tuple[str, ...]
    suit_of: tuple[int, ...]
    rank_of: tuple[int, ...]
    points: tuple[int, ...]
    index: Mapping[str, int]

    def resolve_rank(self, suit: int, rank: str, path: str) -> int:
        """The card of ``rank`` in ``suit``; :class:`SpecError` at ``path`` if the deck has none."""
        code = rank + self.suit_codes[suit]
        if code not in self.index:
            raise SpecError(f"{self.where}: {path}: {rank!r} is not a rank in suit {self.suit_codes[suit]!r}.")
        return self.index[code]

    def cards_of_suit(self, suit: int, excepted: Container[int]) -> set[int]:
        """The cards printed in ``suit``, less those in ``excepted``."""
        return {c for c in range(len(self.codes)) if self.suit_of[c] == suit and c not in excepted}


def _check_codes(label: str, codes: tuple[str, ...], where: str) -> None:
    """Check that the suit or rank codes under ``label`` are distinct, non-empty printable ASCII without spaces."""
    if len(set(codes)) != len(codes):
        raise SpecError(f"{where}: {label}: codes must be distinct, found {list(codes)}.")
    if not codes or any(not c or not c.isascii() or not c.isprintable() or " " in c for c in codes):
        raise SpecError(f"{where}: {label}: codes must be non-empty printable ASCII without spaces.")


def _check_deck(deck: DeckSpec, where: str) -> None:
    """Check the deck section: its codes, unique card codes, and what ``removed`` and ``points`` name."""
    suit_codes = tuple(s.code for s in deck.suits)
    rank_codes = tuple(r.code for r in deck.ranks)
    for label, codes in (("deck.suits", suit_codes), ("deck.ranks", rank_codes)):
        _check_codes(label, codes, where)
    all_codes = {r + s for s in suit_codes for r in rank_codes}
    if len(all_codes) != len(suit_codes) * len(rank_codes):
        raise SpecError(f"{where}: deck: rank code + suit code does not name every card uniquely.")
    for n, code in enumerate(deck.removed):
        if code not in all_codes:
            raise SpecError(f"{where}: deck.removed[{n}]: {code!r} is not a card of this deck.")
    removed = set(deck.removed)
    size = len(all_codes - removed)
    if size > MAX_CARDS:
        raise SpecError(
            f"{where}: deck: {len(suit_codes)} suits of {len(rank_codes)} ranks, less {len(removed)} removed, "
            f"make {size} cards; at most {MAX_CARDS} are allowed."
        )
    for rank in deck.points:
        if rank not in rank_codes:
            raise SpecError(f"{where}: deck.points.{rank}: {rank!r} is not a rank of this deck.")
    for code in deck.card_points:
        if code not in all_codes or code in removed:
            raise SpecError(f"{where}: deck.card_points.{code}: {code!r} is not a card of this deck.")
    for suit in deck.suit_points:
        if suit not in suit_codes:
            raise SpecError(f"{where}: deck.suit_points.{suit}: {suit!r} is not a suit of this deck.")


def _card_points(deck: DeckSpec, rank: str, suit: str) -> int:
    """A card's points: from ``card_points``, else ``suit_points``, else the rank's ``points``, else 0."""
    code = rank + suit
    if code in deck.card_points:
        return deck.card_points[code]
    if suit in deck.suit_points:
        return deck.suit_points[suit]
    return deck.points.get(rank, 0)


def _build_deck(deck: DeckSpec, where: str) -> _Deck:
    """Check the deck section, then number its cards suit by suit, less removed cards."""
    _check_deck(deck, where)
    suit_codes = tuple(s.code for s in deck.suits)
    rank_codes = tuple(r.code for r in deck.ranks)
    removed = set(deck.removed)
    cards = [
        (s, r)
        for s in range(len(suit_codes))
        for r in range(len(rank_codes))
        if rank_codes[r] + suit_codes[s] not in removed
    ]
    codes = tuple(rank_codes[r] + suit_codes[s] for s, r in cards)
    return _Deck(
        where=where,
        suit_codes=suit_codes,
        colours=tuple(s.colour for s in deck.suits),
        rank_codes=rank_codes,
        codes=codes,
        suit_of=tuple(s for s, _ in cards),
        rank_of=tuple(r for _, r in cards),
        points=tuple(_card_points(deck, rank_codes[r], suit_codes[s]) for s, r in cards),
        index={c: n for n, c in enumerate(codes)},
    )


def _check_promotions(promos: tuple[PromotionSpec, ...], deck: _Deck) -> dict[int, str]:
    """Check the promotions (places without gaps; a known card, or known colours/suits and ranks).

    Returns the fixed promotions (trumps whatever the trump suit): card to promotion name.
    """
    where = deck.where
    places = sorted(p.place for p in promos)
    if places != list(range(1, len(promos) + 1)):
        raise SpecError(f"{where}: trump.promotions: places must be 1, 2, 3, ... without gaps, found {places}.")
    fixed: dict[int, str] = {}
    for n, p in enumerate(promos):
        path = f"trump.promotions[{n}]"
        if (p.card is None) == (p.rank is None):
            raise SpecError(f"{where}: {path}: give exactly one of 'card' or 'rank'.")
        if p.card is not None:
            if p.card not in deck.index:
                raise SpecError(f"{where}: {path}.card: {p.card!r} is not a card of this deck.")
            if p.suit != "trump":
                raise SpecError(f"{where}: {path}.suit: only a 'rank' promotion can take its card from another suit.")
            fixed[deck.index[p.card]] = p.name
        else:
            assert p.rank is not None
            for key, rank in p.rank.items():
                if key not in deck.colours and key not in deck.suit_codes:
                    raise SpecError(f"{where}: {path}.rank.{key}: not a colour or suit code of this deck.")
                if rank not in deck.rank_codes:
                    raise SpecError(f"{where}: {path}.rank.{key}: {rank!r} is not a rank of this deck.")
    return fixed


def _plain_orders(
    plain_spec: dict[str, tuple[str, ...]], deck: _Deck, fixed: Container[int], label: str = "ranks.plain"
) -> list[tuple[int, ...]]:
    """Each suit's plain order, high to low: it must list the suit's cards once, fixed promotions excepted.

    ``label`` is the key path the orders came from, for error messages.
    """
    plain_orders: list[tuple[int, ...]] = []
    for s, code in enumerate(deck.suit_codes):
        found = _order_for(plain_spec, code, deck.colours[s])
        if found is None:
            raise SpecError(f"{deck.where}: {label}: no order for suit {code!r} (by code, colour or 'default').")
        key, ranks = found
        order = tuple(deck.resolve_rank(s, r, f"{label}.{key}") for r in ranks)
        expected = deck.cards_of_suit(s, fixed)
        if len(set(order)) != len(order) or set(order) != expected:
            codes = deck.codes
            missing = sorted(codes[c] for c in expected - set(order))
            extra = sorted({codes[c] for c in set(order) - expected} | {codes[c] for c in order if order.count(c) > 1})
            raise SpecError(
                f"{deck.where}: {label}.{key}: the order for suit {code!r} must list each of its cards once "
                f"(cards that are always trumps excepted); missing {missing}, unexpected or repeated {extra}."
            )
        plain_orders.append(order)
    return plain_orders


def _trump_keys(trump: TrumpSpec, n_suits: int, fixed: Mapping[int, str], where: str) -> list[int]:
    """The trump keys to build tables for; fixed promotions rule out playing without trumps."""
    trump_keys: list[int] = [] if trump.chosen_by == "none" else list(range(n_suits))
    if trump.allow_none or trump.chosen_by == "none":
        trump_keys.append(NO_TRUMP)
    if fixed and NO_TRUMP in trump_keys:
        raise SpecError(f"{where}: trump.allow_none: cards promoted whatever the trump suit need a trump suit.")
    return trump_keys


def _same_colour_suit(trump: int, deck: _Deck, name: str) -> int:
    """The other suit of the trump suit's colour, for a promotion with ``suit = "same_colour"``: there must be one."""
    colour = deck.colours[trump]
    others = [s for s in range(len(deck.suit_codes)) if s != trump and deck.colours[s] == colour]
    if len(others) != 1:
        raise SpecError(
            f"{deck.where}: trump.promotions '{name}'.suit: 'same_colour' needs exactly one other suit of the "
            f"colour {colour!r} of trump suit {deck.suit_codes[trump]!r}, found {len(others)}."
        )
    return others[0]


def _promoted_cards(trump: int, promos: list[PromotionSpec], deck: _Deck) -> dict[int, str]:
    """The cards promoted under ``trump``, highest place first: card to promotion name.

    A rank promotion needs a rank for the trump suit (by code or colour); no card may be promoted twice.
    """
    where = deck.where
    promoted: dict[int, str] = {}
    for p in promos:
        if p.card is not None:
            card = deck.index[p.card]
        else:
            assert p.rank is not None
            found_rank = p.rank.get(deck.suit_codes[trump]) or p.rank.get(deck.colours[trump])
            if found_rank is None:
                raise SpecError(
                    f"{where}: trump.promotions '{p.name}': no rank given for trump suit {deck.suit_codes[trump]!r}."
                )
            suit = trump if p.suit == "trump" else _same_colour_suit(trump, deck, p.name)
            card = deck.resolve_rank(suit, found_rank, f"trump.promotions '{p.name}'")
        if card in promoted:
            raise SpecError(f"{where}: trump.promotions: {deck.codes[card]} is promoted twice.")
        promoted[card] = p.name
    return promoted


def _trump_suit_order(
    trump: int,
    trump_spec: dict[str, tuple[str, ...]],
    plain_orders: list[tuple[int, ...]],
    promoted: Container[int],
    deck: _Deck,
) -> tuple[int, ...]:
    """The trump suit's own cards below the promoted ones, high to low (none without trumps).

    Taken from ``ranks.trump``, which must list each unpromoted card of the suit once,
    or else from the suit's plain order.
    """
    if trump == NO_TRUMP:
        return ()
    found = _order_for(trump_spec, deck.suit_codes[trump], deck.colours[trump])
    if found is None:
        return tuple(c for c in plain_orders[trump] if c not in promoted)
    key, ranks = found
    rest = tuple(deck.resolve_rank(trump, r, f"ranks.trump.{key}") for r in ranks)
    expected = deck.cards_of_suit(trump, promoted)
    if len(set(rest)) != len(rest) or set(rest) != expected:
        raise SpecError(
            f"{deck.where}: ranks.trump.{key}: must list each card of the trump suit "
            f"{deck.suit_codes[trump]!r} once, promoted cards excepted."
        )
    return rest


def _trump_table(
    trump: int,
    promos: list[PromotionSpec],
    trump_spec: dict[str, tuple[str, ...]],
    plain_orders: list[tuple[int, ...]],
    deck: _Deck,
    spec_sets: tuple[TrumpSetSpec, ...] = (),
) -> TrumpTable:
    """The rank tables for one trump key: trumps ranked above every plain card, each suit by its plain order."""
    promoted = _promoted_cards(trump, promos, deck)
    rest = _trump_suit_order(trump, trump_spec, plain_orders, promoted, deck)
    order = (*promoted, *rest)
    size = len(deck.codes)
    eff = [deck.suit_of[c] for c in range(size)]
    power = [0] * size
    for pos, c in enumerate(order):
        eff[c] = trump
        power[c] = TRUMP_BASE + len(order) - pos
    plains: list[tuple[int, ...]] = []
    for s in range(len(deck.suit_codes)):
        plain = tuple(c for c in plain_orders[s] if c not in promoted and (s != trump))
        plains.append(plain)
        for pos, c in enumerate(plain):
            power[c] = 1 + len(plain) - pos
    plains += [()] * len(spec_sets)  # the trump sets' effective suits hold no plain card
    return TrumpTable(trump, order, tuple(promoted.items()), tuple(eff), tuple(power), tuple(plains))


def _set_table(
    key: int, k: int, tset: TrumpSetSpec, by_place: list[PromotionSpec], spec: Spec, deck: _Deck
) -> TrumpTable:
    """The rank tables of the ``k``-th trump set: its trumps (the fixed promotions, or none) above its plain orders."""
    where = deck.where
    promoted = {deck.index[p.card]: p.name for p in by_place if p.card is not None} if tset.promotions else {}
    if tset.promotions and not promoted:
        raise SpecError(
            f"{where}: trump.sets[{k}].promotions: '{tset.name}' keeps the cards promoted whatever the trump suit, "
            "but trump.promotions has none (give a 'card' promotion, or set promotions = false)."
        )
    label = f"trump.sets[{k}].plain" if tset.plain else "ranks.plain"
    plain = _plain_orders(dict(tset.plain or spec.ranks.plain), deck, promoted, label)
    order = tuple(promoted)
    size = len(deck.codes)
    eff = [deck.suit_of[c] for c in range(size)]
    power = [0] * size
    for pos, c in enumerate(order):
        eff[c] = key
        power[c] = TRUMP_BASE + len(order) - pos
    for suit_plain in plain:
        for pos, c in enumerate(suit_plain):
            power[c] = 1 + len(suit_plain) - pos
    plain += [()] * len(spec.trump.sets)  # the trump sets' effective suits hold no plain card
    return TrumpTable(key, order, tuple(promoted.items()), tuple(eff), tuple(power), tuple(plain))


#: The most trump sets a spec may have (each has tables of its own, per card and per effective suit).
MAX_TRUMP_SETS = 16


def _check_sets(spec: Spec, deck: _Deck) -> None:
    """At most :data:`MAX_TRUMP_SETS`; their names identifiers, distinct, and neither a suit code nor ``none``."""
    names = [t.name for t in spec.trump.sets]
    if len(names) > MAX_TRUMP_SETS:
        raise SpecError(f"{deck.where}: trump.sets: {len(names)} trump sets; at most {MAX_TRUMP_SETS} are allowed.")
    for k, name in enumerate(names):
        if not name.isidentifier() or name in deck.suit_codes or name == "none" or names.count(name) > 1:
            raise SpecError(
                f"{deck.where}: trump.sets[{k}].name: {name!r} must be an identifier, distinct from the other "
                "sets, the suit codes and 'none'."
            )


def compile_cards(spec: Spec, where: str) -> CardTable:
    """Build the card tables of a spec, checking every cross-reference.

    ``where`` is the file name used in error messages. The checks run in this
    order: the deck, the promotions, the plain orders, the trump keys, then
    each trump key's promotions and trump order.
    """
    deck = _build_deck(spec.deck, where)
    promos = spec.trump.promotions
    fixed = _check_promotions(promos, deck)
    plain_orders = _plain_orders(dict(spec.ranks.plain), deck, fixed)
    trump_keys = _trump_keys(spec.trump, len(deck.suit_codes), fixed, where)
    by_place = sorted(promos, key=lambda p: p.place)
    trump_spec = dict(spec.ranks.trump)
    sets = spec.trump.sets
    tables = tuple(_trump_table(t, by_place, trump_spec, plain_orders, deck, sets) for t in trump_keys)
    _check_sets(spec, deck)
    n = len(deck.suit_codes)
    tables += tuple(_set_table(n + k, k, tset, by_place, spec, deck) for k, tset in enumerate(spec.trump.sets))
    return CardTable(
        codes=deck.codes,
        suit_of=deck.suit_of,
        rank_of=deck.rank_of,
        points=deck.points,
        suit_codes=deck.suit_codes,
        suit_colours=deck.colours,
        rank_codes=deck.rank_codes,
        trumps=tables,
        promotion_names=tuple(p.name for p in by_place),
        set_names=tuple(t.name for t in spec.trump.sets),
    )
