r"""PBN boards and matches: a game's cards as PBN's, a file's deals stacked into a match, a played match as boards.

Any game of four hands from a 52-card deck of four suits of thirteen ranks
can use PBN: its suit codes must be PBN's (``S H D C``) and its rank codes
``A K Q J``, ``10`` (or ``T``) and ``9`` to ``2`` (:func:`pbn_cards`). The
seats are the same numbers (N, E, S, W are 0, 1, 2, 3).

>>> import trickrules
>>> from trickrules.records.pbn import read_pbn
>>> game = trickrules.load("whist")
>>> boards = read_pbn('[Dealer "E"]\n[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. -"]\n')
>>> start = stack_boards(game, boards)
>>> state = start.new_match(game, seed=1)
>>> state.dealer, state.match.stacks[0][1].hands[3][:3]
(1, ('AC', 'KC', 'QC'))
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from attrs import frozen

from trickrules.engine.actions import Action
from trickrules.engine.events import (
    AuctionWon,
    CardGiven,
    CardPassed,
    CardPlayed,
    Dealt,
    Discarded,
    Event,
    Passed,
    TrickWon,
    TurnedTaken,
    records_action,
)
from trickrules.engine.phases import action_of
from trickrules.engine.scoring import deal_facts
from trickrules.engine.state import GameLike, State
from trickrules.engine.values import DealInfo, Phase
from trickrules.errors import ArgumentError, LogFormatError, TrickrulesError
from trickrules.records.eventlog import EventLog
from trickrules.records.pbn import HAND_SIZE, RANKS, SEATS, SUITS, Auction, Board, Hand, Play, Vulnerable
from trickrules.records.replay import first_state, replay

__all__ = [
    "PbnStart",
    "boards_of",
    "calls_of",
    "contract_of",
    "pbn_cards",
    "play_board",
    "stack_boards",
    "vulnerable_of",
]

_PLAYERS = 4


def pbn_cards(game: GameLike) -> tuple[str, ...]:
    """PBN's name of each of ``game``'s cards (by card index), by the spec's suit and rank codes.

    :class:`~trickrules.errors.ArgumentError` for a game that is not one of
    four hands from four suits of thirteen ranks with PBN's codes.
    """
    cards = game.cards
    where = f"{game.name}: PBN holds four hands from 52 cards (suits S, H, D, C; ranks {' '.join(RANKS)})"
    if game.players != _PLAYERS or cards.size != 52 or len(cards.suit_codes) != 4 or len(cards.rank_codes) != 13:
        raise ArgumentError(
            f"{where}; this game has {game.players} players and {cards.size} cards "
            f"({len(cards.suit_codes)} suits, {len(cards.rank_codes)} ranks)."
        )
    suits = [code.upper() for code in cards.suit_codes]
    ranks = ["T" if code in ("10", "T", "t") else code.upper() for code in cards.rank_codes]
    if sorted(suits) != sorted(SUITS) or sorted(ranks) != sorted(RANKS):
        raise ArgumentError(
            f"{where}; this game's suit codes are {', '.join(cards.suit_codes)} and its rank codes "
            f"{', '.join(cards.rank_codes)}."
        )
    return tuple(suits[cards.suit_of[c]] + ranks[cards.rank_of[c]] for c in range(cards.size))


@frozen
class PbnStart:
    """How a match starts from a PBN file: its first dealer, and each board's hands (game codes per seat) in order."""

    dealer: int
    deals: tuple[tuple[tuple[str, ...], ...], ...]

    def new_match(self, game: GameLike, seed: int | None = None) -> State:
        """``game.new_match`` with these deals stacked (deal ``k`` is board ``k``); later deals from ``seed``."""
        return game.new_match(seed=seed, dealer=self.dealer, deals=dict(enumerate(self.deals)))


