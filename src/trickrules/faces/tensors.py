"""Tensors of a seat's knowledge, for learning: an observation and an information state, laid out from the spec.

:func:`observation_tensor` encodes what a seat sees now, read from its
:class:`~trickrules.records.view.View` (so nothing hidden can reach it):
the phase, who moves, the dealer and the deal's number, its hand, the trick on the table and who
played each card, the cards gone, the tricks won, the contract, declarer
and trump, the seats out, the scores and counters, every decision taken in
the deal so far outside the play, and each mechanism's own view (the
auction, the called card and partner, exchanged and passed cards, exposed
hands, the talon, the widow, declarations, announcements, bids...).
:func:`information_state_tensor` adds the deal's play in order: for the
k-th card played, which card and who played it.

Every seat number is relative to the seat encoded (0: itself, 1: the next
seat in turn, ...), so one policy can sit anywhere. The layout depends on
the spec alone (its deck, seats, contracts, actions and mechanisms):
:func:`observation_layout` and :func:`information_layout` name each
section, its place and its shape. A mechanism written outside the library
gives its view an encoder with :func:`register_view_encoder`.

Needs numpy (the ``native``, ``openspiel`` or ``pettingzoo`` extra).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from types import MappingProxyType
from typing import Any

import numpy as np
import numpy.typing as npt
from attrs import frozen

from trickrules.engine.events import CardPlayed, Dealt
from trickrules.engine.game import Game
from trickrules.engine.phases import action_of, redact
from trickrules.engine.phases.announce import AnnouncementsView
from trickrules.engine.phases.call import CallView
from trickrules.engine.phases.deal import DealView
from trickrules.engine.phases.declare import DeclarationsView
from trickrules.engine.phases.doubling_auction import AuctionView, strains_of
from trickrules.engine.phases.dummy import DummyView
from trickrules.engine.phases.exchange import ExchangeView
from trickrules.engine.phases.open_hand import OpenHandView
from trickrules.engine.phases.passing import PassingView
from trickrules.engine.phases.talon_sets import TalonSetsView, talon_params
from trickrules.engine.phases.tricks_bid import BidsView
from trickrules.engine.phases.value_bidding import VALUE_BIDDING, ValueBiddingView
from trickrules.engine.phases.vulnerability import VulnerabilityView
from trickrules.engine.phases.widow import WidowView
from trickrules.engine.state import State
from trickrules.errors import ArgumentError
from trickrules.records.view import View

__all__ = [
    "Layout",
    "Section",
    "deal_events",
    "information_layout",
    "information_state_tensor",
    "observation_layout",
    "observation_tensor",
    "register_view_encoder",
]

Array = npt.NDArray[np.float32]
#: (game) -> the size of a mechanism view's section; (game, seat, view value, section) -> fills it.
Size = Callable[[Game], int]
Fill = Callable[[Game, int, Any, Array], None]


@frozen
class Section:
    """One part of a tensor: its name, where it starts, its shape (its size is their product), and what it holds."""

    name: str
    start: int
    shape: tuple[int, ...]
    what: str
    #: How many numbers the section holds.
    size: int


@frozen
class Layout:
    """A tensor's sections, in order, and its size."""

    sections: tuple[Section, ...]
    size: int
    #: Each section's start and size, by name.
    places: Mapping[str, tuple[int, int]]

    def section(self, name: str) -> Section:
        """The section called ``name``."""
        for s in self.sections:
            if s.name == name:
                return s
        raise ArgumentError(f"the layout has no section {name!r} (it has {', '.join(s.name for s in self.sections)}).")

    def describe(self) -> str:
        """One line per section: its name, place, shape and what it holds."""
        return "\n".join(f"{s.name:24} {s.start:6} {s.shape!s:14} {s.what}" for s in self.sections)


_ENCODERS: dict[type, tuple[Size, Fill]] = {}


def register_view_encoder(view_type: type, size: Size, fill: Fill) -> None:
    """Encode a mechanism's view values (of class ``view_type``): ``size(game)`` numbers filled by ``fill``.

    ``fill(game, seat, value, out)`` writes into ``out`` (zeros, of that size); seats relative to ``seat``.
    """
    _ENCODERS[view_type] = (size, fill)


