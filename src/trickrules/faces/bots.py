"""Bots for simulation: a random one and a simple rule-of-thumb one.

Both decide from ``View.from_state(state, seat)`` alone (and the game's public rules),
so a bot never sees more than its seat may: another hand, the seed, or a
secretly called partner are not in a view.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from trickrules.compile.cards import NO_TRUMP, TRUMP_BASE
from trickrules.engine.state import GameLike
from trickrules.records.view import View

__all__ = ["BOTS", "Bot", "HeuristicBot", "RandomBot", "make_bots"]


class Bot(Protocol):
    """Anything that picks an action's text from a view."""

    def choose(self, view: View) -> str:
        """The text of the action to take; it must be one of ``view.legal``."""
        ...


class RandomBot:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, game: GameLike, seed: int = 0) -> None:
        self.game = game
        self._rng = random.Random(seed)

    def choose(self, view: View) -> str:
        """A legal action at random."""
        return view.legal[self._rng.randrange(len(view.legal))]


class HeuristicBot:
    """Plays by cheap rules of thumb taken from the documents' advice.

    It bids only with several top trumps, names as trumps the suit it holds
    most of and calls a King in that suit's long side suit, always declares
    melds, wins a trick as cheaply as it can unless its partner (when known)
    is already winning, and otherwise throws its lowest card.
    """

    def __init__(self, game: GameLike, seed: int = 0) -> None:
        self.game = game
        self._rng = random.Random(seed)

    def choose(self, view: View) -> str:
        """A legal action chosen by the rules of thumb."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        verbs = {a.split()[0] for a in legal}
        if "play" in verbs:
            return self._play(view)
        if "declare" in verbs:
            return next(a for a in legal if a.startswith("declare"))
        if "bid" in verbs:
            return self._bid(view)
        if "trump" in verbs:
            return self._trump(view)
        if "call" in verbs:
            return self._call(view)
        if "give" in verbs:
            return min((a for a in legal), key=lambda a: self._plain_power(view, a[5:]))
        if "discard" in verbs:  # the weakest card, after taking up the turned card
            return min((a for a in legal), key=lambda a: self._plain_power(view, a[8:]))
        return "pass" if "pass" in legal else legal[0]

    # -- decisions ---------------------------------------------------------------------

    def _suit_counts(self, view: View) -> dict[str, int]:
        cards = self.game.cards
        counts = dict.fromkeys(cards.suit_codes, 0)
        for code in view.hand:
            counts[cards.suit_codes[cards.suit_of[cards.card(code)]]] += 1
        return counts

    def _best_suit(self, view: View) -> str:
        counts = self._suit_counts(view)
        return max(counts, key=lambda s: (counts[s], -self.game.cards.suit_codes.index(s)))

    def _strength(self, view: View, trump: str) -> int:
        cards = self.game.cards
        table = self.game.cards.table(cards.suit(trump))
        top = table.order[: max(3, len(table.order) // 3)]
        held = {cards.card(c) for c in view.hand}
        return sum(1 for c in top if c in held) * 2 + sum(1 for c in table.order if c in held)

    def _bid(self, view: View) -> str:
        bids = [a for a in view.legal if a.startswith("bid ")]
        if "pass" not in view.legal:  # a bid of a number of tricks: the legal one nearest the hand's tricks
            return min(bids, key=lambda a: abs(int(a[4:]) - self._sure_tricks(view)))
        trump = view.trump or self._best_suit(view)
        strength = self._strength(view, trump)
        threshold = len(view.hand)
        if strength >= threshold + 3 and bids:
            return bids[-1] if strength >= threshold + 6 else bids[0]
        return "pass"

    def _sure_tricks(self, view: View) -> int:
        """About how many tricks the hand takes: its two top cards of each plain suit, and its trumps past the third."""
        cards = self.game.cards
        trump = NO_TRUMP if view.trump in (None, "none") else cards.suit(view.trump or "")
        table = cards.table(trump)
        held = {cards.card(code) for code in view.hand}
        tops = sum(1 for order in table.plain_orders for c in order[:2] if c in held)
        trumps = sum(1 for c in table.order if c in held)
        return tops + max(0, trumps - 3) + (1 if trumps and table.order[0] in held else 0)

    def _trump(self, view: View) -> str:
        best = f"trump {self._best_suit(view)}"
        return best if best in view.legal else view.legal[0]

    def _call(self, view: View) -> str:
        counts = self._suit_counts(view)
        cards = self.game.cards
        return max(view.legal, key=lambda a: counts[cards.suit_codes[cards.suit_of[cards.card(a[5:])]]])

    def _plain_power(self, view: View, code: str) -> int:
        cards = self.game.cards
        trump = NO_TRUMP if view.trump in (None, "none") else cards.suit(view.trump or "")
        return self.game.cards.table(trump).power[cards.card(code)] * 100 + cards.points[cards.card(code)]

    def _play(self, view: View) -> str:
        game = self.game
        cards = game.cards
        trump = NO_TRUMP if view.trump == "none" else cards.suit(view.trump or cards.suit_codes[0])
        table = game.cards.table(trump)
        eff, power = table.eff_suit, table.power
        options = [a for a in view.legal if a.startswith("play ")]
        if not view.trick:
            # Lead the strongest card when it is a top trump, else the lowest plain card.
            strongest = max(options, key=lambda a: power[cards.card(a[5:])])
            if power[cards.card(strongest[5:])] >= TRUMP_BASE + len(table.order) - 2:
                return strongest
            return min(options, key=lambda a: (power[cards.card(a[5:])] >= TRUMP_BASE, power[cards.card(a[5:])]))
        led = eff[cards.card(view.trick[0][1])]

        def key(code: str) -> int:
            c = cards.card(code)
            return power[c] if power[c] >= TRUMP_BASE or eff[c] == led else 0

        best_seat, best_card = max(view.trick, key=lambda sc: key(sc[1]))
        partner_winning = best_seat in self._partners(view)
        winners = [a for a in options if key(a[5:]) > key(best_card)]
        if winners and not partner_winning:
            return min(winners, key=lambda a: key(a[5:]))
        return min(options, key=lambda a: (cards.points[cards.card(a[5:])], key(a[5:])))

    def _partners(self, view: View) -> set[int]:
        rules = self.game.rules
        if rules.teams:
            team = next(t for t in rules.teams if view.seat in t)
            return {s for s in team if s != view.seat}
        if view.partner is not None and view.partner != view.seat:
            return {view.partner}
        if view.partner == view.seat and view.declarer is not None:
            return {view.declarer}
        return set()


#: The bots by name, as the CLI offers them.
BOTS: dict[str, Callable[[GameLike, int], Bot]] = {"random": RandomBot, "heuristic": HeuristicBot}


def make_bots(game: GameLike, kind: str, seed: int = 0) -> list[Bot]:
    """One bot of ``kind`` per seat, each with its own seed."""
    if kind not in BOTS:
        raise ValueError(f"unknown bot {kind!r} (bots: {', '.join(BOTS)})")
    return [BOTS[kind](game, seed * 16 + seat + 1) for seat in range(game.rules.players)]
