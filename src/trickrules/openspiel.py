"""Any spec as an OpenSpiel game: importing this module registers every bundled game with pyspiel.

>>> import pyspiel
>>> import trickrules.openspiel
>>> game = pyspiel.load_game("trickrules_manille")
>>> game.num_players(), game.num_distinct_actions()
(4, 102)

Each bundled game is registered as ``trickrules_NAME`` (a ``-`` in the name
becomes ``_``), its spec's options as string parameters
(``pyspiel.load_game("trickrules_quadrille", {"forced_spadille": "off"})``)
and ``episode`` (``"match"``, the default, or ``"deal"``). :func:`register`
registers a game of any spec. The deal is explicit chance: a ``deal CARD``
outcome's id is the card's index, another outcome's id its place among the
node's outcomes. A player's actions are the game's action ids
(:attr:`Game.distinct_actions <trickrules.engine.game.Game.distinct_actions>`);
the current player is the seat that decides (the chooser where a seat plays
another's hand). Observation and information-state tensors are those of
:mod:`trickrules.faces.tensors`; their strings are the seat's printout (and
every event of its deal). The returns (rewards at the end, as OpenSpiel's
MCTS wants) are each seat's change of score over the episode: the match,
or with ``episode="deal"`` one deal. Needs the ``openspiel`` extra.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np
import pyspiel

from trickrules.engine.actions import Action
from trickrules.engine.game import Game, load
from trickrules.engine.state import State
from trickrules.errors import ArgumentError
from trickrules.faces.table import describe_view
from trickrules.faces.tensors import (
    Layout,
    deal_events,
    information_layout,
    information_state_tensor,
    observation_layout,
)
from trickrules.faces.tensors import observation_tensor as _observation
from trickrules.records.view import View
from trickrules.spec.loader import bundled_names

__all__ = ["TrickTakingGame", "TrickTakingState", "game_name", "register", "wrap"]

EPISODES = ("match", "deal")
#: An upper bound of a match's (or a deal's) payments a seat, for OpenSpiel's utility range.
UTILITY_BOUND = 1e6


def game_name(name: str) -> str:
    """The short name a game of this spec is registered under: ``trickrules_`` and the name, ``-`` as ``_``."""
    return "trickrules_" + name.replace("-", "_")


def _param(game: Game, key: str, value: str) -> str | int:
    """An option's value as a pyspiel parameter (which reads a text like a number as one).

    An int where every choice of the option is a number; else the text, with ``_`` before it where it begins
    with a digit or ``-``.
    """
    if all(c.lstrip("-").isdigit() for c in game.spec.options[key].choices):
        return int(value)
    return "_" + value if value[:1].isdigit() or value[:1] == "-" else value


def _option(value: object) -> str:
    """A pyspiel parameter's value as the option's (:func:`_param` undone)."""
    text = str(value)
    return text[1:] if text[:1] == "_" and (text[1:2].isdigit() or text[1:2] == "-") else text


def _max_chance(game: Game) -> int:
    """Most outcomes a chance node may have: a card dealt, or the values a mechanism draws or arranges."""
    most = game.cards.size
    for m in game.mechanisms.values():
        if m.draw is not None or (m.chance is not None and m.phase != "deal"):
            most = max(most, math.factorial(8))  # a talon's order (8 cards at most) or a drawn value
    return most


class TrickTakingGame(pyspiel.Game):  # type: ignore[misc]
    """A trickrules game as a pyspiel game (see the module's notes)."""

    def __init__(self, game_type: Any, name: str, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        episode = str(params.pop("episode", "match"))
        if episode not in EPISODES:
            raise ArgumentError(f"episode must be one of {', '.join(EPISODES)}, found {episode!r}.")
        game = load(name, {k: _option(v) for k, v in params.items()})
        self.game = game
        self.episode = episode
        deal_length = 3 * game.cards.size + 4 * game.players * game.num_distinct_actions
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_distinct_actions,
            max_chance_outcomes=_max_chance(game),
            num_players=game.players,
            min_utility=-UTILITY_BOUND,
            max_utility=UTILITY_BOUND,
            utility_sum=None,
            max_game_length=deal_length if episode == "deal" else 1000 * deal_length,
        )
        given = {k: _param(game, k, _option(v)) for k, v in params.items()}
        super().__init__(game_type, info, {"episode": episode, **given})

    def new_initial_state(self) -> TrickTakingState:
        """A match before its first deal."""
        return TrickTakingState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """A seat's observation (``perfect_recall``: its information state)."""
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("only a seat's own observation is offered (private_info=SINGLE_PLAYER).")
        return _Observer(self.game, recall)


def _scores(state: State) -> np.ndarray[Any, np.dtype[np.float64]]:
    board = state.scoreboard
    return np.array([float(Fraction(board[s])) for s in range(state.game.players)])


class TrickTakingState(pyspiel.State):  # type: ignore[misc]
    """A trickrules state as a pyspiel state; ``inner`` is the trickrules :class:`~trickrules.State`."""

    def __init__(
        self, game: TrickTakingGame, inner: State | None = None, start: Any = None, first_deal: int | None = None
    ) -> None:
        super().__init__(game)
        self.spec_game = game.game
        self.episode = game.episode
        self.inner = inner if inner is not None else game.game.new_match(seed=0, chance="caller")
        self.start = _scores(self.inner) if start is None else start
        self.first_deal = self.inner.deal.number if first_deal is None else first_deal

    def _done(self) -> bool:
        if self.inner.is_terminal:
            return True
        return self.episode == "deal" and self.inner.deal.number != self.first_deal

    def current_player(self) -> int:
        """The seat that decides, or chance, or the end."""
        if self._done():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.inner.is_chance:
            return int(pyspiel.PlayerId.CHANCE)
        chooser = self.inner.chooser
        seat = chooser if chooser is not None else self.inner.to_move
        assert seat is not None
        return int(seat)

    def _legal_actions(self, player: int) -> list[int]:
        ids = self.spec_game.action_id
        return sorted(ids(a) for a in self.inner.legal_actions())

    def _outcomes(self) -> list[tuple[Action, Fraction]]:
        return list(self.inner.chance_outcomes())

    def _chance_id(self, action: Action, index: int) -> int:
        return self.spec_game.cards.card(action.arg) if action.verb == "deal" else index

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each outcome's id and probability."""
        return sorted((self._chance_id(a, i), float(p)) for i, (a, p) in enumerate(self._outcomes()))

    def _apply_action(self, action: int) -> None:
        if self.inner.is_chance:
            outcomes = self._outcomes()
            found = [a for i, (a, _) in enumerate(outcomes) if self._chance_id(a, i) == action]
            if not found:
                ids = sorted(self._chance_id(a, i) for i, (a, _) in enumerate(outcomes))
                raise ArgumentError(f"{action!r} is not a chance outcome's id here (the ids: {ids}).")
            chosen = found[0]
        else:
            chosen = self.spec_game.action_of(int(action))
        self.inner = self.inner.apply(chosen)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            outcomes = self._outcomes() if self.inner.is_chance else []
            found = [str(a) for i, (a, _) in enumerate(outcomes) if self._chance_id(a, i) == action]
            return found[0] if found else f"chance {action}"
        return str(self.spec_game.action_of(int(action)))

    def is_terminal(self) -> bool:
        """Whether the episode (the match, or the deal) is over."""
        return self._done()

    def rewards(self) -> list[float]:
        """Each seat's change of score over the episode, once it is over (0 before)."""
        return self.returns()

    def returns(self) -> list[float]:
        """Each seat's change of score over the episode, once it is over (0 before)."""
        if not self._done():
            return [0.0] * self.spec_game.players
        return [float(x) for x in _scores(self.inner) - self.start]

    def __deepcopy__(self, memo: Any) -> TrickTakingState:
        return TrickTakingState(self.get_game(), self.inner, self.start, self.first_deal)

    def clone(self) -> TrickTakingState:
        """The same state (the trickrules state is immutable and shared)."""
        return self.__deepcopy__({})

    def __str__(self) -> str:
        return repr(self.inner)


class _Observer:
    """A seat's tensor (observation or information state) and string, for pyspiel."""

    def __init__(self, game: Game, recall: bool) -> None:
        self.game = game
        self.recall = recall
        self.layout: Layout = information_layout(game) if recall else observation_layout(game)
        self.tensor = np.zeros(self.layout.size, np.float32)
        self.dict = {s.name: self.tensor[s.start : s.start + s.size].reshape(s.shape) for s in self.layout.sections}

    def set_from(self, state: TrickTakingState, player: int) -> None:
        encode = information_state_tensor if self.recall else _observation
        self.tensor[:] = encode(state.inner, player)

    def string_from(self, state: TrickTakingState, player: int) -> str:
        """The seat's printout; with recall, then every event of the deal as the seat saw it (one a line)."""
        text = describe_view(self.game, View.from_state(state.inner, player))
        if self.recall:
            text += "".join(f"\n{actor}: {event!r}" for actor, event in deal_events(state.inner, player))
        return text


_GAMES: dict[str, Any] = {}


def wrap(state: State, episode: str = "match") -> TrickTakingState:
    """A trickrules state of a bundled game as the state of its registered pyspiel game (its options given)."""
    game = state.game
    assert isinstance(game, Game)
    key = f"{game.fingerprint} {episode}"
    found = _GAMES.get(key)
    if found is None:
        params = {k: _param(game, k, v) for k, v in game.options.items()}
        found = _GAMES[key] = pyspiel.load_game(game_name(game.name), {"episode": episode, **params})
    return TrickTakingState(found, state)


def register(name: str, short_name: str | None = None) -> str:
    """Register the spec ``name`` (bundled, or a spec file's path) with pyspiel; the short name to load it by."""
    game = load(name)
    short = short_name or game_name(game.name)
    defaults: dict[str, Any] = {"episode": "match"}
    for key in game.spec.options:
        defaults[key] = _param(game, key, game.options[key])
    game_type = pyspiel.GameType(
        short_name=short,
        long_name=f"trickrules {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.players,
        min_num_players=game.players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=defaults,
    )

    def __init__(self: TrickTakingGame, params: Mapping[str, Any] | None = None) -> None:
        TrickTakingGame.__init__(self, game_type, name, params)

    # A class, as OpenSpiel's own Python games register (a function registered is freed after the interpreter
    # has stopped, which aborts the process).
    made = type(f"TrickTakingGame_{short}", (TrickTakingGame,), {"__init__": __init__})
    _MAKERS[short] = made
    pyspiel.register_game(game_type, made)
    return short


#: The class each short name was registered with.
_MAKERS: dict[str, Any] = {}


for _name in bundled_names():
    if game_name(_name) not in pyspiel.registered_names():
        register(_name)