def _rel(game: Game, seat: int, other: int | None) -> int:
    """``other`` relative to ``seat`` (0 itself, 1 the next...), or the players' count for none."""
    return game.players if other is None else (other - seat) % game.players


def _index(game: Game) -> Mapping[str, int]:
    """Each card code's index in the deck."""
    return _plan(game).index


def _cards(game: Game, codes: Sequence[str], out: Array) -> None:
    """Mark the known cards of ``codes`` in ``out[:N]``; ``out[N]`` counts the hidden ones (``"?"``)."""
    index = _index(game)
    for code in codes:
        if code in index:
            out[index[code]] = 1
        else:
            out[game.cards.size] += 1


def _card(game: Game, code: str, out: Array) -> None:
    """One card's one-hot in ``out[:N]``; ``out[N]`` where there is none or it is hidden."""
    found = _index(game).get(code)
    out[game.cards.size if found is None else found] = 1


# -- the bundled mechanisms' views --------------------------------------------------------------


def _n1(game: Game) -> int:
    return game.cards.size + 1


def _fill_call(game: Game, seat: int, v: CallView, out: Array) -> None:
    _card(game, v.called, out[: _n1(game)])
    out[_n1(game) + _rel(game, seat, v.partner)] = 1


def _fill_deal(game: Game, seat: int, v: DealView, out: Array) -> None:
    _card(game, v.turned, out)


def _declaration_names(game: Game) -> tuple[str, ...]:
    return tuple(a.arg for a in game.distinct_actions if a.verb == "declare")


def _fill_declarations(game: Game, seat: int, v: DeclarationsView, out: Array) -> None:
    names = _declaration_names(game)
    for who, name, suit in v.declarations:
        text = f"{name} {suit}" if suit and f"{name} {suit}" in names else name
        if text in names:
            out[names.index(text) * game.players + _rel(game, seat, who)] += 1


def _auction_size(game: Game) -> int:
    bids = len(strains_of(game).texts) - 3
    return 2 * (game.players + 1) + bids * 3 * game.players + bids + 1 + game.players + 1


def _fill_auction(game: Game, seat: int, v: AuctionView, out: Array) -> None:
    """Passes before the first bid and after the last call; per bid who made, doubled and redoubled it."""
    p = game.players
    texts = strains_of(game).texts[3:]
    bids = len(texts)
    opening = trailing = 0
    last = -1
    for who, call in v.calls:
        if call == "pass":
            if last < 0:
                opening += 1
            trailing += 1
            continue
        trailing = 0
        kind = 0 if call not in ("double", "redouble") else (1 if call == "double" else 2)
        if kind == 0:
            last = texts.index(call)
        out[2 * (p + 1) + (last * 3 + kind) * p + _rel(game, seat, who)] = 1
    out[min(opening, p)] = 1
    out[p + 1 + min(trailing, p)] = 1
    base = 2 * (p + 1) + bids * 3 * p
    out[base + (texts.index(v.contract) if v.contract in texts else bids)] = 1
    out[base + bids + 1 + _rel(game, seat, v.declarer)] = 1


def _fill_hand_of(game: Game, seat: int, v: DummyView | OpenHandView, out: Array) -> None:
    out[_rel(game, seat, v.seat)] = 1
    _cards(game, v.hand, out[game.players + 1 :])


def _fill_exchange(game: Game, seat: int, v: ExchangeView, out: Array) -> None:
    _cards(game, v.given, out[: _n1(game)])
    _cards(game, v.received, out[_n1(game) :])


def _fill_passing(game: Game, seat: int, v: PassingView, out: Array) -> None:
    out[_rel(game, seat, v.pass_to)] = 1
    rest = out[game.players + 1 :]
    _cards(game, v.given, rest[: _n1(game)])
    _cards(game, v.received, rest[_n1(game) :])


def _talon_sets(game: Game) -> int:
    return talon_params(game.tables).talon_size


def _fill_talon(game: Game, seat: int, v: TalonSetsView, out: Array) -> None:
    most = _talon_sets(game)
    n1 = _n1(game)
    for k, cards in enumerate(v.sets[:most]):
        _cards(game, cards, out[k * n1 : (k + 1) * n1])
    out[most * n1 + min(v.taken, most)] = 1
    _cards(game, v.discarded, out[most * n1 + most + 1 :])


