"""The lines of a log: its header and entries as values, their JSON data, and signatures.

Reading is defensive: each line is parsed by the strict JSON reader
(:mod:`trickrules.records.strictjson`), checked for its shape and structured
by the library's converter, and any problem is a
:class:`~trickrules.errors.LogFormatError` that names the line. Lines are
read one at a time (:func:`entries_of`), so a reader that stops at the first
bad line never reads the rest.

A signed log carries an HMAC-SHA256 chain (:func:`sign`, :func:`Verifier`):
the header holds the number of events and a MAC of itself, and each event a
MAC of itself and of the MAC before it, so a change, a removal, an insertion
or a reordering anywhere is found at the first line it touches.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
from collections.abc import Iterable, Iterator
from typing import Any

from attrs import evolve, frozen

from trickrules.engine.events import Event, event_from_data, event_to_data
from trickrules.engine.rng import RNG_VERSION
from trickrules.engine.values import Stacked
from trickrules.errors import ArgumentError, LogFormatError, LogIntegrityError
from trickrules.records.strictjson import read_json, show
from trickrules.spec.converter import MAX_INT, Total, converter, describe_error, total_out
from trickrules.spec.files import open_regular

__all__ = [
    "FORMAT",
    "MAX_EVENTS",
    "MAX_LINE_BYTES",
    "MIN_KEY_BYTES",
    "VERSION",
    "LogEntry",
    "LogHeader",
    "Verifier",
    "entries_of",
    "entry_data",
    "file_lines",
    "header_data",
    "header_of",
    "log_path",
    "sign",
    "text_lines",
]

#: The format name every log header carries.
FORMAT = "trickrules-log"
#: The format version this library writes and reads.
VERSION = 2
#: The most events a log may hold.
MAX_EVENTS = 1_000_000
#: A longer line is refused unread (a header with stacked hands is a few kilobytes).
MAX_LINE_BYTES = 1024 * 1024
#: The shortest signing key accepted (128 bits).
MIN_KEY_BYTES = 16

#: Each line is parsed by the strict reader (one name here, so a test can see whether parsing happened).
_loads = read_json
_HEADER_SALT = b"trickrules-log header\x00"


@frozen
class LogHeader:
    """Who and what a log is about: game, spec fingerprint, options, seed, stacking.

    ``events`` and ``mac`` are set only in a signed log: the number of events
    it holds and the HMAC of the header (see :meth:`EventLog.sign`).
    """

    game: str
    fingerprint: str
    options: tuple[tuple[str, str], ...]
    seed: Total | None
    dealer: int
    hands: tuple[tuple[str, ...], ...] = ()
    turned: str = ""
    scores: tuple[Total, ...] = ()
    pot: Total = 0
    seat: int | None = None
    rng: int = RNG_VERSION
    format: str = FORMAT
    version: int = VERSION
    events: int | None = None
    mac: str | None = None
    #: The file name of the spec the match was played from, or ``""`` for the bundled game ``game`` names.
    spec: str = ""
    #: Later deals stacked with ``new_match(deals=...)``, by deal number (written only where there are some).
    deals: tuple[tuple[int, Stacked], ...] = ()
    #: Deals whose chance outcomes the caller chose other than the seed would, by shuffle number (likewise).
    chosen: tuple[tuple[int, Stacked], ...] = ()


@frozen
class LogEntry:
    """One event with its sequence number and actor (a seat, or ``"dealer"``); ``mac`` in a signed log."""

    seq: int
    actor: int | str
    event: Event
    mac: str | None = None


# -- JSON data ------------------------------------------------------------------------


def header_data(h: LogHeader) -> dict[str, Any]:
    """The header as JSON-ready data, keys in the written order."""
    data: dict[str, Any] = {
        "format": h.format,
        "version": h.version,
        "game": h.game,
        **({"spec": h.spec} if h.spec else {}),
        "fingerprint": h.fingerprint,
        "options": dict(h.options),
        "seed": None if h.seed is None else total_out(h.seed),
        "dealer": h.dealer,
        "hands": [list(x) for x in h.hands],
        "turned": h.turned,
        # Optional (version 2 logs without them stay valid, and a purely seeded match's log is unchanged).
        **({"deals": _stacks_out(h.deals, "deal")} if h.deals else {}),
        **({"chosen": _stacks_out(h.chosen, "shuffle")} if h.chosen else {}),
        "scores": [total_out(x) for x in h.scores],
        "pot": total_out(h.pot),
        "rng": h.rng,
    }
    if h.seat is not None:
        data["seat"] = h.seat
    if h.events is not None:
        data["events"] = h.events
    if h.mac is not None:
        data["mac"] = h.mac
    return data


def _stacks_out(stacks: tuple[tuple[int, Stacked], ...], key: str) -> list[dict[str, Any]]:
    """Stacked deals as the header writes them: ``{KEY: n, "hands": [...]}``, with ``turned`` and ``draws`` if any."""
    out = []
    for number, stack in stacks:
        item: dict[str, Any] = {key: number, "hands": [list(x) for x in stack.hands]}
        if stack.turned:
            item["turned"] = stack.turned
        if stack.draws:
            item["draws"] = dict(stack.draws)
        out.append(item)
    return out


def _stacks_in(value: object, key: str, where: str) -> list[Any]:
    """The header's ``deals`` or ``chosen`` as the converter reads a tuple of (number, Stacked) pairs."""
    if not isinstance(value, list):
        raise LogFormatError(f"{where}: expected a list, found {show(value)}")
    out: list[Any] = []
    for n, item in enumerate(value):
        fields = {key, "hands", "turned", "draws"}
        if not isinstance(item, dict) or not {key, "hands"} <= set(item) <= fields:
            raise LogFormatError(
                f"{where}[{n}]: expected an object of {key!r} and 'hands' (and 'turned', 'draws'), found {show(item)}"
            )
        number, draws = item[key], item.get("draws", {})
        if type(number) is not int or number < 0:
            raise LogFormatError(f"{where}[{n}].{key}: expected a number from 0, found {show(number)}")
        if not isinstance(draws, dict):
            raise LogFormatError(f"{where}[{n}].draws: expected an object, found {show(draws)}")
        stack = {"hands": item["hands"], "turned": item.get("turned", ""), "draws": [[k, v] for k, v in draws.items()]}
        out.append([number, stack])
    return out


