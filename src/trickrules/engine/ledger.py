"""The scores and the pot while a deal's payments are made: who each role names, and how chips move."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from trickrules.compile.modes import PaymentRole, Remainder, Unit
from trickrules.compile.rules import CompiledOutcome, CompiledPayment
from trickrules.engine.evaluation import in_deal
from trickrules.engine.events import POT, Awarded, Event, paid
from trickrules.engine.values import DEALER, Actor, DealInfo
from trickrules.errors import FormulaError
from trickrules.spec.formula import Number, to_int

__all__ = ["Ledger", "others"]

Env = dict[str, Number | bool]


#: The seats not in a side, by table size and side (see :func:`others`). A table of many seats has many
#: sides, so at most ``_OTHERS_LIMIT`` are kept; the rest are worked out every time.
_OTHERS: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}
_OTHERS_LIMIT = 4096


def others(players: int, side: tuple[int, ...]) -> tuple[int, ...]:
    """The seats of a ``players``-seat table not in ``side``, in order (remembered: sides recur)."""
    key = (players, side)
    found = _OTHERS.get(key)
    if found is None:
        found = tuple(s for s in range(players) if s not in side)
        if len(_OTHERS) < _OTHERS_LIMIT:
            _OTHERS[key] = found
    return found


class Ledger:
    """The scores and the pot while a deal's payments are made (``pay_out`` makes those of an outcome)."""

    __slots__ = ("d", "events", "players", "pot", "rules", "scores", "sides")

    def __init__(
        self,
        rules: Any,
        d: DealInfo,
        scores: list[int],
        pot: int,
        events: list[tuple[Actor, Event]],
        sides: tuple[tuple[int, ...], ...],
    ) -> None:
        self.rules = rules
        self.d = d
        self.players = rules.players
        self.scores = scores
        self.pot = pot
        self.events = events
        #: The declarer's side and the defenders, when there is a contract.
        self.sides = sides

    def roles(self, role: PaymentRole | None, side: tuple[int, ...], player: int) -> tuple[int, ...]:
        """The seats (or the pot) a payment role names, for this subject (no role: every seat)."""
        seats = _ROLE_SEATS.get(role)
        return seats(self, side, player) if seats is not None else tuple(range(self.players))

    def pay_out(self, outcome: CompiledOutcome, env: Env, side: tuple[int, ...], player: int) -> None:
        """Make the payments of one outcome or bonus that holds."""
        for pay in outcome.pay:
            try:
                self._pay(outcome, pay, env, side, player)
            except FormulaError as error:
                raise in_deal(error, pay.amount, env, self.d.number) from None

    def _pay(
        self, outcome: CompiledOutcome, pay: CompiledPayment, env: Env, side: tuple[int, ...], player: int
    ) -> None:
        """Make one payment of an outcome or bonus that holds."""
        rules = self.rules
        where = f"scoring {outcome.name}"
        receivers = self.roles(pay.to, side, player)
        if not receivers:
            return
        amount = pay.amount.evaluate(env)
        if rules.unit is Unit.POINTS:
            pts = to_int(amount, rules.rounding, where=where)
            if pay.split:
                pts = to_int(Fraction(pts, len(receivers)), rules.rounding)
            if pts:
                for s in receivers:
                    self.scores[s] += pts
                self.events.append((DEALER, Awarded(receivers, pts, outcome.name)))
            return
        for payer in self.roles(pay.payer, side, player):
            targets = tuple(r for r in receivers if r != payer) if payer in receivers else receivers
            if targets:
                self._move(outcome.name, pay, amount, payer, targets, where)

    def _move(self, reason: str, pay: Any, amount: Number, payer: int, targets: tuple[int, ...], where: str) -> None:
        rules = self.rules
        d = self.d
        if type(amount) is int and (not pay.split or amount % len(targets) == 0):
            chips = amount // len(targets) if pay.split else amount  # whole chips: no rounding
        else:
            each = Fraction(amount, len(targets)) if pay.split else amount
            chips = to_int(each, rules.rounding, where=where)
        extra_to: int | None = None
        leftover = 0
        if pay.split and pay.remainder is not Remainder.STAYS and type(amount) is int:
            # The chips a split leaves over go to one receiver instead of staying put.
            leftover = amount - chips * len(targets)
            if leftover and pay.remainder is Remainder.DECLARER and d.declarer in targets:
                extra_to = d.declarer
            elif leftover and pay.remainder is Remainder.FIRST_AFTER_DEALER:
                n = self.players
                extra_to = min(targets, key=lambda s: (s - d.dealer - 1) % n if s >= 0 else n)
        for r in targets:
            moved = chips + leftover if r == extra_to else chips
            if payer == POT and moved > self.pot:
                moved = self.pot  # the pot never pays out more than it holds
            if moved <= 0:
                continue
            if payer == POT:
                self.pot -= moved
            else:
                self.scores[payer] -= moved
            if r == POT:
                self.pot += moved
            else:
                self.scores[r] += moved
            self.events.append((DEALER, paid(payer, r, moved, reason)))


def _declarer(ledger: Ledger, side: tuple[int, ...], player: int) -> tuple[int, ...]:
    declarer = ledger.d.declarer
    return (declarer,) if declarer is not None else ()


def _partner(ledger: Ledger, side: tuple[int, ...], player: int) -> tuple[int, ...]:
    d = ledger.d
    return (d.partner,) if d.partner is not None and d.partner != d.declarer else ()


#: The seats each payment role names, for a subject (its side, its player); a table rather than a
#: ladder of comparisons, so that every role costs one lookup.
_ROLE_SEATS: dict[PaymentRole | None, Callable[[Ledger, tuple[int, ...], int], tuple[int, ...]]] = {
    PaymentRole.POT: lambda ledger, side, player: (POT,),
    PaymentRole.DECLARER: _declarer,
    PaymentRole.PARTNER: _partner,
    PaymentRole.DECLARER_SIDE: lambda ledger, side, player: ledger.sides[0] if ledger.sides else (),
    PaymentRole.DEFENDERS: lambda ledger, side, player: ledger.sides[1] if ledger.sides else (),
    PaymentRole.SIDE: lambda ledger, side, player: side,
    PaymentRole.OPPONENTS: lambda ledger, side, player: others(ledger.players, side),
    PaymentRole.PLAYER: lambda ledger, side, player: (player,),
    PaymentRole.OTHERS: lambda ledger, side, player: others(ledger.players, (player,)),
}
