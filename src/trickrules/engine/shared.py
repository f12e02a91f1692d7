"""The actions and common events of a game, built once per game and shared by every state."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from trickrules.compile.codegen import unpacker
from trickrules.compile.modes import DeclarationSuit
from trickrules.compile.tables import Tables
from trickrules.engine.actions import Action
from trickrules.engine.events import BidMade, CardPlayed, Passed, shared
from trickrules.engine.values import Actor, Phase

__all__ = ["SharedValues"]


class SharedValues:
    """The actions and common events of a game, built once and shared by every state.

    Every field is a tuple, a read-only mapping or a function, and none can be
    set again once the last one is (``trump_actions``): setting, deleting, or
    calling ``__init__`` again raises ``AttributeError``, as on the game.
    """

    __slots__ = (
        "actions",
        "bid_actions",
        "bid_events",
        "pass_action",
        "pass_events",
        "play_actions",
        "play_actions_of",
        "play_events",
        "trump_actions",
    )

    def __init__(self, t: Tables) -> None:
        rules = t.rules
        codes = t.cards.codes
        seats = range(t.players)
        self.play_actions = tuple(Action("play", c) for c in codes)
        #: The play actions of the cards in a mask, in deck order.
        self.play_actions_of: Callable[[int], tuple[Action, ...]] = unpacker(self.play_actions)
        #: Per seat (and contract, and card): the step's events, shared.
        #: Per seat: a pass in the auction.
        self.pass_events: tuple[tuple[tuple[Actor, Passed]], ...] = tuple(
            ((seat, shared(Passed, seat, Phase.BIDDING.value)),) for seat in seats
        )
        self.bid_events: tuple[tuple[tuple[tuple[Actor, BidMade]], ...], ...] = tuple(
            tuple(((seat, shared(BidMade, seat, c.name)),) for c in rules.contracts) for seat in seats
        )
        self.play_events: tuple[tuple[tuple[tuple[Actor, CardPlayed]], ...], ...] = tuple(
            tuple(((seat, CardPlayed(seat, code, "")),) for code in codes) for seat in seats
        )
        actions: list[Action] = [*self.play_actions, Action("pass")]
        actions += [Action("give", c) for c in codes]
        actions += [Action("call", c) for c in codes]
        actions += [Action("bid", c.name) for c in rules.contracts]
        actions += [Action("trump", s) for s in t.cards.suit_codes] + [Action("trump", "none")]
        actions += [Action("announce", name) for name in t.announcement_names]
        if rules.making is not None:
            actions += [Action("discard", c) for c in codes] + [Action("alone")]
        for decl in rules.declarations:
            if decl.suit is DeclarationSuit.TRUMP:
                actions.append(Action("declare", decl.name))
            else:
                actions += [Action("declare", f"{decl.name} {s}") for s in t.cards.suit_codes]
        self.actions: Mapping[str, Action] = MappingProxyType({str(a): a for a in actions})
        self.pass_action = self.actions["pass"]
        self.bid_actions = tuple(self.actions[f"bid {c.name}"] for c in rules.contracts)
        trump_texts = [f"trump {s}" for s in t.cards.suit_codes]
        if rules.allow_no_trump:
            trump_texts.append("trump none")
        self.trump_actions = tuple(self.actions[x] for x in trump_texts)  # set last: from here on, immutable

    def __setattr__(self, name: str, value: object) -> None:
        if hasattr(self, "trump_actions"):
            raise AttributeError(f"the shared values of a game are immutable: {name!r} cannot be set")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"the shared values of a game are immutable: {name!r} cannot be deleted")