def entry_data(entry: LogEntry) -> dict[str, Any]:
    """One entry as JSON-ready data: ``seq``, ``actor``, the event's ``type`` and fields, then ``mac``."""
    data: dict[str, Any] = {"seq": entry.seq, "actor": entry.actor}
    data.update(event_to_data(entry.event))
    if entry.mac is not None:
        data["mac"] = entry.mac
    return data


def header_of(data: Any, where: str = "line 1") -> LogHeader:
    """The header read from its parsed JSON; :class:`LogFormatError` naming ``where`` if malformed."""
    if not isinstance(data, dict):
        raise LogFormatError(f"{where}: the header must be a JSON object")
    if data.get("format") != FORMAT:
        found = show(data.get("format"))
        raise LogFormatError(f"{where}: not a trickrules log (format is {found}, expected {FORMAT!r})")
    if data.get("version") != VERSION:
        raise LogFormatError(
            f"{where}: log format version {show(data.get('version'))} is not supported (this library reads {VERSION})"
        )
    body = dict(data)
    options = body.get("options")
    if isinstance(options, dict):
        body["options"] = [[k, v] for k, v in options.items()]
    for name, key in (("deals", "deal"), ("chosen", "shuffle")):
        if name in body:
            body[name] = _stacks_in(body[name], key, f"{where}: {name}")
    try:
        header: LogHeader = converter.structure(body, LogHeader)
    except Exception as exc:
        raise LogFormatError(f"{where}: malformed header: {'; '.join(describe_error(exc))}") from None
    if header.events is not None and not 0 <= header.events <= MAX_EVENTS:
        raise LogFormatError(f"{where}: 'events' must be from 0 to {MAX_EVENTS}, found {header.events}")
    return header