def stack_boards(game: GameLike, boards: Sequence[Board]) -> PbnStart:
    """The match start that deals ``boards``' hands in order, the first dealer from the first board's ``Dealer``.

    Each board must have a ``Deal`` with at most one hand unknown (``-``),
    which is then the cards the others do not hold. A board's ``Dealer``,
    where given, must be the seat that deals it in the match: the first
    board's (N where it gives none), then the next seat clockwise for each
    board. Each hand is given in PBN's order, so where a game turns the
    dealer's last card, that is the dealer's lowest card of his last suit
    (clubs, where he holds one). :class:`~trickrules.errors.LogFormatError`
    naming the board's line if not; :class:`~trickrules.errors.ArgumentError`
    for a game PBN cannot hold (:func:`pbn_cards`).
    """
    names = pbn_cards(game)
    code_of = {name: game.cards.codes[c] for c, name in enumerate(names)}
    if not boards:
        raise LogFormatError("the PBN text holds no board")
    first = boards[0].dealer if boards[0].dealer is not None else 0
    deals = []
    for k, board in enumerate(boards):
        where = f"line {board.line}: board {k + 1}: "
        due = (first + k) % _PLAYERS
        if board.dealer is not None and board.dealer != due:
            raise LogFormatError(
                f"{where}its Dealer is {SEATS[board.dealer]}, but in a match the deal after one dealt by "
                f"{SEATS[(due - 1) % _PLAYERS]} is dealt by {SEATS[due]}"
            )
        hands = _whole(board, where)
        deals.append(tuple(tuple(code_of[c] for c in hand) for hand in hands))
    return PbnStart(first, tuple(deals))


def _whole(board: Board, where: str) -> tuple[Hand, ...]:
    """The board's four hands, the one unknown hand (if any) filled in with the cards the others do not hold."""
    if board.deal is None:
        raise LogFormatError(f"{where}it has no Deal to play")
    unknown = [s for s, h in enumerate(board.deal) if h is None]
    if len(unknown) > 1:
        raise LogFormatError(f"{where}its Deal leaves {len(unknown)} hands unknown; at most one can be worked out")
    held = {c for h in board.deal if h is not None for c in h}
    rest = tuple(s + r for s in SUITS for r in RANKS if s + r not in held)
    return tuple(h if h is not None else rest for h in board.deal)


# -- exporting -------------------------------------------------------------------------------------

_BID = re.compile(r"bid ([1-7](?:C|D|H|S|NT))")
#: The action texts that are calls of their own, as PBN writes them.
_CALL_TEXT = {"pass": "Pass", "double": "X", "redouble": "XX"}
#: The verbs that make a phase an auction.
_AUCTION_VERBS = frozenset(("bid", "double", "redouble"))
#: The events by which cards change hands before the play (PBN has no notation for them).
_MOVED = (CardPassed, CardGiven, TurnedTaken, Discarded)


def calls_of(texts: Sequence[str]) -> tuple[str, ...] | None:
    """The PBN calls of action texts (``pass``, ``double``, ``redouble``, ``bid 4H``); ``None`` if one is none.

    >>> calls_of(["bid 1NT", "pass", "double", "redouble", "pass"])
    ('1NT', 'Pass', 'X', 'XX', 'Pass')
    >>> calls_of(["bid 3", "pass"]) is None
    True
    """
    out = []
    for text in texts:
        call = _CALL_TEXT.get(text)
        if call is None and (m := _BID.fullmatch(text)) is not None:
            call = m.group(1)
        if call is None:
            return None
        out.append(call)
    return tuple(out)


def contract_of(calls: Sequence[str]) -> str:
    """The contract an auction's calls end in: the last bid, with ``X`` or ``XX`` after it if doubled, or ``Pass``."""
    bid, doubled = "Pass", ""
    for call in calls:
        if call == "X":
            doubled = "X"
        elif call == "XX":
            doubled = "XX"
        elif call != "Pass":
            bid, doubled = call, ""
    return bid + doubled if bid != "Pass" else "Pass"


