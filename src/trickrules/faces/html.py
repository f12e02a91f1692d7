"""A replayed match as one self-contained HTML page that steps through it trick by trick.

:func:`replay_frames` plays a match's actions again from its first state and
keeps a *frame* at each deal's start, where its play begins and at each
trick won, with the trick on the table. :func:`replay_page` draws every frame
from above and from each seat (:mod:`trickrules.svg`) and writes them, with
the bidding, payments and scores of each, into one page: no server, no
network, no file beside it; the page's own buttons (first, previous, next,
last) and a seat selector step through it. ``trickrules replay LOG --html
OUT.html`` writes one (:func:`write_page`); with ``--seat N`` the page holds
only what seat N saw (``seat=N``): no other seat's hidden card is anywhere in
its text.

The page grows with the log, not with frames times the table: each distinct
piece of a picture (a card, a card back, a label, a line of the panel) is
stored once, as text split where its position goes, and each frame is a list
of numbers, a piece and its position, that a few lines of JavaScript join into
the frame's SVG. What the page shows is the SVG :func:`trickrules.svg.table`
draws, byte for byte, and the panel's HTML; every string in it was escaped
in Python, and the script adds nothing but the positions (integers).

The data attributes are for programs that read the page: ``#caption`` has
``data-frame``, ``data-deal`` (from 0) and ``data-trick`` (the tricks
complete in the deal shown); each card drawn has ``data-card``, each seat
``data-seat`` and ``data-count``; the score table's cells have ``data-seat``.
"""

from __future__ import annotations

import html
import json
import os
import re
from collections.abc import Iterable, Sequence

from attrs import evolve, field, frozen

from trickrules import svg
from trickrules.engine.events import (
    AuctionWon,
    Awarded,
    CardPlayed,
    DealScored,
    Dealt,
    Discarded,
    Event,
    MatchEnded,
    Paid,
    TrickWon,
)
from trickrules.engine.phases import redact
from trickrules.engine.state import State
from trickrules.engine.values import Phase
from trickrules.errors import ArgumentError, LogIntegrityError
from trickrules.faces.render import describe_event, seat_list
from trickrules.records.eventlog import EventLog
from trickrules.records.replay import action_of, first_state
from trickrules.records.view import make_view

__all__ = ["Frame", "Panel", "replay_frames", "replay_page", "write_page"]


@frozen
class Panel:
    """What the page shows beside the table: the deal's bidding, its payments, and the scores so far."""

    bidding: tuple[str, ...] = ()
    payments: tuple[str, ...] = ()
    #: (label, the score of every seat) for the start and each deal scored so far.
    scores: tuple[tuple[str, tuple[int, ...]], ...] = ()
    winners: tuple[int, ...] = ()


def _tables(value: Iterable[svg.Table]) -> tuple[svg.Table, ...]:
    return tuple(value)


@frozen
class Frame:
    """One step of the page: the table from above and from each seat, a caption, and the panel."""

    deal: int
    #: The tricks complete in this deal when the frame is shown.
    trick: int
    caption: str
    #: The table from above, then from seat 0, 1, ...
    pictures: tuple[svg.Table, ...] = field(converter=_tables)
    panel: Panel


def _played(
    table: svg.Table, played: CardPlayed, won: TrickWon, plays: tuple[tuple[int, str], ...], scores: Sequence[int]
) -> svg.Table:
    """``table`` (the state before a trick's last card) with that card played, the trick won, and ``scores``."""
    n = len(table.hands)
    hands = list(table.hands)
    held = hands[played.seat]
    if held is not None:
        hands[played.seat] = tuple(c for c in held if c != played.card)
    counts = [table.count(s) - (s == played.seat) for s in range(n)]
    tricks = [t + (s == won.seat) for s, t in enumerate(table.tricks or (0,) * n)]
    return evolve(
        table,
        hands=hands,
        counts=counts,
        trick=plays,
        winner=won.seat,
        tricks=tricks,
        to_move=won.seat if any(counts) else None,  # no marker once the deal's (or the match's) last trick is won
        scores=scores or table.scores,
    )


#: No seat: an event redacted for it shows only what every seat may see.
_NOBODY = -1


def _line(event: Event) -> str | None:
    """A panel line for an event, never showing a card that is not public."""
    if isinstance(event, Discarded):
        return f"seat {event.seat} discards a card"
    line = describe_event(redact(event, _NOBODY))  # a mechanism's event as every seat may see it
    return line.strip() if line is not None else None


