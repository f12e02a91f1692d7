r"""A person at the table: one seat of a match played from the terminal, the other seats by bots.

``trickrules play GAME --seat N`` runs :func:`run_table`. At each of the person's turns
the table shows what that seat may know — built from ``View.from_state(state, seat)``
and from the deal's events as the seat's own log shows them (``redact``), never from
the full state — and lists the legal moves, numbered. The person answers with a
number, a move as written (``play 7H``, ``pass``, ``bid solo``), or a card's code
alone; or with ``help``, ``undo`` or ``quit``. The bots' moves are printed as they
happen, one line each, the way ``play`` prints a match.

States are immutable, so ``undo`` is keeping the state before each of the person's
moves: it takes back the person's last move and the bots' moves after it, within the
deal (a deal once scored stays scored). End of input leaves the table like ``quit``.

>>> import io, trickrules
>>> from trickrules.faces.bots import make_bots
>>> game = trickrules.load("whist")
>>> out = io.StringIO()
>>> final = run_table(game, 0, 1, make_bots(game, "random", 1), input=io.StringIO("quit\n"), output=out)
>>> "Your choices:" in out.getvalue(), out.getvalue().rstrip().splitlines()[-1]
(True, 'You left the table in deal 1. Scores: seat 0 0, seat 1 0, seat 2 0, seat 3 0')
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import TextIO

from trickrules.compile.cards import CardTable
from trickrules.engine.actions import Action
from trickrules.engine.events import (
    Announced,
    AuctionWon,
    BidMade,
    CardCalled,
    CardPlayed,
    Dealt,
    Event,
    MechanismEvent,
    Passed,
    Redeal,
    TricksBid,
    TrumpNamed,
    TurnedTaken,
    WentAlone,
)
from trickrules.engine.phases import doubling_auction, redact
from trickrules.engine.phases.announce import AnnouncementsView
from trickrules.engine.phases.call import CallView
from trickrules.engine.phases.deal import DealView
from trickrules.engine.phases.declare import DeclarationsView
from trickrules.engine.phases.exchange import ExchangeView
from trickrules.engine.phases.passing import PassingView
from trickrules.engine.state import GameLike, State
from trickrules.engine.values import Phase
from trickrules.errors import ArgumentError, IllegalActionError
from trickrules.faces.bots import Bot
from trickrules.faces.random_bot import decide
from trickrules.faces.render import describe_event, in_print_order
from trickrules.faces.stops import Stopped, signal_name
from trickrules.records.view import View

__all__ = ["PROMPT", "Table", "deal_bidding", "describe_view", "hand_groups", "ordered_choices", "run_table"]

#: The start of the line that asks the person for a move (the line ends without a line break).
PROMPT = "Your move"

#: The events that make up "the bidding so far": those of a deal before its first card is played.
_BIDDING = (
    Passed,
    BidMade,
    TricksBid,
    AuctionWon,
    TrumpNamed,
    CardCalled,
    TurnedTaken,
    WentAlone,
    Announced,
    MechanismEvent,  # a registered mechanism's events before the first card (the calls of a doubling auction)
)

#: The phases that make an auction (the person's prompt shows "Bidding" in the games that have one).
_AUCTIONS = frozenset({Phase.BIDDING.value, Phase.MAKING.value, Phase.TRICKS_BID.value, doubling_auction.PHASE})

_HELP = """\
How to answer:
  a number           the choice with that number
  a move as written  e.g. 'play 7H', 'pass', 'bid solo' (a card's code alone plays or gives it)
  help               this text
  undo               take back your last move and the bots' moves after it (within the deal)
  quit               leave the table (end of input does the same)"""


def run_table(
    game: GameLike,
    seat: int,
    seed: int | None,
    bots: Sequence[Bot],
    *,
    max_deals: int | None = None,
    input: TextIO | None = None,
    output: TextIO | None = None,
) -> State:
    """Play a match of ``game`` with a person at ``seat`` and ``bots`` at the other seats; return the last state.

    ``bots`` has one bot per seat (the one at ``seat`` is not asked). The person's
    moves are read line by line from ``input`` and everything is written to
    ``output`` (by default standard input and output). With ``max_deals`` the match
    stops once that many deals are done. ``quit`` or the end of the input stops it
    early; the state reached is returned either way.
    :class:`~trickrules.errors.ArgumentError` if ``seat`` is not a seat of the table.
    """
    return Table(game, seat, seed, bots, max_deals=max_deals, input=input, output=output).run()


class Table:
    """One session at the table: the match so far, the person's seat, and the states kept for ``undo``."""

    def __init__(
        self,
        game: GameLike,
        seat: int,
        seed: int | None,
        bots: Sequence[Bot],
        *,
        max_deals: int | None = None,
        input: TextIO | None = None,
        output: TextIO | None = None,
        dealer: int = 0,
        deals: Mapping[int, Sequence[Sequence[str]]] | None = None,
    ) -> None:
        self.game = game
        self.seat = game.seat(seat, "seat")
        if len(bots) != game.players:
            raise ArgumentError(f"bots: expected one bot per seat ({game.players}), found {len(bots)}.")
        self.bots = tuple(bots)
        self.max_deals = max_deals
        self._input = input if input is not None else sys.stdin
        self._output = output if output is not None else sys.stdout
        #: The current state of the match.
        self.state = game.new_match(seed=seed, dealer=dealer, deals=deals)
        # The state before each of the person's moves in this deal, with the move's text.
        self._undo: list[tuple[State, str]] = []
        self._dealt_since = False  # a new deal came after the person's last move
        #: What stopped the session early: Ctrl-C (a :class:`KeyboardInterrupt`), or a hang-up or termination
        #: signal (a :class:`~trickrules.faces.stops.Stopped`, with the command's ``stop_signals``); else ``None``.
        self.stopped: KeyboardInterrupt | None = None

    # -- the loop ------------------------------------------------------------------

    def run(self) -> State:
        """Play until the match ends, ``max_deals`` deals are done, or the person leaves; return the last state."""
        self._echo(self.state)
        try:
            while not self._done():
                seat = self.state.chooser
                assert seat is not None
                if seat == self.seat:
                    if not self._turn():
                        return self.state
                else:
                    self._advance(self.state.apply(decide(self.bots[seat], self.state, seat)))
        except KeyboardInterrupt as stop:  # Ctrl-C (or SIGHUP, SIGTERM): leave as quit does, without a traceback
            self.stopped = stop
            how = "\nInterrupted: you" if not isinstance(stop, Stopped) else f"\nStopped by {signal_name(stop)}: you"
            with contextlib.suppress(OSError):  # after a hang-up the terminal may be gone
                self._leave(how)
            return self.state
        if not self.state.is_terminal:
            self._write(f"\nStopped after {self.state.match.deals_done} deal(s). Scores: {self._scores()}")
        return self.state

    def _done(self) -> bool:
        state = self.state
        return state.is_terminal or (self.max_deals is not None and state.match.deals_done >= self.max_deals)

    def _advance(self, state: State) -> None:
        """Move on to ``state`` and print what the step did."""
        self.state = state
        self._echo(state)

    def _echo(self, state: State) -> None:
        """Print the events of the step that made ``state``, as the person's seat sees them."""
        for event in in_print_order(state.last_events):
            if isinstance(event, Dealt | Redeal) and self._undo:
                self._undo.clear()
                self._dealt_since = True
            line = _event_line(event, self.seat)
            if line is not None:
                self._write(line)

    def _turn(self) -> bool:
        """Ask the person for one move and apply it (or undo); ``False`` when the person leaves."""
        view = View.from_state(self.state, self.seat)
        self._write("\n" + describe_view(self.game, view, deal_bidding(self.state, self.seat)))
        legal = ordered_choices(self.game, view)
        self._write(_choices(legal))
        while True:
            text = self._read(len(legal))
            if text is None or text.lower() in ("quit", "exit"):
                self._leave("End of input: you" if text is None else "You")
                return False
            reply = self._answer(text, legal)
            if reply is None:
                return True
            self._write(reply)
            self._write(_choices(legal))

    def _answer(self, text: str, legal: tuple[str, ...]) -> str | None:
        """Act on one line the person typed: ``None`` once the turn is over, else what to tell the person."""
        lowered = text.lower()
        if lowered in ("help", "?"):
            return _HELP
        if lowered == "undo":
            return self._take_back()
        if text.isascii() and text.isdigit() and not (len(text) < 6 and 1 <= int(text) <= len(legal)):
            numbers = "1" if len(legal) == 1 else f"a number from 1 to {len(legal)}"
            return f"There is no choice {text[:12]}: type {numbers}, or a move as written."
        try:
            action = Action.parse(_chosen(text, legal) or text)
        except IllegalActionError as exc:
            return f"Not understood: {exc}. Type a choice's number, a move as written, or help."
        try:
            after = self.state.apply(action)
        except IllegalActionError as exc:
            return f"Not allowed: {exc}"
        self._undo.append((self.state, str(action)))
        self._dealt_since = False
        self._advance(after)
        return None

    def _take_back(self) -> str | None:
        """Go back to the state before the person's last move in this deal; the refusal if there is none."""
        if not self._undo:
            if self._dealt_since:
                return "Nothing to undo: the deal of your last move is over and a new one dealt; it stays played."
            return "Nothing to undo: you have not made a move in this deal yet."
        before, text = self._undo.pop()
        self.state = before
        self._write(f"Took back your move '{text}' and the bots' moves after it.")
        return None

    # -- input and output --------------------------------------------------------------

    def _read(self, choices: int) -> str | None:
        """The next line the person typed, stripped; ``None`` at the end of the input."""
        numbers = "1" if choices == 1 else f"1-{choices}"
        self._output.write(f"{PROMPT} ({numbers}, help, undo, quit): ")
        self._output.flush()
        line = self._input.readline()
        if not line:
            self._output.write("\n")
            return None
        return line.strip()

    def _leave(self, how: str) -> None:
        self._write(f"\n{how} left the table in deal {self.state.deal.number + 1}. Scores: {self._scores()}")

    def _write(self, text: str) -> None:
        self._output.write(text + "\n")

    def _scores(self) -> str:
        return ", ".join(f"seat {s} {x}" for s, x in enumerate(self.state.match.scores))


def _chosen(text: str, legal: tuple[str, ...]) -> str | None:
    """The legal move ``text`` picks: by its number, by its text in any case, or by a card's code alone.

    ``None`` if it picks none (the engine then says why the text is no legal move).
    """
    if text.isascii() and text.isdigit() and len(text) < 6 and 1 <= int(text) <= len(legal):
        return legal[int(text) - 1]
    lowered = text.lower()
    for move in legal:
        if move.lower() == lowered:
            return move
    by_arg = [move for move in legal if move.partition(" ")[2].lower() == lowered]
    return by_arg[0] if len(by_arg) == 1 else None


def ordered_choices(game: GameLike, view: View) -> tuple[str, ...]:
    """The seat's legal moves in the order the table numbers them.

    Moves without a card of the hand (``pass``, ``bid solo``) come first, in the
    engine's order; those with one follow in the order the hand is shown
    (:func:`hand_groups`). A verb some of whose moves name no card of the hand
    keeps the engine's order for all of them: ``bid 3C`` is a call like
    ``bid 3NT``, not the card 3C.
    """
    shown = [code for _, group in hand_groups(game, view.hand, view.trump) for code in group]
    place = {code: n for n, code in enumerate(shown)}
    mixed = {move.partition(" ")[0] for move in view.legal if move.partition(" ")[2] not in place}

    def key(move: str) -> int:
        verb, _, arg = move.partition(" ")
        return -1 if verb in mixed else place.get(arg, -1)

    return tuple(sorted(view.legal, key=key))


def _choices(legal: tuple[str, ...]) -> str:
    """The legal moves, numbered from 1."""
    return "Your choices:\n" + "\n".join(f"  [{n}] {move}" for n, move in enumerate(legal, 1))


# -- what the person sees ----------------------------------------------------------------


def _event_line(event: Event, seat: int) -> str | None:
    """One line of the running printout: ``event`` as ``seat``'s own log shows it (``None``: no line)."""
    seen = redact(event, seat)
    if isinstance(seen, Dealt):
        turned = f", turned {seen.turned}" if seen.turned else ""
        return f"\nDeal {seen.deal + 1}, dealer seat {seen.dealer}{turned}\n  your hand: {' '.join(seen.hands[seat])}"
    if isinstance(seen, CardPlayed):
        who = "you (seat {})" if seen.seat == seat else "seat {}"
        return f"  {who.format(seen.seat)} play{'' if seen.seat == seat else 's'} {seen.card}"
    return describe_event(seen)


def deal_bidding(state: State, seat: int) -> tuple[str, ...]:
    """The bidding so far in the deal of ``state``, as ``seat`` sees it: one short text per call.

    Read from the deal's events as the seat's own log shows them (each passed through
    ``redact``): the calls made before the first card of the deal is played.
    """
    chunks: list[tuple[Event, ...]] = []
    step = state.history
    while step is not None:
        chunk = tuple(e for _, e in step.events)
        chunks.append(chunk)
        if any(isinstance(e, Dealt) for e in chunk):
            break
        step = step.before
    events = [e for chunk in reversed(chunks) for e in chunk]
    starts = [n for n, e in enumerate(events) if isinstance(e, Dealt)]
    out: list[str] = []
    for event in events[starts[-1] if starts else 0 :]:
        if isinstance(event, CardPlayed):
            break
        line = describe_event(redact(event, seat)) if isinstance(event, _BIDDING) else None
        if line is not None:
            out.append(line.strip())
    return tuple(out)


def hand_groups(game: GameLike, hand: Iterable[str], trump: str | None) -> list[tuple[str, tuple[str, ...]]]:
    """A hand sorted and grouped for display: (label, card codes high to low) per group.

    With trumps known (``trump`` a suit code or ``"none"``, as in a :class:`View`),
    the trumps come first in the trump order (promoted cards included), then each
    suit's other cards in its plain order. Before trumps are known, the cards that
    are trumps whatever the trump suit come first, then each printed suit in its
    plain order.
    """
    cards = game.cards
    held = {cards.card(code) for code in hand}
    if trump is None:
        trumps, orders = _unknown_trump_orders(cards)
        trump_label = "Trumps (always)"
    else:
        table = cards.table(cards.trump_key(trump))
        trumps, orders = table.order, table.plain_orders[: len(cards.suit_codes)]
        trump_label = f"Trumps ({trump})"
    groups: list[tuple[str, tuple[str, ...]]] = []
    names = [suit.name for suit in game.spec.deck.suits]
    for label, order in ((trump_label, trumps), *zip(names, orders, strict=True)):
        mine = tuple(cards.codes[c] for c in order if c in held)
        if mine:
            groups.append((label, mine))
    placed = {cards.card(code) for _, group in groups for code in group}
    if held - placed:  # not expected: every card is in one order; shown rather than lost
        groups.append(("Other", tuple(cards.codes[c] for c in sorted(held - placed))))
    return groups


def _unknown_trump_orders(cards: CardTable) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """The cards that are trumps under every choice of trumps, and each suit's fullest plain order."""
    always = set(range(cards.size))
    for table in cards.trumps:
        always &= set(table.order)
    first = cards.trumps[0]
    trumps = tuple(c for c in first.order if c in always)
    orders = []
    for s in range(len(cards.suit_codes)):
        fullest = max((table.plain_orders[s] for table in cards.trumps), key=len)
        suit = sorted((c for c in range(cards.size) if cards.suit_of[c] == s), key=cards.rank_of.__getitem__)
        orders.append((*fullest, *(c for c in suit if c not in fullest and c not in always)))
    return trumps, tuple(orders)


def describe_view(game: GameLike, view: View, bidding: Sequence[str] = ()) -> str:
    """What a seat sees at its turn, as text: scores, bidding, contract, trick, and its hand grouped by suit.

    Built from ``view`` alone (and ``bidding``, the calls of the deal so far, as
    :func:`deal_bidding` gives them), so it shows nothing the seat may not know.
    """
    seats = range(len(view.hand_sizes))
    you = view.seat
    lines = [f"--- Deal {view.deal + 1}, {view.phase}: your turn (seat {you}); dealer seat {view.dealer} ---"]
    pot = f"; pot {view.pot}" if view.pot else ""
    lines.append("Scores: " + ", ".join(f"seat {s} {view.scoreboard[s]}" for s in seats) + pot)
    for name, values in view.counters:
        lines.append(f"  {name}: " + ", ".join(f"seat {s} {values[s]}" for s in seats))
    dealt = view.part(DealView)
    if dealt is not None and dealt.turned:
        lines.append(f"Turned card: {dealt.turned}")
    if bidding:
        lines.append(("Bidding: " if _has_auction(game) else "Calls: ") + "; ".join(bidding))
    elif _has_auction(game):
        lines.append("Bidding: none yet")
    lines.extend(_contract_lines(game, view))
    declared = view.part(DeclarationsView)
    if declared is not None and declared.declarations:
        melds = declared.declarations
        lines.append("Declared: " + "; ".join(f"seat {s} {name} in {suit}" for s, name, suit in melds))
    for handed in (view.part(ExchangeView), view.part(PassingView)):
        if handed is not None and (handed.given or handed.received):
            gave, got = " ".join(handed.given) or "-", " ".join(handed.received) or "-"
            lines.append(f"You gave: {gave}; you received: {got}")
    lines.append("Tricks won: " + ", ".join(f"seat {s} {view.tricks_won[s]}" for s in seats))
    others = ", ".join(f"seat {s} {view.hand_sizes[s]}" for s in seats if s != you)
    lines.append(f"Cards held: {others}")
    trick = ", ".join(f"seat {s} {card}" for s, card in view.trick)
    lines.append(f"Trick: {trick or 'nothing played yet'}")
    shown: dict[int, tuple[str, ...]] = {}
    for _, value in view.parts:  # the hands a mechanism lays face up for every seat (the dummy's)
        found = getattr(value, "shown_hands", None)
        if callable(found):
            shown.update(found())
    for owner, hand in [(you, view.hand), *((s, h) for s, h in sorted(shown.items()) if s != you)]:
        title = "Your hand" if owner == you else f"Face up, seat {owner}"
        lines.append(f"{title} ({_cards(len(hand))}):")
        width = max((len(label) for label, _ in hand_groups(game, hand, view.trump)), default=0)
        for label, codes in hand_groups(game, hand, view.trump):
            lines.append(f"  {label + ':':<{width + 1}} {' '.join(codes)}")
    if view.to_move is not None and view.to_move != you:
        lines.append(f"You choose seat {view.to_move}'s card.")
    return "\n".join(lines)


def _cards(n: int) -> str:
    """``n`` cards, in words: ``1 card``, ``5 cards``."""
    return f"{n} card{'' if n == 1 else 's'}"


def _has_auction(game: GameLike) -> bool:
    """Whether a deal of ``game`` has an auction: bids, tricks bid, or trumps made round the table."""
    return any(m.phase in _AUCTIONS for m in game.sequence)


def _contract_lines(game: GameLike, view: View) -> list[str]:
    """The contract, declarer, trumps, called card and partner, as far as the seat knows them."""
    parts = []
    if view.contract is not None:
        parts.append(view.contract)
    auction = view.part(doubling_auction.AuctionView)
    if auction is not None and auction.contract:
        parts.append(auction.contract)
    if view.declarer is not None:
        parts.append(f"declarer seat {view.declarer}")
    if view.trump is not None:
        parts.append("trumps: " + (game.spec.trump.none_name if view.trump == "none" else view.trump))
    call = view.part(CallView)
    if call is not None and call.called:
        parts.append(f"called card {call.called}")
    if call is not None and call.partner is not None:
        parts.append(f"partner seat {call.partner}")
    if view.seats_out:
        parts.append("sitting out: " + ", ".join(f"seat {s}" for s in view.seats_out))
    announced = view.part(AnnouncementsView)
    if announced is not None and announced.announced:
        parts.append("announced: " + ", ".join(announced.announced))
    lines = ["Contract: " + "; ".join(parts)] if parts else ["Contract: not known yet"]
    return lines