class _Deal:
    """What one deal of a match adds up to, as its events come (the builder of one board)."""

    def __init__(self, game: GameLike, names: dict[str, str], dealt: Dealt) -> None:
        self.game = game
        self.names = names
        self.dealer = dealt.dealer
        self.hands = tuple(tuple(names[c] for c in hand) for hand in dealt.hands)
        self.actions: list[tuple[str, int, str]] = []  # (phase, seat, action text) before the first card
        self.played: list[tuple[int, str]] = []
        self.tricks: list[tuple[int, ...]] = []  # per trick, the indices into ``played``
        self.winners: list[int] = []
        self.moved = False
        self.declarer: int | None = None

    def take(self, actor: object, event: Event) -> None:
        """Add one event of the deal."""
        if isinstance(event, CardPlayed):
            self.played.append((event.seat, self.names[event.card]))
        elif isinstance(event, TrickWon):
            done = sum(len(t) for t in self.tricks)
            self.tricks.append(tuple(range(done, len(self.played))))
            self.winners.append(event.seat)
        elif isinstance(event, AuctionWon):
            self.declarer = event.seat
        elif isinstance(event, _MOVED):
            self.moved = True
        if isinstance(actor, int) and not self.played and not isinstance(event, CardPlayed):
            action = action_of(self.game, event)
            if action is not None:
                self.actions.append((_phase_of(self.game, event, action), actor, str(action)))

    def board(self, info: DealInfo | None) -> Board:
        """The deal as a board; ``info`` is the deal's record as its last card found it (its declarer, its facts)."""
        whole = all(len(h) == HAND_SIZE for h in self.hands)
        deal = tuple(tuple(sorted(h, key=_ORDER.__getitem__)) for h in self.hands) if whole else None
        auction = self._auction()
        contract = contract_of(auction.calls) if auction is not None else None
        declarer = self.declarer if self.declarer is not None or info is None else info.declarer
        if contract == "Pass":
            declarer = None
        return Board(
            deal=deal,
            deal_first=self.dealer,
            dealer=self.dealer,
            vulnerable=vulnerable_of(self.game, info) if info is not None else None,
            auction=auction,
            play=self._play(deal),
            contract=contract,
            declarer=declarer,
            result=self._result(declarer),
        )

    def _auction(self) -> Auction | None:
        phases = [p for p, _, text in self.actions if text.split(" ")[0] in _AUCTION_VERBS]
        phases += [p for p, _, text in self.actions if text == "pass"]  # an auction passed out: its passes' phase
        phase = phases[0] if phases else Phase.BIDDING
        calls = [(seat, text) for p, seat, text in self.actions if p == phase]
        if not calls:
            return None
        mapped = calls_of([text for _, text in calls])
        return Auction(calls[0][0], mapped) if mapped is not None else None

    def _play(self, deal: tuple[Hand, ...] | None) -> Play | None:
        if not self.played or self.moved or deal is None:
            return None
        leader = self.played[0][0]
        done = sum(len(t) for t in self.tricks)
        groups = [*self.tricks, tuple(range(done, len(self.played)))] if done < len(self.played) else self.tricks
        tricks = []
        for group in groups:
            row: list[str | None] = [None] * _PLAYERS
            for i in group:
                seat, card = self.played[i]
                row[(seat - leader) % _PLAYERS] = card
            tricks.append(tuple(row))
        return Play(leader, tuple(tricks))

    def _result(self, declarer: int | None) -> int | None:
        if declarer is None or len(self.winners) != HAND_SIZE:
            return None
        side = next((set(t) for t in self.game.rules.teams if declarer in t), {declarer})
        return sum(1 for w in self.winners if w in side)


_ORDER = {s + r: i for i, (s, r) in enumerate((s, r) for s in SUITS for r in RANKS)}


def _phase_of(game: GameLike, event: Event, action: Action) -> str:
    """The phase a seat's action was taken in: the phase a pass names, else the mechanism that replays the event."""
    if isinstance(event, Passed):
        return event.phase
    for phase, mechanism in game.mechanisms.items():
        if type(event) in mechanism.replays:
            return phase
    return action.verb


def boards_of(state: State | EventLog) -> list[Board]:
    """One board per deal of the match that led to ``state``, or of a log (a deal dealt but not begun is left out).

    Each board has ``Deal`` (the hands as dealt, from the dealer), ``Dealer``
    and ``Play`` (every trick, a trick in progress with ``-`` for the cards
    still to come). Where the deal has an auction whose every call maps to
    PBN's (``pass``, ``double``, ``redouble``, ``bid 4H``), also ``Auction``
    and ``Contract``; where an auction was won (an ``auction_won`` event),
    ``Declarer``, and once the deal's tricks are all played ``Result``, the
    tricks of the declarer's side (his team where the game has fixed teams).
    Where cards changed hands before the play (passed, exchanged, taken up),
    PBN has no notation for it, and ``Play`` is left out; where the hands
    are not of 13 cards, ``Deal`` and ``Play`` are.
    A log is replayed first (a match still in progress too), with the
    bundled game its header names: :func:`~trickrules.records.replay.replay`'s
    errors if it does not replay. :class:`~trickrules.errors.ArgumentError`
    for a game PBN cannot hold.
    """
    if isinstance(state, EventLog):
        state = replay(state, partial=True)
    infos = _deal_infos(state)
    game = state.game
    names = dict(zip(game.cards.codes, pbn_cards(game), strict=True))
    deals: dict[int, _Deal] = {}
    current: _Deal | None = None
    for actor, event in state.entries():
        if isinstance(event, Dealt):
            current = deals[event.deal] = _Deal(game, names, event)
        elif current is not None:
            current.take(actor, event)
    return [deals[k].board(infos.get(k)) for k in sorted(deals) if deals[k].actions or deals[k].played]