def _most_bid(game: Game) -> int:
    return sum(1 for a in game.distinct_actions if a.verb == "bid" and a.arg.isdigit())


def _fill_bids(game: Game, seat: int, v: BidsView, out: Array) -> None:
    width = _most_bid(game) + 1
    for who, bid in enumerate(v.bids):
        out[_rel(game, seat, who) * width + (width - 1 if bid is None else min(bid, width - 2))] = 1


def _values(game: Game) -> tuple[int, ...]:
    return tuple(game.tables.mechanism_sections[VALUE_BIDDING]["values"])


def _fill_value_bidding(game: Game, seat: int, v: ValueBiddingView, out: Array) -> None:
    p = game.players
    values = _values(game)
    out[_rel(game, seat, v.talker)] = 1
    out[p + 1 + _rel(game, seat, v.listener)] = 1
    out[2 * (p + 1) + (values.index(v.high) if v.high in values else len(values))] = 1
    for who in v.out:
        out[2 * (p + 1) + len(values) + 1 + _rel(game, seat, who)] = 1
    out[2 * (p + 1) + len(values) + 1 + p + _rel(game, seat, v.winner)] = 1


def _fill_vulnerable(game: Game, seat: int, v: VulnerabilityView, out: Array) -> None:
    for who in v.vulnerable:
        out[_rel(game, seat, who)] = 1


def _fill_widow(game: Game, seat: int, v: WidowView, out: Array) -> None:
    n1 = _n1(game)
    _cards(game, v.cards, out[:n1])
    _cards(game, v.discarded, out[n1 : 2 * n1])
    out[2 * n1] = v.taken
    out[2 * n1 + 1] = v.hand


def _fill_announced(game: Game, seat: int, v: AnnouncementsView, out: Array) -> None:
    names = game.tables.announcement_names
    for name in v.announced:
        out[names.index(name)] = 1


_BUILT_IN: tuple[tuple[type, Size, Fill], ...] = (
    (CallView, lambda g: _n1(g) + g.players + 1, _fill_call),
    (DealView, _n1, _fill_deal),
    (DeclarationsView, lambda g: len(_declaration_names(g)) * g.players, _fill_declarations),
    (AuctionView, _auction_size, _fill_auction),
    (DummyView, lambda g: g.players + 1 + _n1(g), _fill_hand_of),
    (OpenHandView, lambda g: g.players + 1 + _n1(g), _fill_hand_of),
    (ExchangeView, lambda g: 2 * _n1(g), _fill_exchange),
    (PassingView, lambda g: g.players + 1 + 2 * _n1(g), _fill_passing),
    (TalonSetsView, lambda g: _talon_sets(g) * (_n1(g) + 1) + 1 + _n1(g), _fill_talon),
    (BidsView, lambda g: g.players * (_most_bid(g) + 1), _fill_bids),
    (ValueBiddingView, lambda g: 3 * (g.players + 1) + len(_values(g)) + 1 + g.players, _fill_value_bidding),
    (VulnerabilityView, lambda g: g.players, _fill_vulnerable),
    (WidowView, lambda g: 2 * _n1(g) + 2, _fill_widow),
    (AnnouncementsView, lambda g: len(g.tables.announcement_names), _fill_announced),
)
for _kind, _size, _encode in _BUILT_IN:
    register_view_encoder(_kind, _size, _encode)


# -- the layouts ---------------------------------------------------------------------------------


