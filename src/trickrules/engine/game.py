"""A compiled game, and loading one.

:func:`load` returns a :class:`Game`; ``game.new_match()`` starts a match
(:class:`~trickrules.engine.state.State`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from trickrules.compile.cards import CardTable
from trickrules.compile.codegen import unpacker
from trickrules.compile.rules import Rules
from trickrules.compile.tables import Tables, compile_tables
from trickrules.engine.actions import Action
from trickrules.engine.events import BidMade, CardPlayed, Passed, shared
from trickrules.engine.mechanism import Mechanism
from trickrules.engine.phases import mechanisms
from trickrules.engine.phases.deal import new_match
from trickrules.engine.records import Actor, Phase
from trickrules.engine.scoring import ScoringPlan
from trickrules.errors import ArgumentError, IllegalActionError, SpecError
from trickrules.spec.loader import fingerprint, load_spec
from trickrules.spec.model import Spec

if TYPE_CHECKING:
    from trickrules.engine.state import State

__all__ = ["Game", "load"]


class Game:
    """A game compiled from a spec (and its chosen options).

    Read ``spec``, ``name``, ``title``, ``fingerprint``, ``options``,
    ``players``, ``cards`` and ``rules``; start a match with
    :meth:`new_match`. Two games are equal when their fingerprints are (the
    same spec with the same options). A game pickles by its spec, so a
    process pool can take it.
    """

    __slots__ = (
        "_actions",
        "_apply",
        "_legal",
        "_mechanisms",
        "_scoring",
        "_shared",
        "_tables",
        "fingerprint",
        "name",
        "options",
        "source",
        "spec",
    )

    def __init__(self, spec: Spec, source: str = "") -> None:
        self.spec = spec
        #: Where the spec came from (a bundled spec's file, or the path given).
        self.source = source
        self.name = spec.name
        #: The chosen value of every option, default or not.
        self.options: Mapping[str, str] = MappingProxyType(dict(spec.chosen))
        self._tables: Tables = compile_tables(spec, source or spec.name)
        self._shared = SharedValues(self._tables)
        self._actions: Mapping[str, Action] = self._shared.actions
        self._scoring = ScoringPlan(self._tables)
        self._mechanisms: Mapping[Phase, Mechanism] = mechanisms(self._tables)
        # The two questions asked at every step, by phase: one lookup from the state.
        self._legal = MappingProxyType({p: m.legal for p, m in self._mechanisms.items()})
        self._apply = MappingProxyType({p: m.apply for p, m in self._mechanisms.items()})
        self.fingerprint = fingerprint(spec)  # set last: from here on the game is immutable

    # -- what a reader may use -------------------------------------------------------

    @property
    def title(self) -> str:
        """The game's title, as the spec gives it."""
        return self.spec.title

    @property
    def players(self) -> int:
        """How many seats the table has."""
        return self._tables.players

    @property
    def cards(self) -> CardTable:
        """The deck and its rank tables."""
        return self._tables.cards

    @property
    def rules(self) -> Rules:
        """The compiled rules: contracts, obligations, scoring."""
        return self._tables.rules

    def codes_of(self, mask: int) -> tuple[str, ...]:
        """The codes of the cards in a mask (bit ``i`` for ``cards.codes[i]``), in deck order."""
        if type(mask) is not int or not 0 <= mask < 1 << self._tables.cards.size:
            size = self._tables.cards.size
            raise ArgumentError(f"mask must be an integer from 0 to 2**{size} - 1 (a set of cards), found {mask!r}.")
        return self._tables.codes_of(mask)

    def action(self, text: str) -> Action:
        """The action with this text form (shared where possible, so cheap to compare)."""
        found = self._actions.get(text)
        return found if found is not None else Action.parse(text)

    def as_action(self, action: object) -> Action:
        """``action`` as an :class:`Action`: an action, or its text form."""
        if type(action) is str:
            return self.action(action)
        if isinstance(action, Action):
            return action
        raise IllegalActionError(f"{action!r} is not an action (an Action or its text, such as 'play 7S').")

    def seat(self, seat: object, what: str = "seat") -> int:
        """``seat`` checked to be a seat of this table; :class:`ArgumentError` naming ``what`` if not."""
        if type(seat) is not int or not 0 <= seat < self._tables.players:
            raise ArgumentError(f"{what} must be a seat from 0 to {self._tables.players - 1}, found {seat!r}.")
        return seat

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
        resuming a match or testing its end. Bad arguments raise
        :class:`~trickrules.errors.ArgumentError`.
        """
        return new_match(self, seed=seed, dealer=dealer, hands=hands, turned=turned, scores=scores, pot=pot)

    def __repr__(self) -> str:
        chosen = ", ".join(f"{k}={v}" for k, v in self.options.items() if v != self.spec.options[k].default)
        return f"<Game {self.name!r}{' ' + chosen if chosen else ''} {self.fingerprint}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self is other or self.fingerprint == other.fingerprint

    def __hash__(self) -> int:
        return hash(self.fingerprint)

    def __reduce__(self) -> tuple[Callable[[Spec, str], Game], tuple[Spec, str]]:
        return (_restore_game, (self.spec, self.source))

    def __setattr__(self, name: str, value: object) -> None:
        if hasattr(self, "fingerprint"):
            raise AttributeError(f"a Game is immutable: {name!r} cannot be set")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Game is immutable: {name!r} cannot be deleted")


class SharedValues:
    """The actions and common events of a game, built once and shared by every state."""

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
        self.pass_events: tuple[tuple[tuple[Actor, Passed]], ...] = tuple(
            ((seat, shared(Passed, seat)),) for seat in seats
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
            if decl.suit == "trump":
                actions.append(Action("declare", decl.name))
            else:
                actions += [Action("declare", f"{decl.name} {s}") for s in t.cards.suit_codes]
        self.actions: Mapping[str, Action] = MappingProxyType({str(a): a for a in actions})
        self.pass_action = self.actions["pass"]
        self.bid_actions = tuple(self.actions[f"bid {c.name}"] for c in rules.contracts)
        trump_texts = [f"trump {s}" for s in t.cards.suit_codes]
        if rules.allow_no_trump:
            trump_texts.append("trump none")
        self.trump_actions = tuple(self.actions[x] for x in trump_texts)


_RESTORED: dict[tuple[str, str], Game] = {}


def _restore_game(spec: Spec, source: str) -> Game:
    """Unpickle a game: compiled once per process and spec."""
    key = (fingerprint(spec), source)
    found = _RESTORED.get(key)
    if found is None:
        found = _RESTORED[key] = Game(spec, source)
    return found


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
