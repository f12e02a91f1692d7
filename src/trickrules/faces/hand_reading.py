"""What the heuristic bot reads from a game's public compiled rules, once per game: :class:`Knowledge`.

The card tables by trump choice, what each contract needs and pays (read from the scoring outcomes),
whether tricks and card points count, the melds a hand holds, and the evaluation of a hand: the tricks
it is expected to take under a trump choice, in a setting (partners, opponents, the share of the unseen
cards in play). :func:`knowledge` keeps it for the 32 games used last. The heuristic bot decides with it
(:mod:`trickrules.faces.bots`), and the determinized bot reads from it whether more tricks or card points
always pay a side more (:mod:`trickrules.faces.search_bots`). See ``docs/bots.md``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from functools import lru_cache

from trickrules.compile.cards import NO_TRUMP
from trickrules.compile.modes import PrivilegedForcedBy
from trickrules.compile.reads import scoring_reads
from trickrules.compile.rules import CompiledOutcome
from trickrules.compile.variables import DEAL_VARS, PLAYER_VARS, SIDE_VARS
from trickrules.engine.state import GameLike
from trickrules.errors import TrickrulesError
from trickrules.spec.formula import Number

__all__ = ["Knowledge", "Setting", "knowledge"]

# A trump of the unbroken run from the top counts one trick; one that wins once trumps are drawn, one
# that does not, and a spare one the hand may ruff with count these parts.
_DRAWN, _LOSING, _RUFF = 0.85, 0.2, 0.35
_SAMPLES = 512  # random deals that calibrate a game's hand evaluation

_TRICK_VARS = frozenset(("tricks", "opp_tricks", "declarer_tricks", "partner_tricks", "run", "own_tricks", "bid"))
_TRICK_VARS |= {"opp_bid", "own_bid"}
_POINT_VARS = frozenset(("points", "opp_points", "card_points", "opp_card_points", "point_cards", "opp_point_cards"))
_POINT_VARS |= {"max_point_cards"}
_OWN_ROLES = frozenset(("declarer", "declarer_side", "side", "player", "partner"))
_OTHER_ROLES = frozenset(("defenders", "opponents", "others"))
_FAILED = (TrickrulesError, ArithmeticError, TypeError, ValueError)

#: Partners, opponents, the share of the unseen cards the opponents hold, and how many seats play.
Setting = tuple[int, int, float, int]



@lru_cache(maxsize=4096)
def _draw_trumps(held: tuple[int, ...], size: int, opponents: int, in_play: float, kept: frozenset[int]) -> int:
    """Tricks won by leading trumps ``held`` (places, 0 the top) one by one against the opponents' trumps."""
    # An opponent overtakes the best trump so far with his best if he can, else plays his lowest, keeping
    # back the privileged trumps (places ``kept``) that only a higher privileged lead forces out.
    missing = [p for p in range(size) if p not in held]
    dealt = [p for n, p in enumerate(missing) if math.floor((n + 1) * in_play + 0.5) > math.floor(n * in_play + 0.5)]
    hands = [dealt[n :: max(1, opponents)] for n in range(max(1, opponents))]
    wins = 0
    for card in held:
        best = card
        for hand in hands:
            if hand and hand[0] < best:
                best = hand.pop(0)
            elif low := [p for p in hand if p not in kept or (card in kept and card < p)]:
                hand.remove(low[-1])
        wins += best == card
    return wins


