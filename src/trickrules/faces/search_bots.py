"""Search bots: a determinized bot and an information-set MCTS bot, deciding from what their seat knows.

Both read only their seat's log and view (:func:`~trickrules.faces.random_bot.decide` gives them
``EventLog.from_state(state).for_seat(seat)``), fill in the hidden cards with worlds drawn
uniformly among those consistent with it (:func:`~trickrules.search.worlds.sample_worlds`), and
play every phase, the bidding included, through the engine, so they play any game a spec can write.

- :class:`DeterminizedBot` draws ``worlds`` worlds; in each it values every legal action, by the
  perfect-information solver where the deal is down to its last tricks (:func:`~trickrules.search.solve`)
  and else by random playouts to the end of the deal, and takes the best on average.
- :class:`IsmctsBot` is single-observer information-set MCTS: each of ``playouts`` iterations draws
  a world, walks a tree of the actions taken so far (UCT, each action's chances counted by how
  often it was available), adds one node, plays the deal out at random and backs the result up,
  each node scoring it for the seat that chose there.

A playout from a position in the play runs on the kernel where the game has one
(:class:`~trickrules.search.rollouts.Rollouts`: the kernel's random play, scored by the game's
own tables, hundreds of thousands a second), else through the engine. Either bot takes a budget
in milliseconds a decision (``budget_ms``), spent in whole rounds or iterations, instead of its
fixed count (which keeps its choices the same from run to run).

A deal's result for a seat is its score change less the mean change of the others (a point taken
counts against where the lowest score wins). Their choices depend only on the seat's log and
view and on their seed: the same seed, log and view give the same choice, whatever the hidden
cards really are.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, cast

from trickrules.compile.reads import scoring_reads
from trickrules.engine.events import records_action
from trickrules.engine.state import GameLike, State
from trickrules.errors import ArgumentError
from trickrules.faces.hand_reading import knowledge
from trickrules.faces.random_bot import Bot
from trickrules.records.eventlog import EventLog
from trickrules.records.replay import action_of, first_state
from trickrules.records.view import View
from trickrules.search.solve import Solution, side_of, solve
from trickrules.search.worlds import WorldSampler

if TYPE_CHECKING:
    from trickrules.search.rollouts import Array, Rollouts

__all__ = ["DeterminizedBot", "IsmctsBot", "deal_result", "make_bot", "parse_kind"]

#: The determinized bot tries to solve the worlds exactly once no hand holds more cards than this:
#: through the engine, or on the kernel where it searches the game's payments.
SOLVE_CARDS = 3
NATIVE_SOLVE_CARDS = 6
#: Where the kernel cannot search the deal's payment, it solves for the side's tricks or card points
#: from this many cards a hand (:func:`_proxy`).
PROXY_SOLVE_CARDS = 7
#: The positions a solve of one world may search (through the engine, on the kernel) before the bot
#: gives up solving and plays the worlds out instead, solving no more at that many cards in the deal.
SOLVE_NODES = 5_000
NATIVE_SOLVE_NODES = 40_000
#: A solve for card points on the kernel that passes ``NATIVE_SOLVE_NODES`` is tried again up to this
#: many: its values span many more steps than tricks' (10 of 16 seven-card Skat solves passed 40,000, the most 213,000).
POINTS_SOLVE_NODES = 400_000
#: The kernel's scored playouts a tree leaf is valued by, where the game has a kernel.
LEAF_PLAYOUTS = 4
#: With ``infer``, the determinized bot draws up to this many times its worlds, keeping first those that agree.
INFER_DRAWS = 4
#: With a budget, the determinized bot searches a decision before the play over up to this many batches of worlds.
BID_BATCHES = 8
#: How many standard errors a searched bid's mean value must beat the bidder's choice by to be taken instead.
BID_EVIDENCE = 1.5
#: UCT's exploration constant, in units of the results' spread.
EXPLORE = 0.7


def deal_result(game: GameLike, before: State, after: State, seat: int) -> float:
    """What the rest of the deal did for ``seat``: its score change less the others' mean, higher better."""
    n = game.players
    change = [after.match.scores[s] - before.match.scores[s] for s in range(n)]
    others = Fraction(sum(change) - change[seat], max(1, n - 1))
    sign = -1 if game.spec.match.winner == "lowest" else 1
    return float(sign * (change[seat] - others))


