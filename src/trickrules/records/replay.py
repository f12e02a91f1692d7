"""Replay: rebuild a match from its log, checking every event on the way.

:func:`replay` feeds the logged player actions back through the engine and
checks that every other event is exactly what the engine derives again; the
first difference is reported with its ``seq``. A log given as text or as a
file (:func:`replay_file`) is read one line at a time while it is replayed,
so a bad event stops the reading there: the memory used is the state's and
one line's. With ``key``, the log's signature is checked line by line too.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Mapping
from functools import partial as partial_call

from trickrules.engine.actions import Action
from trickrules.engine.events import Event, event_to_data, records_action
from trickrules.engine.game import Game, load
from trickrules.engine.phases import action_of as phase_action_of
from trickrules.engine.phases.starting import new_match
from trickrules.engine.rng import RNG_VERSION
from trickrules.engine.state import GameLike, State
from trickrules.engine.values import evolve
from trickrules.errors import ArgumentError, LogIntegrityError, SpecError, TrickrulesError
from trickrules.records.eventlog import EventLog, log_text
from trickrules.records.logcodec import LogEntry, LogHeader, Verifier, entries_of, file_lines, log_path, text_lines
from trickrules.records.strictjson import show
from trickrules.spec.loader import bundled_names

__all__ = ["action_of", "first_state", "options_of", "read_header", "replay", "replay_file"]


def action_of(game: GameLike, event: Event) -> Action:
    """The player action that an action event records (the phase that made it says how)."""
    action = phase_action_of(game, event)
    if action is None:
        raise LogIntegrityError(f"{event.TAG!r} is not a player action")
    return action


def replay(
    log: EventLog | str | bytes, game: GameLike | None = None, *, partial: bool = False, key: bytes | None = None
) -> State:
    """Rebuild the final state of a log, checking every derived event.

    ``log`` is an :class:`EventLog` or its JSON Lines text (read line by line
    as it is replayed). ``game`` defaults to the bundled game the header
    names, with its options. A log that stops before the match is over is an
    error unless ``partial``. With ``key`` (bytes), the log must be signed
    with it (:meth:`EventLog.sign`). Raises :class:`LogIntegrityError` (with
    ``seq``) on the first event that does not match, or
    :class:`LogFormatError` if the log cannot be read.
    """
    _check_args(game, partial, key)
    if isinstance(log, EventLog):
        return _replay(log.header, iter(log.entries), game, partial, key)
    log = log_text(log, "an EventLog or text")
    header, entries = entries_of(text_lines(log))
    return _replay(header, entries, game, partial, key)


def replay_file(
    path: str | os.PathLike[str], game: GameLike | None = None, *, partial: bool = False, key: bytes | None = None
) -> State:
    """:func:`replay` the log in the file at ``path``, reading it one line at a time.

    Only a regular file is read; the first bad line stops the reading. The
    arguments and errors are :func:`replay`'s.
    """
    where = log_path(path)
    _check_args(game, partial, key)
    header, entries = entries_of(file_lines(where))
    return _replay(header, entries, game, partial, key)


def first_state(game: GameLike, h: LogHeader, chance: str = "seed") -> State:
    """The match's first state as a log's header gives it: its seed, first dealer, stacked deals and totals.

    The deals stacked with ``deals=`` and those whose chance outcomes the
    caller chose (``chosen``) are dealt as the header gives them; every other
    chance outcome is the seed's. ``ValueError`` (from ``new_match``) if the
    header's values do not fit the game. ``chance`` is ``new_match``'s.
    """
    return new_match(
        game,
        seed=h.seed,
        dealer=h.dealer,
        hands=h.hands or None,
        turned=h.turned or None,
        scores=h.scores or None,
        pot=h.pot,
        deals=dict(h.deals) if h.deals else None,
        chance=chance,
        chosen=h.chosen,
    )


def read_header(path: str | os.PathLike[str]) -> LogHeader:
    """The header of the log in the file at ``path`` (its first line alone is read).

    It says which game the log is of: ``game`` and ``options``, ``fingerprint``,
    and ``spec``, the spec file's name when the match was not played from a
    bundled game. :class:`LogFormatError` if the file is not a log.
    """
    header, _ = entries_of(file_lines(log_path(path)))
    return header


def _check_args(game: object, partial: object, key: object) -> None:
    if game is not None and not isinstance(game, Game):
        raise ArgumentError(f"game must be a Game (from trickrules.load), found {show(game)}.")
    if type(partial) is not bool:
        raise ArgumentError(f"partial must be True or False, found {show(partial)}.")
    if key is not None and not isinstance(key, bytes | bytearray):
        raise ArgumentError(f"key must be bytes, found {show(key)}.")


def _game_of(h: LogHeader, game: GameLike | None) -> GameLike:
    """The game to replay with, checked against the header."""
    if h.seat is not None:
        raise LogIntegrityError(f"this is seat {h.seat}'s view of a log; only a full log can be replayed")
    if h.seed is None:
        raise LogIntegrityError("header: the seed is missing")
    if h.rng != RNG_VERSION:
        raise LogIntegrityError(f"header: random-number version {h.rng} is not this library's ({RNG_VERSION})")
    if h.turned and not h.hands:
        raise LogIntegrityError("header: a turned card is given without stacked hands")
    if game is None:
        if h.spec:
            raise LogIntegrityError(
                f"header: the match was played from the spec file {h.spec!r}, not a bundled game; pass that game "
                "to replay() (on the command line: trickrules replay LOG --spec FILE)"
            )
        if h.game not in bundled_names():
            # A header must not make replay read a file it names: pass game= for other specs.
            raise LogIntegrityError(f"header: {h.game!r} is not a bundled game; pass the game to replay()")
        try:
            game = load(h.game, dict(h.options))
        except SpecError as exc:
            raise LogIntegrityError(f"header: cannot load the game it names: {exc}") from None
    if game.fingerprint != h.fingerprint:
        raise LogIntegrityError(
            f"header: the spec fingerprint {h.fingerprint!r} does not match {game.name!r} "
            f"with these options ({game.fingerprint!r}); the header or the rules were changed"
        )
    return game


class _Feed:
    """The entries in order, each checked for its sequence number (and its signature) as it is taken."""

    __slots__ = ("_entries", "_verifier", "taken")

    def __init__(self, entries: Iterator[LogEntry], verifier: Verifier | None) -> None:
        self._entries = entries
        self._verifier = verifier
        self.taken = 0

    def next(self) -> LogEntry | None:
        """The next entry, or ``None`` at the end of the log."""
        entry = next(self._entries, None)
        n = self.taken
        if entry is None:
            if self._verifier is not None:
                self._verifier.finish()
            return None
        if self._verifier is not None:
            self._verifier.check(entry)
        if entry.seq != n:
            raise LogIntegrityError(f"event {n}: sequence number {entry.seq} where {n} was expected", seq=n)
        self.taken = n + 1
        return entry


def _replay(
    h: LogHeader, entries: Iterator[LogEntry], game: GameLike | None, partial: bool, key: bytes | None
) -> State:
    verifier = Verifier(key, h) if key is not None else None
    game = _game_of(h, game)
    try:
        state = first_state(game, h)
    except ValueError as exc:
        raise LogIntegrityError(f"header: {exc}") from None
    feed = _Feed(entries, verifier)
    start = state
    state = _derived_or_chance(state.last, feed, None, partial, lambda: first_state(game, h, chance="caller")) or start
    while (e := feed.next()) is not None:
        i = feed.taken - 1
        if not records_action(e.event.TAG) or not isinstance(e.actor, int):
            raise LogIntegrityError(
                f"event {i}: {e.event.TAG!r} by {e.actor!r} where a player's action was expected", seq=i
            )
        if state.is_terminal:
            raise LogIntegrityError(f"event {i}: the match was already over", seq=i)
        if e.actor != state.chooser:
            raise LogIntegrityError(f"event {i}: seat {e.actor} acted, but it was seat {state.chooser}'s turn", seq=i)
        before, action = state, action_of(game, e.event)
        try:
            state = before.apply(action)
        except TrickrulesError as exc:
            # Illegal here, or a value the rules cannot take (a formula out of range): the log is wrong.
            raise LogIntegrityError(f"event {i}: {exc}", seq=i) from None
        state = _derived_or_chance(state.last, feed, e, partial, partial_call(_again, before, action)) or state
    total = feed.taken
    if not partial and not state.is_terminal:
        raise LogIntegrityError(
            f"incomplete: the log ends after event {total - 1} but the match is not over", seq=total, incomplete=True
        )
    return state


def _derived_or_chance(
    produced: tuple[tuple[object, Event], ...],
    feed: _Feed,
    taken: LogEntry | None,
    partial: bool,
    by_caller: Callable[[], State],
) -> State | None:
    """Check a step's events (:func:`_match_derived`); where a partial log ends inside it, at a chance step, that state.

    A log taken from a match whose caller chooses the chance outcomes may end
    at a chance step: after the events of the step that led there (the last
    trick, the scoring), before the next ``dealt``. Replayed from the seed,
    that step goes on to deal; so where a partial log ends inside it, the
    step is taken again with the caller choosing (``by_caller()``), and if
    it stops at a chance step after exactly the events the log holds, that
    is the state the log ends at.
    """
    first = feed.taken - (1 if taken is not None else 0)
    try:
        _match_derived(produced, feed, taken)
    except LogIntegrityError as exc:
        if not (partial and exc.incomplete):
            raise
        resting = by_caller()
        if not resting.is_chance or resting.last != produced[: feed.taken - first]:
            raise
        return resting
    return None


def _again(state: State, action: Action) -> State:
    """``action`` applied to ``state`` in a match whose caller chooses the chance outcomes."""
    match = evolve(state.match, by_caller=True)
    s = state
    caller = State(s.game, s.phase, s.to_move, s.hands, s.trick, s.leader, s.deal, s.tally, match, s.history)
    return caller.apply(action)


def _match_derived(produced: tuple[tuple[object, Event], ...], feed: _Feed, taken: LogEntry | None = None) -> None:
    """Check the events of a step against the next entries (``taken``: the step's first entry, already read)."""
    for actor, event in produced:
        got: LogEntry | None
        if taken is not None:
            i, got, taken = feed.taken - 1, taken, None
        else:
            i = feed.taken
            got = feed.next()
        if got is None:
            raise LogIntegrityError(f"incomplete: the log ends at event {i - 1}, inside a step", seq=i, incomplete=True)
        want_actor = actor if isinstance(actor, int) else "dealer"
        if got.actor != want_actor or got.event != event:
            raise LogIntegrityError(
                f"event {i}: the log says {got.actor!r} {_short(got.event)}, but the rules give "
                f"{want_actor!r} {_short(event)}",
                seq=i,
            )


def _short(event: Event) -> str:
    text = json.dumps(event_to_data(event), separators=(",", ":"))
    return text if len(text) <= 160 else text[:157] + "..."


def options_of(log: EventLog) -> Mapping[str, str]:
    """The options a log was played with."""
    return dict(log.header.options)
