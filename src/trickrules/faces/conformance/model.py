"""The conformance formats: manifests (one per source document) and cases.

Both are TOML files, structured with the library's one converter into frozen
classes; ``docs/conformance-format.md`` documents them for people who write
their own cases.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from attrs import evolve, field, frozen
from attrs.validators import in_

from trickrules.errors import SpecError
from trickrules.faces.guard import read_input
from trickrules.spec.converter import describe_error, structure
from trickrules.spec.frozenmap import FrozenMap
from trickrules.spec.loader import parse_raw

__all__ = ["Case", "Clause", "Document", "Expect", "Finding", "Line", "Manifest", "load_cases", "load_manifest"]

TESTABLE = ("rules", "play", "bidding", "scoring", "match", "meta")


@frozen
class Document:
    """Which source document a manifest covers, and the game its cases run against."""

    id: str
    source: str
    game: str
    language: str = ""
    title: str = ""
    translation_of: str = ""
    #: The source's non-blank line numbers: lets a checkout without the source check coverage.
    nonblank: tuple[int, ...] = ()


@frozen
class Line:
    """How one non-blank source line is accounted for."""

    n: int
    kind: str = field(validator=in_(("normative", "informative")))
    clauses: tuple[str, ...] = ()
    why: str = ""
    findings: tuple[str, ...] = ()
    #: 12 hex digits of the line's normalised text (``sources.line_digest``): an edit to the line shows.
    digest: str = ""


@frozen
class Clause:
    """A testable rule, in the manifest's own words, with the lines it comes from."""

    id: str
    lines: tuple[int, ...]
    says: str
    testable: str = field(default="play", validator=in_(TESTABLE))
    note: str = ""


@frozen
class Finding:
    """A place where the text is unclear, contradictory, silent, or (a translation) different."""

    id: str
    kind: str
    lines: tuple[int, ...]
    summary: str
    reading: str = ""
    alternative: str = ""
    option: str = ""
    no_option_because: str = ""
    others: tuple[str, ...] = ()


@frozen
class Manifest:
    """One source document's accounting: every non-blank line, its clauses and findings."""

    document: Document
    line: tuple[Line, ...]
    clause: tuple[Clause, ...] = ()
    finding: tuple[Finding, ...] = ()
    path: str = ""

    def clause_by_id(self) -> dict[str, Clause]:
        """The clauses by id."""
        return {c.id: c for c in self.clause}


@frozen
class Reject:
    """An action that must be refused, and words its error message must contain."""

    action: str
    reason: str = ""


@frozen
class Expect:
    """What must hold after a case's actions (every key is optional)."""

    trump: str = ""
    trump_order: tuple[str, ...] | None = None
    plain_order: FrozenMap[str, tuple[str, ...]] | None = None
    deck_size: int | None = None
    total_points: int | None = None
    card_points: FrozenMap[str, int] | None = None
    phase: str = ""
    to_move: int | None = None
    legal: tuple[str, ...] | None = None
    legal_includes: tuple[str, ...] = ()
    legal_excludes: tuple[str, ...] = ()
    rejects: tuple[Reject, ...] = ()
    events: tuple[FrozenMap[str, Any], ...] = ()
    log_includes: tuple[FrozenMap[str, Any], ...] = ()
    log_excludes: tuple[FrozenMap[str, Any], ...] = ()
    contract: str | None = None
    declarer: int | None = None
    dealer: int | None = None
    state_trump: str | None = None
    tricks_won: tuple[int, ...] | None = None
    scoreboard: tuple[int, ...] | None = None
    pot: int | None = None
    terminal: bool | None = None
    winners: tuple[int, ...] | None = None
    hand: FrozenMap[str, tuple[str, ...]] | None = None
    view_partner: FrozenMap[str, int] | None = None
    view_hides_partner: tuple[int, ...] = ()
    #: The game must fail to load (a SpecError whose message contains these words); no play.
    load_error: str = ""


@frozen
class Case:
    """One executable check of one or more clauses.

    The situation is a game (default: the manifest's), options, a seed,
    a dealer, optionally stacked hands, and actions applied in order; the
    expectations are checked after the last action.
    """

    id: str
    clauses: tuple[str, ...]
    expect: Expect = Expect()
    game: str = ""
    options: FrozenMap[str, str] = field(factory=FrozenMap)
    seed: int = 0
    dealer: int = 0
    hands: tuple[tuple[str, ...], ...] | None = None
    turned: str = ""
    scores: tuple[int, ...] | None = None
    pot: int = 0
    actions: tuple[str, ...] = ()
    note: str = ""
    path: str = ""


def _load(path: Path) -> dict[str, Any]:
    """One TOML file of the suite, as plain data; a named pipe, a device or a folder is refused unread."""
    data = read_input(path, error=SpecError)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SpecError(f"{path}: not valid UTF-8 at byte {exc.start}.") from None
    return parse_raw(text, str(path))


def load_manifest(path: Path) -> Manifest:
    """Read one manifest; :class:`SpecError` with the file and key path if malformed."""
    raw = _load(path)
    try:
        manifest = structure(raw, Manifest)
    except Exception as exc:
        raise SpecError(f"{path}: {'; '.join(describe_error(exc)[:8])}") from None
    return Manifest(manifest.document, manifest.line, manifest.clause, manifest.finding, str(path))


def load_cases(path: Path) -> list[Case]:
    """Read one case file (``[[case]]`` tables); ``clause = "..."`` is short for ``clauses = [...]``."""
    raw = _load(path)
    extra = set(raw) - {"case"}
    if extra:
        raise SpecError(
            f"{path}: unknown key {', '.join(map(repr, sorted(extra)))} (a case file holds [[case]] tables)."
        )
    out = []
    for n, item in enumerate(raw.get("case", [])):
        if isinstance(item, dict) and "clause" in item:
            item = dict(item)
            item["clauses"] = [item.pop("clause")]
        try:
            case = structure(item, Case)
        except Exception as exc:
            raise SpecError(f"{path}: case[{n}]: {'; '.join(describe_error(exc)[:8])}") from None
        if not case.clauses:
            raise SpecError(f'{path}: case[{n}] ({case.id!r}): name the clause it checks (clause = "...").')
        out.append(evolve(case, path=str(path)))
    return out
