"""Bots for simulation: a random one and a rule-of-thumb one.

Both decide from ``View.from_state(state, seat)`` alone (and the game's public rules), so a bot never
sees more than its seat may: another hand, the seed, or a secretly called partner are not in a view.
:class:`HeuristicBot` takes everything game-specific from the compiled spec (trump tables, card points,
melds, contracts, scoring outcomes), never from a game's name or a card's code; see ``docs/bots.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from functools import partial

from trickrules.compile.cards import NO_TRUMP, TRUMP_BASE
from trickrules.compile.rules import CompiledContract
from trickrules.engine.phases.call import CallView
from trickrules.engine.phases.deal import DealView
from trickrules.engine.phases.tricks_bid import BidsView
from trickrules.engine.state import GameLike
from trickrules.faces.hand_reading import Knowledge, Setting, knowledge
from trickrules.faces.random_bot import Bot, RandomBot
from trickrules.faces.search_bots import DeterminizedBot, IsmctsBot, make_bot
from trickrules.faces.strain_calls import AUCTION, strain_call
from trickrules.records.view import View

__all__ = ["BOTS", "Bot", "HeuristicBot", "ModelledDeterminizedBot", "RandomBot", "make_bots"]


# Tuning (docs/bots.md). A partner of unknown hand takes this share of the tricks the hand does not; a
# bid needs the rounded estimate to pass the contract's requirement by a margin (a share of the tricks).
# A contract won by taking at most K tricks (a beggar, a Null) is bid when the hand expects at most K + _LOW_SLACK.
_PARTNER_SHARE, _MARGIN_ALONE, _MARGIN_PARTNER, _LOW_SLACK = 0.45, 0.05, 0.15, 0.25
_NO_TRUMP_PENALTY = 0.75  # how much better than the best suit playing without trumps must look
_WITH_PARTNER = frozenset(("with_called", "with_partner", "teams"))



class _Trick:
    """One seat's play situation: the trump tables, what is still unseen, who plays with it."""

    def __init__(self, k: Knowledge, view: View, partners: set[int]) -> None:
        self.k, self.partners, self.trump = k, partners, k.trump_key(view.trump)
        self.table, self.place, lists = k.tables[self.trump], k.place[self.trump], k.lists[self.trump]
        self.hand = [k.index[c] for c in view.hand]
        seen = {*self.hand, *(k.index[c] for c in view.played), *(k.index[c] for _, c in view.trick)}
        #: Per effective suit, the places of its unseen cards (high first), and the place of the best of them.
        self.unseen = [[self.place[c] for c in suit if c not in seen] for suit in lists]
        self.top = [places[0] if places else len(suit) for places, suit in zip(self.unseen, lists, strict=True)]
        self.unseen_trumps = len(self.unseen[self.trump]) if self.trump != NO_TRUMP else 0
        self.length = [sum(1 for c in self.hand if self.table.eff_suit[c] == s) for s in range(len(lists))]
        self.sign = k.points_sign.get(view.contract or "", 0)
        self.tricks_matter = k.tricks_matter.get(view.contract or "", False)
        players, out = k.rules.players, set(view.seats_out)
        seat, order = (view.trick[0][0] if view.trick else view.seat), list[int]()
        while len(order) < players - len(out):  # the seats in playing order, from the leader
            order.append(seat)
            seat = next(s % players for s in range(seat + 1, seat + players) if s % players not in out)
        self.later = order[len(view.trick) + 1 :]  # those who play after this seat

    def is_trump(self, card: int) -> bool:
        return self.table.power[card] >= TRUMP_BASE

    def master(self, card: int) -> bool:  # no unseen card of its suit ranks above it
        return self.place[card] < self.top[self.table.eff_suit[card]]

    def beats(self, card: int, led: int) -> int:  # its power in a trick led in suit ``led``; -1: it cannot win
        return self.table.power[card] if self.table.eff_suit[card] == led or self.is_trump(card) else -1

    def above(self, card: int) -> int:  # how many unseen cards of its suit rank above it
        return sum(1 for p in self.unseen[self.table.eff_suit[card]] if p < self.place[card])

    def sure(self, card: int, led: int, rivals: Sequence[int]) -> bool:
        """Whether ``card``, winning the trick now, most likely stays the winner past the ``rivals``."""
        follow = len(self.unseen[led]) >= 2 * len(rivals)  # they will most likely follow suit
        if not rivals or (self.is_trump(card) and led != self.trump and follow):
            return True
        if self.is_trump(card):
            return self.place[card] < self.top[self.trump]
        return self.place[card] < self.top[led] and (not self.unseen_trumps or follow)

    def keep(self, card: int) -> tuple[bool, bool, int, int]:  # the least the hand wants to keep is thrown first
        return self.master(card), self.is_trump(card), self.k.points[card] * max(0, self.sign), -self.place[card]


