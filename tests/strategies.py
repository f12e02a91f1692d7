"""Hypothesis strategies and shared checks for the property tests.

What is here:

* the bundled games, loaded once (:func:`short_game` with short-match
  options, :func:`full_game` with the defaults);
* strategies for game names, seeds, random playthroughs (a seed for a
  :class:`random.Random` that picks among ``state.legal_actions()``, plus a
  bias towards passing so that bidding games reach every contract) and
  stacked deals (a permutation of the deck dealt into hands of the right
  size, for ``new_match(hands=...)``);
* the invariants, as plain functions the property tests and the state
  machine share: cheap ones for every step (:class:`Tracker`), expensive ones
  for sampled steps (:func:`check_expensive` and the helpers it calls).
"""

from __future__ import annotations

import copy
import functools
import json
import os
import random
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import attrs
from hypothesis import strategies as st

import parts
import trickrules
from trickrules import Action, EventLog, Game, IllegalActionError, State, View
from trickrules.compile.cards import bits
from trickrules.engine.events import (
    POT,
    Awarded,
    CardGiven,
    DealScored,
    Dealt,
    MatchEnded,
    Paid,
    PartnerRevealed,
)
from trickrules.engine.phases.talon_sets import talon_params
from trickrules.engine.state import GameLike

# -- profiles ------------------------------------------------------------------------

#: The Hypothesis profile in use (``conftest.py`` loads this one): the
#: ``HYPOTHESIS_PROFILE`` environment variable, or where it is unset ``ci`` when
#: ``CI`` is set (as in CI runs), else ``dev``.
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")


def scaled(dev: int, ci: int) -> int:
    """Return ``dev`` under the fast profile, ``ci`` under the thorough one."""
    return ci if PROFILE == "ci" else dev


# -- games ---------------------------------------------------------------------------

GAMES: tuple[str, ...] = tuple(sorted(trickrules.bundled_names()))


