"""Event logs: writing, reading (defensively), signing and per-seat redaction.

A log is a header and the events in order. On disk it is JSON Lines: the
header on the first line, then one event per line, each with its sequence
number (``seq``, from 0) and its actor (a seat number, or ``"dealer"`` for
dealing and everything the rules derive). ``docs/log-format.md`` documents
the format and ``log-schema.json`` next to this module (:func:`log_schema`) is its JSON Schema;
:mod:`trickrules.records.logcodec` reads and writes the lines, and
:mod:`trickrules.records.replay` rebuilds a match from a log.
"""

from __future__ import annotations

import json
import os
from importlib import resources
from typing import Any

from attrs import evolve, frozen

from trickrules.engine.events import HIDDEN, Dealt, Event
from trickrules.engine.phases import redact
from trickrules.engine.state import State
from trickrules.errors import ArgumentError, LogFormatError
from trickrules.records.logcodec import (
    FORMAT,
    MAX_EVENTS,
    VERSION,
    LogEntry,
    LogHeader,
    Verifier,
    entries_of,
    entry_data,
    file_lines,
    header_data,
    log_path,
    sign,
    text_lines,
)
from trickrules.records.strictjson import show
from trickrules.spec.loader import bundled_names

__all__ = ["FORMAT", "MAX_LOG_BYTES", "VERSION", "EventLog", "LogEntry", "LogHeader", "log_schema"]

#: Larger logs are refused before parsing (by :meth:`EventLog.from_json` and :meth:`EventLog.load`).
MAX_LOG_BYTES = 64 * 1024 * 1024


def log_text(text: object, kinds: str) -> str:
    """``text`` as a log's text, decoded from UTF-8 bytes and at most ``MAX_LOG_BYTES`` long.

    :class:`LogFormatError` if it is neither ``str`` nor ``bytes`` (``kinds``
    says what was expected), too long, or not UTF-8; nothing is parsed.
    """
    if isinstance(text, bytes):
        if len(text) > MAX_LOG_BYTES:
            raise LogFormatError(f"the log is {len(text)} bytes; at most {MAX_LOG_BYTES} are read")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LogFormatError(f"the log is not valid UTF-8 (byte {exc.start})") from None
    if not isinstance(text, str):
        raise LogFormatError(f"a log must be {kinds}, found {type(text).__name__} {show(text)}")
    if len(text) > MAX_LOG_BYTES:
        raise LogFormatError(f"the log is {len(text)} characters; at most {MAX_LOG_BYTES} are read")
    return text


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
        bundled = game.name in bundled_names() and game.source == f"specs/{game.name}.toml"
        header = LogHeader(
            game=game.name,
            spec="" if bundled else os.path.basename(game.source) or game.name,
            fingerprint=game.fingerprint,
            options=tuple(sorted(game.options.items())),
            seed=m.seed,
            dealer=m.first_dealer,
            hands=m.stacked,
            turned=m.stacked_turned,
            scores=m.start_scores,
            pot=m.start_pot,
            deals=m.stacks,
            chosen=m.chosen,
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
        return header_data(self.header)

    def entry_data(self, entry: LogEntry) -> dict[str, Any]:
        """One entry as JSON-ready data."""
        return entry_data(entry)

    def to_json(self) -> str:
        """The log as JSON Lines text, the on-disk format: the header, then one event per line."""
        dump = json.dumps
        lines = [dump(header_data(self.header), separators=(",", ":"))]
        lines.extend(dump(entry_data(e), separators=(",", ":")) for e in self.entries)
        return "\n".join(lines) + "\n"

    @classmethod
    def from_json(cls, text: str | bytes) -> EventLog:
        """Read a log from JSON Lines text; :class:`LogFormatError` if it is not one."""
        text = log_text(text, "text (str or bytes)")
        if text.count("\n") > MAX_EVENTS + 1:
            raise LogFormatError(f"the log has more than {MAX_EVENTS + 1} lines")
        header, entries = entries_of(text_lines(text))
        return cls(header, tuple(entries))

    def sign(self, key: bytes) -> EventLog:
        """A copy signed with ``key`` (bytes, at least 16): an HMAC-SHA256 chain over the header and every event.

        The header records the number of events and its own MAC; each event
        the MAC of itself and of the one before. :func:`~trickrules.replay`
        with the same ``key`` refuses a log whose chain does not match, at the
        first line that differs. Anyone who holds the key can sign any log.
        """
        header, entries = sign(key, self.header, self.entries)
        return EventLog(header, entries)

    def verify(self, key: bytes) -> None:
        """Check this log's signature under ``key``; :class:`LogIntegrityError` at the first line that differs."""
        checker = Verifier(key, self.header)
        for entry in self.entries:
            checker.check(entry)
        checker.finish()

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the log to ``path`` as JSON Lines.

        :class:`~trickrules.errors.ArgumentError` if ``path`` is not a path or
        cannot be written.
        """
        where = log_path(path)
        text = self.to_json()
        try:
            with open(where, "w", encoding="utf-8") as fh:
                fh.write(text)
        except OSError as exc:
            raise ArgumentError(f"path: {where!r} cannot be written ({exc.strerror}).") from None

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> EventLog:
        """Read a log from a JSON Lines file, line by line.

        Only a regular file is read (a directory, a device or a pipe is refused
        before it is opened for reading). :class:`~trickrules.errors.LogFormatError`
        if the file cannot be read or holds no log;
        :class:`~trickrules.errors.ArgumentError` if ``path`` is not a path.
        """
        header, entries = entries_of(file_lines(log_path(path), MAX_LOG_BYTES))
        return cls(header, tuple(entries))

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
        entries = [evolve(e, event=redact(e.event, seat), mac=None) for e in self.entries]

        def seen(hands: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
            return tuple(h if s == seat else (HIDDEN,) * len(h) for s, h in enumerate(hands))

        # Stacked deals not dealt yet stay out: the seat would know its hands to come.
        reached = max((e.event.deal for e in self.entries if isinstance(e.event, Dealt)), default=-1)
        deals = tuple((k, evolve(x, hands=seen(x.hands))) for k, x in self.header.deals if k <= reached)
        chosen = tuple((k, evolve(x, hands=seen(x.hands))) for k, x in self.header.chosen)
        header = evolve(
            self.header, seed=None, hands=seen(self.header.hands), deals=deals, chosen=chosen, seat=seat, events=None
        )
        return EventLog(header, tuple(entries))


def log_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one line of a log, as shipped in the package.

    It is ``log-schema.json`` in ``trickrules.records``, so it can also be read
    with ``importlib.resources.files("trickrules.records") / "log-schema.json"``.
    """
    text = resources.files("trickrules.records").joinpath("log-schema.json").read_text(encoding="utf-8")
    found: dict[str, Any] = json.loads(text)
    return found
