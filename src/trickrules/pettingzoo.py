"""Any spec as a PettingZoo environment (AEC), and one seat of it as a Gymnasium environment.

>>> import trickrules.pettingzoo
>>> env = trickrules.pettingzoo.env("manille")
>>> env.reset(seed=1)
>>> env.agent_selection
'seat_0'

:func:`env` gives an agent-environment-cycle environment for every seat of
a match: an agent is a seat (``seat_0``, ...); the agent selected is the
one that decides now (the chooser, where a seat plays another's hand).
Actions are the game's action ids (:attr:`Game.distinct_actions
<trickrules.engine.game.Game.distinct_actions>`); an observation is a dict
of ``observation`` (:func:`~trickrules.faces.tensors.observation_tensor`,
float32) and ``action_mask`` (int8, 1 for each legal id). Rewards come at
each deal's end: each seat's change of score. The episode is the match
(``episode="deal"``: a single deal); chance (the deal) is drawn from the
reset's seed. ``render_mode="ansi"`` gives the printout of the table as the
seat to move sees it, ``"svg"`` the picture of the whole table.

Where the native kernel covers the game, the environment steps on it
(:class:`~trickrules.native.step.Stepper`): the mask and the rewards come
from the kernel, and :attr:`TrickTakingEnv.state` (the engine's state, which
the observation tensor and the pictures read) is replayed from the actions
only when asked for. Elsewhere, and from a position the kernel hands back,
the engine steps it. Both give the same matches, decision for decision.

:func:`single_agent_env` gives one seat's Gymnasium environment, the other
seats played by bots. Needs the ``pettingzoo`` extra.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from trickrules.engine.game import Game, load
from trickrules.engine.state import State
from trickrules.errors import ArgumentError
from trickrules.faces.bots import make_bots
from trickrules.faces.random_bot import Bot, decide
from trickrules.faces.table import describe_view
from trickrules.faces.tensors import observation_layout, observation_tensor
from trickrules.native.stops import DEAL_END, FAILED_HERE, ILLEGAL, OVER, UNNAMED
from trickrules.records.view import View

if TYPE_CHECKING:
    from trickrules.native.step import Stepper

__all__ = ["TrickTakingEnv", "env", "single_agent_env"]

EPISODES = ("match", "deal")
RENDER_MODES = ("ansi", "svg")


def _game(game: Game | str, options: Mapping[str, str]) -> Game:
    if isinstance(game, Game):
        if options:
            raise ArgumentError("options are given with a game's name, not with a loaded game.")
        return game
    return load(game, dict(options))


def _deciding(state: State) -> int:
    """The seat that decides now: the chooser where it differs, else the seat to move."""
    chooser = state.chooser
    seat = chooser if chooser is not None else state.to_move
    assert seat is not None
    return seat


def _settle(state: State) -> State:
    """Chance steps applied as the match's seed draws them, up to a seat's decision or the end."""
    while not state.is_terminal and state.is_chance:
        state = state.apply(state.seeded_outcome())
    return state


def _stepper(game: Game) -> Stepper | None:
    """The game's match on the native kernel, or ``None`` where the kernel does not cover it or is not installed."""
    try:
        from trickrules.native.kernel import Unsupported  # Numba is imported only here
        from trickrules.native.step import Stepper
    except ImportError:  # without the `native` extra the engine steps every game
        return None
    try:
        return Stepper(game)
    except Unsupported:
        return None