def parse_kind(bots: Mapping[str, Callable[..., Bot]], token: str) -> tuple[str, int | None]:
    """A bot's name among ``bots`` and its budget in milliseconds, from ``ismcts`` or ``ismcts:200ms``."""
    name, colon, budget = token.partition(":")
    if name not in bots:
        raise ValueError(f"unknown bot {name!r} (bots: {', '.join(bots)})")
    if not colon:
        return name, None
    number = budget.removesuffix("ms")
    if not issubclass(cast(type, bots[name]), _SearchBot) or not number.isdigit() or int(number) < 1:
        raise ValueError(f"{token!r}: only a search bot takes a budget, in whole milliseconds (ismcts:200ms)")
    return name, int(number)


def make_bot(bots: Mapping[str, Callable[..., Bot]], token: str, game: GameLike, seed: int) -> Bot:
    """The bot ``token`` names among ``bots``: a name, or a search bot's name and budget (``ismcts:200ms``)."""
    name, budget = parse_kind(bots, token)
    return bots[name](game, seed) if budget is None else bots[name](game, seed, budget_ms=budget)


def _rollouts(game: GameLike, seed: int) -> Rollouts | None:
    """The kernel's scored playouts for ``game``, or ``None`` without the ``native`` extra (NumPy, Numba)."""
    try:
        from trickrules.search.rollouts import Rollouts
    except ImportError:
        return None
    return Rollouts(game, seed)


def _solving(world: State) -> tuple[int, int, int, str] | None:
    """Whether the determinized bot tries to solve ``world``, ``None`` outside the play.

    Else the cards in the longest hand, the most it tries to solve at, the positions a solve may
    search and the measure: the deal's payment, or (where the kernel cannot search the payment but
    can the side's tricks or card points, and more of them is always the better) that.
    """
    if world.phase != "play" or world.chooser is None:
        return None
    most = max(len(world.hand(s)) for s in range(world.game.players))
    try:
        from trickrules.search.native_solve import why_not_native
    except ImportError:  # without the `native` extra the engine solves
        return most, SOLVE_CARDS, SOLVE_NODES, "score"
    if why_not_native(world, "score") is None:
        return most, NATIVE_SOLVE_CARDS, NATIVE_SOLVE_NODES, "score"
    proxy = _proxy(world)
    if proxy is not None and why_not_native(world, proxy) is None:
        return most, PROXY_SOLVE_CARDS, POINTS_SOLVE_NODES if proxy == "points" else NATIVE_SOLVE_NODES, proxy
    return most, SOLVE_CARDS, SOLVE_NODES, "score"


def _bounded_solve(world: State, measure: str, nodes: int) -> Solution | None:
    """``solve(world)`` within ``nodes`` positions, ``None`` past them.

    A bound above ``NATIVE_SOLVE_NODES`` is tried after it, so that a small solve clears a small table.
    """
    for bound in (NATIVE_SOLVE_NODES, nodes) if nodes > NATIVE_SOLVE_NODES else (nodes,):
        try:
            return solve(world, measure=measure, max_nodes=bound)
        except ArgumentError:
            continue
    return None


def _proxy(world: State) -> str | None:
    """``"points"`` or ``"tricks"`` where the deal's payment grows with the side's card points or tricks.

    As the heuristic bot reads the scoring: card points that help (not hurt, as in Hearts); else
    tricks that count, neither for a bid of tricks nor in a contract won by taking few. Never for a
    contract where no count of tricks is found to pay and whose play may end early (Skat's Null).
    """
    game = world.game
    k = knowledge(game)
    rule = game.rules.contracts[world.deal.contract] if world.deal.contract is not None else None
    contract = rule.name if rule is not None else ""
    unread = False  # no count of tricks found to pay: card points may yet stand for the payment
    if contract in k.contracts:
        total = game.rules.tricks_per_deal
        fewest, most = k.paying(contract, 0, total)
        if fewest == 0 and most < total:
            return None  # won by taking few: a beggar, a Null
        unread = fewest > most
    if unread and rule is not None and rule.end_when is not None:
        return None  # a Null the heuristic cannot read: its play ends at the declarer's first trick
    sign = k.points_sign.get(contract, 0)
    if sign:
        return "points" if sign > 0 else None
    if unread or not k.tricks_matter.get(contract, False):
        return None
    return None if scoring_reads(game.rules, contract) & {"bid", "opp_bid", "own_bid"} else "tricks"