class _Walk:
    """The frames of a match, gathered step by step."""

    def __init__(self, first: State) -> None:
        game = first.game
        self.deck = svg.Deck.of(game.cards.codes, game.spec.deck.suits)
        self.players = game.players
        self.frames: list[Frame] = []
        start = first.match.start_scores or (0,) * self.players
        self.scores: list[tuple[str, tuple[int, ...]]] = [("Start", tuple(start))]
        self.bidding: list[str] = []
        self.payments: list[str] = []
        self.next_payments: list[str] = []
        self.scored = False
        self.winners: tuple[int, ...] = ()
        self.tricks = 0
        self.events(first, first, first.last_events)

    def panel(self) -> Panel:
        return Panel(tuple(self.bidding), tuple(self.payments), tuple(self.scores), self.winners)

    def add(self, state: State, caption: str, pictures: Sequence[svg.Table] | None = None) -> None:
        if pictures is None:
            views = [make_view(state, s).picture(self.deck, state.game) for s in range(self.players)]
            pictures = [state.picture(), *views]
        self.frames.append(Frame(state.deal.number, self.tricks, caption, pictures, self.panel()))

    def trick(self, before: State, played: CardPlayed, won: TrickWon) -> None:
        self.tricks = won.number
        plays = (*before.trick_cards(), (played.seat, played.card))
        views = [make_view(before, s).picture(self.deck, before.game) for s in range(self.players)]
        scores = self.scores[-1][1] if self.scored else ()
        pictures = [_played(t, played, won, plays, scores) for t in (before.picture(), *views)]
        caption = f"Deal {before.deal.number + 1}: trick {won.number} to seat {won.seat}"
        self.add(before, caption, pictures)

    def events(self, before: State, after: State, events: Sequence[Event]) -> None:
        """Take the events of one step (``before`` it, ``after`` it)."""
        played = next((e for e in events if isinstance(e, CardPlayed)), None)
        pending: TrickWon | None = None
        for event in events:
            if isinstance(event, TrickWon):
                pending = event
            elif isinstance(event, Dealt):
                if pending is not None and played is not None:
                    self.trick(before, played, pending)
                    pending = None
                if self.scored:  # what was paid since the last deal was scored (an ante) belongs to this one
                    self.payments, self.next_payments = self.next_payments, []
                self.bidding = []
                self.scored, self.tricks = False, 0
                self.add(after, f"Deal {event.deal + 1} dealt by seat {event.dealer}")
            elif isinstance(event, Paid | Awarded):
                (self.next_payments if self.scored else self.payments).append(_line(event) or "")
            elif isinstance(event, DealScored):
                self.scored = True
                self.scores.append((f"Deal {event.deal + 1}", tuple(event.scoreboard)))
                self.payments.append(f"outcome: {event.outcome}")
            elif isinstance(event, MatchEnded):
                self.winners = event.winners
            elif not isinstance(event, CardPlayed):
                line = _line(event)
                if line is not None:
                    self.bidding.append(line)
        if pending is not None and played is not None:
            self.trick(before, played, pending)
        elif after.phase is Phase.PLAY and before.phase is not Phase.PLAY and not self.tricks:
            contract = next((f" ({e.contract})" for e in events if isinstance(e, AuctionWon)), "")
            self.add(after, f"Deal {after.deal.number + 1}: the play begins{contract}")


def replay_frames(final: State) -> tuple[Frame, ...]:
    """The frames of the match that led to ``final``, played again from its first state."""
    game = final.game
    state = first_state(game, EventLog.from_state(final).header)
    walk = _Walk(state)
    entries = final.entries()
    at = len(state.last)
    while at < len(entries):
        before, state = state, state.apply(action_of(game, entries[at][1]))
        if not state.last:
            raise LogIntegrityError(f"event {at}: the action produced no event", seq=at)
        at += len(state.last)
        walk.events(before, state, state.last_events)
    return tuple(walk.frames)


def _panel_pieces(panel: Panel, players: int) -> list[str]:
    """The panel beside the table, as pieces of HTML that make it when joined (each line and row its own)."""
    out = ["<h2>Bidding</h2><ol id='bidding'>"]
    out += [f"<li>{html.escape(line)}</li>" for line in panel.bidding] or ["<li>(none)</li>"]
    out.append("</ol><h2>Payments</h2><ul id='payments'>")
    out += [f"<li>{html.escape(line)}</li>" for line in panel.payments] or ["<li>(none yet)</li>"]
    head = "".join(f"<th>Seat {s}</th>" for s in range(players))
    out.append(f"</ul><h2>Scores</h2><table id='scores'><tr><th></th>{head}</tr>")
    for n, (label, scores) in enumerate(panel.scores):
        cells = "".join(f"<td data-seat='{s}'>{x}</td>" for s, x in enumerate(scores))
        out.append(f"<tr data-row='{n}'><th>{html.escape(label)}</th>{cells}</tr>")
    out.append("</table>")
    if panel.winners:
        out.append(f"<p id='winners'>Match over. Winners: {html.escape(seat_list(panel.winners))}.</p>")
    return out