class TrickTakingEnv(AECEnv):  # type: ignore[misc]
    """A match of a trick-taking game for every seat, agent after agent (see the module's notes).

    ``kernel=False`` steps it on the engine even where the native kernel covers the game.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "trickrules_v0",
        "is_parallelizable": False,
    }

    def __init__(self, game: Game, render_mode: str | None = None, episode: str = "match", kernel: bool = True) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ArgumentError(f"render_mode must be one of ansi, svg or None, found {render_mode!r}.")
        if episode not in EPISODES:
            raise ArgumentError(f"episode must be one of {', '.join(EPISODES)}, found {episode!r}.")
        self.game = game
        self.render_mode = render_mode
        self.episode = episode
        self.possible_agents = [f"seat_{s}" for s in range(game.players)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        size = observation_layout(game).size
        n = game.num_distinct_actions
        space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._stepper = _stepper(game) if kernel else None
        #: The stepper's compiled call (``advance(wk, action_id, True)``), looked up once.
        self._advance: Callable[[npt.NDArray[np.int64], int, bool], int] | None = None
        if self._stepper is not None:
            self._advance = self._stepper.advance
        self._ready = False
        self._live: npt.NDArray[np.int64] | None = None
        self._rewarded = False
        self._ids = n
        self._deal_number = 0
        self._seed = 0
        self._state: State | None = None
        #: The action ids the match has taken, and how many of them ``_state`` has applied.
        self._history: list[int] = []
        self._applied = 0
        self._scores: list[int] = []

    @property
    def state(self) -> State | None:
        """The match as the engine holds it (``None`` before the first reset)."""
        if self._ready and (self._state is None or self._applied < len(self._history)):
            state = self._state
            if state is None:
                state = _settle(self.game.new_match(seed=self._seed))
                self._applied = 0
            action_of = self.game.action_of
            for a in self._history[self._applied :]:
                state = _settle(state.apply(action_of(a)))
            self._state = state
            self._applied = len(self._history)
        return self._state

    def observation_space(self, agent: str) -> spaces.Dict:
        """Every seat's observation: the tensor and the mask of legal action ids."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Every seat's actions: the game's action ids."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match, dealt from ``seed`` (a random one where ``None``)."""
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        if type(seed) is not int or not 0 <= seed < 2**128:
            raise ArgumentError(f"seed must be an integer from 0 to 2**128 - 1, found {seed!r}.")
        self._seed = seed
        self._ready = True
        self._history = []
        self._applied = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        stepper = self._stepper
        self._live = None
        self._rewarded = True  # (rewards were just set to 0: clearing them again costs nothing)
        if stepper is not None:
            self._state = None
            self._scores = []
            code = stepper.reset(seed, self.game.spec.seating.first_dealer)
            if code >= 0 or code == DEAL_END:  # the match's first stop: a decision (or a deal passed out)
                self._live = stepper.wk
                self._scores = stepper.scores()
                self._deal_number = stepper.deal_number()
                self._kernel_stop(code)
                return
        self._state = _settle(self.game.new_match(seed=seed))
        self.agent_selection = self.possible_agents[_deciding(self._state)]

    def mask(self) -> npt.NDArray[np.int8]:
        """The legal action ids of the agent selected, as a mask."""
        if self._live is not None and self._stepper is not None:
            return self._stepper.mask.copy()
        out = np.zeros(self.game.num_distinct_actions, dtype=np.int8)
        if self.state is not None and not self.state.is_terminal:
            action_id = self.game.action_id
            for action in self.state.legal_actions():
                out[action_id(action)] = 1
        return out

    def observe(self, agent: str) -> dict[str, Any]:
        """What ``agent``'s seat sees, and (for the agent selected) its legal ids."""
        state = self._started()
        seat = self.agent_name_mapping[agent]
        mask = self.mask() if agent == self.agent_selection else np.zeros(self.game.num_distinct_actions, np.int8)
        return {"observation": observation_tensor(state, seat), "action_mask": mask}

    def _started(self) -> State:
        state = self.state
        if state is None:
            raise ArgumentError("the environment has no match yet: call reset() first.")
        return state

    def step(self, action: int | None) -> None:
        """The agent selected takes the action with this id (``None`` once it is done)."""
        wk = self._live
        if wk is not None and (type(action) is int or isinstance(action, np.integer)):
            a = int(action)
            assert self._advance is not None
            code = self._advance(wk, a, True) if 0 <= a < self._ids else ILLEGAL
            if code == ILLEGAL:
                raise ArgumentError(f"{self.agent_selection}: action {action!r} is not legal here.")
            self._history.append(a)
            self._cumulative_rewards[self.agent_selection] = 0.0  # the agent has had what it had won so far
            if self._rewarded:
                self._clear_rewards()
                self._rewarded = False
            if 0 <= code < UNNAMED:  # the common case, kept short: the next seat decides, nothing is won
                self.agent_selection = self.possible_agents[code]
                return
            self._kernel_stop(code)
            self._accumulate_rewards()
            return
        if not self._ready:
            raise ArgumentError("the environment has no match yet: call reset() first.")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if wk is not None:
            raise ArgumentError(f"{agent}: action {action!r} is not legal here.")
        self._cumulative_rewards[agent] = 0.0
        self._engine_step(agent, action)
        self._accumulate_rewards()

    def _kernel_stop(self, code: int) -> None:
        """Where the kernel stopped (:func:`~trickrules.native.step.advance`'s code): the next agent, the rewards."""
        stepper = self._stepper
        assert stepper is not None
        ended = False
        while code == DEAL_END:
            ended = True
            code = stepper.step(-1)
        if code == FAILED_HERE:  # the engine's to play from here, as it plays it (and refuses it)
            self._live = None
            self._after_engine(self._scores, self._deal_number)
            return
        if ended:
            after = stepper.scores()
            for agent, seat in self.agent_name_mapping.items():
                self.rewards[agent] = float(after[seat] - self._scores[seat])
            self._rewarded = True
            self._scores = after
            self._deal_number = stepper.deal_number()
        if code == OVER or (ended and self.episode == "deal"):
            self._live = None
            for agent in self.agents:
                self.terminations[agent] = True
        elif code >= UNNAMED:  # options the kernel does not name: the engine's legal actions, in their order
            state = self.state
            assert state is not None
            stepper.name([self.game.action_id(a) for a in state.legal_actions()])
            self.agent_selection = self.possible_agents[_deciding(state)]
        else:
            self.agent_selection = self.possible_agents[code]

    def _engine_step(self, agent: str, action: int | None) -> None:
        """The agent's action applied by the engine."""
        state = self.state
        assert state is not None
        chosen = self.game.action_of(int(action)) if action is not None else None
        if chosen is None or not state.is_legal(chosen):
            raise ArgumentError(f"{agent}: action {action!r} is not legal here.")
        scores = [*state.match.scores]
        self._history.append(self.game.action_id(chosen))
        self._state = _settle(state.apply(chosen))
        self._applied = len(self._history)
        self._clear_rewards()
        self._after_engine(scores, state.deal.number)

    def _after_engine(self, scores: Sequence[int | Fraction], deal: int) -> None:
        """The rewards since ``scores`` (deal ``deal``'s), the episode's end and the next agent, from the engine."""
        state = self.state
        assert state is not None
        after = state.match.scores
        if [*after] != [*scores]:  # the scores change at a deal's end only
            for agent, seat in self.agent_name_mapping.items():
                self.rewards[agent] = float(Fraction(after[seat]) - Fraction(scores[seat]))
        ended = state.deal.number != deal
        if state.is_terminal or (self.episode == "deal" and ended):
            for agent in self.agents:
                self.terminations[agent] = True
        else:
            self.agent_selection = self.possible_agents[_deciding(state)]

    def render(self) -> str | None:
        """The table: its printout for the seat to move (``ansi``), or its picture (``svg``)."""
        if self.render_mode is None or self.state is None:
            return None
        if self.render_mode == "svg":
            return self.state._repr_svg_()
        seat = self.agent_name_mapping[self.agent_selection]
        return describe_view(self.game, View.from_state(self.state, seat))

    def close(self) -> None:
        """Nothing to release."""


