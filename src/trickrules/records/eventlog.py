"""Event logs: writing, reading (defensively), per-seat redaction and replay.

A log is a header and the events in order. On disk it is JSON Lines: the
header on the first line, then one event per line, each with its sequence
number (``seq``, from 0) and its actor (a seat number, or ``"dealer"`` for
dealing and everything the rules derive). ``docs/log-format.md`` documents
the format and ``docs/log-schema.json`` is its JSON Schema.

:func:`replay` rebuilds the final state by feeding the logged player actions
back through the engine, and checks that every other event is exactly what
the engine derives again; the first difference is reported with its ``seq``.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Mapping
from typing import Any

from attrs import evolve, frozen

from trickrules.engine.actions import Action
from trickrules.engine.events import ACTION_EVENTS, HIDDEN, Dealt, Event, event_from_data, event_to_data
from trickrules.engine.game import Game, load
from trickrules.engine.phases import action_of as phase_action_of
from trickrules.engine.phases import redact
from trickrules.engine.rng import RNG_VERSION
from trickrules.engine.state import GameLike, State
from trickrules.errors import ArgumentError, LogFormatError, LogIntegrityError, SpecError, TrickrulesError
from trickrules.records.strictjson import read_json, show
from trickrules.spec.converter import converter, describe_error
from trickrules.spec.loader import bundled_names

__all__ = ["FORMAT", "MAX_LOG_BYTES", "VERSION", "EventLog", "LogEntry", "LogHeader", "replay"]

#: The format name every log header carries.
FORMAT = "trickrules-log"
#: The format version this library writes and reads.
VERSION = 1
#: Larger logs are refused before parsing.
MAX_LOG_BYTES = 64 * 1024 * 1024
MAX_EVENTS = 1_000_000

#: Each line is parsed by the strict reader (one name here, so a test can see whether parsing happened).
_loads = read_json


@frozen
class LogHeader:
    """Who and what a log is about: game, spec fingerprint, options, seed, stacking."""

    game: str
    fingerprint: str
    options: tuple[tuple[str, str], ...]
    seed: int | None
    dealer: int
    hands: tuple[tuple[str, ...], ...] = ()
    turned: str = ""
    scores: tuple[int, ...] = ()
    pot: int = 0
    seat: int | None = None
    rng: int = RNG_VERSION
    format: str = FORMAT
    version: int = VERSION


@frozen
class LogEntry:
    """One event with its sequence number and actor (a seat, or ``"dealer"``)."""

    seq: int
    actor: int | str
    event: Event


def _header_from(data: Any) -> LogHeader:
    if not isinstance(data, dict):
        raise LogFormatError("line 1: the header must be a JSON object")
    if data.get("format") != FORMAT:
        raise LogFormatError(f"line 1: not a trickrules log (format is {data.get('format')!r}, expected {FORMAT!r})")
    if data.get("version") != VERSION:
        raise LogFormatError(
            f"line 1: log format version {data.get('version')!r} is not supported (this library reads {VERSION})"
        )
    body = dict(data)
    options = body.get("options")
    if isinstance(options, dict):
        body["options"] = [[k, v] for k, v in options.items()]
    try:
        header: LogHeader = converter.structure(body, LogHeader)
    except Exception as exc:
        raise LogFormatError(f"line 1: malformed header: {'; '.join(describe_error(exc))}") from None
    return header


def _entry_from(data: Any, line: int) -> LogEntry:
    if not isinstance(data, dict):
        raise LogFormatError(f"line {line}: an event must be a JSON object")
    seq = data.get("seq")
    actor = data.get("actor")
    if type(seq) is not int:
        raise LogFormatError(f"line {line}: 'seq' must be an integer")
    if not (type(actor) is int or actor == "dealer"):
        raise LogFormatError(f"line {line}: 'actor' must be a seat number or \"dealer\"")
    body = {k: v for k, v in data.items() if k not in ("seq", "actor")}
    try:
        event = event_from_data(body)
    except LogFormatError as exc:
        raise LogFormatError(f"line {line}: {exc}") from None
    return LogEntry(seq, actor, event)


@frozen
class EventLog:
    """A header and the events of a match (or of one seat's view of it)."""

    header: LogHeader
    entries: tuple[LogEntry, ...]

    @classmethod
    def from_state(cls, state: State) -> EventLog:
        """The log of everything that led to ``state``."""
        game = state.game
        m = state.match
        header = LogHeader(
            game=game.name,
            fingerprint=game.fingerprint,
            options=tuple(sorted(game.options.items())),
            seed=m.seed,
            dealer=m.first_dealer,
            hands=m.stacked,
            turned=m.stacked_turned,
            scores=m.start_scores,
            pot=m.start_pot,
        )
        entries = tuple(
            LogEntry(n, actor if isinstance(actor, int) else "dealer", ev)
            for n, (actor, ev) in enumerate(state.entries())
        )
        return cls(header, entries)

    @property
    def events(self) -> tuple[Event, ...]:
        """The events alone, in order."""
        return tuple(e.event for e in self.entries)

    def header_data(self) -> dict[str, Any]:
        """The header as JSON-ready data."""
        h = self.header
        data: dict[str, Any] = {
            "format": h.format,
            "version": h.version,
            "game": h.game,
            "fingerprint": h.fingerprint,
            "options": dict(h.options),
            "seed": h.seed,
            "dealer": h.dealer,
            "hands": [list(x) for x in h.hands],
            "turned": h.turned,
            "scores": list(h.scores),
            "pot": h.pot,
            "rng": h.rng,
        }
        if h.seat is not None:
            data["seat"] = h.seat
        return data

    def entry_data(self, entry: LogEntry) -> dict[str, Any]:
        """One entry as JSON-ready data."""
        data: dict[str, Any] = {"seq": entry.seq, "actor": entry.actor}
        data.update(event_to_data(entry.event))
        return data

    def to_json(self) -> str:
        """The log as JSON Lines text, the on-disk format: the header, then one event per line."""
        dump = json.dumps
        lines = [dump(self.header_data(), separators=(",", ":"))]
        lines.extend(dump(self.entry_data(e), separators=(",", ":")) for e in self.entries)
        return "\n".join(lines) + "\n"

    @classmethod
    def from_json(cls, text: str | bytes) -> EventLog:
        """Read a log from JSON Lines text; :class:`LogFormatError` if it is not one."""
        if isinstance(text, bytes):
            if len(text) > MAX_LOG_BYTES:
                raise LogFormatError(f"the log is {len(text)} bytes; at most {MAX_LOG_BYTES} are read")
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise LogFormatError(f"the log is not valid UTF-8 (byte {exc.start})") from None
        if not isinstance(text, str):
            raise LogFormatError(f"a log must be text (str or bytes), found {type(text).__name__} {show(text)}")
        if len(text) > MAX_LOG_BYTES:
            raise LogFormatError(f"the log is {len(text)} characters; at most {MAX_LOG_BYTES} are read")
        if text.count("\n") > MAX_EVENTS + 1:
            raise LogFormatError(f"the log has more than {MAX_EVENTS + 1} lines")
        # Blank lines are skipped; messages give each line's number in the text.
        lines = [(n, line) for n, line in enumerate(text.split("\n"), start=1) if line.strip()]
        if not lines:
            raise LogFormatError("the log is empty")
        first, head = lines[0]
        header = _header_from(_loads(head, f"line {first}"))
        entries = tuple(_entry_from(_loads(line, f"line {n}"), n) for n, line in lines[1:])
        return cls(header, entries)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the log to ``path`` as JSON Lines.

        :class:`~trickrules.errors.ArgumentError` if ``path`` is not a path or
        cannot be written.
        """
        where = _path(path)
        text = self.to_json()
        try:
            with open(where, "w", encoding="utf-8") as fh:
                fh.write(text)
        except OSError as exc:
            raise ArgumentError(f"path: {where!r} cannot be written ({exc.strerror}).") from None

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> EventLog:
        """Read a log from a JSON Lines file.

        :class:`~trickrules.errors.LogFormatError` if the file cannot be read
        or holds no log; :class:`~trickrules.errors.ArgumentError` if ``path``
        is not a path.
        """
        where = _path(path)
        try:
            # Only a regular file: a directory, a device or a pipe is no log (and may never end).
            if not stat.S_ISREG(os.stat(where).st_mode):
                raise LogFormatError(f"{where}: cannot be read (not a regular file)")
            with open(where, "rb") as fh:
                data = fh.read(MAX_LOG_BYTES + 1)
        except OSError as exc:
            raise LogFormatError(f"{where}: cannot be read ({exc.strerror})") from None
        return cls.from_json(data)

    def _players(self) -> int | None:
        """The number of seats as the log shows it (``None`` where it shows none)."""
        for entry in self.entries:
            if isinstance(entry.event, Dealt) and entry.event.hands:
                return len(entry.event.hands)
        for known in (self.header.hands, self.header.scores):
            if known:
                return len(known)
        return None

    def for_seat(self, seat: int) -> EventLog:
        """The log as ``seat`` may see it.

        Other hands, others' exchanged cards and the seed are replaced by
        ``"?"`` or left out. :class:`~trickrules.errors.ArgumentError` if
        ``seat`` is not a seat of the table.
        """
        players = self._players()
        if type(seat) is not int or seat < 0 or (players is not None and seat >= players):
            seats = f"a seat from 0 to {players - 1}" if players is not None else "a seat number (0 or more)"
            raise ArgumentError(f"seat must be {seats}, found {show(seat)}.")
        entries = [evolve(e, event=redact(e.event, seat)) for e in self.entries]
        hands = tuple(h if s == seat else (HIDDEN,) * len(h) for s, h in enumerate(self.header.hands))
        header = evolve(self.header, seed=None, hands=hands, seat=seat)
        return EventLog(header, tuple(entries))


def _path(path: object) -> str:
    """``path`` as a string; an integer would be taken for an open file descriptor."""
    if not isinstance(path, str | os.PathLike):
        raise ArgumentError(f"path must be a file path (a str or os.PathLike), found {show(path)}.")
    text = os.fspath(path)
    if not isinstance(text, str):
        raise ArgumentError(f"path must be a text path, found {show(text)}.")
    return text


def action_of(game: GameLike, event: Event) -> Action:
    """The player action that an action event records (the phase that made it says how)."""
    action = phase_action_of(game, event)
    if action is None:
        raise LogIntegrityError(f"{event.TAG!r} is not a player action")
    return action


def replay(log: EventLog | str | bytes, game: GameLike | None = None, *, partial: bool = False) -> State:
    """Rebuild the final state of a log, checking every derived event.

    ``game`` defaults to the bundled game the header names, with its options.
    A log that stops before the match is over is an error unless
    ``partial``. Raises :class:`LogIntegrityError` (with ``seq``) on the first
    event that does not match, or :class:`LogFormatError` if the log cannot
    be read.
    """
    if game is not None and not isinstance(game, Game):
        raise ArgumentError(f"game must be a Game (from trickrules.load), found {show(game)}.")
    if type(partial) is not bool:
        raise ArgumentError(f"partial must be True or False, found {show(partial)}.")
    if not isinstance(log, EventLog):
        log = EventLog.from_json(log)
    h = log.header
    if h.seat is not None:
        raise LogIntegrityError(f"this is seat {h.seat}'s view of a log; only a full log can be replayed")
    if h.seed is None:
        raise LogIntegrityError("header: the seed is missing")
    if h.rng != RNG_VERSION:
        raise LogIntegrityError(f"header: random-number version {h.rng} is not this library's ({RNG_VERSION})")
    if h.turned and not h.hands:
        raise LogIntegrityError("header: a turned card is given without stacked hands")
    if game is None:
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
    try:
        state = game.new_match(
            seed=h.seed,
            dealer=h.dealer,
            hands=h.hands or None,
            turned=h.turned or None,
            scores=h.scores or None,
            pot=h.pot,
        )
    except ValueError as exc:
        raise LogIntegrityError(f"header: {exc}") from None
    entries = log.entries
    total = len(entries)
    for n, e in enumerate(entries):
        if e.seq != n:
            raise LogIntegrityError(f"event {n}: sequence number {e.seq} where {n} was expected", seq=n)
    i = _match_derived(state.last, entries, 0)
    while i < total:
        e = entries[i]
        if e.event.TAG not in ACTION_EVENTS or not isinstance(e.actor, int):
            raise LogIntegrityError(
                f"event {i}: {e.event.TAG!r} by {e.actor!r} where a player's action was expected", seq=i
            )
        if state.is_terminal:
            raise LogIntegrityError(f"event {i}: the match was already over", seq=i)
        if e.actor != state.to_move:
            raise LogIntegrityError(f"event {i}: seat {e.actor} acted, but it was seat {state.to_move}'s turn", seq=i)
        try:
            action = action_of(game, e.event)
            state = state.apply(action)
        except TrickrulesError as exc:
            # Illegal here, or a value the rules cannot take (a formula out of range): the log is wrong.
            raise LogIntegrityError(f"event {i}: {exc}", seq=i) from None
        i = _match_derived(state.last, entries, i)
    if not partial and not state.is_terminal:
        raise LogIntegrityError(
            f"incomplete: the log ends after event {total - 1} but the match is not over", seq=total, incomplete=True
        )
    return state


def _match_derived(produced: tuple[tuple[object, Event], ...], entries: tuple[LogEntry, ...], start: int) -> int:
    total = len(entries)
    for k, (actor, event) in enumerate(produced):
        i = start + k
        if i >= total:
            raise LogIntegrityError(
                f"incomplete: the log ends at event {total - 1}, inside a step", seq=total, incomplete=True
            )
        got = entries[i]
        want_actor = actor if isinstance(actor, int) else "dealer"
        if got.actor != want_actor or got.event != event:
            raise LogIntegrityError(
                f"event {i}: the log says {got.actor!r} {_short(got.event)}, but the rules give "
                f"{want_actor!r} {_short(event)}",
                seq=i,
            )
    return start + len(produced)


def _short(event: Event) -> str:
    text = json.dumps(event_to_data(event), separators=(",", ":"))
    return text if len(text) <= 160 else text[:157] + "..."


def options_of(log: EventLog) -> Mapping[str, str]:
    """The options a log was played with."""
    return dict(log.header.options)
