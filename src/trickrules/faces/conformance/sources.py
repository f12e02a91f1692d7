"""The source documents behind the manifests: every line accounted for, and its text unchanged.

A manifest accounts for every non-blank line of its source document, and
records per line a short digest of the line's normalised text
(:func:`line_digest`; never the text itself). When the document is at hand,
:func:`account` checks both: a line with no entry, an entry with no line, and
a line whose text no longer has its digest ("004:29 changed since the
manifest was written"), so that an edit to a rule document fails the suite
until someone re-reads the line. Without the document, the manifest's own
list of non-blank lines stands in and the digests cannot be checked; the
accounting says so (``checked`` is false). :func:`recorded` writes the
digests into a manifest's text, for the one who has re-read the lines.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from pathlib import Path

from attrs import frozen

from trickrules.errors import SpecError
from trickrules.faces.conformance.model import Manifest
from trickrules.faces.guard import read_input

__all__ = ["Accounting", "ChangedLine", "account", "line_digest", "recorded", "short_source", "source_lines"]


def line_digest(text: str) -> str:
    """12 hex digits of SHA-256 over the line's text, NFC-normalised, its runs of white space made one space."""
    normal = unicodedata.normalize("NFC", " ".join(text.split()))
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()[:12]


def short_source(manifest: Manifest) -> str:
    """How a problem names the document: its number (``004``), or its whole file name."""
    return manifest.document.source.split("_")[0]


def source_lines(manifest: Manifest, seeds: Path) -> list[str] | None:
    """The lines of the manifest's source document in ``seeds`` (``None`` where it is not there)."""
    path = seeds / manifest.document.source
    if not path.is_file():  # a named pipe or a device is none: never opened
        return None
    return read_input(path, error=SpecError).decode("utf-8").split("\n")


@frozen
class ChangedLine:
    """An accounted line whose text no longer has the digest its manifest records.

    ``expected`` is the manifest's digest (empty where none is recorded yet),
    ``found`` the digest of the line's text now.
    """

    document: str
    source: str
    line: int
    expected: str
    found: str

    def problem(self, name: str) -> str:
        """The problem as the report says it, naming the line ``name:line`` (``004:29``)."""
        if not self.expected:
            return f"{name}:{self.line} has no digest of its text in the manifest: record it once the line is read"
        return f"{name}:{self.line} changed since the manifest was written: re-read it and update its clauses"

    def to_json(self) -> dict[str, str | int | None]:
        """The line as ``conformance --json`` names it (``expected`` null where no digest is recorded)."""
        return {
            "document": self.document,
            "source": self.source,
            "line": self.line,
            "expected": self.expected or None,
            "found": self.found,
        }


@frozen
class Accounting:
    """How a manifest accounts for its source: counts, the problems found, and whether the text was checked."""

    lines: int
    normative: int
    informative: int
    problems: tuple[str, ...]
    #: Whether the document was at hand, so that its lines and their digests were checked against it.
    checked: bool
    #: The accounted lines whose text no longer has the manifest's digest (each is also among ``problems``).
    changed: tuple[ChangedLine, ...] = ()


def account(manifest: Manifest, seeds: Path, known_clauses: set[str]) -> Accounting:
    """Check the manifest against its source document in ``seeds`` (or its own line list without it)."""
    problems: list[str] = []
    text = source_lines(manifest, seeds)
    changed: list[ChangedLine] = []
    entries = {line.n: line for line in manifest.line}
    if len(entries) != len(manifest.line):
        problems.append("a line number is accounted for twice")
    recorded_lines = list(manifest.document.nonblank)
    if text is None:
        nonblank = recorded_lines or sorted(entries)
    else:
        nonblank = [n for n, line in enumerate(text, start=1) if line.strip()]
        if recorded_lines and recorded_lines != nonblank:
            problems.append("the source's non-blank lines differ from the manifest's [document] nonblank list")
        changed = _changed(manifest, text)
        problems += [c.problem(short_source(manifest)) for c in changed]
    for n in nonblank:
        entry = entries.get(n)
        if entry is None:
            problems.append(f"line {n} is not accounted for")
        elif entry.kind == "normative" and not entry.clauses:
            problems.append(f"line {n} is normative but names no clause")
        elif entry.kind == "informative" and not entry.why:
            problems.append(f"line {n} is informative but says not why")
    for n in sorted(set(entries) - set(nonblank)):
        problems.append(f"line {n} is blank or beyond the end of the source, but has an entry")
    for entry in manifest.line:
        for clause in entry.clauses:
            if clause not in known_clauses:
                problems.append(f"line {entry.n} names the unknown clause {clause!r}")
    normative = sum(1 for n in nonblank if n in entries and entries[n].kind == "normative")
    informative = sum(1 for n in nonblank if n in entries and entries[n].kind == "informative")
    return Accounting(len(nonblank), normative, informative, tuple(problems), text is not None, tuple(changed))


def _changed(manifest: Manifest, text: list[str]) -> list[ChangedLine]:
    """Each accounted line whose text no longer has the manifest's digest (or has none recorded)."""
    out = []
    for entry in manifest.line:
        if not 1 <= entry.n <= len(text) or not text[entry.n - 1].strip():
            continue  # reported as an entry without a line
        found = line_digest(text[entry.n - 1])
        if found != entry.digest:
            out.append(ChangedLine(manifest.document.id, manifest.document.source, entry.n, entry.digest, found))
    return out


_ENTRY = re.compile(r"^(\[\[line\]\]\nn = (\d+)\n)(digest = \"[0-9a-f]*\"\n)?", re.M)


def recorded(manifest_text: str, text: list[str]) -> str:
    """The manifest's text with every ``[[line]]`` entry's ``digest`` set from the document's ``text``.

    The digest goes on the line after ``n = N``, replacing one already there;
    nothing else in the manifest changes.
    """

    def put(match: re.Match[str]) -> str:
        n = int(match.group(2))
        if not 1 <= n <= len(text):
            return match.group(0)
        return f'{match.group(1)}digest = "{line_digest(text[n - 1])}"\n'

    return _ENTRY.sub(put, manifest_text)