# The elements of a picture of the table that are stored once each: a card (its whole group), a
# text with its content, any other tag. Only the position in a piece's first tag is taken out of it.
_PIECE = re.compile(r'<g class="c[^>]*>.*?</g>|<text[^>]*>[^<]*</text>|<[^>]*>', re.DOTALL)
_POSITION = re.compile(r'translate\((-?\d+),(-?\d+)\)| x="(-?\d+)" y="(-?\d+)"')


class _Pieces:
    """The distinct pieces of a page's pictures and panels, each stored once, and the frames as numbers.

    A piece is a tuple of texts; between two of them goes one integer of
    the frame's list (a position). A picture or panel is a flat list: a
    piece's number, then as many integers as the piece has gaps.
    """

    def __init__(self) -> None:
        self.numbers: dict[tuple[str, ...], int] = {}

    def _piece(self, parts: tuple[str, ...]) -> int:
        return self.numbers.setdefault(parts, len(self.numbers))

    def picture(self, text: str) -> list[int]:
        """``text`` (an SVG picture) as a flat list of numbers."""
        out: list[int] = []
        at = 0
        for match in _PIECE.finditer(text):
            if match.start() > at:  # nothing the pattern does not know is lost: it is a piece as it is
                out.append(self._piece((text[at : match.start()],)))
            parts, values = _split(match.group())
            out.append(self._piece(parts))
            out += values
            at = match.end()
        if at < len(text):
            out.append(self._piece((text[at:],)))
        return out

    def panel(self, pieces: Iterable[str]) -> list[int]:
        """The pieces of a panel as a list of numbers."""
        return [self._piece((p,)) for p in pieces]

    def table(self) -> list[list[str]]:
        """Every piece, by number."""
        return [list(parts) for parts in self.numbers]


def _split(piece: str) -> tuple[tuple[str, ...], list[int]]:
    """``piece`` with the position in its first tag taken out: the texts round it, and its two integers."""
    match = _POSITION.search(piece, 0, piece.find(">"))
    if match is None:
        return (piece,), []
    first = 1 if match.group(1) is not None else 3
    numbers = [match.group(first), match.group(first + 1)]
    if any(str(int(n)) != n for n in numbers):  # "-0" or "007" would not come back the same: kept as it is
        return (piece,), []
    (a, b), (c, d) = match.span(first), match.span(first + 1)
    return (piece[:a], piece[b:c], piece[d:]), [int(n) for n in numbers]


def _draw(pieces: Sequence[Sequence[str]], numbers: Sequence[int]) -> str:
    """The text a flat list of numbers stands for: what the page's script does, in Python (for tests)."""
    out: list[str] = []
    at = 0
    while at < len(numbers):
        parts = pieces[numbers[at]]
        out.append(parts[0])
        for n, part in enumerate(parts[1:]):
            out += [str(numbers[at + 1 + n]), part]
        at += len(parts)
    return "".join(out)


_CSS = """
body{font-family:'DejaVu Sans',Arial,sans-serif;margin:12px;background:#f4f1ea;color:#222}
h1{font-size:20px;margin:0 0 8px}h2{font-size:15px;margin:12px 0 4px}
#main{display:flex;gap:16px;align-items:flex-start}#panel{min-width:260px;max-width:340px;font-size:13px}
#controls{margin:8px 0;display:flex;gap:6px;align-items:center;flex-wrap:wrap}
button{font-size:14px;padding:4px 10px}#caption{font-weight:bold;margin:4px 0}
table#scores{border-collapse:collapse}#scores td,#scores th{border:1px solid #bbb;padding:2px 6px;text-align:right}
ol,ul{margin:0;padding-left:20px}
"""

