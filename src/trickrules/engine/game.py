"""A compiled game, and loading one.

:func:`load` returns a :class:`Game`; ``game.new_match()`` starts a match
(:class:`~trickrules.engine.state.State`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from trickrules.compile.cards import CardTable
from trickrules.compile.rules import Rules
from trickrules.compile.tables import Tables, compile_tables
from trickrules.engine.actions import Action
from trickrules.engine.mechanism import Events, Mechanism
from trickrules.engine.phases import game_mechanisms
from trickrules.engine.phases.starting import new_match
from trickrules.engine.scoring import scoring_plan
from trickrules.engine.shared import SharedValues
from trickrules.engine.state import State
from trickrules.engine.values import DealInfo, Stacked, Tally
from trickrules.errors import ArgumentError, IllegalActionError, SpecError, shown
from trickrules.spec.loader import bundled_names, fingerprint, load_spec
from trickrules.spec.model import Spec

__all__ = ["Game", "load"]


class Game:
    """A game compiled from a spec (and its chosen options).

    Read ``spec``, ``name``, ``title``, ``fingerprint``, ``options``,
    ``players``, ``cards`` and ``rules``; start a match with
    :meth:`new_match`. Two games are equal when their fingerprints are (the
    same spec with the same options). A game pickles by its spec, so a
    process pool can take it.

    The other attributes (``tables``, ``shared``, ``scoring``, ``slot``,
    ``mechanisms`` and the mechanisms' hooks) are the engine's internal
    interface to the compiled game, typed in
    :class:`~trickrules.engine.state.GameLike`: what the engine's modules and
    a mechanism (built-in or registered) read. Like everything on a game they
    cannot be set.
    """

    __slots__ = (
        "_action_ids",
        "_actions",
        "_ids_by_action",
        "after_trick_hooks",
        "apply_by_phase",
        "chooser_hooks",
        "distinct_actions",
        "fingerprint",
        "lead_hooks",
        "legal_by_phase",
        "mechanisms",
        "name",
        "narrow_hooks",
        "on_card_hooks",
        "on_play_start_hooks",
        "on_trick_hooks",
        "options",
        "part_mechanisms",
        "reasons",
        "scoring",
        "sequence",
        "shared",
        "slot",
        "source",
        "spec",
        "tables",
        "trick_winner_hooks",
        "watch_hooks",
    )

    def __init__(self, spec: Spec, source: str = "") -> None:
        self.spec = spec
        #: Where the spec came from (a bundled spec's file, or the path given).
        self.source = source
        self.name = spec.name
        #: The chosen value of every option, default or not.
        self.options: Mapping[str, str] = MappingProxyType(dict(spec.chosen))
        self.tables: Tables = compile_tables(spec, source or spec.name)
        self.shared = SharedValues(self.tables)
        self._actions: Mapping[str, Action] = self.shared.actions
        self.scoring = scoring_plan(self.tables)
        found = game_mechanisms(self.tables)
        #: The mechanisms in the order of their records in a deal, each one's position, and the order
        #: the generic loop asks them in (:mod:`trickrules.engine.loop`).
        self.part_mechanisms: tuple[Mechanism, ...] = found.parts
        self.slot: Mapping[str, int] = found.slot
        self.sequence: tuple[Mechanism, ...] = found.sequence
        self.mechanisms: Mapping[str, Mechanism] = found.by_phase
        self.reasons: Mapping[str, str] = found.reasons
        #: Every action a seat may take in this game, each once: an action's id is its place here
        #: (:meth:`action_id`). The common actions first, in :class:`SharedValues`' order (``play CARD``
        #: for each card in deck order: a card's id is its index), then each mechanism's own, in the
        #: order of the game's sequence.
        self.distinct_actions: tuple[Action, ...] = _distinct_actions(self.shared, found.sequence, self.tables)
        self._action_ids: Mapping[str, int] = MappingProxyType({str(a): i for i, a in enumerate(self.distinct_actions)})
        self._ids_by_action: Mapping[Action, int] = MappingProxyType(
            {a: i for i, a in enumerate(self.distinct_actions)}
        )
        # The mechanisms' hooks the play and the state ask, gathered once (most games have few or none).
        self.after_trick_hooks: tuple[
            Callable[[State, tuple[int, ...], DealInfo, Tally, Events, int], State | None], ...
        ] = tuple(
            m.after_trick
            for m in found.sequence
            if m.after_trick is not None and (m.opens_windows is None or m.opens_windows(self.tables))
        )
        self.on_card_hooks: tuple[
            Callable[[State, DealInfo, Tally, int, Events], tuple[DealInfo, Tally, Events]], ...
        ] = tuple(m.on_card for m in found.sequence if m.on_card is not None)
        self.narrow_hooks: tuple[Callable[[State, int, int, str], tuple[int, str]], ...] = tuple(
            m.narrow for m in found.sequence if m.narrow is not None
        )
        self.chooser_hooks: tuple[Callable[[State], int | None], ...] = tuple(
            m.chooser for m in found.sequence if m.chooser is not None
        )
        self.lead_hooks: tuple[Callable[[State, DealInfo], int | None], ...] = tuple(
            m.leads for m in found.sequence if m.leads is not None
        )
        self.watch_hooks: tuple[Callable[[Any, DealInfo], int], ...] = tuple(
            m.watch for m in found.sequence if m.watch is not None
        )
        self.trick_winner_hooks: tuple[Callable[[State, DealInfo, tuple[int, ...], int], int], ...] = tuple(
            m.trick_winner for m in found.sequence if m.trick_winner is not None
        )
        self.on_trick_hooks: tuple[
            Callable[[State, DealInfo, Tally, int, Events], tuple[DealInfo, Tally, Events]], ...
        ] = tuple(m.on_trick for m in found.sequence if m.on_trick is not None)
        self.on_play_start_hooks: tuple[
            Callable[[State, DealInfo, Tally, Events], tuple[DealInfo, Tally, Events]], ...
        ] = tuple(m.on_play_start for m in found.sequence if m.on_play_start is not None)
        # The two questions asked at every step, by phase: one lookup from the state.
        self.legal_by_phase: Mapping[str, Callable[[State], tuple[Action, ...]]] = MappingProxyType(
            {p: m.legal for p, m in self.mechanisms.items()}
        )
        self.apply_by_phase: Mapping[str, Callable[[State, Any], State]] = MappingProxyType(
            {p: m.apply for p, m in self.mechanisms.items()}
        )
        self.fingerprint = fingerprint(spec)  # set last: from here on the game is immutable

    # -- what a reader may use -------------------------------------------------------

    @property
    def title(self) -> str:
        """The game's title: a variant overlay's own title where it gives one, else the spec's."""
        variant = self.spec.variant
        return variant.title if variant is not None and variant.title else self.spec.title

    @property
    def players(self) -> int:
        """How many seats the table has."""
        return self.tables.players

    @property
    def cards(self) -> CardTable:
        """The deck and its rank tables."""
        return self.tables.cards

    @property
    def rules(self) -> Rules:
        """The compiled rules: contracts, obligations, scoring."""
        return self.tables.rules

    def codes_of(self, mask: int) -> tuple[str, ...]:
        """The codes of the cards in a mask (bit ``i`` for ``cards.codes[i]``), in deck order."""
        if type(mask) is not int or not 0 <= mask < 1 << self.tables.cards.size:
            size = self.tables.cards.size
            raise ArgumentError(f"mask must be an integer from 0 to 2**{size} - 1 (a set of cards), found {mask!r}.")
        return self.tables.codes_of(mask)

    def action(self, text: str) -> Action:
        """The action with this text form (shared where possible, so cheap to compare)."""
        found = self._actions.get(text)
        return found if found is not None else Action.parse(text)

    @property
    def num_distinct_actions(self) -> int:
        """How many distinct actions a seat may take in this game (the ids are 0 to this minus 1)."""
        return len(self.distinct_actions)

    def action_id(self, action: Action | str) -> int:
        """The id of an action of this game (or its text): its place in :attr:`distinct_actions`.

        Ids depend on the spec and its options alone, so they are the same in every process.
        """
        if type(action) is Action:
            found = self._ids_by_action.get(action)
            if found is not None:
                return found
        text = str(action) if isinstance(action, Action) else action
        found = self._action_ids.get(text) if type(text) is str else None
        if found is None:
            raise ArgumentError(
                f"{shown(action)} is not an action of {self.name} (its {len(self._action_ids)} actions "
                "are listed by distinct_actions)."
            )
        return found

    def action_of(self, action_id: int) -> Action:
        """The action whose id is ``action_id`` (:meth:`action_id`)."""
        if type(action_id) is not int or not 0 <= action_id < len(self.distinct_actions):
            raise ArgumentError(
                f"action_id must be an integer from 0 to {len(self.distinct_actions) - 1}, found {shown(action_id)}."
            )
        return self.distinct_actions[action_id]

    def as_action(self, action: object) -> Action:
        """``action`` as an :class:`Action`: an action, or its text form."""
        if type(action) is str:
            return self.action(action)
        if isinstance(action, Action):
            return action
        raise IllegalActionError(f"{action!r} is not an action (an Action or its text, such as 'play 7S').")

    def seat(self, seat: object, what: str = "seat") -> int:
        """``seat`` checked to be a seat of this table; :class:`ArgumentError` naming ``what`` if not."""
        if type(seat) is not int or not 0 <= seat < self.tables.players:
            raise ArgumentError(f"{what} must be a seat from 0 to {self.tables.players - 1}, found {shown(seat)}.")
        return seat

    def new_match(
        self,
        seed: int | None = None,
        dealer: int | Literal["first"] = "first",
        hands: Sequence[Sequence[str]] | None = None,
        turned: str | None = None,
        scores: Sequence[int] | None = None,
        pot: int = 0,
        deals: Mapping[int, Sequence[Sequence[str]] | Stacked] | None = None,
        chance: str = "seed",
    ) -> State:
        """Start a match: every deal is dealt from ``seed``, or stacked from ``hands`` and ``deals``.

        ``dealer`` deals the first deal (``"first"``, the default: the spec's ``seating.first_dealer``, seat 0
        unless it says otherwise). ``seed`` is an integer from 0 to 2**128 - 1; every deal of the match
        follows from it, so anyone who knows it knows every hand. Without one,
        a secret 128-bit seed is drawn from :mod:`secrets` (read it back from
        ``state.match.seed`` to play the match again). ``hands`` gives card codes
        per seat for the first deal; later deals come
        from the seed. Where the trump is a turned card, the last card of the
        dealer's list is the one turned unless ``turned`` names it. ``scores``
        (one per seat) and ``pot`` start the match from given totals, as when
        resuming a match or testing its end.

        ``deals`` stacks later deals too: deal number -> its hands (card codes
        per seat), or a :class:`~trickrules.engine.values.Stacked` that also
        names the turned card and other draws (``Stacked(hands, "AS",
        (("direction", 2),))``). Each is the deal's first dealing; a redeal, or
        a misdeal (hands of the wrong sizes), deals again from the seed.

        ``chance="caller"`` has the caller choose the chance outcomes: every
        deal that is not stacked stops at chance steps (``state.is_chance``),
        whose outcomes ``state.chance_outcomes()`` lists and ``state.apply``
        takes; ``state.seeded_outcome()`` is the one the seed picks. With
        ``chance="seed"`` (the default) the engine takes those itself. Bad
        arguments raise :class:`~trickrules.errors.ArgumentError`.
        """
        return new_match(
            self,
            seed=seed,
            dealer=self.spec.seating.first_dealer if isinstance(dealer, str) and dealer == "first" else dealer,
            hands=hands,
            turned=turned,
            scores=scores,
            pot=pot,
            deals=deals,
            chance=chance,
        )

    def __repr__(self) -> str:
        chosen = ", ".join(f"{k}={v}" for k, v in self.options.items() if v != self.spec.options[k].default)
        return f"<Game {self.name!r}{' ' + chosen if chosen else ''} {self.fingerprint}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self is other or self.fingerprint == other.fingerprint

    def __hash__(self) -> int:
        return hash(self.fingerprint)

    def __copy__(self) -> Game:
        """The game itself: it is immutable, so a copy would be the same value."""
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        """The game itself (immutable; a copy of a state would copy its whole history)."""
        return self

    def __reduce__(self) -> tuple[Callable[[Spec, str], Game], tuple[Spec, str]]:
        return (_restore_game, (self.spec, self.source))

    def __setattr__(self, name: str, value: object) -> None:
        if hasattr(self, "fingerprint"):
            raise AttributeError(f"a Game is immutable: {name!r} cannot be set")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Game is immutable: {name!r} cannot be deleted")


#: Games unpickled in this process, by fingerprint and source, the most recently used last (see :func:`_restore_game`).
_RESTORED: dict[tuple[str, str], Game] = {}
#: How many unpickled games are kept (a bundled game compiled holds 30-200 KB): a process sent games of
#: ever new specs or options, such as a long-lived pool worker, keeps only the latest ones used.
_RESTORED_LIMIT = 64


def _restore_game(spec: Spec, source: str) -> Game:
    """Unpickle a game: compiled once per process and spec while it is among the last :data:`_RESTORED_LIMIT` used."""
    key = (fingerprint(spec), source)
    found = _RESTORED.pop(key, None)
    if found is None:
        found = Game(spec, source)
        while len(_RESTORED) >= _RESTORED_LIMIT:
            _RESTORED.pop(next(iter(_RESTORED)), None)  # the least recently used
    _RESTORED[key] = found
    return found


#: Bundled games already compiled in this process, by name and options (see :func:`load`).
_LOADED: dict[tuple[str, tuple[tuple[str, str, object], ...]], Game] = {}
#: Bounds ``_LOADED``: once it holds this many keys (two per game at most) no more games are added, so that
#: every game it gives stays the one game of its rules; a file is never kept (it may change).
_LOADED_LIMIT = 256


def _cache_key(name_or_path: object, options: Mapping[str, object] | None) -> Any:
    """The key of a bundled game in ``_LOADED``, or ``None`` for a file (which may change) or odd options."""
    if not isinstance(name_or_path, str) or name_or_path not in bundled_names():
        return None
    if options is None:
        return (name_or_path, ())
    if not isinstance(options, Mapping):
        return None
    small = (type(v) in (str, bool) or (type(v) is int and abs(v) <= 2**53) for v in options.values())
    if not all(type(k) is str for k in options) or not all(small):
        return None  # left to load_spec to accept or refuse
    return (name_or_path, tuple(sorted((k, type(v).__name__, v) for k, v in options.items())))


def load(name_or_path: str | Path, options: Mapping[str, object] | None = None) -> Game:
    """Load and compile a game: a bundled name (``"quadrille"``) or a spec/overlay path.

    ``options`` picks house-rule options, e.g. ``{"forced_spadille": "off"}``.
    Raises :class:`~trickrules.errors.SpecError` on any problem in the spec.
    A bundled game is compiled once per process and options: loading it again
    gives the same (immutable) game. A file is read and compiled every time.
    """
    key = _cache_key(name_or_path, options)
    if key is not None:
        found = _LOADED.get(key)
        if found is not None:
            return found
    spec = load_spec(name_or_path, options)
    source = str(name_or_path)
    try:
        game = Game(spec, source if Path(source).suffix == ".toml" else f"specs/{spec.name}.toml")
    except SpecError:
        raise
    except (ArithmeticError, LookupError, RecursionError, TypeError, ValueError) as exc:  # a gap in the checks above
        raise SpecError(f"{source}: the spec is inconsistent ({type(exc).__name__}: {exc}).") from None
    if key is not None and len(_LOADED) < _LOADED_LIMIT - 1:
        # Also under its options spelled out in full (as a log's header gives them), and the game
        # already loaded under those, if any, is the one given: every load of the same rules is one game.
        resolved = _cache_key(name_or_path, game.options)
        game = _LOADED.setdefault(resolved, game)
        _LOADED[key] = game
    return game


def _distinct_actions(shared: SharedValues, sequence: Sequence[Mechanism], tables: Tables) -> tuple[Action, ...]:
    """The game's actions, each once: the common ones, then each mechanism's own (:attr:`Game.distinct_actions`)."""
    found: dict[str, Action] = dict(shared.actions)
    for m in sequence:
        if m.actions is not None:
            for action in m.actions(tables):
                found.setdefault(str(action), action)
    return tuple(found.values())