def env(game: Game | str, render_mode: str | None = None, episode: str = "match", **options: str) -> TrickTakingEnv:
    """The AEC environment of ``game`` (a loaded game, or a bundled game's name with its ``options``)."""
    return TrickTakingEnv(_game(game, options), render_mode, episode)


class SingleSeat(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """One seat of a match as a Gymnasium environment; the other seats are played by bots.

    The observation is the seat's tensor; ``info["action_mask"]`` (and :meth:`action_masks`) its legal
    ids. An illegal id changes nothing and says so in ``info["illegal"]``. The reward is the seat's change of
    score, at each deal's end; the episode is the match, or one deal (``episode="deal"``).
    """

    metadata = {"render_modes": list(RENDER_MODES)}  # noqa: RUF012 (Env declares it an instance variable)

    def __init__(self, game: Game, seat: int, bots: Sequence[Bot] | str, episode: str, render_mode: str | None) -> None:
        self.aec = TrickTakingEnv(game, render_mode, episode)
        self.seat = game.seat(seat)
        self.agent = self.aec.possible_agents[self.seat]
        self.bots = make_bots(game, bots) if isinstance(bots, str) else list(bots)
        if len(self.bots) != game.players:
            raise ArgumentError(f"bots: one per seat ({game.players}) is needed, found {len(self.bots)}.")
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_spaces[self.agent]["observation"]
        self.action_space = self.aec.action_spaces[self.agent]
        self._rng = random.Random()

    def _others(self) -> float:
        """Let the bots play until the seat decides or the episode ends; the seat's reward meanwhile."""
        total = 0.0
        aec = self.aec
        while not aec.terminations[self.agent] and aec.agent_selection != self.agent:
            assert aec.state is not None
            seat = aec.agent_name_mapping[aec.agent_selection]
            aec.step(aec.game.action_id(decide(self.bots[seat], aec.state, seat)))
            total += aec.rewards[self.agent]
        return total

    def _answer(self) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        assert self.aec.state is not None
        return observation_tensor(self.aec.state, self.seat), {"action_mask": self.action_masks()}

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The seat's legal action ids, as a mask (all zero when it is not its turn)."""
        if self.aec.terminations[self.agent]:
            return np.zeros(self.aec.game.num_distinct_actions, dtype=np.int8)
        return self.aec.mask()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """A new match dealt from ``seed``; the bots play up to the seat's first decision."""
        super().reset(seed=seed)
        self._rng = random.Random(seed)
        self.aec.reset(seed=seed if seed is not None else self._rng.randrange(2**63))
        self._others()
        return self._answer()

    def step(self, action: np.int64) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """The seat takes the action with this id; the bots answer up to its next decision."""
        aec = self.aec
        assert aec.state is not None
        chosen = int(action)
        if not 0 <= chosen < aec.game.num_distinct_actions or not aec.state.is_legal(aec.game.action_of(chosen)):
            obs, info = self._answer()
            return obs, 0.0, False, False, {**info, "illegal": True}
        aec.step(chosen)
        reward = aec.rewards[self.agent] + self._others()
        obs, info = self._answer()
        return obs, reward, aec.terminations[self.agent], False, info

    def render(self) -> str | None:
        """As :meth:`TrickTakingEnv.render`."""
        return self.aec.render()


def single_agent_env(
    game: Game | str,
    seat: int = 0,
    bots: Sequence[Bot] | str = "random",
    episode: str = "match",
    render_mode: str | None = None,
    **options: str,
) -> SingleSeat:
    """``seat``'s Gymnasium environment of ``game``, the other seats played by ``bots`` (as ``make_bots`` reads)."""
    return SingleSeat(_game(game, options), seat, bots, episode, render_mode)