def _side_result(before: State, after: State, seat: int) -> float:
    """What the deal did for ``seat``'s side, as :func:`~trickrules.search.solve` measures it (``"score"``)."""
    n = before.game.players
    change = [after.match.scores[s] - before.match.scores[s] for s in range(n)]
    same = not after.is_terminal and after.deal.number == before.deal.number
    side = side_of(after if same else before, seat)
    others = [s for s in range(n) if s not in side]
    mine = Fraction(sum(change[s] for s in side), len(side))
    theirs = Fraction(sum(change[s] for s in others), max(1, len(others)))
    sign = -1 if before.game.spec.match.winner == "lowest" else 1
    return float(sign * (mine - theirs))


def _over(root: State, state: State) -> bool:
    return state.is_terminal or state.deal.number != root.deal.number


def _playout(root: State, state: State, rng: random.Random) -> State:
    """``state`` played on at random to the end of ``root``'s deal."""
    while not _over(root, state):
        legal = state.legal_actions()
        state = state.apply(legal[int(rng.random() * len(legal))])
    return state


class _SearchBot:
    """What both bots share: their seed, their budget, and refusing to decide without their seat's log."""

    def __init__(self, game: GameLike, seed: int = 0, budget_ms: float | None = None) -> None:
        if budget_ms is not None and budget_ms <= 0:
            raise ArgumentError(f"budget_ms must be more than 0, found {budget_ms}.")
        self.game = game
        self._rng = random.Random(seed)
        self.budget_ms = budget_ms
        self._rollouts = _rollouts(game, seed)
        #: The sampler of the decision being taken: its seat's log and view, and the sampler built from them.
        self._sampler: tuple[EventLog, View, WorldSampler] | None = None

    def _deadline(self) -> float | None:
        return None if self.budget_ms is None else time.monotonic() + self.budget_ms / 1000

    def choose(self, view: View) -> str:
        """A search bot needs its seat's log: :func:`~trickrules.faces.random_bot.decide` gives it."""
        if len(view.legal) == 1:
            return view.legal[0]
        raise ArgumentError(f"{type(self).__name__} decides from its seat's log too: call decide(bot, state, seat).")

    def _worlds(self, view: View, known: EventLog, n: int) -> tuple[State, ...]:
        return self._sampled(view, known, n)

    def _sampled(self, view: View, known: EventLog, n: int) -> tuple[State, ...]:
        """``n`` worlds drawn uniformly among those consistent with the seat's log and view.

        The batches one decision draws come from one sampler: what it reads of the log is read once.
        """
        if self._sampler is None or self._sampler[0] is not known or self._sampler[1] is not view:
            self._sampler = (known, view, WorldSampler(known, self.game, view))
        return self._sampler[2].sample(n, random.Random(self._rng.randrange(2**63)))


