"""A compiled game: a spec with its card tables, rules and prebuilt actions.

:func:`trickrules.load` returns a :class:`Game`; ``game.new_match()`` starts
a match (:class:`~trickrules.engine.state.State`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from trickrules.compile.cards import NO_TRUMP, TRUMP_BASE, CardTable, TrumpTable, compile_cards
from trickrules.compile.rules import Rules, compile_rules
from trickrules.engine.actions import Action
from trickrules.engine.legal import trick_seat
from trickrules.errors import SpecError
from trickrules.spec.loader import fingerprint, load_spec
from trickrules.spec.model import Spec

if TYPE_CHECKING:
    from trickrules.engine.state import State

__all__ = ["Game", "load"]

_T = TypeVar("_T")


class Game:
    """A game compiled from a spec (and its chosen options).

    Attributes are read-only tables for the engine; the public ones are
    ``spec``, ``name``, ``fingerprint``, ``options`` and ``cards``.
    """

    __slots__ = (
        "_actions",
        "always_trumps",
        "announce_offers",
        "announced_keys",
        "announcement_names",
        "between_tricks",
        "bid_actions",
        "bid_events",
        "bit",
        "card_of",
        "cards",
        "codes_of",
        "contract_index",
        "contract_scoring",
        "deal_hands",
        "ends_early",
        "everyone",
        "fingerprint",
        "groups",
        "has_card_points",
        "late_runs",
        "lead_rules",
        "led_power",
        "name",
        "next_seat",
        "options",
        "pass_action",
        "pass_events",
        "plain_place",
        "play_actions",
        "play_actions_of",
        "play_events",
        "play_rules",
        "players",
        "points_of",
        "privileged",
        "revoke_penalised",
        "rules",
        "scoring_plan",
        "scoring_vars",
        "source",
        "spec",
        "suit_masks",
        "tables",
        "team_of",
        "toggle",
        "trick_end",
        "trick_last",
        "trick_seats",
        "trump_actions",
        "trump_data",
        "trump_masks",
    )

    def __init__(self, spec: Spec, source: str = "") -> None:
        where = source or spec.name
        self.spec = spec
        self.source = source
        self.name = spec.name
        self.options: dict[str, str] = dict(spec.chosen)
        self.fingerprint = fingerprint(spec)
        self.cards: CardTable = compile_cards(spec, where)
        self.rules: Rules = compile_rules(spec, self.cards, where)
        self.tables: dict[int, TrumpTable] = {t.trump: t for t in self.cards.trumps}
        # Cards promoted to trumps whatever the trump suit (fixed-card promotions).
        self.always_trumps = 0
        for promotion in spec.trump.promotions:
            if promotion.card is not None:
                self.always_trumps |= 1 << self.cards.codes.index(promotion.card)
        nsuits = len(self.cards.suit_codes)
        self.suit_masks: dict[int, tuple[int, ...]] = {}
        self.trump_masks: dict[int, int] = {}
        for key, table in self.tables.items():
            masks = [0] * nsuits
            for card, suit in enumerate(table.eff_suit):
                masks[suit] |= 1 << card
            self.suit_masks[key] = tuple(masks)
            self.trump_masks[key] = 0 if key == NO_TRUMP else masks[key]
        self.privileged: dict[int, int] = dict(self.rules.privileged_mask_by_trump)
        self.play_rules = self.rules.play
        # Whether any obligation restricts the lead (otherwise a leader may play any card).
        self.lead_rules = self.rules.play.called_card_no_lead
        self.players = self.rules.players
        self.revoke_penalised = self.rules.play.revoke_penalised
        # Whether anything may happen between tricks: a late announcement or a declaration window.
        self.between_tricks = bool(self.rules.late_announcements or self.rules.declarations)
        # After how many tricks a late announcement may be offered: no other trick's end looks further.
        self.late_runs: frozenset[int] = frozenset(entry[2] for entry in self.rules.late_announcements)
        #: 1 << card, per card.
        self.bit: tuple[int, ...] = tuple(1 << c for c in range(self.cards.size))
        # Whether some contract may stop the play before the last trick (end_when).
        self.ends_early = any(c.end_when is not None for c in self.rules.contracts)
        # Per trump key: effective suits, powers, masks by effective suit, the trump
        # mask, the privileged mask, and for each card the mask of cards that beat it.
        self.trump_data: dict[
            int, tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int, int, tuple[int, ...]]
        ] = {}
        for key, table in self.tables.items():
            power = table.power
            beats = tuple(
                sum(1 << o for o in range(self.cards.size) if power[o] > power[c]) for c in range(self.cards.size)
            )
            self.trump_data[key] = (
                table.eff_suit,
                power,
                self.suit_masks[key],
                self.trump_masks[key],
                self.privileged[key],
                beats,
            )
        # Per trump key, per effective suit led: each card's power if it can win such a trick
        # (a trump, or a card of the suit led), else -1. The winner of a trick is its first
        # card of highest value (legal.winner_index).
        self.led_power: dict[int, tuple[tuple[int, ...], ...]] = {
            key: tuple(
                tuple(p if p >= TRUMP_BASE or table.eff_suit[c] == led else -1 for c, p in enumerate(table.power))
                for led in range(nsuits)
            )
            for key, table in self.tables.items()
        }
        # Per trump key: each card's place in its own suit's plain order (0 at the top; 0 for trumps).
        self.plain_place: dict[int, tuple[int, ...]] = {}
        for key, table in self.tables.items():
            place = [0] * self.cards.size
            for plain in table.plain_orders:
                for pos, card in enumerate(plain):
                    place[card] = pos
            self.plain_place[key] = tuple(place)
        team_of = list(range(self.rules.players))
        for n, team in enumerate(self.rules.teams):
            for seat in team:
                team_of[seat] = n
        self.team_of: tuple[int, ...] = tuple(team_of)
        self.has_card_points = any(self.cards.points)
        self.contract_index: dict[str, int] = {c.name: c.index for c in self.rules.contracts}
        from trickrules.engine.scoring import contract_scoring, scoring_plan, scoring_vars

        self.everyone = tuple(range(self.players))
        # Every announcement's name, made before the first lead or during the play.
        names = [name for name, _ in self.rules.announcements] + [e[0] for e in self.rules.late_announcements]
        self.announcement_names: tuple[str, ...] = tuple(dict.fromkeys(names))
        #: Each announcement with the scoring variable that says whether it was made.
        self.announced_keys = tuple((a, f"announced_{a}") for a in self.announcement_names)
        #: Per contract index, then not forced / forced: the announcements offered before the lead.
        offers = [
            tuple(
                tuple(a for a, cs in self.rules.announcements if c.name in cs and not (forced and a in unforced))
                for forced in (False, True)
            )
            for c in self.rules.contracts
            for unforced in [self.rules.not_when_forced]
        ]
        self.announce_offers: tuple[tuple[tuple[str, ...], ...], ...] = tuple(offers)
        # The seats that score together: the teams, or each seat alone.
        self.groups = self.rules.teams if self.rules.teams else tuple((s,) for s in self.everyone)
        self.scoring_plan = scoring_plan(self)
        self.scoring_vars = scoring_vars(self)
        self.contract_scoring = contract_scoring(self)
        self.card_of: dict[str, int] = {c: n for n, c in enumerate(self.cards.codes)}
        from trickrules.engine.events import BidMade, CardPlayed, Passed, shared

        # Per seat (and contract): the step's events of a pass or a bid, built once and shared.
        self.pass_events: tuple[tuple[tuple[int, Passed]], ...] = tuple(
            ((seat, shared(Passed, seat)),) for seat in range(self.players)
        )
        self.bid_events: tuple[tuple[tuple[tuple[int, BidMade]], ...], ...] = tuple(
            tuple(((seat, shared(BidMade, seat, c.name)),) for c in self.rules.contracts)
            for seat in range(self.players)
        )

        # Per seat and card: the step's events when the card is played, ((seat, CardPlayed),),
        # built once and shared.
        self.play_events: tuple[tuple[tuple[tuple[int, CardPlayed]], ...], ...] = tuple(
            tuple(((seat, CardPlayed(seat, code, "")),) for code in self.cards.codes) for seat in range(self.players)
        )
        n = self.players
        # Indexed by the seat sitting out (-1, the last entry, when nobody does): the trick's
        # index of its last card, and each seat's successor in play order.
        self.trick_last: tuple[int, ...] = (n - 2,) * n + (n - 1,)
        self.next_seat: tuple[tuple[int, ...], ...] = tuple(
            tuple(_successor(seat, out, n) for seat in range(n)) for out in (*range(n), -1)
        )
        #: Indexed like ``next_seat``, then by the leader: the seat playing each card of a trick.
        self.trick_seats: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(tuple(trick_seat(n, leader, out, i) for i in range(n - (out >= 0))) for leader in range(n))
            for out in (*range(n), -1)
        )
        #: By the number of cards in a trick: (trick, led_power row) -> (index of the winning
        #: card, mask of the trick's cards, their codes): a generated, loop-free function.
        self.trick_end: tuple[_TrickEnd, ...] = tuple(
            _trick_ender(max(k, 1), self.bit, self.cards.codes) for k in range(n + 1)  # 0: never a whole trick
        )
        #: Per seat: (hands, card bit) -> the hands with that card taken from (or given to) the seat.
        self.toggle: tuple[Callable[[tuple[int, ...], int], tuple[int, ...]], ...] = tuple(
            _toggler(seat, n) for seat in range(n)
        )
        self.play_actions: tuple[Action, ...] = tuple(Action("play", c) for c in self.cards.codes)
        #: The play actions of the cards in a mask, in deck order (legal_actions calls this).
        self.play_actions_of: Callable[[int], tuple[Action, ...]] = unpacker(self.play_actions)
        #: The card points of the cards in a mask, in deck order.
        self.points_of: Callable[[int], tuple[int, ...]] = unpacker(self.cards.points)
        #: The codes of the cards in a mask, in deck order.
        self.codes_of: Callable[[int], tuple[str, ...]] = unpacker(self.cards.codes)
        # Per dealer: the seat that receives the card at each position of the shuffled deck
        # (packets dealt round the table, starting on the dealer's left).
        seats: list[tuple[int, ...]] = []
        for dealer in range(self.players):
            at: list[int] = []
            for packet in self.rules.packets:
                for k in range(self.players):
                    at += [(dealer + 1 + k) % self.players] * packet
            seats.append(tuple(at))
        #: Per dealer: shuffled order -> the hands as masks (a generated, loop-free function).
        self.deal_hands: tuple[Callable[[list[int]], tuple[int, ...]], ...] = tuple(
            _dealer(at, self.players, self.bit) for at in seats
        )
        # Every action text the rules can offer, built once and shared.
        actions: list[Action] = [*self.play_actions, Action("pass")]
        actions += [Action("give", c) for c in self.cards.codes]
        actions += [Action("call", c) for c in self.cards.codes]
        actions += [Action("bid", c.name) for c in self.rules.contracts]
        actions += [Action("trump", s) for s in self.cards.suit_codes] + [Action("trump", "none")]
        actions += [Action("announce", name) for name in self.announcement_names]
        for decl in self.rules.declarations:
            if decl.suit == "trump":
                actions.append(Action("declare", decl.name))
            else:
                actions += [Action("declare", f"{decl.name} {s}") for s in self.cards.suit_codes]
        self._actions: dict[str, Action] = {str(a): a for a in actions}
        self.pass_action = self._actions["pass"]
        #: Per contract index, its bid action.
        self.bid_actions: tuple[Action, ...] = tuple(self._actions[f"bid {c.name}"] for c in self.rules.contracts)
        # What may be named as trumps: the same in every trump phase.
        trump_texts = [f"trump {s}" for s in self.cards.suit_codes]
        if self.rules.allow_no_trump:
            trump_texts.append("trump none")
        self.trump_actions: tuple[Action, ...] = tuple(self._actions[t] for t in trump_texts)

    def __repr__(self) -> str:
        chosen = ", ".join(f"{k}={v}" for k, v in self.options.items() if v != self.spec.options[k].default)
        return f"<Game {self.name!r}{' ' + chosen if chosen else ''} {self.fingerprint}>"

    def action(self, text: str) -> Action:
        """The action with this text form, shared where possible (cheap to compare)."""
        found = self._actions.get(text)
        return found if found is not None else Action.parse(text)

    def new_match(
        self,
        seed: int = 0,
        dealer: int = 0,
        hands: Sequence[Sequence[str]] | None = None,
        turned: str | None = None,
        scores: Sequence[int] | None = None,
        pot: int = 0,
    ) -> State:
        """Start a match: the first deal is dealt from ``seed``, or stacked from ``hands``.

        ``hands`` gives card codes per seat for the first deal; later deals come
        from the seed. Where the trump is a turned card, the last card of the
        dealer's list is the one turned unless ``turned`` names it. ``scores``
        (one per seat) and ``pot`` start the match from given totals, as when
        resuming a match or testing its end.
        """
        from trickrules.engine.state import new_match

        return new_match(self, seed=seed, dealer=dealer, hands=hands, turned=turned, scores=scores, pot=pot)


def _successor(seat: int, sitting_out: int, players: int) -> int:
    """The seat that plays after ``seat``, skipping the one sitting out."""
    nxt = (seat + 1) % players
    return (nxt + 1) % players if nxt == sitting_out else nxt


def _toggler(seat: int, players: int) -> Callable[[tuple[int, ...], int], tuple[int, ...]]:
    """A function building the hands with one card bit of ``seat`` flipped (cheaper than a list)."""
    items = ", ".join(f"hands[{s}] ^ bit" if s == seat else f"hands[{s}]" for s in range(players))
    namespace: dict[str, Any] = {}
    exec(f"def toggle(hands, bit):\n    return ({items},)\n", namespace)
    made: Callable[[tuple[int, ...], int], tuple[int, ...]] = namespace["toggle"]
    return made


_TrickEnd = Callable[..., tuple[int, int, tuple[str, ...]]]


def _trick_ender(size: int, bit: Sequence[int], codes: Sequence[str]) -> _TrickEnd:
    """The end of a trick of ``size`` cards, written out with no loop.

    The winner is the first card of highest value in ``value`` (a row of
    ``Game.led_power``), as :func:`trickrules.engine.legal.winner_index` finds it.
    """
    cards = ", ".join(f"t{i}" for i in range(size))
    lines = ["def end(trick, value):", f"    {cards}, = trick", "    w = 0", "    best = value[t0]"]
    for i in range(1, size):
        lines += [f"    if value[t{i}] > best:", f"        w = {i}", f"        best = value[t{i}]"]
    taken = " | ".join(f"bit[t{i}]" for i in range(size))
    named = ", ".join(f"codes[t{i}]" for i in range(size))
    lines.append(f"    return w, {taken}, ({named},)")
    namespace: dict[str, Any] = {"bit": tuple(bit), "codes": tuple(codes)}
    exec("\n".join(lines) + "\n", namespace)
    made: _TrickEnd = namespace["end"]
    return made


_UNPACKERS: dict[tuple[object, ...], Callable[[int], tuple[Any, ...]]] = {}
#: The widest chunk of a mask that one table covers (2**11 entries per table).
_CHUNK_BITS = 11


def unpacker(per_card: Sequence[_T]) -> Callable[[int], tuple[_T, ...]]:
    """A function from a card mask to the items of its cards, in card order.

    The mask is cut into a few chunks of equal width (at most 11 bits); each
    chunk indexes a table holding, for each of its values, the tuple of its
    cards' items, and the function adds the chunks' tuples with no loop.
    Games with the same items share one function (and its tables).
    """
    key = tuple(per_card)
    found = _UNPACKERS.get(key)
    if found is not None:
        return found
    size = len(key)
    chunks = max(1, -(-size // _CHUNK_BITS))
    width = -(-size // chunks) if size else 1
    namespace: dict[str, Any] = {}
    terms = []
    for n, base in enumerate(range(0, max(size, 1), width)):
        namespace[f"t{n}"] = tuple(
            tuple(key[base + i] for i in range(width) if (value >> i) & 1 and base + i < size)
            for value in range(1 << width)
        )
        shifted = f"(mask >> {base})" if base else "mask"
        terms.append(f"t{n}[{shifted} & {(1 << width) - 1}]")
    exec(f"def items(mask):\n    return {' + '.join(terms)}\n", namespace)
    made: Callable[[int], tuple[_T, ...]] = namespace["items"]
    _UNPACKERS[key] = made
    return made


def _dealer(seats: Sequence[int], players: int, bit: Sequence[int]) -> Callable[[list[int]], tuple[int, ...]]:
    """A function from a shuffled order to the hands it deals, when ``seats[i]`` receives ``order[i]``.

    Written out with no loop (a loop over the deck costs more than twice as much).
    """
    terms = []
    for seat in range(players):
        got = [f"bit[order[{i}]]" for i, s in enumerate(seats) if s == seat]
        terms.append(" | ".join(got) if got else "0")
    namespace: dict[str, Any] = {"bit": tuple(bit)}
    exec(f"def hands(order):\n    return ({', '.join(terms)},)\n", namespace)
    made: Callable[[list[int]], tuple[int, ...]] = namespace["hands"]
    return made


def load(name_or_path: str | Path, options: Mapping[str, object] | None = None) -> Game:
    """Load and compile a game: a bundled name (``"quadrille"``) or a spec/overlay path.

    ``options`` picks house-rule options, e.g. ``{"forced_spadille": "off"}``.
    Raises :class:`~trickrules.errors.SpecError` on any problem in the spec.
    """
    spec = load_spec(name_or_path, options)
    source = str(name_or_path)
    try:
        return Game(spec, source if Path(source).suffix == ".toml" else f"specs/{spec.name}.toml")
    except SpecError:
        raise
    except (ValueError, TypeError, KeyError, IndexError) as exc:  # a gap in the checks above
        raise SpecError(f"{source}: the spec is inconsistent ({exc}).") from None