def _core(game: Game) -> list[tuple[str, tuple[int, ...], str]]:
    p = game.players
    n = game.cards.size
    phases = len(game.mechanisms)
    contracts = len(game.rules.contracts)
    suits = len(game.cards.suit_codes)
    counters = len(game.rules.bids.counters)
    return [
        ("phase", (phases,), "the phase, one-hot, in the game's order of mechanisms"),
        ("to_move", (p + 1,), "the seat to move (relative; last: none)"),
        ("chooser", (p + 1,), "the seat that decides for it (relative; last: none)"),
        ("dealer", (p,), "the dealer (relative)"),
        ("deal_number", (1,), "the deal's number in the match (0: the first)"),
        ("hand", (n,), "the seat's own cards"),
        ("hand_sizes", (p,), "how many cards each seat holds (relative)"),
        ("trick", (p, n), "the card each seat has played to the trick on the table (relative seat, card)"),
        ("trick_leader", (p + 1,), "who led the trick on the table (relative; last: no card on it)"),
        ("gone", (n,), "the cards of the tricks taken so far"),
        ("tricks_won", (p,), "tricks won by each seat this deal (relative)"),
        ("contract", (contracts + 1,), "the contract of the ladder, one-hot (last: none)"),
        ("declarer", (p + 1,), "the declarer (relative; last: none)"),
        ("trump", (suits + 2,), "the trump suit, one-hot (then: no trump; last: not yet known)"),
        ("seats_out", (p,), "the seats sitting out this deal (relative)"),
        ("scores", (p,), "each seat's score (relative)"),
        ("pot", (1,), "the pot"),
        ("counters", (counters, p), "the match's counters, per seat (relative)"),
        (
            "decisions",
            (p, sum(a.verb != "play" for a in game.distinct_actions) + 1),
            "decisions of this deal outside the play, counted by seat "
            "(relative) and action (in distinct_actions' order, play left out; last: one the seat did not see)",
        ),
    ]


def _parts(game: Game) -> list[tuple[str, tuple[int, ...], str]]:
    out: list[tuple[str, tuple[int, ...], str]] = []
    for m in game.part_mechanisms:
        if m.view is None or m.view_type is None:
            continue
        found = _ENCODERS.get(m.view_type)
        if found is None:
            raise ArgumentError(
                f"the mechanism {m.phase!r} has no tensor encoder for its view "
                f"({m.view_type.__name__}): give it one with register_view_encoder()."
            )
        out.append((m.phase, (found[0](game),), f"what the seat sees of the {m.phase} mechanism"))
    return out


def _layout(rows: list[tuple[str, tuple[int, ...], str]]) -> Layout:
    sections = []
    start = 0
    for name, shape, what in rows:
        size = int(np.prod(shape))
        sections.append(Section(name, start, shape, what, size))
        start += size
    return Layout(tuple(sections), start, MappingProxyType({s.name: (s.start, s.size) for s in sections}))


def _layouts(game: Game) -> tuple[Layout, Layout]:
    """The observation's layout and the information state's."""
    rows = _core(game) + _parts(game)
    n = game.cards.size
    plays = ("plays", (n, game.players + n), "the deal's cards played in order: who (relative), which")
    return _layout(rows), _layout([*rows, plays])


@frozen
class _Plan:
    """What encoding a game's tensors looks up, worked out once per game."""

    index: Mapping[str, int]
    columns: Mapping[str, int]
    phases: tuple[str, ...]
    contracts: tuple[str, ...]
    observation: Layout
    information: Layout


_PLANS: dict[str, _Plan] = {}


def _plan(game: Game) -> _Plan:
    """The game's plan (kept for the last 64 games encoded)."""
    found = _PLANS.get(game.fingerprint)
    if found is None:
        if len(_PLANS) >= 64:
            _PLANS.clear()
        texts = (str(a) for a in game.distinct_actions if a.verb != "play")
        found = _PLANS[game.fingerprint] = _Plan(
            MappingProxyType({c: i for i, c in enumerate(game.cards.codes)}),
            MappingProxyType({text: i for i, text in enumerate(texts)}),
            tuple(game.mechanisms),
            tuple(c.name for c in game.rules.contracts),
            *_layouts(game),
        )
    return found


def observation_layout(game: Game) -> Layout:
    """The sections of :func:`observation_tensor` for ``game``."""
    return _plan(game).observation


def information_layout(game: Game) -> Layout:
    """The sections of :func:`information_state_tensor` for ``game``: the observation's, then ``plays``."""
    return _plan(game).information


# -- the tensors ---------------------------------------------------------------------------------


def _number(value: int | Fraction) -> float:
    return float(value)