def _entry_of(data: Any, line: int) -> LogEntry:
    if not isinstance(data, dict):
        raise LogFormatError(f"line {line}: an event must be a JSON object")
    seq = data.get("seq")
    actor = data.get("actor")
    mac = data.get("mac")
    if type(seq) is not int:
        raise LogFormatError(f"line {line}: 'seq' must be an integer")
    if not (type(actor) is int or actor == "dealer"):
        raise LogFormatError(f"line {line}: 'actor' must be a seat number or \"dealer\"")
    if mac is not None and type(mac) is not str:
        raise LogFormatError(f"line {line}: 'mac' must be a string")
    body = {k: v for k, v in data.items() if k not in ("seq", "actor", "mac")}
    try:
        event = event_from_data(body)
    except LogFormatError as exc:
        raise LogFormatError(f"line {line}: {exc}") from None
    return LogEntry(seq, actor, event, mac)


# -- reading lines ---------------------------------------------------------------------


Lines = Iterator[tuple[int, str]]


def log_path(path: object) -> str:
    """``path`` as a string; :class:`ArgumentError` if it is not a path (an integer would be taken for an fd)."""
    if not isinstance(path, str | os.PathLike):
        raise ArgumentError(f"path must be a file path (a str or os.PathLike), found {show(path)}.")
    text = os.fspath(path)
    if not isinstance(text, str):
        raise ArgumentError(f"path must be a text path, found {show(text)}.")
    return text


def text_lines(text: str) -> Lines:
    """The non-blank lines of a log's text with their line numbers (from 1)."""
    for n, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            yield n, line


def file_lines(path: str, max_bytes: int | None = None) -> Lines:
    """The non-blank lines of a log file, read one at a time.

    Only a regular file is read: a directory, a device or a pipe is refused
    before anything is read from it (a pipe may never end). A line longer
    than ``MAX_LINE_BYTES``, a line that is not UTF-8, or a file longer than
    ``max_bytes`` is a :class:`LogFormatError`.
    """
    fd, info = open_regular(path, lambda reason: LogFormatError(f"{path}: cannot be read ({reason})"))
    try:
        if max_bytes is not None and info.st_size > max_bytes:
            raise LogFormatError(f"{path}: the log is {info.st_size} bytes; at most {max_bytes} are read")
        fh = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with fh:
        n = 0
        total = 0
        while True:
            try:
                raw = fh.readline(MAX_LINE_BYTES + 1)
            except OSError as exc:
                raise LogFormatError(f"{path}: cannot be read ({exc.strerror})") from None
            if not raw:
                return
            n += 1
            total += len(raw)
            if max_bytes is not None and total > max_bytes:
                raise LogFormatError(f"{path}: the log is longer than {max_bytes} bytes")
            if len(raw) > MAX_LINE_BYTES:
                raise LogFormatError(f"line {n}: longer than {MAX_LINE_BYTES} bytes")
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise LogFormatError(f"line {n}: not valid UTF-8 (byte {exc.start} of the line)") from None
            if line.strip():
                yield n, line


def entries_of(lines: Lines) -> tuple[LogHeader, Iterator[LogEntry]]:
    """The header of a log, and its entries as they are read (each line parsed only when reached)."""
    for n, line in lines:
        header = header_of(_loads(line, f"line {n}"), f"line {n}")
        return header, _entries(lines)
    raise LogFormatError("the log is empty")


#: An event line as the library writes it: its sequence number first (a JSON integer of at most 2**53,
#: so at most 16 digits, without a leading zero), then the rest of the object.
_LINE = re.compile(r'\{"seq":(0|[1-9][0-9]{0,15}),(.*)\Z', re.S)
#: Entries already read strictly, by the text after their sequence number: (actor, event), both
#: immutable. A log's lines repeat across a match and across logs (the same seat playing the same
#: card), and reading one strictly (JSON with every check, then the event's converter) is most of
#: replaying it; a line whose rest was read before is the same entry with another number. Bounded:
#: past the limit, lines are read strictly without being kept.
_SEEN: dict[str, tuple[int | str, Event]] = {}
_SEEN_LIMIT = 65_536