class HeuristicBot:
    """Bids from an evaluation of its hand and plays by rules of thumb; deterministic (``docs/bots.md``).

    It bids the highest contract whose requirement (read from the scoring outcomes) its estimate of the side's
    tricks meets with a margin. It plays the cheapest card that holds a trick, draws trumps, leads masters,
    leaves a winning partner alone and feeds him points, else throws its least useful card; it ducks where
    tricks or points hurt. ``seed`` is accepted for the bot interface and not used.
    """

    def __init__(self, game: GameLike, seed: int = 0) -> None:
        self.game, self.seed, self._k = game, seed, knowledge(game)
        self._memo: dict[tuple[tuple[int, ...], int, Setting], float] = {}
        self._handlers: dict[str, Callable[[View], str]] = {  # by a verb of the legal actions, or by the phase
            "play": self._play, "declare": self._declare, "bid": self._bid, "trump": self._trump,
            "call": self._call, "give": self._give, "discard": self._give, "alone": self._alone,
            "announce": self._announce, "making": self._make, AUCTION: partial(strain_call, game, self._side_value),
        }  # fmt: skip

    def choose(self, view: View) -> str:
        """A legal action chosen by the rules of thumb."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        verbs = {a.split(" ", 1)[0] for a in legal}
        verb = view.phase if view.phase in self._handlers else next((v for v in self._handlers if v in verbs), "")
        return self._handlers[verb](view) if verb else "pass" if "pass" in legal else legal[0]

    # -- hand evaluation in the bot's situation --------------------------------------------------

    def _setting(self, contract: CompiledContract | None, hand_size: int, alone: bool = False) -> Setting:
        """The :data:`Setting` of a deal of ``contract`` (``alone``: the bot's partners sit out)."""
        rules = self._k.rules
        team = max((len(t) for t in rules.teams), default=1) - 1
        partners, out = (0, team) if alone else (team, 0)
        if contract is not None:
            partners = {"with_called": 1, "with_partner": 1, "teams": team}.get(contract.side, 0)
            out = contract.side == "partner_sits_out"
        active, unseen = rules.players - out, self._k.size - hand_size
        opponents = max(1, active - 1 - partners)
        return partners, opponents, min(1.0, hand_size * opponents / unseen) if unseen > 0 else 1.0, active

    def _estimate(self, hand: Sequence[int], trump: int, setting: Setting) -> float:
        """The hand's own expected tricks (remembered: an auction asks again with the same hand)."""
        key = (tuple(sorted(hand)), trump, setting)
        if key not in self._memo:
            self._memo = self._memo if len(self._memo) < 1024 else {}
            self._memo[key] = self._k.estimate(hand, trump, setting)
        return self._memo[key]

    def _side_value(self, hand: Sequence[int], trump: int, contract: CompiledContract | None) -> tuple[float, float]:
        """The side's expected tricks under ``trump`` (the hand's and its partners' share of the rest), the hand's."""
        setting = self._setting(contract, len(hand))
        own, total = self._estimate(hand, trump, setting), self._k.rules.tricks_per_deal
        return min(float(total), own + max(0.0, total - own) * _PARTNER_SHARE * setting[0]), own

    def _weakest(self, hand: Sequence[int], trump: int) -> int:
        table, place, points = self._k.tables[trump], self._k.place[trump], self._k.points
        return min(hand, key=lambda c: (table.is_trump(c), points[c], -place[c]))

    def _with_card(self, hand: list[int], trump: int, c: CompiledContract | None, cards: Iterable[int]) -> list[int]:
        """The best hand that takes one of ``cards`` for its weakest card."""
        rest, setting = list(hand), self._setting(c, len(hand))
        rest.remove(self._weakest(hand, trump))
        return max(([*rest, c] for c in cards), key=lambda h: self._estimate(h, trump, setting), default=hand)

    def _contract_value(self, view: View, hand: list[int], contract: CompiledContract) -> tuple[float, float, int]:
        """The side's expected tricks in ``contract``, the hand's own, and the trump they assume."""
        k = self._k
        trumps = [k.trump_key(view.trump)] if view.trump is not None else [t for t in k.tables if t != NO_TRUMP]
        values = {}
        for t in trumps or [NO_TRUMP]:
            cards = hand
            if contract.exchange and contract.call and contract.exchange_returns == "called_card":
                called = (c for c in range(k.size) if k.rank_of[c] in k.rules.call_ranks and c not in hand)
                cards = self._with_card(hand, t, contract, (c for c in called if not k.tables[t].is_trump(c)))
            values[t] = self._side_value(cards, t, contract)
        best = max(values, key=lambda t: values[t])
        if contract.trump_by in ("declarer", "made") or view.trump is not None:
            return *values[best], best
        n = len(values)  # another player names trumps: any suit may be
        return sum(v[0] for v in values.values()) / n, sum(v[1] for v in values.values()) / n, best

    # -- bidding and the other decisions before the play -----------------------------------------

    def _bid(self, view: View) -> str:
        k, legal, hand = self._k, view.legal, [self._k.index[c] for c in view.hand]
        bids = [a for a in legal if a.startswith("bid ")]
        if all(a[4:].isdigit() for a in bids):  # a number of tricks: the best bid for the tricks expected
            own = k.estimate(hand, k.trump_key(view.trump), self._setting(None, len(hand)))
            spread = 0.3 + 0.6 * math.sqrt(own * (len(hand) - own) / max(1, len(hand)))  # sure near none or all
            odds = [math.exp(-(((t - own) / spread) ** 2) / 2) for t in range(len(hand) + 1)]

            def expected(action: str) -> float:
                value = sum(float(k.bid_value(int(action[4:]), t, len(hand))) * w for t, w in enumerate(odds))
                return value - 1e-6 * abs(int(action[4:]) - own)

            return max(bids, key=expected)
        ladder = sorted(bids, key=lambda a: k.contracts[a[4:]].index, reverse=True)
        for action in ladder:  # the highest contract the hand is worth
            contract = k.contracts[action[4:]]
            value, own, trump = self._contract_value(view, hand, contract)
            total = k.rules.tricks_per_deal
            need, most = k.paying(contract.name, k.melds(hand, trump, contract.name), round(own))
            if need == 0 and most < total:  # won by taking few tricks: bid when the hand expects that few
                if own <= most + _LOW_SLACK:
                    return action
                continue
            margin = _MARGIN_PARTNER if contract.side in _WITH_PARTNER else _MARGIN_ALONE
            if value + 0.5 >= need + margin * total:  # the estimate, rounded, and a margin
                return action
        return "pass" if "pass" in legal else ladder[-1]

    def _trump(self, view: View) -> str:
        k = self._k
        hand, contract = [k.index[c] for c in view.hand], k.contracts.get(view.contract or "")

        def value(action: str) -> float:
            trump = k.trump_key(action[6:])
            return self._side_value(hand, trump, contract)[0] - _NO_TRUMP_PENALTY * (trump == NO_TRUMP)

        return max((a for a in view.legal if a.startswith("trump ")), key=value)

    def _make(self, view: View) -> str:
        """Making trumps round the table: the best suit, if the side expects the tricks the scoring needs."""
        k = self._k
        turned = k.index.get(dealt.turned) if (dealt := view.part(DealView)) is not None else None
        hand, total = [k.index[c] for c in view.hand], k.rules.tricks_per_deal
        values = {}
        for action in (a for a in view.legal if a.startswith("trump ")):
            trump, cards = k.trump_key(action[6:]), hand
            if turned is not None and view.seat == view.dealer and k.suit_of[turned] == trump:
                cards = self._with_card(hand, trump, None, [turned])  # the dealer takes up the turned card
            values[action] = self._side_value(cards, trump, None)[0]
        best = max(values, key=lambda a: values[a], default="pass")
        if "pass" in view.legal and values.get(best, 0.0) < k.need("", 0, total) + _MARGIN_PARTNER * total:
            return "pass"
        return best

    def _alone(self, view: View) -> str:
        k, hand = self._k, [self._k.index[c] for c in view.hand]
        own = k.estimate(hand, k.trump_key(view.trump), self._setting(None, len(hand), alone=True))
        return "alone" if own >= k.rules.tricks_per_deal - 0.25 else "pass"

    def _call(self, view: View) -> str:
        k, hand = self._k, [self._k.index[c] for c in view.hand]
        trump, contract = k.trump_key(view.trump), k.contracts.get(view.contract or "")
        table, calls = k.tables[trump], {k.index[a[5:]]: a for a in view.legal}
        if contract is not None and contract.side not in _WITH_PARTNER:  # the called card comes to the hand
            others = [c for c in calls if c not in hand] or list(calls)
            best = self._with_card(hand, trump, contract, others)
            return calls[next((c for c in best if c not in hand), others[0])]
        counts = [sum(1 for c in hand if table.eff_suit[c] == s) for s in range(len(k.lists[trump]))]
        # another player's card, not a trump, of the suit the hand holds most of
        return calls[max(calls, key=lambda c: (c not in hand, not table.is_trump(c), counts[table.eff_suit[c]]))]

    def _give(self, view: View) -> str:
        """Give (or discard) the weakest card; pass the most dangerous ones where points hurt."""
        k = self._k
        trump = k.trump_key(view.trump)
        place, lists, eff = k.place[trump], k.lists[trump], k.tables[trump].eff_suit
        cards = {k.index[a.split(" ", 1)[1]]: a for a in view.legal if " " in a}
        if view.phase == "passing" and k.points_sign[""] < 0:
            return cards[max(cards, key=lambda c: k.points[c] + 10 * (1 - place[c] / len(lists[eff[c]])))]
        return cards[self._weakest(list(cards), trump)]

    def _declare(self, view: View) -> str:
        points = {d.name: d.points for d in self._k.rules.declarations}
        return max((a for a in view.legal if a.startswith("declare ")), key=lambda a: points.get(a.split()[1], 0))

    def _announce(self, view: View) -> str:
        """Announce (or lead into) a bonus for every trick only with a hand of sure winners."""
        s = _Trick(self._k, view, self._partners(view))
        if all(s.master(c) and (s.is_trump(c) or not s.unseen_trumps) for c in s.hand):
            announce = [a for a in view.legal if a.startswith("announce ")]
            if announce or any(a.startswith("play ") for a in view.legal):
                return announce[0] if announce else self._play(view)
        return "pass" if "pass" in view.legal else view.legal[0]

    # -- the play --------------------------------------------------------------------------------

    def _partners(self, view: View) -> set[int]:
        """The seats this one knows to play with it in this deal."""
        rules, me, declarer = self._k.rules, view.seat, view.declarer
        partner = call.partner if (call := view.part(CallView)) is not None else None
        active = {s for s in range(rules.players) if s not in view.seats_out}
        contract = self._k.contracts.get(view.contract or "")
        if contract is None or declarer is None:
            return next((set(t) for t in rules.teams if me in t), {me}) & active - {me}
        if contract.side in ("with_partner", "teams"):
            ours = next((set(t) for t in rules.teams if declarer in t), {declarer})
        elif contract.side == "with_called" and partner is None and me != declarer:
            return set()  # the declarer's partner is not known yet
        else:
            ours = {declarer, partner if contract.side == "with_called" and partner is not None else declarer}
        ours &= active
        return ours - {me} if me in ours else active - ours - {me}

    def _play(self, view: View) -> str:
        s = _Trick(self._k, view, self._partners(view))
        cards = {self._k.index[a[5:]]: a for a in view.legal if a.startswith("play ")}
        want = s.sign >= 0 or s.tricks_matter  # whether taking a trick helps
        said = view.part(BidsView)
        bids = said.bids if said is not None else ()
        if bids:  # a bid of tricks: take tricks until the side's bid is made (a nil bidder never)
            side = [view.seat, *s.partners] if bids[view.seat] != 0 else [view.seat]
            want = sum(view.tricks_won[p] for p in side) < sum(bids[p] or 0 for p in side)
        play = self._follow if view.trick else self._lead
        return cards[play(view, s, list(cards), want)]

    def _lead(self, view: View, s: _Trick, options: list[int], want: bool) -> int:
        points, eff = self._k.points, s.table.eff_suit
        if not want:  # the card most likely to lose, carrying no points that hurt
            return min(options, key=lambda c: (points[c] * (s.sign < 0), s.is_trump(c), -s.above(c), -s.place[c]))
        trumps = sorted((c for c in options if s.is_trump(c)), key=lambda c: s.place[c])
        declaring = view.declarer is None or view.declarer == view.seat or view.declarer in s.partners
        if trumps and s.unseen_trumps and declaring and s.master(trumps[0]):  # draw trumps with a master trump
            return trumps[0]
        masters = [c for c in options if not s.is_trump(c) and s.master(c)]
        if masters:  # the master least likely to be ruffed
            return max(masters, key=lambda c: (len(s.unseen[eff[c]]), points[c], -s.place[c]))
        plain = [c for c in options if not s.is_trump(c)]
        if plain:  # low from the longest suit, keeping points
            return min(plain, key=lambda c: (points[c] * (s.sign > 0), -s.length[eff[c]], -s.place[c]))
        return min(options, key=s.keep)

    def _follow(self, view: View, s: _Trick, options: list[int], want: bool) -> int:
        k = self._k
        led = s.table.eff_suit[k.index[view.trick[0][1]]]
        winner, best_card = view.trick[0][0], k.index[view.trick[0][1]]
        for seat, code in view.trick[1:]:
            if s.beats(k.index[code], led) > s.beats(best_card, led):
                winner, best_card = seat, k.index[code]
        best = s.beats(best_card, led)
        beat = [c for c in options if s.beats(c, led) > best]
        under = [c for c in options if s.beats(c, led) <= best]
        rivals = [seat for seat in s.later if seat not in s.partners]
        if not want:
            hurt = s.sign < 0
            if under:  # shed the highest card that loses, points first where they hurt
                return max(under, key=lambda c: (k.points[c] * hurt, -s.place[c]))
            if not s.later:  # the trick is ours anyway: win it with the highest card
                return max(beat, key=lambda c: (-k.points[c] * hurt, -s.place[c]))
            return min(beat, key=lambda c: (k.points[c] * hurt, s.table.power[c]))
        if winner in s.partners:
            if not under:
                return min(beat, key=lambda c: s.table.power[c])
            if s.sign > 0 and s.sure(best_card, led, rivals):  # feed points to a partner who holds the trick
                return max(under, key=lambda c: (k.points[c], not s.master(c), not s.is_trump(c), s.place[c]))
            return min(under, key=s.keep)
        if beat:  # the cheapest card that holds the trick; any winner when no partner plays after
            on_table = sum(k.points[k.index[code]] for _, code in view.trick)
            cheap = sorted(beat, key=lambda c: (s.is_trump(c), s.table.power[c]))
            sure = [c for c in cheap if s.sure(c, led, rivals)]
            partner_later = any(seat in s.partners for seat in s.later)
            choice = sure[0] if sure else (None if partner_later else cheap[0])
            if choice is not None and (s.tricks_matter or on_table > 0 or not s.is_trump(choice)):
                return choice
        return min(under or options, key=s.keep)


class ModelledDeterminizedBot(DeterminizedBot):
    """The determinized bot with the heuristic bot as its model of the bidding: ``determinized`` by name.

    It searches the decisions before the play where the play that follows is solved and hands them to
    the heuristic bot elsewhere (random playouts misjudge what a bid is worth), and keeps first the
    worlds in which the heuristic bot would have bid as the other seats did (``search_bids`` and
    ``infer`` of :class:`~trickrules.faces.search_bots.DeterminizedBot`).
    """

    def __init__(self, game: GameLike, seed: int = 0, budget_ms: float | None = None) -> None:
        bidder = HeuristicBot(game, seed)
        super().__init__(game, seed, budget_ms=budget_ms, bidder=bidder, search_bids=True, infer=True)


#: The bots by name, as the CLI offers them.
BOTS: dict[str, Callable[[GameLike, int], Bot]] = {"random": RandomBot, "heuristic": HeuristicBot}
BOTS |= {"determinized": ModelledDeterminizedBot, "ismcts": IsmctsBot}  # the search bots (faces/search_bots.py)


def make_bots(game: GameLike, kind: str, seed: int = 0) -> list[Bot]:
    """A bot per seat, each with its own seed: ``kind`` for every seat, or one per seat (``"ismcts,heuristic,..."``).

    A search bot's name may give its time budget a decision: ``ismcts:200ms``.
    """
    kinds = kind.split(",") if "," in kind else [kind] * game.rules.players
    if len(kinds) != game.rules.players:
        raise ValueError(f"{len(kinds)} bots named for {game.rules.players} seats: {kind!r}")
    return [make_bot(BOTS, k, game, seed * 16 + seat + 1) for seat, k in enumerate(kinds)]