def deal_events(state: State, seat: int) -> list[tuple[Any, Any]]:
    """The (actor, event) of the deal so far as ``seat`` sees them, oldest first (from the deal's ``Dealt``)."""
    out: list[tuple[Any, Any]] = []
    step = state.history
    while step is not None:
        for actor, event in reversed(step.events):
            if isinstance(event, Dealt):
                out.reverse()
                return out
            out.append((actor, redact(event, seat)))
        step = step.before
    out.reverse()
    return out


def _fill(state: State, seat: int, layout: Layout, information: bool) -> Array:
    game = state.game
    assert isinstance(game, Game)
    seat = game.seat(seat)
    p = game.players
    out = np.zeros(layout.size, dtype=np.float32)
    view = View.from_state(state, seat)

    places = layout.places

    def part(name: str) -> Array:
        start, size = places[name]
        return out[start : start + size]

    plan = _plan(game)
    phases = plan.phases
    part("phase")[phases.index(view.phase)] = 1
    part("to_move")[_rel(game, seat, view.to_move)] = 1
    part("chooser")[_rel(game, seat, view.chooser)] = 1
    part("dealer")[_rel(game, seat, view.dealer)] = 1
    part("deal_number")[0] = view.deal
    _cards(game, view.hand, part("hand"))
    sizes = part("hand_sizes")
    for who, size in enumerate(view.hand_sizes):
        sizes[_rel(game, seat, who)] = size
    trick = part("trick")
    index = _index(game)
    n = game.cards.size
    for who, code in view.trick:
        trick[_rel(game, seat, who) * n + index[code]] = 1
    part("trick_leader")[_rel(game, seat, view.trick[0][0] if view.trick else None)] = 1
    _cards(game, view.played, part("gone"))
    won = part("tricks_won")
    for who, count in enumerate(view.tricks_won):
        won[_rel(game, seat, who)] = count
    names = plan.contracts
    part("contract")[names.index(view.contract) if view.contract in names else len(names)] = 1
    part("declarer")[_rel(game, seat, view.declarer)] = 1
    suits = game.cards.suit_codes
    trump = part("trump")
    trump[
        suits.index(view.trump) if view.trump in suits else (len(suits) if view.trump == "none" else len(suits) + 1)
    ] = 1
    for who in view.seats_out:
        part("seats_out")[_rel(game, seat, who)] = 1
    scores = part("scores")
    for who, score in enumerate(view.scoreboard):
        scores[_rel(game, seat, who)] = _number(score)
    part("pot")[0] = _number(view.pot)
    counters = part("counters")
    for k, (_, values) in enumerate(view.counters):
        for who, value in enumerate(values):
            counters[k * p + _rel(game, seat, who)] = _number(value)
    decisions = part("decisions")
    column = plan.columns
    width = len(column) + 1
    plays = part("plays") if information else None
    k = 0
    for actor, event in deal_events(state, seat):
        if isinstance(event, CardPlayed):
            if plays is not None and k < n:
                plays[k * (p + n) + _rel(game, seat, event.seat)] = 1
                plays[k * (p + n) + p + index[event.card]] = 1
            k += 1
            continue
        text = _decision(game, actor, event)
        if text is not None:
            decisions[_rel(game, seat, actor) * width + column.get(text, width - 1)] += 1
    for name, value in view.parts:
        found = _ENCODERS[type(value)]
        found[1](game, seat, value, part(name))
    return out


def _decision(game: Game, actor: Any, event: Any) -> str | None:
    """The text of the decision a seat's event records; ``""`` where hidden; ``None``: no seat's decision."""
    if type(actor) is not int:
        return None
    try:
        action = action_of(game, event)
    except Exception:  # a redacted event may not replay: a decision the seat did not see
        return ""
    return None if action is None else str(action)


def observation_tensor(state: State, seat: int) -> Array:
    """What ``seat`` sees now, as numbers (float32) laid out by :func:`observation_layout`."""
    game = state.game
    assert isinstance(game, Game)
    return _fill(state, seat, observation_layout(game), False)


def information_state_tensor(state: State, seat: int) -> Array:
    """What ``seat`` knows of the deal, as numbers: the observation, then the play in order.

    Laid out by :func:`information_layout`.
    """
    game = state.game
    assert isinstance(game, Game)
    return _fill(state, seat, information_layout(game), True)