class DeterminizedBot(_SearchBot):
    """Samples worlds, values each action in each (solved late in the deal, else played out), takes the best.

    In a round, each world and action gets ``kernel_playouts`` random playouts on the kernel, scored
    by the game's own tables, where the game has a kernel and the world is in the play; else
    ``playouts`` through the engine. ``budget_ms``: rounds are played until the budget is spent (at
    least one); without it, ``rounds`` of them. ``bidder``: a bot that takes the decisions before
    the play instead of the search (random playouts misjudge what a bid is worth: the play that
    follows a bid is not random), where given.
    """

    def __init__(
        self,
        game: GameLike,
        seed: int = 0,
        worlds: int = 16,
        playouts: int = 2,
        budget_ms: float | None = None,
        rounds: int = 1,
        kernel_playouts: int = 64,
        bidder: Bot | None = None,
        search_bids: bool = False,
        infer: bool = False,
    ) -> None:
        super().__init__(game, seed, budget_ms)
        self.bidder = bidder
        if min(worlds, playouts, rounds, kernel_playouts) < 1:
            raise ArgumentError(
                f"worlds, playouts, rounds and kernel_playouts must be 1 or more, "
                f"found {worlds}, {playouts}, {rounds}, {kernel_playouts}."
            )
        self.worlds = worlds
        self.playouts = playouts
        self.rounds = rounds
        self.kernel_playouts = kernel_playouts
        self.search_bids = search_bids
        self.infer = infer
        #: The deal and the cards a hand at which a solve passed its bound: no more are tried at as many.
        self._too_many: tuple[int, int] | None = None

    def choose_known(self, view: View, known: EventLog) -> str:
        """The action of the best mean value over the sampled worlds (the bidder's before the play)."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if self.bidder is not None and view.phase != "play":
            return self._search_bid(view, known) if self.search_bids else self._bidders(view, known)
        deadline = self._deadline()
        totals = dict.fromkeys(legal, 0.0)
        counts = dict.fromkeys(legal, 0)
        worlds = self._worlds(view, known, self.worlds)
        solved = self._solve_all(worlds, deadline)
        if solved:
            for values in solved:
                for text, value in values:
                    totals[text] += value
                    counts[text] += 1
        else:
            self._play_out(worlds, view.seat, deadline, totals, counts)
        return max(legal, key=lambda text: totals[text] / max(1, counts[text]))

    def _worlds(self, view: View, known: EventLog, n: int, stop: float | None = None) -> tuple[State, ...]:
        """``n`` worlds; with ``infer``, those in which the bidder would have decided as the others did first.

        Batches of ``n`` are drawn until ``n`` agree, ``INFER_DRAWS`` batches are drawn, or half the
        budget is spent (with a budget; or the time ``stop``, where it comes first).
        """
        if not self.infer or self.bidder is None:
            return self._sampled(view, known, n)
        half = None if self.budget_ms is None else time.monotonic() + self.budget_ms / 2000
        if half is not None and stop is not None:
            half = min(half, stop)
        drawn: list[State] = []
        agrees: list[bool] = []
        while not drawn or (sum(agrees) < n and len(drawn) < INFER_DRAWS * n):
            if drawn and half is not None and time.monotonic() > half:
                break
            batch = self._sampled(view, known, n)
            drawn += batch
            agrees += [self._agrees(w, view.seat, known) for w in batch]
        ordered = [w for w, ok in zip(drawn, agrees, strict=True) if ok]
        ordered += [w for w, ok in zip(drawn, agrees, strict=True) if not ok]
        return tuple(ordered[:n])

    def _agrees(self, world: State, seat: int, known: EventLog) -> bool:
        """Whether the bidder, deciding for the other seats in ``world``, takes their decisions as they were taken.

        The decisions of the world's deal before its play, replayed from the world's log, that the
        seat saw (``known``, its log, shows it): a decision it did not see (the cards another seat passed
        or discarded face down) is the world's draw, not what the seat learned, so it is not asked.
        """
        assert self.bidder is not None
        log = EventLog.from_state(world)
        state = first_state(self.game, log.header)
        deal = world.deal.number
        for entry, shown in zip(log.entries, known.entries, strict=True):
            if not isinstance(entry.actor, int) or not records_action(entry.event.TAG):
                continue
            action = action_of(self.game, entry.event)
            ours = state.deal.number == deal and state.phase != "play" and entry.actor != seat
            seen = ours and shown.event == entry.event
            if seen and self.bidder.choose(View.from_state(state, entry.actor)) != str(action):
                return False
            state = state.apply(action)
        return True

    def _search_bid(self, view: View, known: EventLog) -> str:
        """A decision before the play, searched: the bidder's, unless the worlds show another is better.

        In each world the bidder takes every seat's decisions after each action up to the play, whose
        value is then solved; a world whose play is not solved is left out. With a budget, batches of
        worlds are drawn until it is spent (``BID_BATCHES`` at most). The action of the best mean value
        is taken only where it beats the bidder's own choice by more than ``BID_EVIDENCE`` standard
        errors of their difference over the worlds (the best of a few noisy means is overrated, and a
        solved world plays the bid with every card known); else, and with no world solved, the bidder
        decides.
        """
        legal = view.legal
        deadline = self._deadline()
        rows: list[list[float]] = []
        for _ in range(1 if deadline is None else BID_BATCHES):
            for world in self._worlds(view, known, self.worlds, stop=deadline):
                if rows and deadline is not None and time.monotonic() > deadline:
                    break
                ends = [self._bid_out(world, world.apply(text)) for text in legal]
                values = self._solved_ends(world, ends, view.seat)
                if values is not None:  # else this world's play is not solved
                    rows.append(values)
            if not rows or deadline is None or time.monotonic() > deadline:
                break
        model = self._bidders(view, known)
        return model if not rows else evident(legal, rows, model)

    def _bidders(self, view: View, known: EventLog) -> str:
        """The bidder's decision (from the seat's log too, where it searches)."""
        assert self.bidder is not None
        chooser = getattr(self.bidder, "choose_known", None)
        return str(chooser(view, known)) if chooser is not None else self.bidder.choose(view)

    def _bid_out(self, world: State, state: State) -> State:
        """``state`` carried on by the bidder for every seat up to the play of ``world``'s deal (or its end)."""
        assert self.bidder is not None
        while not _over(world, state) and state.phase != "play":
            if state.is_chance:
                state = state.apply(state.seeded_outcome())
                continue
            seat = state.chooser
            assert seat is not None
            state = state.apply(self.bidder.choose(View.from_state(state, seat)))
        return state

    def _solved_ends(self, world: State, ends: list[State], seat: int) -> list[float] | None:
        """The solved value for ``seat``'s side of each position (the play's start, or the deal's end).

        ``None`` where one is not solved: too many cards, a solve past its bound, or more than two sides.
        """
        out = []
        for end in ends:
            if _over(world, end):
                out.append(_side_result(world, end, seat))
                continue
            solving = _solving(end)
            if solving is None or solving[0] > solving[1] or solving[3] != "score":
                return None  # not solved, or not for the payment: contracts' values would not compare
            try:
                found = solve(end, max_nodes=solving[2])
            except ArgumentError:
                return None
            best = max(float(v) for _, v in found.values)
            if seat in found.side:
                out.append(best)
            elif set(found.side) | set(side_of(end, seat)) == set(range(self.game.players)):
                out.append(-best)  # two sides: what one side's value gains the other loses
            else:
                return None
        return out

    def _play_out(
        self,
        worlds: tuple[State, ...],
        seat: int,
        deadline: float | None,
        totals: dict[str, float],
        counts: dict[str, int],
    ) -> None:
        """Add each action's playout values in each world to ``totals``, round after round."""
        after: dict[tuple[int, str], State] = {}
        arrays: dict[tuple[int, str], Array | None] = {}
        done = 0
        while done < self.rounds or (deadline is not None and time.monotonic() < deadline):
            for w, world in enumerate(worlds):
                for text in totals:
                    key = (w, text)
                    if key not in after:
                        after[key] = world.apply(text)
                        arrays[key] = None if self._rollouts is None else self._rollouts.arrays(after[key])
                    totals[text] += self._value(world, after[key], arrays[key], seat)
                    counts[text] += 1
            done += 1
            if deadline is None and done >= self.rounds:
                break

    def _solve_all(self, worlds: tuple[State, ...], deadline: float | None) -> list[tuple[tuple[str, float], ...]]:
        """Each world's exact values of the actions, while the budget lasts (the first world at least).

        Empty where the worlds are not solved: too early in the deal, or a solve passed its bound, in
        which case no more are tried at that many cards in this deal (the values of all the worlds
        are then played out, so that one decision's values are all of one kind).
        """
        solving = _solving(worlds[0])
        if solving is None:
            return []
        most, cards, nodes, measure = solving
        deal = worlds[0].deal.number
        if self._too_many is not None and self._too_many[0] == deal:
            cards = min(cards, self._too_many[1] - 1)
        if most > cards:
            return []
        out: list[tuple[tuple[str, float], ...]] = []
        for world in worlds:
            if out and deadline is not None and time.monotonic() > deadline:
                break
            found = _bounded_solve(world, measure, nodes)
            if found is None:
                self._too_many = (deal, most)
                return []
            out.append(tuple((text, float(value)) for text, value in found.values))
        return out

    def _value(self, world: State, after: State, st: Array | None, seat: int) -> float:
        """An action's value in ``world`` by random playouts from ``after``: on the kernel where it can."""
        found = None if st is None or self._rollouts is None else self._rollouts.results_from(st, self.kernel_playouts)
        if found is not None:
            return float(found[seat])
        total = 0.0
        for _ in range(self.playouts):
            end = _playout(world, after, self._rng)
            total += deal_result(self.game, world, end, seat)
        return total / self.playouts