def shared(dev: int, ci: int, *, least: int = 1) -> int:
    """Return a per-game example count from a budget set for three games.

    The counts given are right for three bundled games; with more (variant
    overlays get bundled too) each game gets its share, at least ``least``,
    so the suite's time does not grow with every game added.
    """
    return max(least, -(-scaled(dev, ci) * 3 // len(GAMES)))


#: Option choices that keep a match short (a few deals), where a game has them:
#: quadrille's ``deals``, cuatrola's ``target`` and manille's ``match_end``.
SHORT_CHOICES: dict[str, str] = {"deals": "4", "target": "11", "match_end": "12"}


@functools.cache
def short_options(name: str) -> dict[str, str]:
    """Return the options of the bundled game ``name`` that keep its matches short."""
    options = full_game(name).spec.options
    return {k: v for k, v in SHORT_CHOICES.items() if k in options and v in options[k].choices}


@functools.cache
def short_game(name: str) -> Game:
    """Load the bundled game ``name`` with short-match options (once)."""
    return trickrules.load(name, short_options(name))


@functools.cache
def full_game(name: str) -> Game:
    """Load the bundled game ``name`` with its default options (once)."""
    return trickrules.load(name)


def full_deck(game: GameLike) -> int:
    """Return the mask of every card of the deck."""
    return (1 << game.cards.size) - 1


def is_chips(game: GameLike) -> bool:
    """Tell whether the game scores in chips (with a pot) rather than points."""
    return game.rules.unit == "chips"


# -- strategies ----------------------------------------------------------------------


def game_names() -> st.SearchStrategy[str]:
    """Draw one of the bundled games."""
    return st.sampled_from(GAMES)


#: The largest seed ``new_match`` accepts (a log writes one past 2**53 as a decimal string).
MAX_SEED = 2**128 - 1


def seeds() -> st.SearchStrategy[int]:
    """Draw a match seed: any value ``new_match`` accepts."""
    return st.integers(min_value=0, max_value=MAX_SEED)


def big_seeds() -> st.SearchStrategy[int]:
    """Draw a seed long enough that finding its digits in a text is no accident."""
    return st.integers(min_value=10**12, max_value=MAX_SEED)


@dataclass(frozen=True)
class Playthrough:
    """How to play one random match.

    The deal seed, the policy's seed, the first dealer, how often the policy
    passes in an auction when it may, and a bid it makes whenever offered.
    """

    seed: int
    policy: int
    dealer: int = 0
    pass_bias: float = 0.0
    favour: str = ""

    def __str__(self) -> str:
        return (
            f"Playthrough(seed={self.seed}, policy={self.policy}, dealer={self.dealer}, "
            f"pass_bias={self.pass_bias}, favour={self.favour!r})"
        )


def playthroughs(
    players: int = 4,
    *,
    seed: st.SearchStrategy[int] | None = None,
    min_pass_bias: float = 0.0,
    favour: Sequence[str] = ("",),
) -> st.SearchStrategy[Playthrough]:
    """Draw a random playthrough of a match for ``players`` seats.

    ``favour`` lists bids the policy may be told to make whenever offered
    (``""``: none), to reach rare contracts often.
    """
    return st.builds(
        Playthrough,
        seed=seeds() if seed is None else seed,
        policy=st.integers(min_value=0, max_value=2**32 - 1),
        dealer=st.integers(min_value=0, max_value=players - 1),
        pass_bias=st.sampled_from([b for b in (0.0, 0.5, 0.8, 0.95) if b >= min_pass_bias] or [min_pass_bias]),
        favour=st.sampled_from(tuple(favour)),
    )


Hands = tuple[tuple[str, ...], ...]


def deal_out(game: GameLike, order: Sequence[str]) -> Hands:
    """Deal the cards of ``order`` into one hand of the right size per seat (the cards left over are the stock)."""
    size = game.rules.hand_size
    players = game.rules.players
    assert len(order) >= size * players, "the deck must fill every hand"
    return tuple(tuple(order[k * size : (k + 1) * size]) for k in range(players))


def stacked_deals(game: GameLike) -> st.SearchStrategy[Hands]:
    """Draw a stacked first deal: a permutation of the deck, one right-sized hand per seat.

    Where the game turns a card, the last card of the dealer's list is the one
    turned (``new_match``'s default).
    """
    return st.permutations(game.cards.codes).map(lambda order: deal_out(game, order))


def restack_others(
    game: GameLike, hands: Hands, dealer: int, seat: int, rng: random.Random
) -> tuple[Hands, str | None]:
    """Permute the cards ``seat`` cannot see among the other seats of ``hands``.

    Every hand keeps its size and ``seat`` keeps its own hand. Where a card is
    turned it is public, so it stays with the dealer (and stays the turned
    card). Returns the new hands and the ``turned`` argument for ``new_match``.
    """
    turned: str | None = None
    if game.rules.turn_last_card:
        turned = hands[dealer][-1]
    pool: list[str] = []
    for s, hand in enumerate(hands):
        if s != seat:
            pool.extend(c for c in hand if c != turned)
    rng.shuffle(pool)
    out: list[tuple[str, ...]] = []
    for s, hand in enumerate(hands):
        if s == seat:
            out.append(hand)
            continue
        keep = 1 if turned is not None and s == dealer else 0
        take = len(hand) - keep
        new = [pool.pop() for _ in range(take)]
        if keep:
            new.append(turned)  # type: ignore[arg-type]
        out.append(tuple(new))
    assert not pool
    return tuple(out), turned


# -- playing -------------------------------------------------------------------------


class Policy:
    """A seeded random player, uniform among the legal actions.

    Except in an auction: there it makes the ``favour`` bid whenever offered,
    and passes with probability ``pass_bias`` (so auctions end at every level,
    not almost always at the top).
    """

    def __init__(self, seed: int, pass_bias: float = 0.0, favour: str = "") -> None:
        self.rng = random.Random(seed)
        self.pass_bias = pass_bias
        self.favour = f"bid {favour}" if favour else ""

    def choose(self, state: State, actions: Sequence[Action] | None = None) -> Action:
        """Pick an action for the seat to move (among ``actions`` if given)."""
        if actions is None:
            actions = state.legal_actions()
        if state.phase == "bidding":
            if self.favour:
                for a in actions:
                    if str(a) == self.favour:
                        return a
            if self.pass_bias and self.rng.random() < self.pass_bias:
                for a in actions:
                    if a.verb == "pass":
                        return a
        return self.rng.choice(actions)


def start(game: GameLike, p: Playthrough, hands: Hands | None = None) -> State:
    """Return the first state of playthrough ``p``."""
    return game.new_match(seed=p.seed, dealer=p.dealer % game.rules.players, hands=hands)


def walk(
    game: GameLike, p: Playthrough, hands: Hands | None = None, max_steps: int = 20_000
) -> Iterator[tuple[int, State]]:
    """Yield every state of playthrough ``p`` with its step number, from 0 to the last."""
    policy = Policy(p.policy, p.pass_bias, p.favour)
    state = start(game, p, hands)
    step = 0
    yield step, state
    while not state.is_terminal:
        step += 1
        assert step <= max_steps, f"no end after {max_steps} steps"
        state = state.apply(policy.choose(state))
        yield step, state


def actions_of(state: State) -> list[str]:
    """Return the player actions of the match so far, as text (for reproductions)."""
    from trickrules.records.replay import action_of

    out = []
    for entry in EventLog.from_state(state).entries:
        if isinstance(entry.actor, int):
            out.append(str(action_of(state.game, entry.event)))
    return out


def is_sampled(step: int) -> bool:
    """Tell whether the expensive checks run at ``step``: the first ten, then powers of two.

    (The last step is checked by the caller, which knows it is the last.)
    """
    return step < 10 or step & (step - 1) == 0


# -- cheap invariants, at every step ---------------------------------------------------


def card_locations(state: State) -> list[int]:
    """Return the masks of the places a card can be.

    They are the hands, the trick, the tricks won, and the cards in transit in
    an exchange (handed face down, not yet delivered: the engine keeps them in
    ``deal.given`` and ``deal.returned`` until the exchange is complete).
    """
    d = state.deal
    masks = [*state.hands, *state.tally.won]
    masks.extend(1 << c for c in state.trick)
    exchange = state.game.rules.contracts[d.contract].exchange if d.contract is not None else 0
    delivered = exchange > 0 and len(parts.returned(state)) == exchange
    if not delivered:
        masks.extend(1 << c for c in (*parts.given(state), *parts.returned(state)))
    # The stock (cards no hand was dealt), less the turned card once the dealer has taken it up,
    # and the cards discarded face down after that.
    dealt = 0
    for hand in d.dealt:
        dealt |= hand
    stock = full_deck(state.game) & ~dealt
    turned = parts.turned(state)
    if turned is not None and (state.phase == "discard" or parts.discarded(state)):
        stock &= ~(1 << turned)
    widow = state.part("widow")  # the widow taken up (into the hand), or left as it lies for a game from hand
    if widow is not None:
        if widow.taken:
            stock &= ~widow.cards
        masks.append(widow.discarded)  # face down, out of the hand: they count for the declarer in the scoring
    talon = state.part("talon_sets")  # the talon laid out in sets: one taken into the hand, then discards
    if talon is not None and talon.taken and d.contract is not None:
        size = talon_params(state.game.tables).set_size[d.contract]
        for card in talon.order[(talon.taken - 1) * size : talon.taken * size]:
            stock &= ~(1 << card)
        masks.append(sum(1 << c for c in talon.discarded))
    if "talon_gifts" in state.game.tables.mechanism_sections:
        # The talon's cards won with tricks (one a trick, or the sets left with a called card) leave the
        # stock for the winner's cards won; which ones is that mechanism's own test's business.
        for won in state.tally.won:
            stock &= ~won
    masks.extend((stock, parts.discarded(state)))
    if state.phase == "passing":  # cards passed face down, delivered when everyone has passed
        masks.extend(parts.passed(state))
    return masks


def check_cards(state: State) -> None:
    """Check that every card of the deck is in exactly one place."""
    seen = 0
    for mask in card_locations(state):
        assert not seen & mask, f"cards in two places: {state.game.cards.format(bits(seen & mask))}"
        seen |= mask
    missing = full_deck(state.game) & ~seen
    assert not missing, f"cards nowhere: {state.game.cards.format(bits(missing))}"
    assert seen == full_deck(state.game), "a card outside the deck"
    assert len(set(state.trick)) == len(state.trick), "a card twice in the trick"


def check_turn(state: State) -> None:
    """Check that one seat is to move until the match is over, with legal actions exactly then."""
    players = state.game.rules.players
    actions = state.legal_actions()
    if state.is_terminal:
        assert state.to_move is None
        assert actions == ()
        assert state.phase == "over"
        assert state.winners, "a finished match names its winners"
    else:
        assert state.to_move is not None
        assert 0 <= state.to_move < players
        assert actions, f"seat {state.to_move} has no legal action in the {state.phase} phase"
        assert len(set(actions)) == len(actions), "an action listed twice"
        assert state.phase != "over"


@dataclass
class Tracker:
    """Check the cheap invariants of a walk, fed one state after another.

    It keeps a ledger of the scores rebuilt from the ``paid`` (chips) or
    ``awarded`` (points) events alone, and checks it against the state's
    scoreboard and pot, and against every ``deal_scored`` event.
    """

    game: GameLike
    deals: int = 0
    steps: int = 0
    scores: list[int] = field(default_factory=list)
    pot: int = 0
    previous: tuple[int, ...] = ()
    #: The net chips this deal's payments moved to the seats and to the pot.
    deal_seats: int = 0
    deal_pot: int = 0

    def __post_init__(self) -> None:
        self.scores = [0] * self.game.rules.players
        self.previous = tuple(self.scores)

    def step(self, state: State) -> None:
        """Check ``state``, the next state of the walk (the first one included)."""
        self.steps += 1
        check_turn(state)
        check_cards(state)
        chips = is_chips(self.game)
        lowered: set[int] = set()  # the seats given negative points in this step
        for ev in state.last_events:
            if isinstance(ev, Paid):
                self._pay(ev)
            elif isinstance(ev, Awarded):
                assert not chips, "a chips game awarded points"
                assert ev.points, "zero points awarded"  # negative points subtract (docs/dsl.md, payments)
                assert ev.seats, "points awarded to nobody"
                for s in ev.seats:
                    self.scores[s] += ev.points
                if ev.points < 0:
                    lowered.update(ev.seats)
            elif isinstance(ev, DealScored):
                self.deals += 1
                assert ev.scoreboard == tuple(self.scores), "the payments do not add up"
                assert ev.pot == self.pot, "the pot is not what the payments give"
                assert self.deal_seats + self.deal_pot == 0, (
                    f"this deal's payments net to {self.deal_seats} for the seats and {self.deal_pot} for the pot"
                )
                self.deal_seats = self.deal_pot = 0
            elif isinstance(ev, MatchEnded):
                assert ev.scoreboard == tuple(self.scores)
                assert ev.winners == state.winners
        board = tuple(state.scoreboard[s] for s in range(self.game.rules.players))
        assert board == tuple(self.scores), "the scoreboard is not what the payments give"
        assert state.pot == self.pot
        if chips:
            assert sum(board) + state.pot == 0, "chips created or destroyed"
        else:
            assert state.pot == 0
            assert all(
                a >= b or s in lowered for s, (a, b) in enumerate(zip(board, self.previous, strict=True))
            ), "a score went down without negative points"
        self.previous = board

    def _pay(self, ev: Paid) -> None:
        assert is_chips(self.game), "a points game paid chips"
        assert ev.amount > 0, f"a payment of {ev.amount}"
        assert ev.payer != ev.payee, "a seat paid itself"
        for who, amount in ((ev.payer, -ev.amount), (ev.payee, ev.amount)):
            if who == POT:
                self.pot += amount
                self.deal_pot += amount
            else:
                self.scores[who] += amount
                self.deal_seats += amount
        assert self.pot >= 0, "the pot paid out more than it held"


# -- expensive invariants, at sampled steps -------------------------------------------


@functools.cache
def action_universe(game: GameLike) -> tuple[str, ...]:
    """Return every well-formed action text of ``game`` (legal somewhere or not)."""
    cards = game.cards
    rules = game.rules
    texts = ["pass"]
    texts += [f"bid {c.name}" for c in rules.contracts]
    texts += [f"trump {s}" for s in cards.suit_codes] + ["trump none"]
    for verb in ("call", "give", "play"):
        texts += [f"{verb} {c}" for c in cards.codes]
    for decl in rules.declarations:
        texts.append(f"declare {decl.name}")
        texts += [f"declare {decl.name} {s}" for s in cards.suit_codes]
    texts += [f"announce {name}" for name, _ in rules.announcements]
    return tuple(texts)


#: Texts that are never a legal action, in any game or state.
GARBAGE: tuple[str, ...] = (
    "play ZZ",
    "fly",
    "",
    "   ",
    "play",
    "bid",
    "bid grand slam",
    "trump Z",
    "call ZZ",
    "give ZZ",
    "declare 99",
    "announce nothing",
    "pass pass",
    "PLAY AS",
    "play AS AS",
    "x" * 100,
)


def all_illegal(state: State) -> list[str]:
    """List every illegal action text of the universe for ``state``, and the garbage."""
    accepted = {str(a) for a in state.legal_actions()}
    if state.game.rules.play.revoke_penalised and state.phase == "play":
        # A revoke is accepted (and penalised at the end of the deal).
        hand = state.hands[state.to_move or 0]
        accepted.update(f"play {state.game.cards.codes[c]}" for c in bits(hand))
    return [t for t in action_universe(state.game) if t not in accepted] + list(GARBAGE)


def illegal_texts(state: State, rng: random.Random, limit: int = 8) -> list[str]:
    """Pick illegal actions for ``state``, one of each kind the state has and some more.

    The kinds: a card not in the mover's hand, a card in hand that may not be
    played, a bid not offered, and text garbage.
    """
    legal = {str(a) for a in state.legal_actions()}
    codes = state.game.cards.codes
    picks: list[str] = []
    if not state.is_terminal:
        hand = state.hands[state.to_move or 0]
        absent = [f"play {codes[c]}" for c in range(len(codes)) if not (hand >> c) & 1]
        if absent:
            picks.append(rng.choice(absent))
        if not state.game.rules.play.revoke_penalised:
            barred = [f"play {codes[c]}" for c in bits(hand) if f"play {codes[c]}" not in legal]
            if barred:
                picks.append(rng.choice(barred))
        bids = [t for t in action_universe(state.game) if t.startswith("bid ") and t not in legal]
        if bids:
            picks.append(rng.choice(bids))
    others = [t for t in all_illegal(state) if t not in GARBAGE]
    picks += rng.sample(others, min(limit, len(others)))
    picks += ["play ZZ", "fly", *rng.sample(GARBAGE, 3)]
    return picks


def check_illegal(state: State, texts: Iterable[str]) -> None:
    """Check that each of ``texts`` raises IllegalActionError and leaves ``state`` as it was."""
    before = copy.copy(state)
    legal = state.legal_actions()
    size = len(state.entries())
    for text in texts:
        try:
            state.apply(text)
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"{text!r} was accepted in {state!r} (legal: {legal})")
        assert not state.is_legal(text)
        assert state == before, f"{text!r} changed the state"
        assert state.legal_actions() == legal, f"{text!r} changed the legal actions"
        assert len(state.entries()) == size, f"{text!r} changed the history"


def check_universe(state: State) -> None:
    """Check that ``is_legal`` agrees with ``legal_actions`` over the well-formed actions.

    Every one of them outside the play phase; in it, every card's play and one
    action of each other verb (the engine refuses those by their verb alone).
    """
    if state.game.rules.play.revoke_penalised:
        return
    legal = {str(a) for a in state.legal_actions()}
    texts = action_universe(state.game)
    if state.phase == "play":
        texts = play_universe(state.game)
    for text in texts:
        assert state.is_legal(text) == (text in legal), f"is_legal({text!r}) disagrees"


@functools.cache
def play_universe(game: GameLike) -> tuple[str, ...]:
    """Return every card's play, and the first action text of each other verb."""
    texts = action_universe(game)
    others: dict[str, str] = {}
    for text in texts:
        others.setdefault(text.split()[0], text)
    return tuple(t for t in texts if t.startswith("play ")) + tuple(t for verb, t in others.items() if verb != "play")


def check_deterministic(state: State, twin: State) -> None:
    """Check that each legal action applied to two equal states gives equal states and events."""
    assert state == twin
    for action in state.legal_actions():
        a = state.apply(action)
        b = twin.apply(str(action))
        assert a == b, f"{action} gave different states"
        assert a.last_events == b.last_events, f"{action} gave different events"


def check_json(state: State, log: EventLog, seats: Iterable[int]) -> None:
    """Check that views and logs survive a JSON round trip byte for byte.

    ``log`` is ``EventLog.from_state(state)``; the views and seat logs of ``seats`` are checked.
    """
    for seat in seats:
        view = View.from_state(state, seat)
        text = view.to_json()
        back = View.from_json(text)
        assert back == view
        assert back.to_json() == text
        seat_log = log.for_seat(seat)
        seat_text = seat_log.to_json()
        seat_back = EventLog.from_json(seat_text)
        assert seat_back == seat_log
        assert seat_back.to_json() == seat_text
    text = log.to_json()
    back_log = EventLog.from_json(text)
    assert back_log == log
    assert back_log.to_json() == text


def check_replay(state: State, log: EventLog, *, by_name: bool = False) -> State:
    """Check that ``log`` (``EventLog.from_state(state)``) replays to an equal state, and return that state.

    With ``by_name`` the game is loaded again from the header (name, options
    and fingerprint), as a reader of a saved log would; otherwise the loaded
    game is reused, which is much cheaper.
    """
    again = trickrules.replay(log, None if by_name else state.game, partial=True)
    assert again == state, "replay gave another state"
    assert EventLog.from_state(again) == log, "replay gave another log"
    assert again.legal_actions() == state.legal_actions()
    return again


# -- secrecy -------------------------------------------------------------------------


@functools.cache
def card_codes(game: GameLike) -> frozenset[str]:
    """Return the set of ``game``'s card codes."""
    return frozenset(game.cards.codes)


_JSON_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def card_tokens(game: GameLike, text: str) -> set[str]:
    """Return the card codes among the words of the strings of a JSON ``text``."""
    codes = card_codes(game)
    return {w for found in _JSON_STRING.findall(text) for w in found.split() if w in codes}


def hidden_from(state: State, seat: int) -> int:
    """Return the mask of the cards whose place ``seat`` may not know.

    They are the other hands and the cards in transit, less what the seat saw:
    its own deal, the cards played, the turned and the called card, and the
    cards of an exchange it took part in.
    """
    d = state.deal
    others = 0
    for s, hand in enumerate(state.hands):
        if s != seat:
            others |= hand
    for c in (*parts.given(state), *parts.returned(state)):
        others |= 1 << c
    if state.phase == "passing":  # cards passed by others, not yet delivered
        for s, passed in enumerate(parts.passed(state)):
            others |= passed if s != seat else 0
    seen = d.dealt[seat] | state.hands[seat]
    for mask in state.tally.won:
        seen |= mask
    for c in state.trick:
        seen |= 1 << c
    for card in (parts.turned(state), parts.called(state)):
        if card is not None:
            seen |= 1 << card
    seen |= parts.exposed_hand(state)  # hands laid face up for every seat (the dummy, an open hand)
    talon = state.part("talon_sets")
    if talon is not None and (talon.taken or state.phase == "talon_sets"):  # the talon laid out face up
        for c in talon.order:
            seen |= 1 << c
    if seat in (d.declarer, d.partner) and d.declarer != d.partner:
        for c in (*parts.given(state), *parts.returned(state)):
            seen |= 1 << c
    return others & ~seen


def check_secrets(state: State, seat: int, log: EventLog | None = None) -> None:
    """Check that ``seat``'s log keeps the secrets.

    It shows no seed, no card of another hand the seat has not seen, and no
    card handed face down between two other seats (:func:`check_views`
    checks the views).

    ``log`` is ``EventLog.from_state(state)`` if the caller has it already.
    """
    game = state.game
    codes = game.cards.codes
    hidden = {codes[c] for c in bits(hidden_from(state, seat))}
    seat_log = (EventLog.from_state(state) if log is None else log).for_seat(seat)
    header = seat_log.header
    assert header.seed is None
    assert header.seat == seat
    for s, hand in enumerate(header.hands):
        if s != seat:
            assert set(hand) <= {"?"}, f"seat {seat}'s log header shows seat {s}'s hand"
    start = 0
    for n, entry in enumerate(seat_log.entries):
        ev = entry.event
        if isinstance(ev, Dealt):
            start = n
            for s, hand in enumerate(ev.hands):
                if s != seat:
                    assert set(hand) <= {"?"}, f"seat {seat}'s log shows seat {s}'s deal"
        elif isinstance(ev, CardGiven) and seat not in (ev.seat, ev.to):
            assert ev.card == "?", f"seat {seat}'s log shows a card given by {ev.seat} to {ev.to}"
    head = json.dumps(seat_log.header_data())
    assert json.loads(head)["seed"] is None
    seed_text = str(state.match.seed)
    assert state.match.seed < 10**6 or seed_text not in head, "the seat log shows the seed"
    # This deal's events show nothing hidden from the seat.
    # The calls of a doubling auction ("2H": a bid, not the card) are left out of the words searched.
    shown = [e for e in seat_log.entries[start:] if not parts.is_call(e.event)]
    current = "\n".join(json.dumps(seat_log.entry_data(e)) for e in shown)
    leaked = card_tokens(game, current) & hidden
    assert not leaked, f"seat {seat}'s log shows {sorted(leaked)}"


def called_card_moved(state: State) -> bool:
    """Tell whether the called card changed hands in an exchange.

    In a Dimidiator the holder may hand the called card itself to the
    declarer, who then holds it although the partner is still its first
    holder (and is named so when the card is played).
    """
    card = parts.called(state)
    return card is not None and card in parts.returned(state)


def check_partner_secret(state: State) -> None:
    """Check that a secretly called partner is in no view but its own.

    That lasts until the called card is played; then every view shows the
    partner, and the log's ``partner_revealed`` event names it.
    """
    d = state.deal
    card = parts.called(state)
    if card is None:
        return
    players = state.game.rules.players
    called = state.game.cards.codes[card]
    if not parts.revealed(state):
        for seat in range(players):
            view = View.from_state(state, seat)
            if seat == d.partner:
                assert parts.v_partner(view) == d.partner
            else:
                assert parts.v_partner(view) is None, f"seat {seat} sees the secret partner"
                if not called_card_moved(state):
                    assert called not in view.hand, f"seat {seat} holds the called {called}"
    else:
        for seat in range(players):
            assert parts.v_partner(View.from_state(state, seat)) == d.partner, f"seat {seat} does not see the partner"
    for ev in state.last_events:
        if isinstance(ev, PartnerRevealed):
            assert ev.seat == d.partner, f"{ev} but the partner is seat {d.partner}"


def uncached(state: State) -> State:
    """The same state built afresh, with nothing computed yet."""
    return State(**{f.name: getattr(state, f.name) for f in attrs.fields(State) if f.init})


def check_local(state: State, rng: random.Random) -> None:
    """Run the expensive checks whose cost does not grow with the match.

    Illegal actions, ``is_legal``, determinism, every view's JSON round trip,
    and what the views keep secret.
    """
    check_illegal(state, illegal_texts(state, rng))
    check_universe(state)
    check_deterministic(state, uncached(state))
    check_views(state)
    check_partner_secret(state)


def check_history(state: State, rng: random.Random, *, by_name: bool = False) -> None:
    """Run the expensive checks that read the whole match.

    The log's JSON round trip (full and one seat's), replay, determinism
    against the replayed state, and what one seat's log keeps secret.
    """
    log = EventLog.from_state(state)
    twin = check_replay(state, log, by_name=by_name)
    check_deterministic(state, twin)
    seat = rng.randrange(state.game.rules.players)
    check_json(state, log, [seat])
    check_secrets(state, seat, log)


def check_expensive(state: State, rng: random.Random, *, by_name: bool = False) -> None:
    """Run every expensive check (:func:`check_local` and :func:`check_history`)."""
    check_local(state, rng)
    check_history(state, rng, by_name=by_name)


def check_views(state: State) -> None:
    """Check every seat's view: its JSON round trip, its hand, and its secrets.

    A view shows its own seat's hand, and neither the seed nor a card of
    another hand the seat has not seen.
    """
    seed_text = str(state.match.seed)
    hidden_codes = [state.game.cards.codes[c] for c in range(state.game.cards.size)]
    for seat in range(state.game.rules.players):
        view = View.from_state(state, seat)
        text = view.to_json()
        back = View.from_json(text)
        assert back == view
        assert back.to_json() == text
        assert view.seat == seat
        assert view.hand == state.hand(seat)
        assert view.to_move == state.to_move
        assert view.phase == state.phase
        assert view.hand_sizes == tuple(h.bit_count() for h in state.hands)
        assert view.trick == state.trick_cards()
        assert view.scoreboard == tuple(state.scoreboard[s] for s in range(len(state.hands)))
        assert view.pot == state.pot
        if seat == state.chooser:  # the seat that decides (the declarer, for the dummy's card)
            assert view.legal == tuple(str(a) for a in state.legal_actions())
        else:
            assert view.legal == ()
        assert state.match.seed < 10**6 or seed_text not in text, "the view shows the seed"
        assert '"seed"' not in text
        # The callable cards are named to the caller: it knows them from its own hand.
        calls = tuple(t for t in view.legal if not t.startswith("call ") and not parts.is_strain_bid(state, t))
        bare = parts.without_calls(view)  # the calls of a doubling auction ("2H": a bid, not the card)
        shown = text if calls == view.legal and bare == view else attrs.evolve(bare, legal=calls).to_json()
        hidden = {hidden_codes[c] for c in bits(hidden_from(state, seat))}
        leaked = card_tokens(state.game, shown) & hidden
        assert not leaked, f"seat {seat}'s view shows {sorted(leaked)}"
        d = state.deal
        if parts.passed(state):  # cards passed after the deal: one's own, and those received once delivered
            assert parts.v_given(view) == state.game.codes_of(parts.passed(state)[seat])
            source = (seat - parts.pass_offset(state)) % len(parts.passed(state))
            received = state.game.codes_of(parts.passed(state)[source]) if state.phase != "passing" else ()
            assert parts.v_received(view) == received
        elif seat not in (d.declarer, d.partner):
            assert parts.v_given(view) == ()
            assert parts.v_received(view) == ()


#: A random position of a match and a seat (``@given(**POSITIONS)``; see :func:`played_to`).
POSITIONS = {
    "seed": st.integers(0, 2**32 - 1),
    "pass_bias": st.sampled_from([0.0, 0.5, 0.8, 0.95]),
    "stop": st.integers(0, 300),
    "seat": st.integers(0, 4),
}


def played_to(game: Game, seed: int, pass_bias: float, stop: int) -> State:
    """A match played by a seeded random policy (:class:`Policy`) for ``stop`` steps (or to its end)."""
    policy = Policy(seed, pass_bias)
    state = game.new_match(seed=seed)
    for _ in range(stop):
        if state.is_terminal:
            break
        state = state.apply(policy.choose(state))
    return state