def _deal_infos(state: State) -> dict[int, DealInfo]:
    """Each deal's record as it stood before its last action: the match played again from its start."""
    log = EventLog.from_state(state)
    now = first_state(state.game, log.header)
    found: dict[int, DealInfo] = {}
    for actor, event in state.entries():
        action = action_of(state.game, event) if isinstance(actor, int) and records_action(event.TAG) else None
        if action is not None:
            found[now.deal.number] = now.deal
            now = now.apply(action)
    found[now.deal.number] = now.deal
    return found


def vulnerable_of(game: GameLike, d: DealInfo) -> Vulnerable | None:
    """Which sides of deal ``d`` are vulnerable, where the game's mechanisms say so.

    They say it with the facts ``vulnerable`` and ``opp_vulnerable``.

    ``None`` for a game that has no vulnerability. The facts are said of the
    declarer's side (the dealer's before there is a declarer).
    """
    facts = deal_facts(game, d)
    if "vulnerable" not in facts or "opp_vulnerable" not in facts:
        return None
    ours, theirs = bool(facts["vulnerable"]), bool(facts["opp_vulnerable"])
    if ours == theirs:
        return Vulnerable.ALL if ours else Vulnerable.NONE
    north_south = (d.dealer if d.declarer is None else d.declarer) % 2 == 0
    return Vulnerable.NS if north_south == ours else Vulnerable.EW


#: A PBN call as an action of a game with a doubling auction.
_CALL_ACTION = {"Pass": "pass", "X": "double", "XX": "redouble"}


def play_board(game: GameLike, board: Board, seed: int = 0) -> State:
    """Play ``board`` through ``game``: its deal stacked, then its auction's calls and its play's cards in order.

    The board's ``Dealer`` deals the match's first deal; each call (``Pass``,
    ``X``, ``XX``, ``1NT``) is the action ``pass``, ``double``, ``redouble``
    or ``bid 1NT``, made by the seat the game has to move; each trick's cards
    are played from its leader on, a card left out (``-``) ending the play.
    The state returned is the one after the last call or card: where the
    board's play is whole, :func:`boards_of` gives its ``Contract``,
    ``Declarer`` and ``Result`` as the game worked them out.
    :class:`~trickrules.errors.LogFormatError`, naming the board's line, for a
    call or card out of turn or against the game's rules, or a
    ``Vulnerable`` the game does not give this deal.
    """
    names = pbn_cards(game)
    code_of = {name: game.cards.codes[c] for c, name in enumerate(names)}
    state = stack_boards(game, [board]).new_match(game, seed=seed)
    where = f"line {board.line}: "
    vulnerable = vulnerable_of(game, state.deal)
    if board.vulnerable is not None and vulnerable is not None and board.vulnerable != vulnerable:
        raise LogFormatError(
            f"{where}its Vulnerable is {board.vulnerable.value}, but {game.name} with these options makes "
            f"{vulnerable.value} vulnerable on a deal dealt by {SEATS[state.dealer]}"
        )
    if board.auction is not None:
        for n, call in enumerate(board.auction.calls):
            seat = (board.auction.first + n) % _PLAYERS
            state = _step(state, seat, _CALL_ACTION.get(call, f"bid {call}"), f"{where}Auction: call {n + 1} ({call})")
    if board.play is not None:
        for k, trick in enumerate(board.play.tricks):
            for _ in trick:
                if state.is_terminal or state.deal.number:
                    return state
                player = state.to_move
                card = board.play.card_of(k, player) if player is not None else None
                if player is None or card is None:
                    return state
                state = _step(
                    state, player, f"play {code_of[card]}", f"{where}Play: trick {k + 1}, {SEATS[player]}'s {card}"
                )
    return state


def _step(state: State, seat: int, text: str, where: str) -> State:
    if state.is_terminal or state.to_move != seat:
        due = "nobody" if state.is_terminal or state.to_move is None else SEATS[state.to_move]
        raise LogFormatError(f"{where}: by {SEATS[seat]}, but it is {due}'s turn")
    try:
        return state.apply(text)
    except TrickrulesError as exc:
        raise LogFormatError(f"{where}: {exc}") from None