@lru_cache(maxsize=4096)
def _plain_tricks(held: tuple[int, ...], size: int, opponents: int, in_play: float, missing_trumps: int) -> float:
    """Expected tricks of the cards ``held`` (places, sorted) of a plain suit of ``size`` cards."""
    # A card wins if no missing card is above it, less often the more are; it survives unless an opponent
    # out of the suit ruffs (``missing_trumps`` < 0: no trumps, and long cards win at the end).
    length, others, p = len(held), size - len(held), in_play / max(1, opponents)
    ruff = 1.0 - (1.0 - p) ** missing_trumps if missing_trumps > 0 else 0.0
    total = 0.0
    for j, place in enumerate(held):
        expected = (place - j) * in_play
        value = 1.0 if expected < 0.5 else 0.5**expected * (0.5 + 0.5 * (length - 1 - j >= place - j)) * (expected < 3)
        if ruff:  # the chance that an opponent has fewer than j + 1 cards of the suit
            short = sum(math.comb(others, x) * p**x * (1 - p) ** (others - x) for x in range(min(j + 1, others + 1)))
            value *= (1.0 - short * ruff) ** opponents
        elif missing_trumps < 0 and j >= others * p * 1.3 + 0.5:
            value = max(value, 0.8)
        total += value
    return total