_JS = """
(function(){
  var data = JSON.parse(document.getElementById('frames').textContent);
  var at = 0;
  function draw(numbers){  // a piece, then an integer for each gap in it (see _Pieces in faces/html.py)
    var out = '';
    for (var i = 0; i < numbers.length;) {
      var parts = data.pieces[numbers[i++]];
      out += parts[0];
      for (var j = 1; j < parts.length; j++) out += String(numbers[i++]) + parts[j];
    }
    return out;
  }
  var table = document.getElementById('table'), panel = document.getElementById('panel');
  var caption = document.getElementById('caption'), seat = document.getElementById('seat');
  function show(i){
    at = Math.max(0, Math.min(data.frames.length - 1, i));
    var f = data.frames[at];
    table.innerHTML = draw(f.views[seat.selectedIndex]);
    panel.innerHTML = draw(data.panels[f.panel]);
    caption.textContent = f.caption + ' (' + (at + 1) + ' of ' + data.frames.length + ')';
    caption.dataset.frame = at; caption.dataset.deal = f.deal; caption.dataset.trick = f.trick;
    document.getElementById('first').disabled = document.getElementById('prev').disabled = at === 0;
    document.getElementById('next').disabled = document.getElementById('last').disabled =
      at === data.frames.length - 1;
  }
  document.getElementById('first').onclick = function(){ show(0); };
  document.getElementById('prev').onclick = function(){ show(at - 1); };
  document.getElementById('next').onclick = function(){ show(at + 1); };
  document.getElementById('last').onclick = function(){ show(data.frames.length - 1); };
  seat.onchange = function(){ show(at); };
  document.addEventListener('keydown', function(e){
    if (e.target === seat) return;
    if (e.key === 'ArrowRight') show(at + 1); else if (e.key === 'ArrowLeft') show(at - 1);
    else if (e.key === 'Home') show(0); else if (e.key === 'End') show(data.frames.length - 1);
  });
  show(0);
})();
"""


def _script_json(value: object) -> str:
    """``value`` as JSON that is safe inside a ``<script>`` element (no ``<``, ``>`` or ``&`` in it)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def replay_page(final: State, title: str | None = None, *, seat: int | None = None) -> str:
    """The page stepping through the match that led to ``final``, as HTML text (deterministic).

    ``title`` is the page's heading (default: the game's title and "replay").
    ``seat``: the page shows the match only as that seat saw it, and holds
    nothing of what it did not see (by default: from above and from each seat).
    :class:`~trickrules.errors.ArgumentError` if ``seat`` is not a seat of the game.
    """
    if seat is not None:
        final.game.seat(seat, "seat")
    return _page(replay_frames(final), final.game.players, _title(final, title, seat), seat)


def _title(final: State, title: str | None, seat: int | None) -> str:
    """The page's heading: ``title``, or the game's title and whose replay it is."""
    if title:
        return title
    return f"{final.game.title}: replay" + ("" if seat is None else f" as seat {seat} saw it")


def _page(frames: Sequence[Frame], players: int, title: str, seat: int | None = None) -> str:
    """The page of ``frames``: from above and every seat, or from ``seat`` only (its pictures alone are in it)."""
    shown = range(players + 1) if seat is None else [seat + 1]  # which of each frame's pictures go in
    pieces = _Pieces()
    panels: dict[tuple[int, ...], int] = {}
    rows = []
    for f in frames:
        views = [pieces.picture(svg.table(f.pictures[v], styled=False)) for v in shown]
        panel = panels.setdefault(tuple(pieces.panel(_panel_pieces(f.panel, players))), len(panels))
        rows.append({"deal": f.deal, "trick": f.trick, "caption": f.caption, "views": views, "panel": panel})
    data = {"frames": rows, "pieces": pieces.table(), "panels": [list(p) for p in panels]}
    heading = html.escape(title)
    seats = range(players) if seat is None else [seat]
    options = "".join(f"<option value='{s}'>Seat {s}'s view</option>" for s in seats)
    if seat is None:
        options = "<option value='above'>from above</option>" + options
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<title>{heading}</title><style>{_CSS}{svg.CSS}</style></head><body>"
        f"<h1>{heading}</h1><div id='controls'>"
        "<button id='first' type='button' title='first'>&#x00AB; First</button>"
        "<button id='prev' type='button' title='previous'>&#x2039; Previous</button>"
        "<button id='next' type='button' title='next'>Next &#x203A;</button>"
        "<button id='last' type='button' title='last'>Last &#x00BB;</button>"
        f"<label>Seen <select id='seat'>{options}</select></label>"
        "</div><p id='caption'></p><div id='main'><div id='table'></div><div id='panel'></div></div>"
        "<noscript><p>This page needs JavaScript to step through the match.</p></noscript>"
        f"<script type='application/json' id='frames'>{_script_json(data)}</script>"
        f"<script>{_JS}</script></body></html>\n"
    )


def write_page(final: State, path: str | os.PathLike[str], title: str | None = None, *, seat: int | None = None) -> int:
    """Write :func:`replay_page` to ``path`` (UTF-8); return the number of frames.

    :class:`~trickrules.errors.ArgumentError` if ``seat`` is not a seat of the game or the file cannot be
    written.
    """
    if seat is not None:
        final.game.seat(seat, "seat")
    frames = replay_frames(final)
    page = _page(frames, final.game.players, _title(final, title, seat), seat)
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(page)
    except OSError as exc:
        raise ArgumentError(f"{os.fspath(path)!r} cannot be written ({exc.strerror})") from None
    return len(frames)