def _entries(lines: Lines) -> Iterator[LogEntry]:
    for count, (n, line) in enumerate(lines, start=1):
        if count > MAX_EVENTS:
            raise LogFormatError(f"line {n}: a log holds at most {MAX_EVENTS} events")
        written = _LINE.match(line)
        if written is not None:
            found = _SEEN.get(written.group(2))
            seq = int(written.group(1))
            if found is not None and seq <= MAX_INT:
                yield LogEntry(seq, found[0], found[1], None)
                continue
        entry = _entry_of(_loads(line, f"line {n}"), n)
        # Kept only when the line read strictly as it was written: its rest holds no second "seq" (the
        # strict reading refuses a repeated key) and no signature.
        if written is not None and entry.mac is None and entry.seq == seq and len(_SEEN) < _SEEN_LIMIT:
            _SEEN[written.group(2)] = (entry.actor, entry.event)
        yield entry


# -- signatures ------------------------------------------------------------------------


def _key(key: object) -> bytes:
    if not isinstance(key, bytes | bytearray) or len(key) < MIN_KEY_BYTES:
        raise ArgumentError(f"key must be bytes, at least {MIN_KEY_BYTES} of them, found {show(key)}.")
    return bytes(key)


def _canonical(data: dict[str, Any]) -> bytes:
    data.pop("mac", None)
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def _same_mac(expected: bytes, written: str | None) -> bool:
    """Whether ``written`` is ``expected`` in hex, compared in constant time (any other text is simply not it)."""
    if written is None or not written.isascii():  # compare_digest refuses non-ASCII text with a TypeError
        return False
    return hmac.compare_digest(expected.hex().encode("ascii"), written.encode("ascii"))


def _header_mac(key: bytes, header: LogHeader) -> bytes:
    return hmac.new(key, _HEADER_SALT + _canonical(header_data(header)), hashlib.sha256).digest()


def _entry_mac(key: bytes, previous: bytes, entry: LogEntry) -> bytes:
    return hmac.new(key, previous + _canonical(entry_data(entry)), hashlib.sha256).digest()


def sign(key: object, header: LogHeader, entries: Iterable[LogEntry]) -> tuple[LogHeader, tuple[LogEntry, ...]]:
    """The header and entries with their MAC chain under ``key`` (bytes, at least 16)."""
    secret = _key(key)
    plain = tuple(evolve(e, mac=None) for e in entries)
    signed_header = evolve(header, events=len(plain), mac=None)
    previous = _header_mac(secret, signed_header)
    signed_header = evolve(signed_header, mac=previous.hex())
    out = []
    for entry in plain:
        previous = _entry_mac(secret, previous, entry)
        out.append(evolve(entry, mac=previous.hex()))
    return signed_header, tuple(out)


class Verifier:
    """Checks a signed log's MAC chain under ``key``, line by line, as it is read.

    :class:`~trickrules.errors.LogIntegrityError` at the header if the log is
    unsigned or its header was changed (or the key is another), at the first
    event whose MAC does not match, and at the end if events were cut off or
    added.
    """

    __slots__ = ("_count", "_expected", "_key", "_previous")

    def __init__(self, key: object, header: LogHeader) -> None:
        self._key = _key(key)
        if header.mac is None or header.events is None:
            raise LogIntegrityError("header: the log is not signed, so it cannot be checked against a key")
        if not _same_mac(_header_mac(self._key, header), header.mac):
            raise LogIntegrityError("header: the signature does not match (the header was changed, or another key)")
        self._previous = bytes.fromhex(header.mac)
        self._expected = header.events
        self._count = 0

    def check(self, entry: LogEntry) -> None:
        """Check the next entry's MAC."""
        n = self._count
        if n >= self._expected:
            raise LogIntegrityError(
                f"event {n}: the signature covers {self._expected} events; this one was added", seq=n
            )
        mac = _entry_mac(self._key, self._previous, entry)
        if not _same_mac(mac, entry.mac):
            raise LogIntegrityError(f"event {n}: the signature does not match (this event was changed or moved)", seq=n)
        self._previous = mac
        self._count = n + 1

    def finish(self) -> None:
        """Check that no signed event is missing at the end."""
        if self._count != self._expected:
            raise LogIntegrityError(
                f"event {self._count}: the signature covers {self._expected} events, but the log ends after "
                f"{self._count}",
                seq=self._count,
            )