def evident(legal: Sequence[str], rows: Sequence[Sequence[float]], model: str) -> str:
    """The action of the best mean value over ``rows`` (a row per world, a value per action of ``legal``).

    It is taken only where its mean beats ``model``'s (a choice made without the rows) by more than
    ``BID_EVIDENCE`` standard errors of the difference between the two, world by world; else ``model``.
    """
    means = [statistics.fmean(col) for col in zip(*rows, strict=True)]
    best = max(range(len(legal)), key=means.__getitem__)
    if model not in legal:
        return legal[best]
    m = legal.index(model)
    diffs = [row[best] - row[m] for row in rows]
    if best == m or len(diffs) < 2:
        return model
    error = statistics.stdev(diffs) / math.sqrt(len(diffs))
    return legal[best] if statistics.fmean(diffs) > BID_EVIDENCE * error else model


class _Node:
    """A node of the information-set tree: its children by action, their visits, results and availabilities."""

    __slots__ = ("available", "children", "results", "seat", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.children: dict[str, _Node] = {}
        self.visits: dict[str, int] = {}
        self.results: dict[str, float] = {}
        self.available: dict[str, int] = {}


class IsmctsBot(_SearchBot):
    """Single-observer information-set MCTS over the deal: ``playouts`` iterations a decision, or ``budget_ms``."""

    def __init__(self, game: GameLike, seed: int = 0, playouts: int = 200, budget_ms: float | None = None) -> None:
        super().__init__(game, seed, budget_ms)
        if playouts < 1:
            raise ArgumentError(f"playouts must be 1 or more, found {playouts}.")
        self.playouts = playouts

    def choose_known(self, view: View, known: EventLog) -> str:
        """The most visited action at the root after the iterations."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        deadline = self._deadline()
        root = _Node(view.seat)
        worlds = self._worlds(view, known, min(self.playouts, 32))
        k = 0
        while k < self.playouts if deadline is None else (k == 0 or time.monotonic() < deadline):
            self._iterate(root, worlds[k % len(worlds)])
            k += 1
        return max(legal, key=lambda text: (root.visits.get(text, 0), -legal.index(text)))

    def _iterate(self, root: _Node, world: State) -> None:
        rng = self._rng
        node, state, path = root, world, []
        while not _over(world, state):
            seat = state.chooser
            assert seat is not None
            legal = [str(a) for a in state.legal_actions()]
            for text in legal:
                node.available[text] = node.available.get(text, 0) + 1
            untried = [text for text in legal if text not in node.children]
            if untried:
                text = untried[int(rng.random() * len(untried))]
                node.children[text] = _Node(seat)
            else:
                text = max(legal, key=lambda t: self._uct(node, t))
            path.append((node, text))
            state = state.apply(text)
            node = node.children[text]
            if untried:
                break
        rollouts = self._rollouts
        st = None if rollouts is None or _over(world, state) else rollouts.arrays(state)
        found = None if st is None or rollouts is None else rollouts.results_from(st, LEAF_PLAYOUTS)
        if found is not None:
            for parent, text in path:
                parent.visits[text] = parent.visits.get(text, 0) + 1
                parent.results[text] = parent.results.get(text, 0.0) + float(found[parent.seat])
            return
        end = _playout(world, state, rng)
        for parent, text in path:
            parent.visits[text] = parent.visits.get(text, 0) + 1
            parent.results[text] = parent.results.get(text, 0.0) + deal_result(self.game, world, end, parent.seat)

    @staticmethod
    def _uct(node: _Node, text: str) -> float:
        visits = node.visits.get(text, 0)
        if not visits:
            return math.inf
        mean = node.results[text] / visits
        return mean + EXPLORE * (1 + abs(mean)) * math.sqrt(math.log(node.available[text]) / visits)
