"""A compiled game's lookup tables: everything the engine's hot path looks up rather than computes.

:func:`compile_tables` builds one :class:`Tables` per game from its spec, its
card tables and its compiled rules. The play-order tables are keyed by the
seats that sit out, as a bit mask (``next_seat[0]`` is the play order when
nobody sits out).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, TypeVar

from attrs import frozen

from trickrules.compile import codegen
from trickrules.compile.cards import NO_TRUMP, TRUMP_BASE, CardTable, TrumpTable, compile_cards
from trickrules.compile.leads import LeadRules, compile_leads
from trickrules.compile.passing import PassingRules, compile_passing
from trickrules.compile.rules import Rules, compile_rules
from trickrules.compile.sequence import Phase, phases
from trickrules.spec.converter import unstructure
from trickrules.spec.limits import check_resolved
from trickrules.spec.model import Spec
from trickrules.spec.sealed import Sealed

__all__ = ["Tables", "TrumpData", "compile_tables", "trick_seat"]


@frozen(weakref_slot=False)
class TrumpData(Sealed):
    """The per-card tables for one choice of trumps."""

    trump: int
    #: Each card's effective suit (a promoted card's is the trump suit).
    eff_suit: tuple[int, ...]
    #: Each card's power: trumps from ``TRUMP_BASE`` up, plain cards below.
    power: tuple[int, ...]
    #: The cards of each effective suit, as masks.
    suit_masks: tuple[int, ...]
    trump_mask: int
    #: The privileged cards (held back from a lower trump lead), as a mask.
    privileged: int
    #: For each card, the mask of the cards that beat it.
    beats: tuple[int, ...]
    #: Per effective suit led: each card's power if it can win such a trick (a trump or a
    #: card of the suit led), else -1. A trick's winner is its first card of highest value.
    led_power: tuple[tuple[int, ...], ...]
    #: Each card's place in its own suit's plain order (0 at the top; 0 for trumps).
    plain_place: tuple[int, ...]


def trick_seat(players: int, leader: int, out: int, index: int) -> int:
    """The seat that plays the card at ``index`` of a trick led by ``leader`` (``out``: the seats sitting out)."""
    who = leader
    for _ in range(index):
        who = _successor(who, out, players)
    return who


def _successor(seat: int, out: int, players: int) -> int:
    nxt = (seat + 1) % players
    while (out >> nxt) & 1:
        nxt = (nxt + 1) % players
    return nxt


def _out_masks(players: int) -> tuple[int, ...]:
    """The sets of seats that may sit out, as masks: nobody, any one seat, or any two (two always play)."""
    most = min(2, players - 2)
    return tuple(m for m in range(1 << players) if m.bit_count() <= most)


_T = TypeVar("_T")


def _by_out(outs: tuple[int, ...], make: Callable[[int], _T]) -> Mapping[int | None, _T]:
    """A read-only table keyed by the masks of seats sitting out; ``None`` is another key for 0 (nobody)."""
    table: dict[int | None, _T] = {out: make(out) for out in outs}
    table[None] = table[0]
    return MappingProxyType(table)


def _ro(items: object) -> MappingProxyType:  # type: ignore[type-arg]
    """A read-only mapping that looks up at C speed (the hot path reads these tables)."""
    return MappingProxyType(dict(items))  # type: ignore[call-overload]


@frozen(weakref_slot=False, eq=False)
class Tables(Sealed):
    """Everything the engine looks up for one game (built by :func:`compile_tables`)."""

    cards: CardTable
    rules: Rules
    players: int
    #: Per trump key (a suit index, or ``NO_TRUMP``).
    trumps: Mapping[int, TrumpData]
    #: Cards promoted to trumps whatever the trump suit, as a mask.
    always_trumps: int
    #: ``1 << card``, per card.
    bit: tuple[int, ...]
    card_of: Mapping[str, int]
    team_of: tuple[int, ...]
    #: The seats that score together: the teams, or each seat alone.
    groups: tuple[tuple[int, ...], ...]
    contract_index: Mapping[str, int]
    #: Per contract index, then not forced / forced: the announcements offered before the lead.
    announce_offers: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]
    #: Every announcement's name, made before the first lead or during the play.
    announcement_names: tuple[str, ...]
    #: After how many tricks a late announcement may be offered.
    late_runs: frozenset[int]
    #: Whether anything may happen between tricks (a late announcement or a declaration window).
    between_tricks: bool
    #: Whether some contract may stop the play before the last trick.
    ends_early: bool
    has_card_points: bool
    #: Keyed by the seats sitting out, as a bit mask (0 or ``None``: nobody; ``DealInfo.seats_out``):
    #: the index of a trick's last card, each seat's successor in play order, and per leader the
    #: seat playing each card.
    trick_last: Mapping[int | None, int]
    next_seat: Mapping[int | None, tuple[int, ...]]
    trick_seats: Mapping[int | None, tuple[tuple[int, ...], ...]]
    #: Per dealer: the seat that receives the card at each position of the shuffled deck.
    deal_seats: tuple[tuple[int, ...], ...]
    #: The codes, and the card points, of the cards in a mask, in deck order.
    codes_of: Callable[[int], tuple[str, ...]]
    points_of: Callable[[int], tuple[int, ...]]
    #: The lead and first-trick obligations, as card masks.
    leads: LeadRules
    #: Passing cards after the deal.
    passing: PassingRules
    #: The cards worth more than 0 card points (the ``point_cards`` scoring variables count them).
    point_cards: int
    #: The built-in phases of every deal, in the order they are asked (:func:`~trickrules.compile.sequence.phases`).
    phases: tuple[Phase, ...]
    #: Each of those phases' position, where its mechanism's record sits in a deal's ``parts``.
    slot: Mapping[str, int]
    #: The spec's sections of mechanisms registered from outside the library, by name.
    mechanism_sections: Mapping[str, Mapping[str, Any]]

    def hands_of(self, masks: tuple[int, ...]) -> tuple[tuple[str, ...], ...]:
        """The card codes of every hand."""
        return tuple(self.codes_of(m) for m in masks)

    def deal(self, dealer: int, order: list[int]) -> tuple[int, ...]:
        """The hands, as masks, that a shuffled deck deals when ``dealer`` deals (undealt cards stay out)."""
        hands = [0] * self.players
        bit = self.bit
        for seat, card in zip(self.deal_seats[dealer], order, strict=False):
            hands[seat] |= bit[card]
        return tuple(hands)


def _trump_data(table: TrumpTable, size: int, nsuits: int, privileged: int) -> TrumpData:
    masks = [0] * nsuits
    for card, suit in enumerate(table.eff_suit):
        masks[suit] |= 1 << card
    power = table.power
    # Cards sorted by power, so that each card's "beaten by" mask is built in one pass.
    beats = [0] * size
    above = 0
    by_power = sorted(range(size), key=power.__getitem__, reverse=True)
    i = 0
    while i < size:
        j = i
        while j < size and power[by_power[j]] == power[by_power[i]]:
            j += 1
        for c in by_power[i:j]:
            beats[c] = above
        for c in by_power[i:j]:
            above |= 1 << c
        i = j
    place = [0] * size
    for plain in table.plain_orders:
        for pos, card in enumerate(plain):
            place[card] = pos
    return TrumpData(
        trump=table.trump,
        eff_suit=table.eff_suit,
        power=power,
        suit_masks=tuple(masks),
        trump_mask=0 if table.trump == NO_TRUMP else masks[table.trump],
        privileged=privileged,
        beats=tuple(beats),
        led_power=tuple(
            tuple(p if p >= TRUMP_BASE or table.eff_suit[c] == led else -1 for c, p in enumerate(power))
            for led in range(nsuits)
        ),
        plain_place=tuple(place),
    )


def compile_tables(spec: Spec, where: str) -> Tables:
    """Compile ``spec`` into its card tables, rules and lookup tables.

    The sizes of its sections are checked first (:func:`~trickrules.spec.limits.check_resolved`,
    as the loader does), for a spec that did not come through the loader.
    """
    check_resolved(unstructure(spec), where)
    cards = compile_cards(spec, where)
    rules = compile_rules(spec, cards, where)
    n = rules.players
    size = cards.size
    privileged = dict(rules.privileged_mask_by_trump)
    trumps = {t.trump: _trump_data(t, size, cards.suit_count, privileged[t.trump]) for t in cards.trumps}
    always = 0
    for promotion in spec.trump.promotions:
        if promotion.card is not None:
            always |= 1 << cards.codes.index(promotion.card)
    team_of = list(range(n))
    for k, team in enumerate(rules.teams):
        for seat in team:
            team_of[seat] = k
    offers = tuple(
        tuple(
            tuple(a for a, cs in rules.announcements if c.name in cs and not (forced and a in rules.not_when_forced))
            for forced in (False, True)
        )
        for c in rules.contracts
    )
    names = [name for name, _ in rules.announcements] + [e.name for e in rules.late_announcements]
    outs = _out_masks(n)
    bit = tuple(1 << c for c in range(size))
    deal_seats = []
    for dealer in range(n):
        at: list[int] = []
        for packet in rules.packets:
            for k in range(n):
                at += [(dealer + 1 + k) % n] * packet
        deal_seats.append(tuple(at))
    passing = compile_passing(spec, rules.hand_size, where)
    order = phases(rules, passing)
    return Tables(
        cards=cards,
        rules=rules,
        players=n,
        trumps=_ro(trumps),
        always_trumps=always,
        bit=bit,
        card_of=_ro((c, i) for i, c in enumerate(cards.codes)),
        team_of=tuple(team_of),
        groups=rules.teams if rules.teams else tuple((s,) for s in range(n)),
        contract_index=_ro((c.name, c.index) for c in rules.contracts),
        announce_offers=offers,  # type: ignore[arg-type]
        announcement_names=tuple(dict.fromkeys(names)),
        late_runs=frozenset(e.after_run for e in rules.late_announcements),
        between_tricks=bool(rules.late_announcements or rules.declarations),
        ends_early=any(c.end_when is not None for c in rules.contracts),
        has_card_points=any(cards.points),
        trick_last=_by_out(outs, lambda out: n - 1 - out.bit_count()),
        next_seat=_by_out(outs, lambda out: tuple(_successor(s, out, n) for s in range(n))),
        trick_seats=_by_out(
            outs,
            lambda out: tuple(
                tuple(trick_seat(n, lead, out, i) for i in range(n - out.bit_count())) for lead in range(n)
            ),
        ),
        deal_seats=tuple(deal_seats),
        codes_of=codegen.unpacker(cards.codes),
        points_of=codegen.unpacker(cards.points),
        leads=compile_leads(spec, cards, where),
        passing=passing,
        point_cards=sum(bit[c] for c in range(size) if cards.points[c] > 0),
        phases=order,
        slot=_ro((p, k) for k, p in enumerate(order)),
        mechanism_sections=spec.mechanisms,
    )