class Knowledge:
    """What the heuristic bot works out once per game from the public compiled rules."""

    def __init__(self, game: GameLike) -> None:
        cards, rules = game.cards, game.rules
        self.rules, self.size, self.points = rules, cards.size, cards.points
        self.rank_of, self.suit_of = cards.rank_of, cards.suit_of
        self.index = {code: n for n, code in enumerate(cards.codes)}
        self.tables = {t.trump: t for t in cards.trumps}
        self.trump_keys = {cards.trump_code(key): key for key in self.tables}
        #: Per trump key: each effective suit's cards, high to low, and each card's place in its suit.
        self.lists: dict[int, tuple[tuple[int, ...], ...]] = {}
        self.place: dict[int, tuple[int, ...]] = {}
        for key, table in self.tables.items():
            lists = tuple(table.order if s == key else table.plain_orders[s] for s in range(cards.suit_count))
            places = {card: n for suit in lists for n, card in enumerate(suit)}
            self.lists[key], self.place[key] = lists, tuple(places.get(c, 0) for c in range(cards.size))
        #: Per trump key, the places of the privileged trumps a lower trump lead does not force out.
        self.kept = {
            key: frozenset(self.place[key][c] for c in range(cards.size) if mask >> c & 1)
            for key, mask in rules.privileged_mask_by_trump
            if key in self.place and rules.play.privileged_forced_by is PrivilegedForcedBy.HIGHER_LEAD
        }
        self.contracts = {c.name: c for c in rules.contracts}
        self.lowest_wins = game.spec.match.winner == "lowest"
        self.point_total = sum(p for p in cards.points if p > 0) + rules.last_trick_bonus
        self.point_cards = sum(1 for p in cards.points if p > 0)
        announced = [*(n for n, _ in rules.announcements), *(a.name for a in rules.late_announcements)]
        self.zero = dict.fromkeys((*DEAL_VARS, *SIDE_VARS, *PLAYER_VARS, *(f"announced_{a}" for a in announced)), 0)
        #: Per contract ('': none): whether tricks count, and whether card points help (+1), hurt (-1) or not (0).
        used = {name: self._variables(name) for name in ("", *self.contracts)}
        self.tricks_matter = {name: bool(v & _TRICK_VARS) for name, v in used.items()}
        sign = (-1 if self.lowest_wins else 1) if self.point_total else 0
        self.points_sign = {name: sign if v & _POINT_VARS else 0 for name, v in used.items()}
        # Answers remembered per game, bounded by its sizes: contracts x meld points x tricks of a hand,
        # bids x tricks x hand sizes, and seats in play (and _knowledge keeps 32 games at most).
        self._paying: dict[tuple[str, int, int], tuple[int, int]] = {}
        self._bids: dict[tuple[int, int, int], Number] = {}
        self._offsets: dict[int, float] = {}

    def trump_key(self, trump: str | None) -> int:
        """The trump key of a view's trump (a suit code, ``none``, or not known yet)."""
        fallback = NO_TRUMP if NO_TRUMP in self.tables else next(iter(self.tables))
        return self.trump_keys.get(trump or "", fallback)

    def _variables(self, contract: str) -> frozenset[str]:
        """Every variable the outcomes and bonuses of a deal of ``contract`` read, through the named vars."""
        return scoring_reads(self.rules, contract)

    def need(self, contract: str, declared: int, own: int) -> int:
        """The fewest tricks with which ``contract`` pays the declarer (:meth:`paying`)."""
        return self.paying(contract, declared, own)[0]

    def paying(self, contract: str, declared: int, own: int) -> tuple[int, int]:
        """The fewest and the most tricks with which ``contract`` pays the declarer; ``(total + 1, -1)`` if none.

        ``declared`` is his melds' points, ``own`` his own tricks at most. A contract won by taking few tricks (a
        beggar) pays from 0.
        """
        key, total = (contract, declared, own), self.rules.tricks_per_deal
        if key not in self._paying:
            env = (self._env(contract, t, declared, own, t, total) for t in range(total + 1))
            outcomes = [o for o in self.rules.outcomes if o.contracts is None or contract in o.contracts]
            kinds = ("deal", "side")
            gains = [next((g for o in outcomes if (g := self._gain(o, e, kinds)) is not None), 0) for e in env]
            pays = [t for t, g in enumerate(gains) if ((g < 0) if self.lowest_wins else (g > 0))]
            self._paying[key] = (min(pays, default=total + 1), max(pays, default=-1))
        return self._paying[key]

    def bid_value(self, bid: int, tricks: int, total: int) -> Number:
        """What bidding ``bid`` tricks and taking ``tricks`` of ``total`` scores: the outcome and the bonuses."""
        key = (bid, tricks, total)
        if key not in self._bids:
            env, kinds = self._env("", tricks, 0, tricks, bid, total), ("deal", "side", "player")
            value = next((g for g in (self._gain(o, env, kinds) for o in self.rules.outcomes) if g is not None), 0)
            value += sum(g for g in (self._gain(b, env, kinds) for b in self.rules.bonuses) if g is not None)
            self._bids[key] = -value if self.lowest_wins else value
        return self._bids[key]

    @staticmethod
    def _gain(outcome: CompiledOutcome, env: dict[str, int | bool], kinds: tuple[str, ...]) -> Number | None:
        """What ``outcome`` pays the bot's side in ``env`` (``None``: it does not apply)."""
        if outcome.for_each not in kinds or not outcome.pay:
            return None
        try:
            if not outcome.when.evaluate(env):
                return None
            gain: Number = 0
            for p in outcome.pay:
                amount = p.amount.evaluate(env)
                gain += amount * ((p.to in _OWN_ROLES) - (p.to in _OTHER_ROLES))
                gain += amount * ((p.payer in _OTHER_ROLES) - (p.payer in _OWN_ROLES))
        except _FAILED:
            return None
        return gain

    def _env(self, contract: str, tricks: int, declared: int, own: int, bid: int, total: int) -> dict[str, int | bool]:
        """The scoring variables of a deal in which the declarer's side takes ``tricks`` (points in proportion)."""
        rules, other, c = self.rules, total - tricks, self.contracts.get(contract)
        points, cards, opp = self.point_total * tricks // total, self.point_cards * tricks // total, self.point_total
        env: dict[str, int | bool] = dict(self.zero)
        env |= {"players": rules.players, "tricks_total": total, "pot": 2 * rules.players, "ante": 1, "deal": 1}
        env |= {"target": rules.match_target, "no_contract": not contract, "tricks": tricks, "opp_tricks": other}
        env |= {"points": points + declared, "opp_points": opp - points, "card_points": points, "bid": bid}
        env |= {"opp_card_points": opp - points, "declared": declared, "is_declarer_side": 1, "own_bid": bid}
        env |= {"last_trick": 2 * tricks > total, "run": tricks, "declarer_tricks": min(own, tricks)}
        env |= {"partner_tricks": max(0, tricks - own), "opp_bid": other, "point_cards": cards, "own_tricks": tricks}
        env |= {"alone": c is not None and c.side == "partner_sits_out", "point_cards_total": self.point_cards}
        env |= {"opp_point_cards": self.point_cards - cards, "max_point_cards": max(cards, self.point_cards - cards)}
        env |= {"is_declarer": 1, **{n: c.start for c in rules.bids.counters for n in (c.name, f"opp_{c.name}")}}
        for name, formula in (*rules.vars, *(c.vars if c is not None else ())):
            try:
                env[name] = formula.evaluate(env)  # type: ignore[assignment]
            except _FAILED:
                env[name] = 0
        return env

    def estimate(self, hand: Sequence[int], trump: int, setting: Setting) -> float:
        """The tricks ``hand`` is expected to take under ``trump`` in a ``setting``."""
        _, opponents, in_play, active = setting
        if active not in self._offsets:
            self._offsets[active] = self._calibrate(active)
        offset = self._offsets[active] * len(hand) / max(1, self.rules.hand_size)  # some deals have smaller hands
        return max(0.0, min(float(len(hand)), self._raw(hand, trump, opponents, in_play) + offset))

    def _calibrate(self, active: int) -> float:
        """What to add to each estimate so that the ``active`` hands of a random deal add up to its tricks."""
        rng, size = random.Random(0), self.rules.hand_size
        if not size or size * self.rules.players > self.size or active < 2:
            return 0.0
        keys = [t for t in self.tables if t != NO_TRUMP] or [NO_TRUMP]
        in_play = min(1.0, size * (active - 1) / max(1, self.size - size))
        total = 0.0
        for deal in range(_SAMPLES):
            deck = rng.sample(range(self.size), self.size)
            for n in range(active):
                total += self._raw(deck[n * size : (n + 1) * size], keys[deal % len(keys)], active - 1, in_play)
        return (size - total / _SAMPLES) / active

    def _raw(self, hand: Iterable[int], trump: int, opponents: int, in_play: float) -> float:
        """The uncalibrated estimate: trump tricks, plain-suit tricks, and ruffs."""
        table, place, lists = self.tables[trump], self.place[trump], self.lists[trump]
        held: list[list[int]] = [[] for _ in lists]
        for card in hand:
            held[table.eff_suit[card]].append(place[card])
        wins, spare, missing, short = 0.0, 0, -1, 0
        if trump != NO_TRUMP:
            trumps = tuple(sorted(held[trump]))
            missing = len(lists[trump]) - len(trumps)
            won = _draw_trumps(trumps, len(lists[trump]), opponents, in_play, self.kept.get(trump, frozenset()))
            top = next((j for j, p in enumerate(trumps) if p != j), len(trumps))
            wins, spare = top + _DRAWN * (won - top) + _LOSING * (len(trumps) - won), len(trumps) - won
        for suit, cards in enumerate(held):
            if suit != trump and lists[suit]:
                short += max(0, 2 - len(cards))
                wins += _plain_tricks(tuple(sorted(cards)), len(lists[suit]), opponents, in_play, missing)
        return wins + min(spare, short) * _RUFF

    def melds(self, hand: Iterable[int], trump: int, contract: str) -> int:
        """The points of the melds ``hand`` holds that a deal of ``contract`` allows."""
        ranks: dict[int, set[int]] = {}
        for card in hand:
            ranks.setdefault(self.suit_of[card], set()).add(self.rank_of[card])
        allowed = [d for d in self.rules.declarations if not d.contracts or contract in d.contracts]
        kinds = {suit: ("trump" if suit == trump else "plain", "any") for suit in ranks}
        return sum(d.points for d in allowed for s, held in ranks.items() if d.suit in kinds[s] and {*d.ranks} <= held)


@lru_cache(maxsize=32)  # bounded: the 32 games used last (each kept alive while it is here)
def knowledge(game: GameLike) -> Knowledge:
    """What the heuristic bot reads from ``game``'s rules (kept per game)."""
    return Knowledge(game)

